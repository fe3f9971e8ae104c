//! The three stages: SQL hard filters → exact vector ranking among the
//! candidates → ranking into recommended / compatible, with the
//! candidate-count rules of seed 001 and the fallbacks that keep answering
//! when the embedding service is down.
use super::criteria::{self, code_areas::CodeArea};
use super::finalist::{Finalist, Similarity};
use super::lessons::Lessons;
use super::order::{self, Base};
use super::request::SearchRequest;
use super::scope;
use super::scoring;
use super::stage3;
use crate::db::venue_search::{self as q, Candidate, HardFilter, Nearby, QueryVector};
use crate::embeddings::{EmbeddingProvider, InputType};
// Paris centre (Notre-Dame, point zéro): the reference of searches with no area.
use crate::geo::PARIS_CENTRE;
use crate::llm::LlmProvider;
use app::venue_search::{
    MatchedRoom, RejectedPick, SearchResults, SearchStats, SimilarRequest, VenuePick,
};
use sqlx::PgPool;
use std::time::Instant;

/// Seed 001: under 50 candidates, skip vector ranking; up to 500, rank to
/// the top 50; over 500, keep the 500 nearest rather than rank blindly.
pub const SKIP_VECTOR_BELOW: usize = 50;
pub const FINALISTS: usize = 50;
pub const MAX_CANDIDATES: usize = 500;

/// Said when the query could not be read for its meaning (no engineering
/// word on screen: issue 29).
pub const NO_VECTORS_NOTICE: &str = "Recherche par le sens indisponible pour le moment : lieux classés par mots-clés et par distance.";
/// Compatible venues and none recommended: the floors are never lowered to
/// fill the first tier, and a lone « Compatibles » says why it is alone.
pub const NONE_RECOMMENDED_NOTICE: &str = "Aucun lieu fortement recommandé pour cette demande : les lieux compatibles respectent les critères sans se détacher.";

pub enum Failure {
    UnknownPool(String),
    Database(sqlx::Error),
}

impl From<sqlx::Error> for Failure {
    fn from(e: sqlx::Error) -> Self {
        Failure::Database(e)
    }
}

