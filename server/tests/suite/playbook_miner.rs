//! The playbook miner on a real PostgreSQL: a generated week of calls made
//! outside any playbook (several conversations, users and both stations,
//! noise below the threshold, a tool repeated after itself, first calls
//! alone, rows before and after the week) in which one sequence is planted
//! 14 times. The miner finds it with exactly its count and drafts a
//! playbook that parses, suggests nothing else, and a second run rewrites
//! the same row. Then the review: accept (a playbook in observe mode), an
//! invalid edit refused with nothing changed, edit, dismiss.
//!
//! Needs DATABASE_URL: each test gets its own database, migrated from ../migrations.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use chrono::{DateTime, Duration, NaiveDate, Utc};
use server::playbooks::miner::{self, Pattern, ReviewError, Window};
use sqlx::PgPool;
use std::collections::HashMap;

const PLANTED_TOOL: &str = "request_availability_check";
const PLANTED_AFTER: &str = "get_member_signals";
const PLANTED_KEY: &str = "after:get_member_signals|call:request_availability_check";

/// Thursday 27 March 2025, in the week summer time starts (a 167-hour week).
fn at() -> DateTime<Utc> {
    "2025-03-27T12:00:00Z".parse().unwrap()
}

/// Writes observations the way the chat runtime does: each call's
/// `after_tool` is the previous call of the same conversation.
struct Recorder<'a> {
    db: &'a PgPool,
    last: HashMap<i64, String>,
}

impl Recorder<'_> {
    async fn call(&mut self, conv: &Conversation, tool: &str, when: DateTime<Utc>) {
        let after = self.last.insert(conv.id, tool.to_string());
        let key = miner::pattern_key(tool, after.as_deref());
        sqlx::query(
            "INSERT INTO observations
                 (conversation_id, pattern_key, tool_name, after_tool, station, user_id, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(conv.id)
        .bind(key)
        .bind(tool)
        .bind(after)
        .bind(&conv.station)
        .bind(conv.user_id)
        .bind(when)
        .execute(self.db)
        .await
        .unwrap();
    }
}

struct Conversation {
    id: i64,
    user_id: i64,
    station: String,
}

async fn user(db: &PgPool, name: &str, role: &str) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO users (email, display_name, role) VALUES ($1, $2, $3) RETURNING id",
    )
    .bind(format!("{}@example.org", name.to_lowercase()))
    .bind(name)
    .bind(role)
    .fetch_one(db)
    .await
    .unwrap()
}

async fn conversation(db: &PgPool, user_id: i64, station: &str) -> Conversation {
    let id = sqlx::query_scalar(
        "INSERT INTO ai_conversations (user_id, mode) VALUES ($1, $2) RETURNING id",
    )
    .bind(user_id)
    .bind(station)
    .fetch_one(db)
    .await
    .unwrap();
    Conversation {
        id,
        user_id,
        station: station.to_string(),
    }
}

/// A clock that moves 37 minutes per call from an hour into the week.
struct Clock {
    next: DateTime<Utc>,
}

impl Clock {
    fn tick(&mut self) -> DateTime<Utc> {
        let t = self.next;
        self.next += Duration::minutes(37);
        t
    }
}

