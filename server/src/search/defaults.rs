//! The search preferences (`crate::search_preferences`, migration 0019)
//! one search applies: the request's over the caller's,
//! key by key, minus the keys the search clears. Only the caller's own
//! preferences are ever read (never another team member's).
//!
//! - the zone fills the search's area when neither the form nor the text
//!   gave one (an explicit area always wins);
//! - « favoris d'abord » and the pool's specialities reorder the picks
//!   *within* each tier: among picks the ranking judged of equal quality
//!   (the same tier), team favourites and venues with a speciality tag come
//!   first; no venue ever changes tier, none is added or removed.
use super::criteria::Criteria;
use crate::db::search_preferences::{self as db, Owner};
use app::search_preferences::{
    AppliedDefault, SearchPreferences, Zone, FAVORITES_FIRST, FROM_REQUEST, FROM_USER,
    SPECIALITIES, ZONE,
};
use app::venue_search::{SearchForm, SearchResults, VenuePick};
use sqlx::PgPool;

/// The defaults in force for one search, each with its source, and those
/// the search cleared (`sans=`), kept so the page can offer them back.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Defaults {
    pub zone: Option<(Zone, &'static str)>,
    pub favorites_first: Option<(bool, &'static str)>,
    pub tags: Option<(Vec<String>, &'static str)>,
    /// What the skipped keys would have applied (« rétablir »); `None`
    /// when nothing was skipped (and always on this side of it).
    pub cleared: Option<Box<Defaults>>,
}

/// « Zone : Paris 11e ».
fn zone_default(zone: &Zone, source: &str) -> AppliedDefault {
    AppliedDefault {
        key: ZONE.into(),
        label: format!("Zone : {}", zone.label),
        source: source.into(),
    }
}

fn favorites_default(source: &str) -> AppliedDefault {
    AppliedDefault {
        key: FAVORITES_FIRST.into(),
        label: "Favoris de l'équipe d'abord".into(),
        source: source.into(),
    }
}

fn specialities_default(tags: &[String], source: &str) -> AppliedDefault {
    AppliedDefault {
        key: SPECIALITIES.into(),
        label: format!(
            "Spécialités du pool : {}",
            tags.iter()
                .map(|t| app::fr::tag(t))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        source: source.into(),
    }
}

/// Whether the search already has an area of its own: from the form, or
/// said in its text. An explicit area always wins over the zone default.
fn names_an_area(form: &SearchForm, parsed: &Criteria) -> bool {
    !form.postal_codes.is_empty()
        || form.near_lat.is_some()
        || form.near_lng.is_some()
        || form.radius_km.is_some()
        || !parsed.postal_codes.is_empty()
        || !parsed.unknown_postal_codes.is_empty()
        || !parsed.places_elsewhere.is_empty()
        || parsed.near.is_some()
        || parsed.broad_area
        || !parsed.member_codes.is_empty()
}

/// The request's preference when it has one, else the user's.
fn pick<T>(request: Option<T>, user: Option<T>) -> Option<(T, &'static str)> {
    match (request, user) {
        (Some(v), _) => Some((v, FROM_REQUEST)),
        (None, Some(v)) => Some((v, FROM_USER)),
        (None, None) => None,
    }
}

impl Defaults {
    /// Lays the request's preferences over the user's for a search in
    /// `pool`, without the keys in `skip`.
    pub fn resolve(
        user: &SearchPreferences,
        request: &SearchPreferences,
        pool: &str,
        skip: &[String],
    ) -> Self {
        let tags = |p: &SearchPreferences| p.tags_for(pool).map(<[String]>::to_vec);
        let all = Defaults {
            zone: pick(request.zone.clone(), user.zone.clone()),
            favorites_first: pick(request.favorites_first, user.favorites_first),
            tags: pick(tags(request), tags(user)),
            cleared: None,
        };
        // Each key goes to one side: in force, or cleared for this search.
        let skipped = |key: &str| skip.iter().any(|s| s.trim() == key);
        let side = |cleared: bool| Defaults {
            zone: all.zone.clone().filter(|_| skipped(ZONE) == cleared),
            favorites_first: all
                .favorites_first
                .filter(|_| skipped(FAVORITES_FIRST) == cleared),
            tags: all
                .tags
                .clone()
                .filter(|_| skipped(SPECIALITIES) == cleared),
            cleared: None,
        };
        let cleared = side(true);
        Defaults {
            cleared: (cleared != Defaults::default()).then(|| Box::new(cleared)),
            ..side(false)
        }
    }

    /// Loads the caller's and the request's preferences (a request that
    /// does not exist is an error, not a silent "no preference").
    pub async fn load(
        db: &PgPool,
        user_id: Option<i64>,
        form: &SearchForm,
    ) -> Result<Self, LoadError> {
        let user = match user_id {
            Some(id) => db::of(db, Owner::User(id)).await?,
            None => SearchPreferences::default(),
        };
        let request = match form.request_id {
            Some(id) => {
                if db::request_pool(db, id).await?.is_none() {
                    return Err(LoadError::UnknownRequest);
                }
                db::of(db, Owner::Request(id)).await?
            }
            None => SearchPreferences::default(),
        };
        Ok(Self::resolve(
            &user,
            &request,
            form.pool.trim(),
            &form.skip_defaults,
        ))
    }

    /// Fills the form's area with the zone preference when neither the
    /// form nor its text (`parsed`) named one; says so when it did.
    pub fn apply_zone(&self, form: &mut SearchForm, parsed: &Criteria) -> Option<AppliedDefault> {
        let (zone, source) = self.zone.as_ref()?;
        if names_an_area(form, parsed) {
            return None;
        }
        match zone.centre {
            Some(c) => {
                (form.near_lat, form.near_lng, form.radius_km) =
                    (Some(c.lat), Some(c.lng), Some(c.radius_km));
                form.near_label = Some(zone.label.clone());
            }
            None => form.postal_codes = zone.postal_codes.clone(),
        }
        Some(zone_default(zone, source))
    }

    /// The defaults this search cleared that would otherwise have applied
    /// (a zone only where the search names no area of its own; « favoris
    /// d'abord » only when it is « oui »): each gets a « rétablir » link.
    /// `form` and `parsed` are the search as the caller gave it.
    pub fn removed(&self, form: &SearchForm, parsed: &Criteria) -> Vec<AppliedDefault> {
        let Some(c) = &self.cleared else {
            return Vec::new();
        };
        let zone = c
            .zone
            .as_ref()
            .filter(|_| !names_an_area(form, parsed))
            .map(|(z, source)| zone_default(z, source));
        let favorites = c
            .favorites_first
            .filter(|(on, _)| *on)
            .map(|(_, source)| favorites_default(source));
        let tags = c
            .tags
            .as_ref()
            .map(|(t, source)| specialities_default(t, source));
        zone.into_iter().chain(favorites).chain(tags).collect()
    }

    /// Reorders each tier (favourites, then specialities, first; the
    /// ranking's order otherwise) and says which defaults applied.
    pub async fn reorder(
        &self,
        db: &PgPool,
        results: &mut SearchResults,
    ) -> sqlx::Result<Vec<AppliedDefault>> {
        let favourites = self.favorites_first.filter(|(on, _)| *on);
        let mut applied = Vec::new();
        if favourites.is_none() && self.tags.is_none() {
            return Ok(applied);
        }
        let ids: Vec<i64> = results
            .recommended
            .iter()
            .chain(&results.compatible)
            .map(|p| p.member_id)
            .collect();
        let tags = self
            .tags
            .as_ref()
            .map(|(t, _)| t.clone())
            .unwrap_or_default();
        let marks = if ids.is_empty() {
            Vec::new()
        } else {
            db::pick_marks(db, &ids, &tags).await?
        };
        let key = |p: &VenuePick| {
            let (_, fav, tag) = marks
                .iter()
                .find(|(id, _, _)| *id == p.member_id)
                .copied()
                .unwrap_or((p.member_id, false, false));
            // false sorts first: a favourite (when asked) or a speciality comes before.
            (
                !(fav && favourites.is_some()),
                !(tag && self.tags.is_some()),
            )
        };
        // Stable: equal keys keep the ranking's order.
        results.recommended.sort_by_key(key);
        results.compatible.sort_by_key(key);
        if let Some((_, source)) = favourites {
            applied.push(favorites_default(source));
        }
        if let Some((tags, source)) = &self.tags {
            applied.push(specialities_default(tags, source));
        }
        Ok(applied)
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("the search names a request that does not exist")]
    UnknownRequest,
    #[error(transparent)]
    Database(#[from] sqlx::Error),
}

#[cfg(test)]
mod tests {
    use super::*;
    use app::search_preferences::{Centre, PoolSpecialities};

    fn prefs(label: &str, fav: Option<bool>, pool: &str, tag: &str) -> SearchPreferences {
        SearchPreferences {
            zone: Some(Zone {
                label: label.into(),
                postal_codes: vec!["75011".into()],
                centre: None,
            }),
            favorites_first: fav,
            specialities: vec![PoolSpecialities {
                pool: pool.into(),
                tags: vec![tag.into()],
            }],
        }
    }

    #[test]
    fn the_request_wins_key_by_key_and_nothing_is_no_default() {
        let user = prefs("Paris 11e", Some(true), "hotels", "rooftop");
        let request = SearchPreferences {
            zone: Some(Zone {
                label: "Bastille".into(),
                postal_codes: vec![],
                centre: Some(Centre {
                    lat: 48.85,
                    lng: 2.37,
                    radius_km: 1.0,
                }),
            }),
            ..SearchPreferences::default()
        };
        let d = Defaults::resolve(&user, &request, "hotels", &[]);
        assert_eq!(
            d.zone.as_ref().map(|(z, s)| (z.label.as_str(), *s)),
            Some(("Bastille", FROM_REQUEST))
        );
        assert_eq!(d.favorites_first, Some((true, FROM_USER)));
        assert_eq!(d.tags, Some((vec!["rooftop".to_string()], FROM_USER)));
        // Another pool: the user's hotel specialities do not apply.
        assert_eq!(Defaults::resolve(&user, &request, "lofts", &[]).tags, None);
        // A request's « non » beats the user's « oui ».
        let no = SearchPreferences {
            favorites_first: Some(false),
            ..SearchPreferences::default()
        };
        assert_eq!(
            Defaults::resolve(&user, &no, "hotels", &[]).favorites_first,
            Some((false, FROM_REQUEST))
        );
        let none = SearchPreferences::default();
        assert_eq!(
            Defaults::resolve(&none, &none, "hotels", &[]),
            Defaults::default()
        );
    }

    #[test]
    fn a_cleared_key_is_not_applied() {
        let user = prefs("Paris 11e", Some(true), "hotels", "rooftop");
        let d = Defaults::resolve(
            &user,
            &SearchPreferences::default(),
            "hotels",
            &["zone".into()],
        );
        assert!(d.zone.is_none());
        assert!(d.favorites_first.is_some());
    }

    #[test]
    fn the_zone_fills_only_an_empty_area() {
        let user = prefs("Paris 11e", None, "hotels", "rooftop");
        let d = Defaults::resolve(&user, &SearchPreferences::default(), "hotels", &[]);
        let mut form = SearchForm::default();
        let applied = d.apply_zone(&mut form, &Criteria::default()).unwrap();
        assert_eq!(form.postal_codes, vec!["75011".to_string()]);
        assert_eq!(applied.label, "Zone : Paris 11e");
        assert_eq!(applied.source, FROM_USER);

        let mut form = SearchForm {
            postal_codes: vec!["75008".into()],
            ..SearchForm::default()
        };
        assert!(d.apply_zone(&mut form, &Criteria::default()).is_none());
        assert_eq!(form.postal_codes, vec!["75008".to_string()]);

        let mut form = SearchForm::default();
        let said = Criteria {
            postal_codes: vec!["75017".into()],
            ..Criteria::default()
        };
        assert!(d.apply_zone(&mut form, &said).is_none());
        assert!(form.postal_codes.is_empty());
    }

    #[test]
    fn a_cleared_default_is_offered_back_where_it_would_apply() {
        let user = prefs("Paris 11e", Some(true), "hotels", "rooftop");
        let none = SearchPreferences::default();
        let all: Vec<String> = vec![ZONE.into(), FAVORITES_FIRST.into(), SPECIALITIES.into()];
        let d = Defaults::resolve(&user, &none, "hotels", &all);
        assert_eq!(
            (d.zone.is_none(), d.favorites_first, d.tags.is_none()),
            (true, None, true)
        );
        let keys = |v: Vec<AppliedDefault>| v.into_iter().map(|a| a.key).collect::<Vec<_>>();
        let removed = d.removed(&SearchForm::default(), &Criteria::default());
        assert_eq!(keys(removed.clone()), all);
        assert_eq!(removed[0].label, "Zone : Paris 11e");
        assert_eq!(removed[0].source, FROM_USER);
        assert_eq!(removed[2].label, "Spécialités du pool : rooftop");

        // An explicit area: the zone would not apply, nothing to restore.
        let form = SearchForm {
            postal_codes: vec!["75008".into()],
            ..SearchForm::default()
        };
        assert_eq!(
            keys(d.removed(&form, &Criteria::default())),
            vec![FAVORITES_FIRST.to_string(), SPECIALITIES.to_string()]
        );
        // Only the cleared key is offered back; the others stay in force.
        let d = Defaults::resolve(&user, &none, "hotels", &[" favoris ".into()]);
        assert!(d.zone.is_some() && d.tags.is_some() && d.favorites_first.is_none());
        assert_eq!(
            keys(d.removed(&SearchForm::default(), &Criteria::default())),
            vec![FAVORITES_FIRST.to_string()]
        );
        // Nothing cleared, or no preference behind a cleared key, or a
        // « non » for favourites: nothing to restore.
        let kept = Defaults::resolve(&user, &none, "hotels", &[]);
        assert!(kept
            .removed(&SearchForm::default(), &Criteria::default())
            .is_empty());
        let empty = Defaults::resolve(&none, &none, "hotels", &all);
        assert!(empty
            .removed(&SearchForm::default(), &Criteria::default())
            .is_empty());
        let no = SearchPreferences {
            favorites_first: Some(false),
            ..SearchPreferences::default()
        };
        let d = Defaults::resolve(&no, &none, "hotels", &all);
        assert!(d
            .removed(&SearchForm::default(), &Criteria::default())
            .is_empty());
    }
}