/// What one search did, for the caller and the metrics row.
pub struct Outcome {
    /// `None`: every pool was searched.
    pub pool_id: Option<i64>,
    pub results: SearchResults,
    /// The order the ranking left in each tier; the caller writes the
    /// sentence once its defaults have moved favourites up.
    pub order: Base,
    pub embedding_model: Option<String>,
    pub result_ids: Vec<i64>,
    /// Finalists shown to the language model; `None` when it was not asked.
    pub llm_candidates: Option<usize>,
    /// Where the distances on the cards are measured from, when the text
    /// named no place (« le centre de Paris 8e »): a bare « à 190 m » would
    /// leave a person asking « from what? ».
    pub distance_from: Option<String>,
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

/// `llm`: the stage-3 ranker (the offline provider ranks
/// deterministically); wrap it in a [`crate::llm::Recording`] to keep its calls.
pub async fn run(
    db: &PgPool,
    embedder: Option<&dyn EmbeddingProvider>,
    llm: &dyn LlmProvider,
    req: &SearchRequest,
) -> Result<Outcome, Failure> {
    let started = Instant::now();
    let scope = scope::resolve(db, req.pool_slug.as_deref())
        .await?
        .ok_or_else(|| Failure::UnknownPool(req.pool_slug.clone().unwrap_or_default()))?;
    let pool_id = scope.pool_id();
    let mut results = SearchResults {
        understood: req.understood.clone(),
        semantic_query: req.semantic_query.clone(),
        pools: scope.shown,
        applied: req.applied(),
        ..SearchResults::default()
    };

    if !req.member_codes.is_empty() {
        return direct(db, pool_id, req, results, started).await;
    }
    if !req.unknown_postal_codes.is_empty() {
        let codes = req.unknown_postal_codes.join(", ");
        let only_place =
            req.postal_codes.is_empty() && req.departments.is_empty() && req.near.is_none();
        results.notices.push(if only_place {
            format!("Code postal inconnu : {codes}. Aucun lieu n'est cherché ailleurs : corrigez le code ou donnez une autre zone.")
        } else {
            format!("Code postal inconnu ignoré : {codes}.")
        });
        // Venues elsewhere would answer a question nobody asked.
        if only_place {
            return Ok(empty(pool_id, results, started));
        }
    }

    if !req.places_elsewhere.is_empty() {
        let places = app::fr::join_and(&req.places_elsewhere);
        let only_place = req.postal_codes.is_empty()
            && req.departments.is_empty()
            && req.near.is_none()
            && req.unknown_postal_codes.is_empty();
        results.notices.push(if only_place {
            format!("Je ne sais pas situer {places} : la recherche ne connaît que Paris et l'Île-de-France. Aucun lieu n'est proposé ailleurs : donnez une zone d'Île-de-France.")
        } else {
            format!("Hors de Paris et de l'Île-de-France, ignoré : {places}.")
        });
        // Paris venues would answer a question nobody asked.
        if only_place {
            return Ok(empty(pool_id, results, started));
        }
    }

    // The query vector first: stage 2 runs inside stage 1's statement.
    let query_text = req.semantic_query.trim();
    let mut embed_ms = None;
    let mut query_vector = None;
    if let (false, Some(e)) = (query_text.is_empty(), embedder) {
        let t = Instant::now();
        let v = e.embed(&[query_text.to_string()], InputType::Query).await;
        embed_ms = Some(ms(t));
        match v {
            Ok(mut v) if !v.is_empty() => {
                query_vector = Some((pgvector::Vector::from(v.swap_remove(0)), e))
            }
            Ok(_) => {}
            Err(err) => {
                tracing::warn!(error = %err, "query embedding failed: ranking without vectors")
            }
        }
    }

    // Stages 1 (hard filters) and 2 (similarity among those candidates only).
    let configurations = req.configuration_keys();
    let (reference, distance_from) = reference_point(db, pool_id, req).await?;
    let filter = HardFilter {
        pool_id,
        configurations: &configurations,
        min_capacity: req.min_capacity(),
        postal_codes: &req.postal_codes,
        departments: &req.departments,
        excluded_postal_codes: &req.excluded_postal_codes,
        excluded_departments: &req.excluded_departments,
        excluded_kinds: &req.excluded_kinds,
        wanted_tags: &req.wanted_tags,
        radius: req.radius_metres(),
        reference,
        limit: MAX_CANDIDATES as i64 + 1,
    };
    let t = Instant::now();
    let vector = query_vector.as_ref().map(|(v, e)| QueryVector {
        vector: v,
        model: e.model(),
        dims: i32::try_from(e.dimensions()).unwrap_or(i32::MAX),
    });
    let mut nearby = q::hard_filter(db, &filter, vector).await?;
    let mut sql_ms = ms(t);
    let sql_candidates = nearby.len().min(MAX_CANDIDATES);
    let no_area = req.postal_codes.is_empty() && req.departments.is_empty() && req.near.is_none();
    if req.broad_area || (no_area && nearby.len() > MAX_CANDIDATES) {
        results.narrow_area = true;
        results.notices.push(
            "Zone très large : précisez un arrondissement, une commune ou un rayon. En attendant, les lieux les plus proches de Paris-centre sont classés."
                .into(),
        );
    }
    if nearby.len() > MAX_CANDIDATES {
        nearby.truncate(MAX_CANDIDATES);
        results.notices.push(
            "Plus de 500 lieux correspondent : seuls les 500 plus proches sont classés.".into(),
        );
    }

    let mut similarity = Similarity::None;
    let mut sims: Vec<(i64, f64)> = Vec::new();
    let mut embedding_model: Option<String> = None;
    if !query_text.is_empty() && !nearby.is_empty() {
        match &query_vector {
            Some((_, e)) => {
                sims = nearest(&nearby);
                similarity = Similarity::Vector;
                embedding_model = Some(e.model().to_string());
            }
            None => {
                results.notices.push(NO_VECTORS_NOTICE.into());
                let ids: Vec<i64> = nearby.iter().map(|c| c.id).collect();
                sims = q::text_rank(db, query_text, &ids).await?;
                similarity = Similarity::FullText;
            }
        }
    }
    // The finalists' matched rooms: fetched for ≤ 50 members, not for every candidate.
    let t = Instant::now();
    // The matched room is the smallest that fits the hard capacity.
    let participants = req
        .participants
        .map(|p| i32::try_from(p).unwrap_or(i32::MAX));
    let finalists = with_rooms(
        db,
        &filter,
        &req.preferred_configuration_keys(),
        participants,
        finalists(&nearby, &sims, similarity),
    )
    .await?;
    sql_ms += ms(t);
    let vector_candidates = (similarity == Similarity::Vector).then_some(finalists.len());

    // Stage 3: the LLM ranks; the deterministic scorer answers when none is
    // configured or when it fails (search::stage3).
    let t = Instant::now();
    let finalist_ids: Vec<i64> = finalists.iter().map(|(c, _)| c.id).collect();
    // The training is the search's one extra query, run next to the signals'.
    let (signals, lessons) = tokio::try_join!(
        q::signals(db, &finalist_ids),
        Lessons::load(db, req, &finalist_ids)
    )?;
    let scored: Vec<Finalist<'_>> = finalists
        .iter()
        .map(|(c, s)| Finalist {
            candidate: c,
            similarity: *s,
            signals: signals
                .iter()
                .find(|x| x.member_id == c.id)
                .cloned()
                .map(with_named_features)
                .unwrap_or_default(),
        })
        .collect();
    let model = embedding_model.clone().unwrap_or_default();
    let stage3 = stage3::rank(db, llm, req, &scored, similarity, &model, &lessons).await?;
    let tiers = stage3.tiers;
    let rank_ms = ms(t);
    if !lessons.is_empty() {
        let n = lessons.lessons.len();
        results.understood.push(format!(
            "{n} leçon{} de l'équipe appliquée{} (page Entraînement)",
            if n > 1 { "s" } else { "" },
            if n > 1 { "s" } else { "" }
        ));
    }
    results.notices.extend(stage3.notice);

    let pick = |s: &scoring::Scored| {
        let f = scored.iter().find(|f| f.candidate.id == s.member_id)?;
        Some(to_pick(
            f.candidate,
            f.similarity.filter(|_| similarity == Similarity::Vector),
            s.score,
            &s.reason,
        ))
    };
    results.recommended = tiers.recommended.iter().filter_map(pick).collect();
    results.compatible = tiers.compatible.iter().filter_map(pick).collect();
    // « près de … » without a radius is read as « classés par distance »
    // (criteria's note): the ranking chose the tiers, the distance orders them.
    let order = match req.near.as_ref().filter(|n| n.radius_km.is_none()) {
        Some(near) => {
            order::by_distance(&mut results.recommended);
            order::by_distance(&mut results.compatible);
            Base::Distance(near.label.clone())
        }
        None => Base::of_ranking(stage3.source),
    };
    // Every finalist left out of the tiers, each with its reason: the
    // model's or the training's when they gave one, else its weakest fact.
    let picked: Vec<i64> = results
        .recommended
        .iter()
        .chain(&results.compatible)
        .map(|p| p.member_id)
        .collect();
    let (wants, unheld) = (&stage3.wants, &stage3.unheld_features);
    if !unheld.is_empty() && !scored.is_empty() {
        results.notices.push(format!(
            "Aucun des lieux classés n'indique {} sur sa fiche : classement fait sans ce critère.",
            super::criteria::tag_words::quoted(unheld).join(" ni ")
        ));
    }
    let explicit = |id: i64| {
        tiers
            .rejected_reasons
            .iter()
            .find(|s| s.member_id == id)
            .map(|s| s.reason.clone())
    };
    results.rejected_reasons = scored
        .iter()
        .filter(|f| !picked.contains(&f.candidate.id))
        .map(|f| {
            let c = f.candidate;
            RejectedPick {
                member_id: c.id,
                code: c.code.clone(),
                name: c.name.clone(),
                reason: explicit(c.id).unwrap_or_else(|| super::reasons::left_out(f, wants)),
            }
        })
        .collect();
    results.rejected = results.rejected_reasons.len();
    if results.recommended.is_empty() && results.compatible.is_empty() {
        results.notices.push(if nearby.is_empty() {
            "Aucun lieu ne respecte tous les critères : élargissez la zone, la jauge ou les configurations.".into()
        } else {
            "Aucun lieu assez convaincant : mieux vaut préciser la demande que proposer des lieux faibles.".into()
        });
    } else if results.recommended.is_empty() {
        results.notices.push(NONE_RECOMMENDED_NOTICE.into());
    }
    if let Some(p) = req.participants {
        results.similar_request = q::similar_request(db, pool_id, p as i32, &configurations)
            .await?
            .map(|r| SimilarRequest {
                request_id: None,
                reference: r.reference,
                summary: r.description,
                catalogue_id: r.catalogue_id,
            });
    }
    let result_ids = results
        .recommended
        .iter()
        .chain(&results.compatible)
        .map(|p| p.member_id)
        .collect();
    results.stats = SearchStats {
        sql_candidates,
        vector_candidates,
        sql_ms,
        embed_ms,
        rank_ms,
        total_ms: ms(started),
        similarity_source: match similarity {
            Similarity::Vector => "vector",
            Similarity::FullText => "fts",
            Similarity::None => "none",
        }
        .into(),
        ranking_source: stage3.source.into(),
    };
    Ok(Outcome {
        pool_id,
        results,
        order,
        embedding_model,
        result_ids,
        llm_candidates: stage3.llm_candidates,
        distance_from,
    })
}

/// A venue's tags with the features its own or its rooms' names state
/// (« Pont-terrasse »): what its sheet shows, for the ranking and its
/// reasons (« sa fiche indique « terrasse » »).
fn with_named_features(mut s: q::Signals) -> q::Signals {
    for tag in super::criteria::tag_words::named(&s.names) {
        if !s.tags.iter().any(|t| t == tag) {
            s.tags.push(tag.to_string());
        }
    }
    s
}

/// Seed 001's stage 2: below 50 candidates every one with a vector goes on;
/// otherwise the 50 most similar, those carrying more of the features asked
/// for first (a small embedding model ranks « rooftop » by mood more than
/// by roof: the rooftops must reach stage 3 to be chosen there).
/// Similarity = 1 − cosine distance.
pub fn nearest(nearby: &[Nearby]) -> Vec<(i64, f64)> {
    let mut ranked: Vec<(i64, i32, f64)> = nearby
        .iter()
        .filter_map(|c| c.vector_distance.map(|d| (c.id, c.wanted_tags_held, d)))
        .collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.2.total_cmp(&b.2)).then(a.0.cmp(&b.0)));
    let mut ranked: Vec<(i64, f64)> = ranked.into_iter().map(|(id, _, d)| (id, d)).collect();
    if nearby.len() >= SKIP_VECTOR_BELOW {
        ranked.truncate(FINALISTS);
    }
    ranked.into_iter().map(|(id, d)| (id, 1.0 - d)).collect()
}

