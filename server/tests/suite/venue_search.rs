//! The venue search on a real database: hard criteria always hold (a
//! property test over random criteria), one row per member with its matched
//! room, the candidate rules, bad input, and the embedding-down fallback.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use app::venue_search::{SearchForm, SearchResults, VenuePick};
use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use server::search::SearchService;
use sqlx::PgPool;
use support::app::{seed_demo, TestApp, PASSWORD, TEAM};

const CONFIGS: [&str; 7] = [
    "reunion", "u", "theatre", "cabaret", "ecole", "banquet", "cocktail",
];

async fn service(db: &PgPool, embedding_up: bool) -> SearchService {
    let addr = if embedding_up {
        support::fake_embedding_server().await
    } else {
        support::closed_port().await
    };
    let state = support::app_state(db.clone(), addr);
    drop(state);
    let url = format!("http://{addr}/v1");
    let config = server::config::Config::from_source(&server::config::Env::from_pairs([
        ("MAXY_EMBEDDING_URL", url.as_str()),
        ("MAXY_EMBEDDING_TIMEOUT_MS", "500"),
    ]))
    .unwrap();
    let embedders = server::embeddings::Embedders::from_settings(&config.embeddings).unwrap();
    SearchService {
        read_db: None,
        db: db.clone(),
        embedder: Some(embedders.venues.clone()),
        llm: std::sync::Arc::new(server::llm::OfflineLlm),
    }
}

/// A search from its free text alone, in every pool.
async fn by_text(search: &SearchService, text: &str) -> SearchResults {
    search
        .search(
            None,
            &SearchForm {
                text: text.into(),
                ..SearchForm::default()
            },
        )
        .await
        .unwrap()
}

fn picks(r: &SearchResults) -> Vec<&VenuePick> {
    r.recommended.iter().chain(&r.compatible).collect()
}

/// (pool, participants, configurations, arrondissements, centre + radius, with text)
type RandomCriteria = (
    usize,
    u32,
    Vec<usize>,
    Vec<usize>,
    Option<(f64, f64, f64)>,
    bool,
);

/// Random criteria: pool, participants, 1–3 configurations, and an area
/// (postal codes, a radius, both, or none). Every area given must hold.
fn criteria() -> impl Strategy<Value = RandomCriteria> {
    (
        0usize..5,
        1u32..400,
        proptest::collection::vec(0usize..7, 1..4),
        proptest::collection::vec(1usize..21, 0..3),
        proptest::option::of((48.80f64..48.92, 2.25f64..2.42, 0.5f64..8.0)),
        proptest::bool::ANY,
    )
}

