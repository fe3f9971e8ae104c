//! Search preferences on a real database (issue 11): a user's zone narrows
//! the search and an explicit filter (form or text) overrides it; a
//! request's preferences beat the user's; « favoris d'abord » and the pool's
//! specialities reorder picks within their tier only; another team
//! member's preferences never apply; bad input is refused with a clear
//! message and nothing saved; the assistant's tools read and apply them.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use app::errors::AppError;
use app::search_preferences::{
    PreferencesInput, SearchPreferencesDesk, FAVORITES_FIRST, FROM_REQUEST, FROM_USER,
    SPECIALITIES, ZONE,
};
use app::venue_search::{SearchForm, SearchResults};
use serde_json::{json, Value};
use server::search::SearchService;
use server::search_preferences::SearchPreferencesService;
use server::tools::{ToolContext, Toolbox};
use sqlx::PgPool;
use std::sync::Arc;

const POOL: &str = "prefs-test";

struct Plant {
    lea: i64,
    max: i64,
    request: i64,
}

/// Eight alike venues with a cocktail room: #9001–#9004 in the 11th,
/// #9005–#9008 in the 8th; #9007 carries the tag « rooftop ».
async fn plant(db: &PgPool) -> Plant {
    let pool: i64 = sqlx::query_scalar(
        "INSERT INTO pools (slug, name) VALUES ($1, 'Test préférences') RETURNING id",
    )
    .bind(POOL)
    .fetch_one(db)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO members (code, name, pool_id, status, postal_code, city, lat, lng, description)
         SELECT '#' || (9000 + i), 'Salle ' || i, $1, 'active',
                CASE WHEN i <= 4 THEN '75011' ELSE '75008' END, 'Paris',
                CASE WHEN i <= 4 THEN 48.858 ELSE 48.873 END + i * 0.0003,
                CASE WHEN i <= 4 THEN 2.379 ELSE 2.311 END,
                'Soirée festive : grande salle lumineuse.'
           FROM generate_series(1, 8) AS i",
    )
    .bind(pool)
    .execute(db)
    .await
    .unwrap();
    sqlx::query("INSERT INTO rooms (member_id, name) SELECT id, 'Grande salle' FROM members WHERE pool_id = $1")
        .bind(pool)
        .execute(db)
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO room_capacities (room_id, member_id, configuration, max_capacity)
         SELECT r.id, r.member_id, 'cocktail', 100
           FROM rooms r JOIN members m ON m.id = r.member_id WHERE m.pool_id = $1",
    )
    .bind(pool)
    .execute(db)
    .await
    .unwrap();
    let tag: i64 = sqlx::query_scalar("INSERT INTO tags (name) VALUES ('rooftop') RETURNING id")
        .fetch_one(db)
        .await
        .unwrap();
    sqlx::query("INSERT INTO member_tags (member_id, tag_id) SELECT id, $1 FROM members WHERE code = '#9007'")
        .bind(tag)
        .execute(db)
        .await
        .unwrap();
    let user = |email: &'static str, name: &'static str| async move {
        sqlx::query_scalar::<_, i64>(
            "INSERT INTO users (email, display_name, role) VALUES ($1, $2, 'team') RETURNING id",
        )
        .bind(email)
        .bind(name)
        .fetch_one(db)
        .await
        .unwrap()
    };
    let lea = user("lea@example.org", "Léa").await;
    let max = user("max@example.org", "Max").await;
    let request: i64 = sqlx::query_scalar(
        "INSERT INTO requests (reference, pool_id, description) VALUES ('D-2026-00042', $1, 'Cocktail festif') RETURNING id",
    )
    .bind(pool)
    .fetch_one(db)
    .await
    .unwrap();
    Plant { lea, max, request }
}

fn desk(db: &PgPool) -> SearchPreferencesService {
    SearchPreferencesService { db: db.clone() }
}

fn search_service(db: &PgPool) -> Arc<SearchService> {
    Arc::new(SearchService {
        read_db: None,
        db: db.clone(),
        embedder: None,
        llm: Arc::new(server::llm::OfflineLlm),
    })
}