/// Candidates that go to stage 3, best similarity first; without
/// similarities, nearest first (the stage-1 order).
fn finalists(
    nearby: &[Nearby],
    sims: &[(i64, f64)],
    source: Similarity,
) -> Vec<(Nearby, Option<f64>)> {
    let sim_of = |id: i64| sims.iter().find(|(m, _)| *m == id).map(|(_, s)| *s);
    match source {
        Similarity::Vector => {
            // Ranked members first (their SQL order), then the ones without
            // a vector yet, nearest first, up to 50: a venue just added, or a
            // fresh install whose venues are still being embedded, is still
            // found rather than the search answering nothing.
            let mut out: Vec<_> = sims
                .iter()
                .filter_map(|(id, s)| nearby.iter().find(|c| c.id == *id).map(|c| (*c, Some(*s))))
                .collect();
            let room = FINALISTS.saturating_sub(out.len());
            out.extend(
                nearby
                    .iter()
                    .filter(|c| sim_of(c.id).is_none())
                    .take(room)
                    .map(|c| (*c, None)),
            );
            out
        }
        // Nearest first, those carrying more of the features asked for
        // before the others (a stable sort keeps the distance order).
        _ => {
            let mut by_features: Vec<&Nearby> = nearby.iter().collect();
            by_features.sort_by_key(|c| std::cmp::Reverse(c.wanted_tags_held));
            by_features
                .into_iter()
                .take(FINALISTS)
                .map(|c| (*c, sim_of(c.id)))
                .collect()
        }
    }
}