#[sqlx::test(migrations = "../migrations")]
async fn results_never_violate_a_hard_criterion(db: PgPool) {
    seed_demo(&db).await;
    let search = service(&db, false).await;
    let pools: Vec<String> = sqlx::query_scalar("SELECT slug FROM pools ORDER BY id")
        .fetch_all(&db)
        .await
        .unwrap();
    let mut runner = TestRunner::deterministic();
    let mut checked_picks = 0;
    let mut checked_with_both_areas = 0;
    for _ in 0..200 {
        let (pool, participants, configs, arrondissements, near, with_text) =
            criteria().new_tree(&mut runner).unwrap().current();
        let configurations: Vec<String> = configs.iter().map(|i| CONFIGS[*i].to_string()).collect();
        let postal_codes: Vec<String> = arrondissements
            .iter()
            .map(|a| format!("750{a:02}"))
            .collect();
        // With postal codes, the centre moves into the first arrondissement
        // so that "both must hold" is exercised with results, not only empty.
        let near = near.map(|(lat, lng, km)| match arrondissements.first() {
            Some(&a) => {
                let centre = server::geo::arrondissement(a as u8).unwrap();
                (
                    centre.lat + (lat - 48.86) / 10.0,
                    centre.lng + (lng - 2.33) / 10.0,
                    km,
                )
            }
            None => (lat, lng, km),
        });
        let form = SearchForm {
            pool: pools[pool % pools.len()].clone(),
            text: if with_text {
                "salle lumineuse".into()
            } else {
                String::new()
            },
            participants: Some(i64::from(participants)),
            configurations: configurations.clone(),
            postal_codes: postal_codes.clone(),
            near_lat: near.map(|n| n.0),
            near_lng: near.map(|n| n.1),
            radius_km: near.map(|n| n.2),
            event_type: None,
            request_id: None,
            skip_defaults: Vec::new(),
            near_label: None,
        };
        let results = search
            .search(None, &form)
            .await
            .unwrap_or_else(|e| panic!("{form:?}: {e:?}"));
        if !postal_codes.is_empty() || near.is_some() {
            assert!(!results.narrow_area, "an area was given: {form:?}");
        }
        let found = picks(&results);
        let mut ids: Vec<i64> = found.iter().map(|p| p.member_id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), found.len(), "a member appears twice: {form:?}");
        for pick in found {
            checked_picks += 1;
            if !postal_codes.is_empty() && near.is_some() {
                checked_with_both_areas += 1;
            }
            let room = pick.matched_room.as_ref().expect("a matched room");
            let (lat, lng, radius) = near.unwrap_or((0.0, 0.0, 0.0));
            let ok: bool = sqlx::query_scalar(
                "SELECT m.pool_id = (SELECT id FROM pools WHERE slug = $2)
                        AND m.status = 'active'
                        AND (cardinality($3::text[]) = 0 OR m.postal_code = ANY($3))
                        AND ($6 = 0 OR earth_distance(ll_to_earth(m.lat, m.lng), ll_to_earth($4, $5)) < $6 * 1000)
                        AND EXISTS (SELECT 1 FROM room_capacities rc
                                     WHERE rc.room_id = $7 AND rc.member_id = m.id
                                       AND rc.configuration = ANY($8) AND rc.configuration = $9
                                       AND rc.max_capacity >= $10 AND rc.max_capacity = $11)
                   FROM members m WHERE m.id = $1",
            )
            .bind(pick.member_id)
            .bind(&form.pool)
            .bind(&postal_codes)
            .bind(lat)
            .bind(lng)
            .bind(radius)
            .bind(room.id)
            .bind(&configurations)
            .bind(&room.configuration)
            .bind(participants as i32)
            .bind(room.capacity)
            .fetch_one(&db)
            .await
            .unwrap();
            assert!(ok, "{} violates {form:?}", pick.code);
        }
    }
    assert!(
        checked_picks > 100,
        "the property was exercised ({checked_picks} picks)"
    );
    assert!(
        checked_with_both_areas > 10,
        "postal codes and a radius together were exercised ({checked_with_both_areas} picks)"
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_member_with_several_fitting_rooms_appears_once_with_its_best_fitting_room(db: PgPool) {
    seed_demo(&db).await;
    let member: i64 = sqlx::query_scalar(
        "INSERT INTO members (code, name, pool_id, status, postal_code, city, lat, lng, description)
         SELECT '#99999', 'Maison des Trois Salles', id, 'active', '75011', 'Paris', 48.859, 2.379, 'Trois salles'
           FROM pools ORDER BY id LIMIT 1 RETURNING id",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    let mut rooms = Vec::new();
    for (name, cap) in [("Grande", 400), ("Moyenne", 150), ("Petite", 120)] {
        let room: i64 =
            sqlx::query_scalar("INSERT INTO rooms (member_id, name) VALUES ($1, $2) RETURNING id")
                .bind(member)
                .bind(name)
                .fetch_one(&db)
                .await
                .unwrap();
        sqlx::query("INSERT INTO room_capacities (room_id, member_id, configuration, max_capacity) VALUES ($1, $2, 'cocktail', $3)")
            .bind(room)
            .bind(member)
            .bind(cap)
            .execute(&db)
            .await
            .unwrap();
        rooms.push(room);
    }
    let pool: String = sqlx::query_scalar("SELECT slug FROM pools ORDER BY id LIMIT 1")
        .fetch_one(&db)
        .await
        .unwrap();
    let search = service(&db, false).await;
    let form = SearchForm {
        pool,
        text: "#99999".into(),
        ..SearchForm::default()
    };
    let direct = search.search(None, &form).await.unwrap();
    assert_eq!(direct.stats.ranking_source, "direct");
    assert_eq!(direct.recommended.len(), 1);

    let candidates = server::db::venue_search::hard_filter(
        &db,
        &server::db::venue_search::HardFilter {
            pool_id: sqlx::query_scalar("SELECT pool_id FROM members WHERE id = $1")
                .bind(member)
                .fetch_one(&db)
                .await
                .unwrap(),
            configurations: &["cocktail".to_string(), "banquet".to_string()],
            min_capacity: 130,
            postal_codes: &["75011".to_string()],
            departments: &[],
            excluded_postal_codes: &[],
            excluded_departments: &[],
            excluded_kinds: &[],
            wanted_tags: &[],
            radius: None,
            reference: (48.859, 2.379),
            limit: 501,
        },
        None,
    )
    .await
    .unwrap();
    let mine: Vec<_> = candidates.iter().filter(|c| c.id == member).collect();
    assert_eq!(mine.len(), 1, "DISTINCT: one row for the member");
    let configurations = ["cocktail".to_string(), "banquet".to_string()];
    let matched =
        server::db::venue_search::matched_rooms(&db, &[member], &configurations, &[], Some(130))
            .await
            .unwrap();
    assert_eq!(matched.len(), 1);
    assert_eq!(
        matched[0].room_id, rooms[1],
        "the smallest room that fits (150 ≥ 130) is the matched one"
    );
    assert_eq!(matched[0].capacity, 150);
}

#[sqlx::test(migrations = "../migrations")]
async fn bad_input_is_refused_clearly(db: PgPool) {
    seed_demo(&db).await;
    let search = service(&db, true).await;
    let pool: String = sqlx::query_scalar("SELECT slug FROM pools ORDER BY id LIMIT 1")
        .fetch_one(&db)
        .await
        .unwrap();
    for (form, needle) in [
        (
            SearchForm {
                pool: "nope".into(),
                text: "loft".into(),
                ..SearchForm::default()
            },
            "Pool inconnu",
        ),
        (
            SearchForm {
                pool: pool.clone(),
                participants: Some(0),
                ..SearchForm::default()
            },
            "au moins 1",
        ),
        (
            SearchForm {
                pool: pool.clone(),
                participants: Some(99_999),
                ..SearchForm::default()
            },
            "au plus",
        ),
        (
            SearchForm {
                pool: pool.clone(),
                radius_km: Some(3.0),
                ..SearchForm::default()
            },
            "point de départ",
        ),
        (
            SearchForm {
                pool: pool.clone(),
                configurations: vec!["jacuzzi".into()],
                ..SearchForm::default()
            },
            "Configuration inconnue",
        ),
        (
            SearchForm {
                pool: pool.clone(),
                ..SearchForm::default()
            },
            "Que cherchez-vous",
        ),
        (
            SearchForm {
                pool: pool.clone(),
                text: "des lieux stp".into(),
                ..SearchForm::default()
            },
            "Que cherchez-vous",
        ),
        (
            SearchForm {
                pool: pool.clone(),
                text: "🎉🎉 !!".into(),
                ..SearchForm::default()
            },
            "Que cherchez-vous",
        ),
        (
            SearchForm {
                pool: pool.clone(),
                text: "cocktail pour -20 personnes".into(),
                ..SearchForm::default()
            },
            "au moins 1",
        ),
    ] {
        match search.search(None, &form).await {
            Err(app::errors::AppError::Invalid(message)) => {
                assert!(message.contains(needle), "{form:?}: {message}")
            }
            other => panic!("{form:?} was not refused: {:?}", other.map(|r| r.stats)),
        }
    }
    let runs: i64 = sqlx::query_scalar("SELECT count(*) FROM search_runs")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(runs, 0, "refused searches record nothing");

    // Through HTTP: a negative capacity never reaches the pipeline.
    let app = TestApp::start(db).await;
    let session = app.sign_in(TEAM, PASSWORD).await;
    let reply = app
        .post_form(
            "/api/venues/search",
            &[("form[pool]", &pool), ("form[participants]", "-5")],
            Some(&session),
        )
        .await;
    assert_eq!(
        reply.status,
        reqwest::StatusCode::UNPROCESSABLE_ENTITY,
        "{}",
        reply.body
    );
    assert!(reply.body.contains("au moins 1"), "{}", reply.body);
    let anonymous = app
        .post_form("/api/venues/search", &[("form[pool]", &pool)], None)
        .await;
    assert_eq!(anonymous.status, reqwest::StatusCode::UNAUTHORIZED);
}

#[sqlx::test(migrations = "../migrations")]
async fn with_the_embedding_service_down_the_search_still_answers_and_says_so(db: PgPool) {
    seed_demo(&db).await;
    let search = service(&db, false).await;
    let form = SearchForm {
        pool: sqlx::query_scalar("SELECT slug FROM pools ORDER BY id LIMIT 1")
            .fetch_one(&db)
            .await
            .unwrap(),
        text: "salle lumineuse avec terrasse".into(),
        participants: Some(20),
        ..SearchForm::default()
    };
    let r = search.search(None, &form).await.unwrap();
    assert!(
        r.notices.iter().any(|n| n.contains("indisponible")),
        "{:?}",
        r.notices
    );
    assert_ne!(r.stats.similarity_source, "vector");
    assert!(!picks(&r).is_empty(), "still answers from the SQL filters");
    let run: (String, i32) =
        sqlx::query_as("SELECT similarity_source, sql_candidates FROM search_runs")
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(
        run.0, r.stats.similarity_source,
        "the metrics row says which source answered"
    );
    assert!(run.1 > 0);
}

#[sqlx::test(migrations = "../migrations")]
async fn over_500_candidates_keeps_the_nearest_and_asks_to_narrow(db: PgPool) {
    let options = server::demo::SeedOptions {
        seed: 3,
        members: 3000,
        progress: false,
    };
    server::demo::seed(&db, &options).await.unwrap();
    let pool: String = sqlx::query_scalar(
        "SELECT p.slug FROM pools p JOIN members m ON m.pool_id = p.id WHERE m.status = 'active' GROUP BY p.slug ORDER BY count(*) DESC LIMIT 1",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    let search = service(&db, false).await;
    let form = SearchForm {
        pool,
        text: "n'importe où en Île-de-France".into(),
        participants: Some(10),
        ..SearchForm::default()
    };
    let r = search.search(None, &form).await.unwrap();
    assert_eq!(r.stats.sql_candidates, 500, "capped at the 500 nearest");
    assert!(
        r.narrow_area,
        "the caller is told to ask for a narrower area"
    );
    assert!(
        r.notices.iter().any(|n| n.contains("Zone très large")),
        "{:?}",
        r.notices
    );
    assert!(picks(&r).len() <= 8);
}

/// "dans le 15e, à 1 km max de la tour Montparnasse": the part of the 15th
/// within 1 km, not the 15th plus everything within 1 km.
#[sqlx::test(migrations = "../migrations")]
async fn a_postal_code_and_a_radius_together_both_hold(db: PgPool) {
    seed_demo(&db).await;
    let pool: (i64, String) = sqlx::query_as("SELECT id, slug FROM pools ORDER BY id LIMIT 1")
        .fetch_one(&db)
        .await
        .unwrap();
    // Tour Montparnasse is at 48.8421, 2.3219, on the 14th/15th border.
    let mut ids = Vec::new();
    for (code, postal_code, lat, lng) in [
        ("#90001", "75015", 48.8420, 2.3160), // 15th, ~0.4 km: both hold
        ("#90002", "75015", 48.8465, 2.2870), // 15th, ~2.6 km: outside the radius
        ("#90003", "75014", 48.8400, 2.3240), // 14th, ~0.3 km: outside the codes
    ] {
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO members (code, name, pool_id, status, postal_code, city, lat, lng, description)
             VALUES ($1, $1, $2, 'active', $3, 'Paris', $4, $5, 'Salle') RETURNING id",
        )
        .bind(code)
        .bind(pool.0)
        .bind(postal_code)
        .bind(lat)
        .bind(lng)
        .fetch_one(&db)
        .await
        .unwrap();
        let room: i64 = sqlx::query_scalar(
            "INSERT INTO rooms (member_id, name) VALUES ($1, 'Salle') RETURNING id",
        )
        .bind(id)
        .fetch_one(&db)
        .await
        .unwrap();
        sqlx::query("INSERT INTO room_capacities (room_id, member_id, configuration, max_capacity) VALUES ($1, $2, 'cocktail', 5000)")
            .bind(room)
            .bind(id)
            .execute(&db)
            .await
            .unwrap();
        ids.push(id);
    }
    let req = server::search::request::build(&SearchForm {
        pool: pool.1.clone(),
        text: "dans le 15e, à 1 km max de la tour Montparnasse, 4000 personnes".into(),
        ..SearchForm::default()
    })
    .unwrap();
    assert_eq!(req.postal_codes, vec!["75015".to_string()]);
    assert!(req.radius_metres().is_some(), "{req:?}");
    let configurations = req.configuration_keys();
    let found = server::db::venue_search::hard_filter(
        &db,
        &server::db::venue_search::HardFilter {
            pool_id: Some(pool.0),
            configurations: &configurations,
            min_capacity: req.min_capacity(),
            postal_codes: &req.postal_codes,
            departments: &[],
            excluded_postal_codes: &[],
            excluded_departments: &[],
            excluded_kinds: &[],
            wanted_tags: &[],
            radius: req.radius_metres(),
            reference: (48.8421, 2.3219),
            limit: 501,
        },
        None,
    )
    .await
    .unwrap();
    let found: Vec<i64> = found.iter().map(|n| n.id).collect();
    assert_eq!(found, vec![ids[0]], "only the venue inside both areas");
}

/// "75999" is no place: the search says so and shows no venue from
/// elsewhere; with a valid area beside it, that area is searched.
#[sqlx::test(migrations = "../migrations")]
async fn an_unknown_postal_code_gets_a_notice_not_unrelated_venues(db: PgPool) {
    seed_demo(&db).await;
    let search = service(&db, false).await;
    let pool: String = sqlx::query_scalar("SELECT slug FROM pools ORDER BY id LIMIT 1")
        .fetch_one(&db)
        .await
        .unwrap();
    let alone = search
        .search(
            None,
            &SearchForm {
                pool: pool.clone(),
                text: "salle lumineuse".into(),
                postal_codes: vec!["75999".into()],
                ..SearchForm::default()
            },
        )
        .await
        .unwrap();
    assert!(picks(&alone).is_empty(), "no venue from elsewhere");
    assert!(
        alone
            .notices
            .iter()
            .any(|n| n.contains("Code postal inconnu : 75999")),
        "{:?}",
        alone.notices
    );
    // Recorded all the same, for the metrics: a search that could not run.
    let recorded: Vec<(String, i32)> = sqlx::query_as(
        "SELECT ranking_source, result_count FROM search_runs ORDER BY id DESC LIMIT 1",
    )
    .fetch_all(&db)
    .await
    .unwrap();
    assert_eq!(recorded, [("none".to_string(), 0)]);
    let beside = search
        .search(
            None,
            &SearchForm {
                pool,
                text: "salle lumineuse".into(),
                postal_codes: vec!["75999".into(), "75011".into(), "75008".into()],
                ..SearchForm::default()
            },
        )
        .await
        .unwrap();
    assert!(
        beside.notices.iter().any(|n| n.contains("75999")),
        "{:?}",
        beside.notices
    );
    for p in picks(&beside) {
        assert!(
            ["75011", "75008"].contains(&p.postal_code.as_str()),
            "{}",
            p.postal_code
        );
    }
}

/// « On évite le 11e, pas de rooftop, surtout pas à Montreuil »: nothing
/// ruled out comes back, « Compris » says it, and the same search without
/// the exclusions does find such venues (so the test can fail).
#[sqlx::test(migrations = "../migrations")]
async fn what_a_request_rules_out_never_comes_back(db: PgPool) {
    seed_demo(&db).await;
    let search = service(&db, false).await;
    let run = |text: &'static str| by_text(&search, text);
    let free = run("soirée pour 40 personnes à Paris 11e ou Paris 12e").await;
    assert!(picks(&free).iter().any(|p| p.postal_code == "75011"));
    let ruled = run("soirée pour 40 personnes à Paris 11e ou Paris 12e, on évite le 11e finalement, pas de rooftop").await;
    assert!(!picks(&ruled).is_empty());
    for p in picks(&ruled) {
        assert_ne!(p.postal_code, "75011", "{} is in the 11th", p.code);
    }
    assert!(
        ruled.understood.iter().any(|n| n == "hors Paris 11e")
            && ruled.understood.iter().any(|n| n == "sans rooftop"),
        "{:?}",
        ruled.understood
    );
    let department = run("séminaire de 30 personnes dans le 93, surtout pas à Montreuil").await;
    assert!(!picks(&department).is_empty());
    for p in picks(&department) {
        assert!(
            p.postal_code.starts_with("93"),
            "{} is not in the 93",
            p.code
        );
        assert_ne!(p.postal_code, "93100", "{} is in Montreuil", p.code);
    }
    assert!(
        department
            .understood
            .iter()
            .any(|n| n == "Seine-Saint-Denis (93)")
            && department
                .understood
                .iter()
                .any(|n| n == "hors Montreuil (93100)"),
        "{:?}",
        department.understood
    );
    // Kinds, at the SQL stage: every candidate in Paris, with and without
    // the rooftops.
    let paris: Vec<String> = server::geo::ARRONDISSEMENTS
        .iter()
        .flat_map(|a| a.postal_codes().map(str::to_string))
        .collect();
    let rooftop = ["rooftop".to_string()];
    let candidates = |kinds: &'static [String]| {
        let db = db.clone();
        let paris = paris.clone();
        async move {
            let ids: Vec<i64> = server::db::venue_search::hard_filter(
                &db,
                &server::db::venue_search::HardFilter {
                    pool_id: None,
                    configurations: &["cocktail".to_string()],
                    min_capacity: 1,
                    postal_codes: &paris,
                    departments: &[],
                    excluded_postal_codes: &[],
                    excluded_departments: &[],
                    excluded_kinds: kinds,
                    wanted_tags: &[],
                    radius: None,
                    reference: (48.8566, 2.3522),
                    limit: 5000,
                },
                None,
            )
            .await
            .unwrap()
            .into_iter()
            .map(|n| n.id)
            .collect();
            let tagged: i64 = sqlx::query_scalar(
                "SELECT count(*) FROM member_tags mt JOIN tags t ON t.id = mt.tag_id
                  WHERE t.name = 'rooftop' AND mt.member_id = ANY($1)",
            )
            .bind(&ids)
            .fetch_one(&db)
            .await
            .unwrap();
            (ids.len(), tagged)
        }
    };
    let (all, rooftops) = candidates(&[]).await;
    let rooftop: &'static [String] = Box::leak(Box::new(rooftop));
    let (left, none) = candidates(rooftop).await;
    assert!(rooftops > 0, "the demo has rooftops in Paris");
    assert_eq!(none, 0, "no rooftop once ruled out");
    assert_eq!(left as i64, all as i64 - rooftops);
}

/// The tags of each pick, by member id.
async fn tags_of(db: &PgPool, picks: &[&VenuePick]) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for p in picks {
        let tags: Vec<String> = sqlx::query_scalar(
            "SELECT lower(t.name) FROM member_tags mt JOIN tags t ON t.id = mt.tag_id
              WHERE mt.member_id = $1",
        )
        .bind(p.member_id)
        .fetch_all(db)
        .await
        .unwrap();
        out.push((p.code.clone(), tags));
    }
    out
}

