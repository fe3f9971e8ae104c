//! Search preferences per team member and per request
//! (`app::search_preferences::SearchPreferencesDesk`): read, validated,
//! replaced and audited here; applied by the venue search as defaults
//! (`search::defaults`), which the Lieux page, the catalogue builder's fill
//! and the assistant's `search_members` all go through.
pub mod validate;

use crate::audit::{self, Actor, Event};
use crate::db::app_error;
use crate::db::search_preferences::{self as db, Owner};
use app::errors::AppError;
use app::search_preferences::{
    PreferencesInput, RequestPreferences, SearchPreferences, SearchPreferencesDesk,
};
use sqlx::PgPool;
use validate::Scope;

pub struct SearchPreferencesService {
    pub db: PgPool,
}

/// Validates `input` for `scope`, then checks its pools and tags against
/// the catalogue: a typo is refused, not saved as a preference that never
/// matches.
pub async fn check(
    db: &PgPool,
    input: &PreferencesInput,
    scope: Scope<'_>,
) -> Result<SearchPreferences, AppError> {
    let mut prefs = validate::parse(input, scope).map_err(AppError::Invalid)?;
    // The team writes a pool by its name (« Hôtels : rooftop »); the slug
    // is stored. A slug still works (forms saved before).
    let all = crate::db::venue_search::pools(db)
        .await
        .map_err(app_error)?;
    for s in &mut prefs.specialities {
        let typed = app::geo::fold(&s.pool);
        if let Some(p) = all.iter().find(|p| {
            p.slug == s.pool
                || [&p.name, &p.slug]
                    .iter()
                    .any(|n| app::geo::fold(n) == typed)
        }) {
            s.pool = p.slug.clone();
        }
    }
    let pools: Vec<String> = prefs.specialities.iter().map(|s| s.pool.clone()).collect();
    if !pools.is_empty() {
        let known = db::known_pools(db, &pools).await.map_err(app_error)?;
        if let Some(unknown) = pools.iter().find(|p| !known.contains(p)) {
            return Err(AppError::Invalid(format!(
                "Spécialités : pool inconnu « {unknown} »."
            )));
        }
    }
    if !prefs.specialities.is_empty() {
        let catalogue = crate::db::member_search::tag_names(db)
            .await
            .map_err(app_error)?;
        for s in &mut prefs.specialities {
            s.tags = s
                .tags
                .iter()
                .map(|typed| {
                    crate::search::criteria::tag_words::catalogue_tag(&catalogue, typed)
                        .cloned()
                        .ok_or_else(|| {
                            AppError::Invalid(format!(
                            "Spécialité inconnue : « {typed} » (aucun lieu n'a cette étiquette)."
                        ))
                        })
                })
                .collect::<Result<_, _>>()?;
        }
    }
    Ok(prefs)
}

impl SearchPreferencesService {
    async fn save(
        &self,
        user_id: i64,
        owner: Owner,
        prefs: &SearchPreferences,
    ) -> Result<(), AppError> {
        let mut tx = self.db.begin().await.map_err(app_error)?;
        db::save(&mut *tx, owner, prefs, user_id)
            .await
            .map_err(app_error)?;
        let (kind, id) = match owner {
            Owner::User(id) => ("user", id),
            Owner::Request(id) => ("request", id),
        };
        let event = Event::new(Actor::User(user_id), "search_preferences.updated")
            .on(kind, id)
            .details(serde_json::json!({
                "zone": prefs.zone.as_ref().map(|z| &z.label),
                "favorites_first": prefs.favorites_first,
                "specialities": prefs.specialities.iter().map(|s| &s.pool).collect::<Vec<_>>(),
            }));
        audit::record(&mut *tx, event).await;
        tx.commit().await.map_err(app_error)
    }
}