/// The finalists with their details and matched room, in the same order. A
/// member whose rooms changed since stage 1 so that none fits any more is
/// dropped rather than shown with a room that does not hold the group.
async fn with_rooms(
    db: &PgPool,
    filter: &HardFilter<'_>,
    preferred: &[String],
    participants: Option<i32>,
    finalists: Vec<(Nearby, Option<f64>)>,
) -> Result<Vec<(Candidate, Option<f64>)>, Failure> {
    let ids: Vec<i64> = finalists.iter().map(|(n, _)| n.id).collect();
    let mut rooms =
        q::matched_rooms(db, &ids, filter.configurations, preferred, participants).await?;
    Ok(finalists
        .into_iter()
        .filter_map(|(n, similarity)| {
            let i = rooms.iter().position(|c| c.id == n.id)?;
            let mut c = rooms.swap_remove(i);
            c.distance_m = n.distance_m;
            Some((c, similarity))
        })
        .collect())
}

fn to_pick(c: &Candidate, similarity: Option<f64>, score: f64, reason: &str) -> VenuePick {
    VenuePick {
        member_id: c.id,
        code: c.code.clone(),
        name: c.name.clone(),
        city: c.city.clone(),
        postal_code: c.postal_code.clone(),
        matched_room: Some(MatchedRoom {
            id: c.room_id,
            name: c.room_name.clone(),
            configuration: c.configuration.clone(),
            capacity: c.capacity,
        }),
        distance_km: c.distance_m.map(super::reasons::shown_km),
        similarity: similarity.map(|s| (s * 1000.0).round() / 1000.0),
        score: (score * 1000.0).round() / 1000.0,
        reason: reason.to_string(),
    }
}