#[sqlx::test(migrations = "../migrations")]
async fn a_feature_asked_for_leads_and_each_reason_says_if_the_sheet_has_it(db: PgPool) {
    seed_demo(&db).await;
    let search = service(&db, true).await;
    let run = |text: &'static str| by_text(&search, text);
    // Without the word, the nearest venues that suit win, rooftops or not.
    let plain = run("un lieu à Paris pour un cocktail de 150 personnes").await;
    let plain_tags = tags_of(&db, &plain.recommended.iter().collect::<Vec<_>>()).await;
    assert!(
        plain_tags
            .iter()
            .any(|(_, t)| !t.contains(&"rooftop".to_string())),
        "{plain_tags:?}"
    );

    let asked = run("un rooftop à Paris pour un cocktail de 150 personnes").await;
    assert!(
        asked
            .understood
            .iter()
            .any(|n| n == "atout souhaité : rooftop"),
        "{:?}",
        asked.understood
    );
    let asked_picks = picks(&asked);
    let asked_tags = tags_of(&db, &asked_picks).await;
    assert!(
        asked_tags
            .first()
            .is_some_and(|(_, t)| t.contains(&"rooftop".to_string())),
        "a venue whose sheet says rooftop comes first: {asked_tags:?}"
    );
    // Each pick says whether its sheet has one: the team checks before
    // promising a rooftop.
    for (p, (_, tags)) in asked_picks.iter().zip(&asked_tags) {
        if tags.contains(&"rooftop".to_string()) {
            assert!(
                p.reason.contains("sa fiche indique « rooftop »"),
                "{}",
                p.reason
            );
        } else {
            assert!(
                p.reason.contains("sa fiche n'indique pas « rooftop »"),
                "{}",
                p.reason
            );
        }
    }
    let with_roof = |tags: &[(String, Vec<String>)]| {
        tags.iter()
            .filter(|(_, t)| t.contains(&"rooftop".to_string()))
            .count()
    };
    assert!(with_roof(&asked_tags) > with_roof(&tags_of(&db, &picks(&plain)).await));
    // Said with a negation, a kind is ruled out, not wanted.
    let refused = run("pas de rooftop, un lieu à Paris pour un cocktail de 150 personnes").await;
    assert!(refused.understood.iter().any(|n| n == "sans rooftop"));
    assert!(!refused.understood.iter().any(|n| n.contains("souhaité")));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_meal_shows_rooms_where_it_can_be_served_and_says_when_a_venue_has_none(db: PgPool) {
    seed_demo(&db).await;
    let search = service(&db, true).await;
    let not_for_meals = |p: &&VenuePick| {
        p.matched_room
            .as_ref()
            .is_some_and(|r| r.configuration == "theatre" || r.configuration == "ecole")
    };
    // Without a meal, the room shown is the smallest that holds the group,
    // whatever its layout: theatre rows among them.
    let plain = by_text(&search, "un lieu pour 80 personnes près de l'Opéra").await;
    assert!(
        picks(&plain).iter().any(not_for_meals),
        "the demo shows theatre rooms for 80: {:?}",
        picks(&plain).iter().map(|p| &p.reason).collect::<Vec<_>>()
    );

    let dinner = by_text(&search, "un dîner de 80 personnes près de l'Opéra").await;
    assert!(
        dinner
            .understood
            .iter()
            .any(|n| n == server::search::criteria::MEAL_NOTE),
        "{:?}",
        dinner.understood
    );
    assert!(!picks(&dinner).is_empty());
    // A dinner is never shown in theatre rows when the venue has a room
    // where it can be served; a venue with none says so and is not
    // recommended.
    for p in picks(&dinner) {
        if not_for_meals(&p) {
            assert!(
                p.reason
                    .contains("sa fiche n'indique pas de salle pour un repas de 80 personnes"),
                "{}",
                p.reason
            );
        }
    }
    assert!(
        !dinner.recommended.iter().any(|p| not_for_meals(&p)),
        "{:?}",
        dinner
            .recommended
            .iter()
            .map(|p| &p.reason)
            .collect::<Vec<_>>()
    );
    assert!(
        picks(&dinner).iter().filter(|p| not_for_meals(p)).count()
            < picks(&plain).iter().filter(|p| not_for_meals(p)).count()
    );
    // A layout said wins: « en théâtre » is asked, not a meal's default.
    let said = by_text(
        &search,
        "un dîner-spectacle de 80 personnes en théâtre près de l'Opéra",
    )
    .await;
    assert!(!said
        .understood
        .iter()
        .any(|n| n == server::search::criteria::MEAL_NOTE));
}