/// The generated week (see the module docs); returns the admin's id.
async fn generate_week(db: &PgPool) -> i64 {
    let week = miner::week_ending(at());
    let admin = user(db, "Admin", "admin").await;
    let users = [
        user(db, "Lea", "team").await,
        user(db, "Tom", "team").await,
        user(db, "Ines", "team").await,
    ];
    let mut rec = Recorder {
        db,
        last: HashMap::new(),
    };
    let mut clock = Clock {
        next: week.start + Duration::hours(1),
    };
    // Seven team chats, each opened by listing requests (first calls are
    // never suggested), then twice: some read, the signals, a check. The
    // read before the signals turns round seven tools, so none of those
    // pairs reaches the threshold.
    let prefixes = [
        "search_members",
        "get_member",
        "get_request",
        "count_members",
        "find_similar_requests",
        "get_member_full",
        "search_knowledge",
    ];
    let mut episode = 0;
    for i in 0..7 {
        let conv = conversation(db, users[i % 3], "chat").await;
        rec.call(&conv, "list_requests", clock.tick()).await;
        for _ in 0..2 {
            rec.call(&conv, prefixes[episode % 7], clock.tick()).await;
            rec.call(&conv, PLANTED_AFTER, clock.tick()).await;
            rec.call(&conv, PLANTED_TOOL, clock.tick()).await;
            episode += 1;
        }
    }
    // Noise: a write after a read, four times (one short of the threshold).
    let conv = conversation(db, users[0], "chat").await;
    for _ in 0..4 {
        rec.call(&conv, "get_request", clock.tick()).await;
        rec.call(&conv, "update_request", clock.tick()).await;
    }
    // A search paged seven times: a tool after itself is no procedure.
    let conv = conversation(db, users[1], "chat").await;
    for _ in 0..7 {
        rec.call(&conv, "search_members", clock.tick()).await;
    }
    // The training workspace: the planted sequence three times.
    let conv = conversation(db, users[2], "training").await;
    for _ in 0..3 {
        rec.call(&conv, PLANTED_AFTER, clock.tick()).await;
        rec.call(&conv, PLANTED_TOOL, clock.tick()).await;
    }
    // A busy sequence of the week before (17 times) and the week after
    // (5 times), but only 3 times in this one; one call exactly at the
    // week's end belongs to the next week.
    let conv = conversation(db, users[0], "chat").await;
    for i in 0..17 {
        let t = week.start - Duration::days(2) + Duration::minutes(10 * i);
        rec.call(&conv, "get_request", t).await;
        rec.call(&conv, "add_members_to_catalog", t + Duration::minutes(1))
            .await;
    }
    for _ in 0..3 {
        rec.call(&conv, "get_request", clock.tick()).await;
        rec.call(&conv, "add_members_to_catalog", clock.tick())
            .await;
    }
    for i in 0..5 {
        let t = week.end + Duration::minutes(10 * i);
        rec.call(&conv, "get_request", t).await;
        rec.call(&conv, "add_members_to_catalog", t + Duration::minutes(1))
            .await;
    }
    assert!(clock.next < week.end, "the generated calls fit in the week");
    admin
}

fn find<'a>(found: &'a [Pattern], key: &str, station: &str) -> Option<&'a Pattern> {
    found.iter().find(|p| p.key == key && p.station == station)
}

#[derive(sqlx::FromRow, Debug)]
struct Suggestion {
    id: i64,
    pattern_key: String,
    occurrences: i32,
    window_start: DateTime<Utc>,
    window_end: DateTime<Utc>,
    draft: serde_json::Value,
    status: String,
    accepted_playbook_id: Option<i64>,
}

async fn suggestions(db: &PgPool) -> Vec<Suggestion> {
    sqlx::query_as::<_, Suggestion>(
        "SELECT id, pattern_key, occurrences, window_start, window_end, draft, status,
                accepted_playbook_id
           FROM suggested_playbooks ORDER BY id",
    )
    .fetch_all(db)
    .await
    .unwrap()
}