/// Where distances are measured from: the centre asked for, else the
/// centre of the requested postal codes (the gazetteer's, else the average
/// position of the pool's venues there), else Paris centre; with how a
/// person names that point, unless the text named it.
async fn reference_point(
    db: &PgPool,
    pool_id: Option<i64>,
    req: &SearchRequest,
) -> Result<((f64, f64), Option<String>), Failure> {
    const AREA: &str = "le centre de la zone demandée";
    if let Some(n) = &req.near {
        return Ok(((n.lat, n.lng), None));
    }
    if req.postal_codes.is_empty() {
        // A département alone: its centre.
        return Ok(
            match req
                .departments
                .first()
                .and_then(|d| crate::geo::department(d))
            {
                Some(d) => ((d.lat, d.lng), Some(AREA.to_string())),
                None => (
                    PARIS_CENTRE,
                    Some("le centre de Paris (Notre-Dame)".to_string()),
                ),
            },
        );
    }
    let known: Vec<(f64, f64)> = req
        .postal_codes
        .iter()
        .filter_map(|code| crate::geo::postal_code_center(code))
        .collect();
    // One arrondissement (its two codes for the 16th) or one commune.
    let named = match criteria::code_areas::of(&req.postal_codes).as_slice() {
        [CodeArea::Arrondissement(a, _)] => format!("le centre de {}", a.name),
        [CodeArea::Commune(_, c)] => format!("le centre de {}", c.name),
        _ => AREA.to_string(),
    };
    if !known.is_empty() {
        let n = known.len() as f64;
        let (lat, lng) = known
            .iter()
            .fold((0.0, 0.0), |(a, b), (x, y)| (a + x, b + y));
        return Ok(((lat / n, lng / n), Some(named)));
    }
    let centroid: Option<(Option<f64>, Option<f64>)> = sqlx::query_as(
        "SELECT avg(lat), avg(lng) FROM members
          WHERE ($1::bigint IS NULL OR pool_id = $1) AND status = 'active'
            AND postal_code = ANY($2) AND lat IS NOT NULL",
    )
    .bind(pool_id)
    .bind(&req.postal_codes)
    .fetch_optional(db)
    .await?;
    Ok(match centroid {
        Some((Some(lat), Some(lng))) => ((lat, lng), Some(AREA.to_string())),
        _ => (
            PARIS_CENTRE,
            Some("le centre de Paris (Notre-Dame)".to_string()),
        ),
    })
}