fn form(f: impl FnOnce(&mut SearchForm)) -> SearchForm {
    let mut form = SearchForm {
        pool: POOL.into(),
        text: "soirée festive".into(),
        participants: Some(80),
        configurations: vec!["cocktail".into()],
        ..SearchForm::default()
    };
    f(&mut form);
    form
}

async fn search(db: &PgPool, user: i64, form: &SearchForm) -> SearchResults {
    search_service(db).search(Some(user), form).await.unwrap()
}

fn zone(label: &str, codes: &str) -> PreferencesInput {
    PreferencesInput {
        zone_label: label.into(),
        postal_codes: codes.into(),
        ..PreferencesInput::default()
    }
}

fn postal_codes(r: &SearchResults) -> Vec<String> {
    let mut codes: Vec<String> = r
        .recommended
        .iter()
        .chain(&r.compatible)
        .map(|p| p.postal_code.clone())
        .collect();
    codes.sort();
    codes.dedup();
    codes
}

fn tier_codes(r: &SearchResults) -> (Vec<String>, Vec<String>) {
    let codes = |v: &[app::venue_search::VenuePick]| v.iter().map(|p| p.code.clone()).collect();
    (codes(&r.recommended), codes(&r.compatible))
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

fn keys(r: &SearchResults) -> Vec<(String, String)> {
    r.applied_defaults
        .iter()
        .map(|d| (d.key.clone(), d.source.clone()))
        .collect()
}

#[sqlx::test(migrations = "../migrations")]
async fn no_preference_is_todays_search(db: PgPool) {
    let p = plant(&db).await;
    let r = search(&db, p.lea, &form(|_| {})).await;
    assert!(r.applied_defaults.is_empty());
    assert_eq!(postal_codes(&r), vec!["75008", "75011"]);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_user_zone_narrows_and_an_explicit_filter_wins(db: PgPool) {
    let p = plant(&db).await;
    desk(&db)
        .save_mine(p.lea, zone("Paris 11e", "75011"))
        .await
        .unwrap();

    let r = search(&db, p.lea, &form(|_| {})).await;
    assert_eq!(postal_codes(&r), vec!["75011"]);
    assert_eq!(keys(&r), vec![(ZONE.to_string(), FROM_USER.to_string())]);
    assert_eq!(r.applied_defaults[0].label, "Zone : Paris 11e");
    assert_eq!(r.applied_defaults[0].source_label(), "votre préférence");
    // The search's metrics row says which defaults applied.
    let recorded: Value = sqlx::query_scalar(
        "SELECT criteria -> 'defaults' FROM search_runs ORDER BY id DESC LIMIT 1",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(recorded, json!([{"key": "zone", "source": "utilisateur"}]));

    // The form's postal codes win.
    let r = search(&db, p.lea, &form(|f| f.postal_codes = vec!["75008".into()])).await;
    assert_eq!(postal_codes(&r), vec!["75008"]);
    assert!(r.applied_defaults.is_empty());

    // So does an area the text names.
    let r = search(
        &db,
        p.lea,
        &form(|f| f.text = "soirée festive dans le 8e".into()),
    )
    .await;
    assert_eq!(postal_codes(&r), vec!["75008"]);
    assert!(r.applied_defaults.is_empty(), "{:?}", r.applied_defaults);

    // « retirer »: the same search without the zone.
    let r = search(&db, p.lea, &form(|f| f.skip_defaults = vec![ZONE.into()])).await;
    assert_eq!(postal_codes(&r), vec!["75008", "75011"]);
    assert!(r.applied_defaults.is_empty());
}

/// « à Lyon » names a place the search cannot locate: the user's zone does
/// not stand in for it, no venue is shown and the notice says why; with an
/// area of Île-de-France beside it, that area is searched and Lyon is said
/// to be left out.
#[sqlx::test(migrations = "../migrations")]
async fn a_place_outside_the_area_is_said_never_replaced(db: PgPool) {
    let p = plant(&db).await;
    desk(&db)
        .save_mine(p.lea, zone("Paris 11e", "75011"))
        .await
        .unwrap();
    // The zone alone finds venues: the test can fail.
    assert_eq!(
        postal_codes(&search(&db, p.lea, &form(|_| {})).await),
        vec!["75011"]
    );

    let r = search(
        &db,
        p.lea,
        &form(|f| f.text = "soirée festive à Lyon".into()),
    )
    .await;
    assert!(postal_codes(&r).is_empty(), "{:?}", postal_codes(&r));
    assert!(r.applied_defaults.is_empty(), "{:?}", r.applied_defaults);
    assert!(
        r.notices.iter().any(|n| n.starts_with(
            "Je ne sais pas situer Lyon : la recherche ne connaît que Paris et l'Île-de-France."
        )),
        "{:?}",
        r.notices
    );

    let r = search(
        &db,
        p.lea,
        &form(|f| f.text = "soirée festive dans le 8e ou à Lyon".into()),
    )
    .await;
    assert_eq!(postal_codes(&r), vec!["75008"]);
    assert!(
        r.notices
            .iter()
            .any(|n| n == "Hors de Paris et de l'Île-de-France, ignoré : Lyon."),
        "{:?}",
        r.notices
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn a_centre_and_radius_zone_narrows_too(db: PgPool) {
    let p = plant(&db).await;
    let input = PreferencesInput {
        zone_label: "Autour de la Madeleine".into(),
        centre: "48.8745, 2.3115".into(),
        radius_km: "1".into(),
        ..PreferencesInput::default()
    };
    desk(&db).save_mine(p.lea, input).await.unwrap();
    let r = search(&db, p.lea, &form(|_| {})).await;
    assert_eq!(postal_codes(&r), vec!["75008"]);
    assert_eq!(r.applied_defaults[0].label, "Zone : Autour de la Madeleine");
}

#[sqlx::test(migrations = "../migrations")]
async fn the_request_beats_the_user(db: PgPool) {
    let p = plant(&db).await;
    let d = desk(&db);
    d.save_mine(
        p.lea,
        PreferencesInput {
            favorites_first: "oui".into(),
            ..zone("Paris 11e", "75011")
        },
    )
    .await
    .unwrap();
    d.save_for_request(
        p.lea,
        p.request,
        PreferencesInput {
            favorites_first: "non".into(),
            ..zone("Paris 8e", "75008")
        },
    )
    .await
    .unwrap();

    let r = search(&db, p.lea, &form(|f| f.request_id = Some(p.request))).await;
    assert_eq!(postal_codes(&r), vec!["75008"]);
    assert_eq!(keys(&r), vec![(ZONE.to_string(), FROM_REQUEST.to_string())]);
    assert_eq!(
        r.applied_defaults[0].source_label(),
        "préférence de la demande"
    );
    // Without the request, the user's own apply.
    let r = search(&db, p.lea, &form(|_| {})).await;
    assert_eq!(postal_codes(&r), vec!["75011"]);
    assert_eq!(
        keys(&r),
        vec![
            (ZONE.to_string(), FROM_USER.to_string()),
            (FAVORITES_FIRST.to_string(), FROM_USER.to_string())
        ]
    );

    // The request's page shows both.
    let view = d.of_request(p.lea, p.request).await.unwrap();
    assert_eq!(view.preferences.zone.unwrap().label, "Paris 8e");
    assert_eq!(view.mine.zone.unwrap().label, "Paris 11e");
    assert!(
        view.search_url.contains(&format!("demande={}", p.request)),
        "{}",
        view.search_url
    );
    assert!(
        view.search_url.starts_with("/lieux?pool=prefs-test"),
        "{}",
        view.search_url
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn another_users_preferences_never_apply(db: PgPool) {
    let p = plant(&db).await;
    desk(&db)
        .save_mine(p.max, zone("Paris 8e", "75008"))
        .await
        .unwrap();
    let r = search(&db, p.lea, &form(|_| {})).await;
    assert!(r.applied_defaults.is_empty());
    assert_eq!(postal_codes(&r), vec!["75008", "75011"]);
    // Max's own search gets them.
    let r = search(&db, p.max, &form(|_| {})).await;
    assert_eq!(postal_codes(&r), vec!["75008"]);
    // An anonymous run of the service (benchmarks) reads nobody's.
    let r = search_service(&db)
        .search(None, &form(|_| {}))
        .await
        .unwrap();
    assert!(r.applied_defaults.is_empty());
}

#[sqlx::test(migrations = "../migrations")]
async fn favourites_first_reorders_within_the_tier(db: PgPool) {
    let p = plant(&db).await;
    // A team favourite weighs in the score too: #9003's room, far too big
    // for 80, keeps it below the others despite that, so favourites first
    // has something to move.
    let code = "#9003".to_string();
    sqlx::query(
        "UPDATE room_capacities SET max_capacity = 1000
          WHERE member_id = (SELECT id FROM members WHERE code = $1)",
    )
    .bind(&code)
    .execute(&db)
    .await
    .unwrap();
    sqlx::query("INSERT INTO team_favorites (user_id, member_id) SELECT $1, id FROM members WHERE code = $2")
        .bind(p.max)
        .bind(&code)
        .execute(&db)
        .await
        .unwrap();
    let baseline = search(&db, p.lea, &form(|_| {})).await;
    let (rec, com) = tier_codes(&baseline);
    let tier = if rec.contains(&code) { 0 } else { 1 };
    let base_tier = [&rec, &com][tier];
    assert!(base_tier.contains(&code), "{rec:?} {com:?}");
    assert_ne!(
        base_tier.first(),
        Some(&code),
        "the favourite is already first: {base_tier:?}"
    );

    desk(&db)
        .save_mine(
            p.lea,
            PreferencesInput {
                favorites_first: "oui".into(),
                ..PreferencesInput::default()
            },
        )
        .await
        .unwrap();
    let after = search(&db, p.lea, &form(|_| {})).await;
    let (rec2, com2) = tier_codes(&after);
    // Same venues in the same tiers; the favourite first in its own.
    assert_eq!(sorted(rec.clone()), sorted(rec2.clone()));
    assert_eq!(sorted(com.clone()), sorted(com2.clone()));
    assert_eq!([&rec2, &com2][tier].first(), Some(&code));
    assert_eq!(
        keys(&after),
        vec![(FAVORITES_FIRST.to_string(), FROM_USER.to_string())]
    );
    // The others keep the ranking's order.
    let others = |t: &Vec<String>| {
        t.iter()
            .filter(|c| **c != code)
            .cloned()
            .collect::<Vec<_>>()
    };
    assert_eq!(others(base_tier), others([&rec2, &com2][tier]));

    // The explicit « non » of a request turns it off for its search.
    desk(&db)
        .save_for_request(
            p.lea,
            p.request,
            PreferencesInput {
                favorites_first: "non".into(),
                ..PreferencesInput::default()
            },
        )
        .await
        .unwrap();
    let off = search(&db, p.lea, &form(|f| f.request_id = Some(p.request))).await;
    assert_eq!(tier_codes(&off), tier_codes(&baseline));
}

#[sqlx::test(migrations = "../migrations")]
async fn pool_specialities_come_first_in_their_tier(db: PgPool) {
    let p = plant(&db).await;
    let before = search(&db, p.lea, &form(|_| {})).await;
    let (rec, com) = tier_codes(&before);
    let tier = if rec.contains(&"#9007".to_string()) {
        0
    } else {
        1
    };
    desk(&db)
        .save_for_request(
            p.lea,
            p.request,
            PreferencesInput {
                specialities: "Rooftop".into(),
                ..PreferencesInput::default()
            },
        )
        .await
        .unwrap();
    let after = search(&db, p.lea, &form(|f| f.request_id = Some(p.request))).await;
    let (rec2, com2) = tier_codes(&after);
    assert_eq!(sorted(rec), sorted(rec2.clone()));
    assert_eq!(sorted(com), sorted(com2.clone()));
    assert_eq!(
        [&rec2, &com2][tier].first().map(String::as_str),
        Some("#9007")
    );
    assert_eq!(
        keys(&after),
        vec![(SPECIALITIES.to_string(), FROM_REQUEST.to_string())]
    );
    // Stored as the catalogue spells the tag.
    assert_eq!(
        after.applied_defaults[0].label,
        "Spécialités du pool : rooftop"
    );
}

async fn rows(db: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM search_preferences")
        .fetch_one(db)
        .await
        .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn bad_input_is_refused_and_nothing_saved(db: PgPool) {
    let p = plant(&db).await;
    let d = desk(&db);
    d.save_mine(p.lea, zone("Paris 11e", "75011"))
        .await
        .unwrap();
    let cases: Vec<(PreferencesInput, &str)> = vec![
        (zone("", "75011"), "nom à la zone"),
        (zone("Paris", "7501"), "Code postal invalide"),
        (
            PreferencesInput {
                favorites_first: "toujours".into(),
                ..PreferencesInput::default()
            },
            "n'est pas une réponse",
        ),
        (
            PreferencesInput {
                specialities: "hotels-inconnus : rooftop".into(),
                ..PreferencesInput::default()
            },
            "pool inconnu",
        ),
        (
            PreferencesInput {
                specialities: "prefs-test : piscine".into(),
                ..PreferencesInput::default()
            },
            "Spécialité inconnue",
        ),
        (
            PreferencesInput {
                zone_label: "Loin".into(),
                centre: "48.8, 2.3".into(),
                radius_km: "900".into(),
                ..PreferencesInput::default()
            },
            "rayon",
        ),
    ];
    for (input, needle) in cases {
        match d.save_mine(p.lea, input.clone()).await {
            Err(AppError::Invalid(m)) => assert!(m.contains(needle), "{input:?} gave {m}"),
            other => panic!("{input:?} gave {other:?}"),
        }
    }
    // The earlier preferences are intact.
    assert_eq!(rows(&db).await, 1);
    assert_eq!(
        d.mine(p.lea).await.unwrap().zone.unwrap().label,
        "Paris 11e"
    );

    // A request's specialities are for its pool: no « pool : » lines.
    let err = d
        .save_for_request(
            p.lea,
            p.request,
            PreferencesInput {
                specialities: "prefs-test : rooftop".into(),
                ..PreferencesInput::default()
            },
        )
        .await;
    assert!(matches!(err, Err(AppError::Invalid(_))), "{err:?}");
    // A request that does not exist.
    let err = d
        .save_for_request(p.lea, 424_242, zone("Paris 8e", "75008"))
        .await;
    assert!(matches!(err, Err(AppError::NotFound)), "{err:?}");
    assert!(matches!(
        d.of_request(p.lea, 424_242).await,
        Err(AppError::NotFound)
    ));
    assert_eq!(rows(&db).await, 1);
    // A search for a request that does not exist is refused, not run bare.
    let err = search_service(&db)
        .search(Some(p.lea), &form(|f| f.request_id = Some(424_242)))
        .await;
    assert!(matches!(err, Err(AppError::NotFound)), "{err:?}");
}

#[sqlx::test(migrations = "../migrations")]
async fn tags_are_typed_and_shown_as_people_say_them(db: PgPool) {
    let p = plant(&db).await;
    sqlx::query("INSERT INTO tags (name) VALUES ('accessible-pmr'), ('vue-seine')")
        .execute(&db)
        .await
        .unwrap();
    let d = desk(&db);
    let typed = |specialities: &str| PreferencesInput {
        specialities: specialities.into(),
        ..PreferencesInput::default()
    };
    // By the label the venue sheets show, by the slug, in any case.
    let shown = d
        .save_mine(
            p.lea,
            typed("Test préférences : Accessible PMR, vue sur la seine, ROOFTOP"),
        )
        .await
        .unwrap();
    let stored: Value =
        sqlx::query_scalar("SELECT specialities FROM search_preferences WHERE user_id = $1")
            .bind(p.lea)
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(
        stored,
        json!({POOL: ["accessible-pmr", "vue-seine", "rooftop"]})
    );
    // Shown by pool name and labels, never slugs; the form as shown saves
    // the same preferences again.
    let mine = d.mine(p.lea).await.unwrap();
    assert_eq!(mine, shown);
    assert_eq!(mine.specialities[0].pool, "Test préférences");
    assert_eq!(
        mine.specialities[0].tags,
        ["accessible PMR", "vue sur la Seine", "rooftop"]
    );
    let form = PreferencesInput::from_preferences(&mine, true);
    assert_eq!(
        form.specialities,
        "Test préférences : accessible PMR, vue sur la Seine, rooftop"
    );
    d.save_mine(p.lea, form).await.unwrap();
    assert_eq!(d.mine(p.lea).await.unwrap(), mine);
    // A word that is neither is refused, naming what was typed.
    match d
        .save_mine(p.lea, typed("Test préférences : vue sur mer"))
        .await
    {
        Err(AppError::Invalid(m)) => assert!(m.contains("« vue sur mer »"), "{m}"),
        other => panic!("{other:?}"),
    }
}

fn tool_context(db: &PgPool, p: &Plant, request: Option<i64>) -> ToolContext {
    ToolContext {
        db: db.clone(),
        user_id: p.lea,
        conversation_id: 1,
        request_id: request,
        search: search_service(db),
        embedder: None,
        memory: None,
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn the_tools_return_and_apply_them(db: PgPool) {
    let p = plant(&db).await;
    let d = desk(&db);
    d.save_mine(
        p.lea,
        PreferencesInput {
            favorites_first: "oui".into(),
            specialities: "prefs-test : rooftop".into(),
            ..zone("Paris 11e", "75011")
        },
    )
    .await
    .unwrap();
    d.save_for_request(p.lea, p.request, zone("Paris 8e", "75008"))
        .await
        .unwrap();
    // Max's never show.
    d.save_mine(p.max, zone("Bercy", "75012")).await.unwrap();

    let ctx = tool_context(&db, &p, Some(p.request));
    let out = Toolbox::run_read(&ctx, "get_search_preferences", &json!({}))
        .await
        .unwrap();
    assert!(!out.for_model.contains("Bercy"), "{}", out.for_model);
    let v: Value = serde_json::from_str(&out.for_model).unwrap();
    let prefs = &v["preferences"];
    // A zone label is someone's wording: the model reads it wrapped.
    let label = server::llm::external::wrap("zone_label", "Paris 8e");
    assert_eq!(prefs["stored"]["request"]["zone"]["label"], label.as_str());
    assert_eq!(
        prefs["stored"]["user"]["zone"]["postal_codes"],
        json!(["75011"])
    );
    assert_eq!(
        prefs["stored"]["user"]["specialities"][0]["tags"],
        json!(["rooftop"])
    );
    let defaults = &prefs["defaults_applied_by_search_members"];
    assert_eq!(
        defaults["zone"],
        json!({"label": label, "source": "demande"})
    );
    assert_eq!(
        defaults["favorites_first"],
        json!({"value": true, "source": "utilisateur"})
    );
    assert_eq!(defaults["specialities"]["source"], "utilisateur");
    assert!(
        out.summary.contains("préférences enregistrées"),
        "{}",
        out.summary
    );

    // search_members goes through the same defaults.
    let out = Toolbox::run_read(
        &ctx,
        "search_members",
        &json!({"text": "soirée festive", "pool": POOL}),
    )
    .await
    .unwrap();
    let v: Value = serde_json::from_str(&out.for_model).unwrap();
    let applied = v["applied_defaults"].as_array().unwrap();
    assert_eq!(applied[0]["key"], "zone");
    assert_eq!(applied[0]["source"], "demande");
    let codes: Vec<&str> = v["recommended"]
        .as_array()
        .unwrap()
        .iter()
        .chain(v["compatible"].as_array().unwrap())
        .map(|p| p["postal_code"].as_str().unwrap())
        .collect();
    assert!(
        !codes.is_empty() && codes.iter().all(|c| *c == "75008"),
        "{codes:?}"
    );
    // An explicit filter in the call wins.
    let out = Toolbox::run_read(
        &ctx,
        "search_members",
        &json!({"text": "soirée festive", "pool": POOL, "postal_codes": ["75011"]}),
    )
    .await
    .unwrap();
    let v: Value = serde_json::from_str(&out.for_model).unwrap();
    assert!(v["applied_defaults"]
        .as_array()
        .unwrap()
        .iter()
        .all(|d| d["key"] != "zone"));
}

#[sqlx::test(migrations = "../migrations")]
async fn the_builders_fill_applies_the_requests_preferences_and_says_so(db: PgPool) {
    use app::catalogue_builder::CatalogueBuilder;
    let p = plant(&db).await;
    desk(&db)
        .save_for_request(p.lea, p.request, zone("Paris 8e", "75008"))
        .await
        .unwrap();
    // The request's own criteria: what the venues suit, but no area.
    sqlx::query(
        "UPDATE requests SET participants = 80, configurations = '{cocktail}',
                description = 'Soirée festive' WHERE id = $1",
    )
    .bind(p.request)
    .execute(&db)
    .await
    .unwrap();
    let builder = server::catalogue_builder::CatalogueBuilderService {
        db: db.clone(),
        search: search_service(&db),
    };
    let opened = builder.open(p.lea, p.request, false).await.unwrap();
    let filled = builder
        .fill_from_search(p.lea, opened.catalogue_id, opened.version)
        .await
        .unwrap();
    assert!(
        filled
            .notices
            .iter()
            .any(|n| n == "Défaut appliqué — Zone : Paris 8e (préférence de la demande)"),
        "{:?}",
        filled.notices
    );
    let codes: Vec<String> = sqlx::query_scalar(
        "SELECT DISTINCT m.postal_code FROM catalogue_picks p JOIN members m ON m.id = p.member_id
          WHERE p.catalogue_id = $1",
    )
    .bind(opened.catalogue_id)
    .fetch_all(&db)
    .await
    .unwrap();
    assert_eq!(codes, vec!["75008".to_string()], "{:?}", filled.notices);
}

async fn session(db: &PgPool, user_id: i64) -> String {
    let env = server::config::Env::from_pairs([("MAXY_SECRET_KEY", support::SECRET_KEY)]);
    let settings = server::config::AuthSettings::from_source(&env).unwrap();
    server::auth::sessions::start(db, user_id, &settings, None)
        .await
        .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn over_http_only_the_team_edits_and_the_pages_show_them(db: PgPool) {
    use reqwest::StatusCode;
    let p = plant(&db).await;
    let app = support::app::TestApp::start(db.clone()).await;
    let id = p.request.to_string();
    for (path, fields) in [
        (
            "/api/search-preferences/save-mine",
            vec![("zone_label", "Pirate"), ("postal_codes", "75011")],
        ),
        (
            "/api/search-preferences/save-request",
            vec![
                ("request_id", id.as_str()),
                ("zone_label", "Pirate"),
                ("postal_codes", "75011"),
            ],
        ),
        ("/api/search-preferences/mine", vec![]),
        (
            "/api/search-preferences/request",
            vec![("request_id", id.as_str())],
        ),
    ] {
        let reply = app.post_form(path, &fields, None).await;
        assert_eq!(reply.status, StatusCode::UNAUTHORIZED, "{path}");
    }
    assert_eq!(rows(&db).await, 0);

    let token = session(&db, p.lea).await;
    let reply = app
        .post_form(
            "/api/search-preferences/save-request",
            &[
                ("request_id", id.as_str()),
                ("zone_label", "Paris 8e"),
                ("postal_codes", "75008"),
                ("centre", ""),
                ("radius_km", ""),
                ("favorites_first", ""),
                ("specialities", ""),
            ],
            Some(&token),
        )
        .await;
    assert!(
        reply.status.is_success() || reply.status.is_redirection(),
        "{}",
        reply.status
    );
    assert_eq!(rows(&db).await, 1);
    // A bad value: refused, said, nothing changed.
    let reply = app
        .post_form(
            "/api/search-preferences/save-request",
            &[
                ("request_id", id.as_str()),
                ("zone_label", "Paris 8e"),
                ("postal_codes", "750"),
            ],
            Some(&token),
        )
        .await;
    assert!(!reply.status.is_server_error(), "{}", reply.status);
    let stored = desk(&db).of_request(p.lea, p.request).await.unwrap();
    assert_eq!(stored.preferences.zone.unwrap().postal_codes, vec!["75008"]);

    let page = app.get(&format!("/demandes/{id}"), Some(&token)).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page
        .body
        .contains("data-testid=\"request-preferences-form\""));
    assert!(page.body.contains("Paris 8e"));
    let page = app
        .get(
            &format!("/lieux?pool={POOL}&q=soir%C3%A9e%20festive&demande={id}"),
            Some(&token),
        )
        .await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.body.contains("Zone : Paris 8e"), "{}", page.body.len());
    assert!(page.body.contains("préférence de la demande"));
    assert!(page.body.contains("data-testid=\"my-preferences\""));
}