async fn audit_actions(db: &PgPool) -> Vec<String> {
    sqlx::query_scalar("SELECT action FROM audit_log ORDER BY id")
        .fetch_all(db)
        .await
        .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn the_planted_pattern_is_found_with_its_count_and_nothing_else_is_suggested(db: PgPool) {
    generate_week(&db).await;
    let week = miner::week_ending(at());
    let found = miner::patterns(&db, &week).await.unwrap();

    let planted = find(&found, PLANTED_KEY, "chat").expect("the planted pattern");
    assert_eq!(planted.count, 14);
    assert_eq!(planted.tool, PLANTED_TOOL);
    assert_eq!(planted.after.as_deref(), Some(PLANTED_AFTER));
    assert_eq!(found.first(), Some(planted), "most seen first");
    assert!(found.windows(2).all(|w| w[0].count >= w[1].count));
    assert_eq!(find(&found, PLANTED_KEY, "training").unwrap().count, 3);
    let catalog = "after:get_request|call:add_members_to_catalog";
    assert_eq!(find(&found, catalog, "chat").unwrap().count, 3);
    assert_eq!(find(&found, "call:list_requests", "chat").unwrap().count, 7);
    let paging = "after:search_members|call:search_members";
    assert_eq!(find(&found, paging, "chat").unwrap().count, 6);

    let report = miner::mine(&db, &week).await.unwrap();
    assert_eq!(report.window, week);
    assert_eq!(report.patterns, found.len());
    assert_eq!(report.suggested, 1, "{found:#?}");

    let rows = suggestions(&db).await;
    assert_eq!(rows.len(), 1);
    let s = &rows[0];
    assert_eq!(s.pattern_key, PLANTED_KEY);
    assert_eq!(s.occurrences, 14);
    assert_eq!((s.window_start, s.window_end), (week.start, week.end));
    assert_eq!(s.status, "new");
    assert_eq!(
        s.draft["sentence"],
        "14 fois cette semaine, « Demande de disponibilité » a été appelé hors parcours après « Signaux des lieux »"
    );
    assert_eq!(s.draft["tool"], PLANTED_TOOL);
    assert_eq!(s.draft["after"], PLANTED_AFTER);
    assert_eq!(s.draft["station"], "chat");
    let yaml = s.draft["yaml"].as_str().unwrap();
    let definition = server::playbooks::definition::parse(yaml).unwrap();
    let steps: Vec<&str> = definition.steps.iter().map(|s| s.skill.as_str()).collect();
    assert_eq!(steps, [PLANTED_AFTER, PLANTED_TOOL]);
    assert_eq!(definition.name, "motif-signaux-puis-disponibilite");
    assert!(definition.activation.exclusive_skills.is_empty());
}

#[sqlx::test(migrations = "../migrations")]
async fn mining_again_rewrites_the_same_suggestion(db: PgPool) {
    generate_week(&db).await;
    let week = miner::week_ending(at());
    let first = miner::mine(&db, &week).await.unwrap();
    let again = miner::mine(&db, &week).await.unwrap();
    assert_eq!(first, again);
    let rows = suggestions(&db).await;
    assert_eq!(rows.len(), 1);

    // Two more calls later in the week: the same row, counted again.
    let mut rec = Recorder {
        db: &db,
        last: HashMap::new(),
    };
    let lea: i64 = sqlx::query_scalar("SELECT id FROM users WHERE display_name = 'Lea'")
        .fetch_one(&db)
        .await
        .unwrap();
    let conv = conversation(&db, lea, "chat").await;
    for _ in 0..2 {
        rec.call(&conv, PLANTED_AFTER, week.end - Duration::hours(2))
            .await;
        rec.call(&conv, PLANTED_TOOL, week.end - Duration::hours(1))
            .await;
    }
    miner::mine(&db, &week).await.unwrap();
    let rows = suggestions(&db).await;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].occurrences, 16);

    // An older week never overwrites the newer count.
    let before = Window {
        start: week.start - Duration::weeks(1),
        end: week.start,
    };
    miner::mine(&db, &before).await.unwrap();
    let rows = suggestions(&db).await;
    let planted = rows.iter().find(|r| r.pattern_key == PLANTED_KEY).unwrap();
    assert_eq!(planted.occurrences, 16);
    assert_eq!(planted.window_start, week.start);
    // A window ending earlier (14 calls in it) leaves the count of the
    // later one.
    let earlier = Window {
        start: week.start,
        end: week.end - Duration::minutes(90),
    };
    let counted = miner::patterns(&db, &earlier).await.unwrap();
    assert_eq!(find(&counted, PLANTED_KEY, "chat").unwrap().count, 14);
    miner::mine(&db, &earlier).await.unwrap();
    let rows = suggestions(&db).await;
    let planted = rows.iter().find(|r| r.pattern_key == PLANTED_KEY).unwrap();
    assert_eq!(planted.occurrences, 16);
    // That week's own busy sequence (both ways) is its own suggestion.
    let keys: Vec<&str> = rows.iter().map(|r| r.pattern_key.as_str()).collect();
    assert_eq!(
        keys,
        [
            PLANTED_KEY,
            "after:get_request|call:add_members_to_catalog",
            "after:add_members_to_catalog|call:get_request"
        ]
    );
}