/// `prefs` as the page shows them: each pool by its name and each tag by
/// its label (« Hôtels : accessible PMR »), never by their slugs; `check`
/// reads them back.
async fn as_shown(
    db: &PgPool,
    mut prefs: SearchPreferences,
) -> Result<SearchPreferences, AppError> {
    if prefs.specialities.is_empty() {
        return Ok(prefs);
    }
    let all = crate::db::venue_search::pools(db)
        .await
        .map_err(app_error)?;
    for s in &mut prefs.specialities {
        if let Some(p) = all.iter().find(|p| p.slug == s.pool) {
            s.pool = p.name.clone();
        }
        s.tags = s.tags.iter().map(|t| app::fr::tag(t)).collect();
    }
    Ok(prefs)
}

#[async_trait::async_trait]
impl SearchPreferencesDesk for SearchPreferencesService {
    async fn mine(&self, user_id: i64) -> Result<SearchPreferences, AppError> {
        let prefs = db::of(&self.db, Owner::User(user_id))
            .await
            .map_err(app_error)?;
        as_shown(&self.db, prefs).await
    }

    async fn save_mine(
        &self,
        user_id: i64,
        input: PreferencesInput,
    ) -> Result<SearchPreferences, AppError> {
        let prefs = check(&self.db, &input, Scope::User).await?;
        self.save(user_id, Owner::User(user_id), &prefs).await?;
        as_shown(&self.db, prefs).await
    }

    async fn of_request(
        &self,
        user_id: i64,
        request_id: i64,
    ) -> Result<RequestPreferences, AppError> {
        let (reference, pool) = db::request_pool(&self.db, request_id)
            .await
            .map_err(app_error)?
            .ok_or(AppError::NotFound)?;
        let preferences = db::of(&self.db, Owner::Request(request_id))
            .await
            .map_err(app_error)?;
        let preferences = as_shown(&self.db, preferences).await?;
        let mine = self.mine(user_id).await?;
        let search_url = search_url(&self.db, request_id).await?;
        Ok(RequestPreferences {
            request_id,
            reference,
            pool,
            preferences,
            mine,
            search_url,
        })
    }

    async fn save_for_request(
        &self,
        user_id: i64,
        request_id: i64,
        input: PreferencesInput,
    ) -> Result<SearchPreferences, AppError> {
        let (_, pool) = db::request_pool(&self.db, request_id)
            .await
            .map_err(app_error)?
            .ok_or(AppError::NotFound)?;
        let prefs = check(&self.db, &input, Scope::Request { pool: &pool }).await?;
        self.save(user_id, Owner::Request(request_id), &prefs)
            .await?;
        as_shown(&self.db, prefs).await
    }
}

/// The Lieux page on the request's own criteria (the text the builder's
/// fill searches: event type, description, search hints), with the
/// request's preferences (`demande=`).
async fn search_url(db: &PgPool, request_id: i64) -> Result<String, AppError> {
    let r = crate::db::catalogues::request(db, request_id)
        .await
        .map_err(app_error)?
        .ok_or(AppError::NotFound)?;
    let event_type = r.event_type.as_deref().map(app::fr::event_type);
    let event_type = event_type.as_deref();
    // Without postal codes, the zone is in words (« 3,5 km autour de Paris
    // 18e »): the search reads it from the text like any other zone.
    let area = r.area.as_deref().filter(|_| r.postal_codes.is_empty());
    let text: Vec<&str> = [
        event_type,
        Some(r.description.as_str()),
        area,
        r.search_hints.as_deref(),
    ]
    .into_iter()
    .flatten()
    .map(str::trim)
    .filter(|t| !t.is_empty())
    .collect();
    // A URL, not the whole brief: the Lieux page shows it in its form.
    let text: String = text.join(". ").chars().take(300).collect();
    let mut query = vec![
        ("pool", r.pool_slug),
        ("q", text),
        ("demande", request_id.to_string()),
    ];
    if let Some(p) = r.participants {
        query.push(("participants", p.to_string()));
    }
    for c in r.configurations {
        query.push(("config", c));
    }
    if !r.postal_codes.is_empty() {
        query.push(("cp", r.postal_codes.join(",")));
    }
    let encoded: Vec<String> = query
        .into_iter()
        .map(|(k, v)| format!("{k}={}", encode(&v)))
        .collect();
    Ok(format!("/lieux?{}", encoded.join("&")))
}

/// Percent-encodes a query value (unreserved characters kept).
fn encode(v: &str) -> String {
    v.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