/// No search ran: the notices say why.
fn empty(pool_id: Option<i64>, mut results: SearchResults, started: Instant) -> Outcome {
    results.stats = SearchStats {
        total_ms: ms(started),
        similarity_source: "none".into(),
        ranking_source: "none".into(),
        ..SearchStats::default()
    };
    Outcome {
        pool_id,
        results,
        order: Base::Score,
        embedding_model: None,
        result_ids: Vec::new(),
        llm_candidates: None,
        distance_from: None,
    }
}

/// "#102 et #157": served as asked, no ranking.
async fn direct(
    db: &PgPool,
    pool_id: Option<i64>,
    req: &SearchRequest,
    mut results: SearchResults,
    started: Instant,
) -> Result<Outcome, Failure> {
    let t = Instant::now();
    let found = q::members_by_code(db, &req.member_codes).await?;
    for code in &req.member_codes {
        if !found.iter().any(|c| &c.code == code) {
            results
                .notices
                .push(format!("Aucun lieu n'a le code {code}."));
        }
    }
    results.recommended = found
        .iter()
        .map(|c| {
            to_pick(
                c,
                None,
                1.0,
                &format!("Demandé explicitement ({}).", c.code),
            )
        })
        .collect();
    let result_ids = found.iter().map(|c| c.id).collect();
    results.stats = SearchStats {
        sql_candidates: found.len(),
        sql_ms: ms(t),
        total_ms: ms(started),
        similarity_source: "none".into(),
        ranking_source: "direct".into(),
        ..SearchStats::default()
    };
    Ok(Outcome {
        pool_id,
        results,
        order: Base::Asked,
        embedding_model: None,
        result_ids,
        llm_candidates: None,
        distance_from: None,
    })
}

#[cfg(test)]
mod tests {
    use crate::db::venue_search::Candidate;

    #[test]
    fn the_card_and_its_reason_give_the_same_distance() {
        // Metres near the roundings' edges: rounding the card's value to
        // 100 m and the reason's to 10 m gave « à 900 m » above « à 910 m ».
        for m in [
            905.0, 905.3, 994.9, 1149.6, 1150.4, 1152.0, 1250.0, 9949.0, 9960.0,
        ] {
            let c = Candidate {
                id: 1,
                code: "#1".into(),
                name: "Lieu".into(),
                city: "Paris".into(),
                postal_code: "75007".into(),
                room_id: 1,
                room_name: "Salon".into(),
                configuration: "theatre".into(),
                capacity: 67,
                distance_m: Some(m),
            };
            let pick = super::to_pick(&c, None, 0.5, "");
            let card = app::fr::distance_km(pick.distance_km.expect("a distance"));
            assert_eq!(card, super::super::reasons::at(m), "{m} m");
        }
    }
}