#[sqlx::test(migrations = "../migrations")]
async fn accepting_stores_a_playbook_in_observe_mode(db: PgPool) {
    let admin = generate_week(&db).await;
    let week = miner::week_ending(at());
    miner::mine(&db, &week).await.unwrap();
    let id = suggestions(&db).await[0].id;

    let name = miner::accept(&db, id, None, admin).await.unwrap();
    assert_eq!(name, "motif-signaux-puis-disponibilite");
    let (playbook_id, status): (i64, String) =
        sqlx::query_as("SELECT id, status FROM playbooks WHERE name = $1")
            .bind(&name)
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(status, "observe");
    let s = &suggestions(&db).await[0];
    assert_eq!(s.status, "accepted");
    assert_eq!(s.accepted_playbook_id, Some(playbook_id));
    assert!(audit_actions(&db)
        .await
        .contains(&"playbook.suggestion_accepted".to_string()));

    // Reviewed once: a second accept is refused, and mining again does not
    // bring the pattern back while its playbook exists.
    assert!(matches!(
        miner::accept(&db, id, None, admin).await,
        Err(ReviewError::AlreadyReviewed)
    ));
    assert_eq!(miner::mine(&db, &week).await.unwrap().suggested, 0);
    assert_eq!(suggestions(&db).await.len(), 1);
}

#[sqlx::test(migrations = "../migrations")]
async fn an_invalid_edit_on_accept_changes_nothing(db: PgPool) {
    let admin = generate_week(&db).await;
    let week = miner::week_ending(at());
    miner::mine(&db, &week).await.unwrap();
    let before = suggestions(&db).await;
    let id = before[0].id;
    let audit_before = audit_actions(&db).await;

    let broken = "name: motif-casse\ngoal: \"un but\"\nsteps:\n  - skill: no_such_tool\n";
    let err = miner::accept(&db, id, Some(broken), admin)
        .await
        .unwrap_err();
    let ReviewError::Invalid(ref why) = err else {
        panic!("refused as invalid: {err:?}")
    };
    assert_eq!(why.line, Some(4), "located: {}", err);
    assert!(err.to_string().contains("ligne 4"), "{err}");

    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM playbooks")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(count, 0);
    let after = suggestions(&db).await;
    assert_eq!(after[0].status, "new");
    assert_eq!(after[0].draft, before[0].draft);
    assert_eq!(audit_actions(&db).await, audit_before);

    // A name already taken is refused too: accepting never overwrites.
    let taken = miner::draft_yaml(&Pattern {
        key: "after:get_request|call:update_request".into(),
        tool: "update_request".into(),
        after: Some("get_request".into()),
        station: "chat".into(),
        count: 5,
    });
    let name = miner::accept(&db, id, Some(&taken), admin).await.unwrap();
    assert_eq!(name, "motif-demande-puis-modification-demande");
    sqlx::query("UPDATE suggested_playbooks SET status = 'new', reviewed_at = NULL")
        .execute(&db)
        .await
        .unwrap();
    assert!(matches!(
        miner::accept(&db, id, Some(&taken), admin).await,
        Err(ReviewError::NameTaken(n)) if n == name
    ));
}

#[sqlx::test(migrations = "../migrations")]
async fn an_edited_draft_is_validated_and_kept_by_the_miner(db: PgPool) {
    let admin = generate_week(&db).await;
    let week = miner::week_ending(at());
    miner::mine(&db, &week).await.unwrap();
    let id = suggestions(&db).await[0].id;

    let err = miner::edit_draft(&db, id, "name: [", admin)
        .await
        .unwrap_err();
    assert!(matches!(err, ReviewError::Invalid(_)), "{err:?}");
    assert!(err.to_string().contains("ligne"), "{err}");

    let original = suggestions(&db).await[0].draft["yaml"]
        .as_str()
        .unwrap()
        .to_string();
    let edited = original.replace(
        "name: motif-signaux-puis-disponibilite",
        "name: verifier-puis-demander",
    );
    miner::edit_draft(&db, id, &edited, admin).await.unwrap();
    miner::mine(&db, &week).await.unwrap();
    let s = &suggestions(&db).await[0];
    assert_eq!(s.draft["yaml"], edited.as_str(), "the admin's YAML is kept");
    assert_eq!(s.occurrences, 14);
    assert_eq!(
        miner::accept(&db, id, None, admin).await.unwrap(),
        "verifier-puis-demander"
    );
    assert!(audit_actions(&db)
        .await
        .contains(&"playbook.suggestion_edited".to_string()));
}

#[sqlx::test(migrations = "../migrations")]
async fn a_dismissed_suggestion_stays_dismissed_this_week(db: PgPool) {
    let admin = generate_week(&db).await;
    let week = miner::week_ending(at());
    miner::mine(&db, &week).await.unwrap();
    let id = suggestions(&db).await[0].id;

    miner::dismiss(&db, id, admin).await.unwrap();
    assert_eq!(suggestions(&db).await[0].status, "dismissed");
    assert!(matches!(
        miner::dismiss(&db, id, admin).await,
        Err(ReviewError::AlreadyReviewed)
    ));
    assert!(matches!(
        miner::dismiss(&db, id + 1000, admin).await,
        Err(ReviewError::NotFound)
    ));
    assert_eq!(miner::mine(&db, &week).await.unwrap().suggested, 0);
    assert_eq!(suggestions(&db).await.len(), 1);
    assert!(audit_actions(&db)
        .await
        .contains(&"playbook.suggestion_dismissed".to_string()));
}

#[sqlx::test(migrations = "../migrations")]
async fn trends_count_each_week_zero_filled(db: PgPool) {
    generate_week(&db).await;
    let trends = miner::trends(&db, 3, at()).await.unwrap();
    let d = |m, day| NaiveDate::from_ymd_opt(2025, m, day).unwrap();
    let planted = trends.iter().find(|t| t.key == PLANTED_KEY).unwrap();
    // Both stations together.
    assert_eq!(
        planted.weeks,
        vec![(d(3, 10), 0), (d(3, 17), 0), (d(3, 24), 17)]
    );
    let catalog = trends
        .iter()
        .find(|t| t.key == "after:get_request|call:add_members_to_catalog")
        .unwrap();
    assert_eq!(
        catalog.weeks,
        vec![(d(3, 10), 0), (d(3, 17), 17), (d(3, 24), 3)]
    );
    assert_eq!(trends[0].key, catalog.key, "most seen first (20 in all)");
    // The way back (16 the week before, 3 this week), then the planted one.
    assert_eq!(
        trends[1].key,
        "after:add_members_to_catalog|call:get_request"
    );
    assert_eq!(trends[2].key, PLANTED_KEY);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_nightly_run_is_queued_once(db: PgPool) {
    let now = Utc::now();
    assert!(miner::schedule_next(&db, now).await.unwrap());
    assert!(!miner::schedule_next(&db, now).await.unwrap());
    let (kind, run_at): (String, DateTime<Utc>) = sqlx::query_as("SELECT kind, run_at FROM jobs")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(kind, miner::JOB_KIND);
    assert!(run_at > now && run_at <= now + Duration::hours(25));
    let registry = miner::register_jobs(server::jobs::Registry::default(), &db);
    assert_eq!(registry.kinds(), vec![miner::JOB_KIND]);
}

#[sqlx::test(migrations = "../migrations")]
async fn the_monday_night_run_mines_the_week_that_just_ended(db: PgPool) {
    generate_week(&db).await;
    let week = miner::week_ending(at());
    // Monday 00:30 Paris after the week: its Sunday is counted, and the
    // week just begun is mined too (its 5 catalogue calls are in it).
    miner::job::run_once(&db, week.end + Duration::minutes(30))
        .await
        .unwrap();
    let rows = suggestions(&db).await;
    let planted = rows.iter().find(|r| r.pattern_key == PLANTED_KEY).unwrap();
    assert_eq!(
        (planted.window_start, planted.window_end),
        (week.start, week.end)
    );
    assert_eq!(planted.occurrences, 14);
    let catalog = rows
        .iter()
        .find(|r| r.pattern_key == "after:get_request|call:add_members_to_catalog")
        .unwrap();
    assert_eq!(catalog.window_start, week.end);
    assert_eq!(catalog.occurrences, 5);
}
