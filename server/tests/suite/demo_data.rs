//! The demo seeder against a real PostgreSQL: row counts, determinism of
//! what lands in the tables, catalogue picks re-checked with the SQL hard
//! filter of seed 001, and the identity sequences left usable.
//!
//! Needs DATABASE_URL (e.g. postgres://postgres@127.0.0.1:54329/maxy): each
//! test gets its own database, migrated from ../migrations.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use server::demo::{database_is_empty, seed, SeedOptions};
use sqlx::PgPool;

/// Every table the seeder fills.
const TABLES: &str = "pools, tags, attribute_types, members, rooms, room_capacities, member_tags, \
    member_attributes, users, knowledge_entries, team_favorites, requests, request_emails, catalogues, \
    catalogue_picks, availability_checks, response_signals, training_sessions";

/// md5 over the content of the main tables, in id order.
async fn content_digest(pool: &PgPool) -> sqlx::Result<String> {
    sqlx::query_scalar(
        "SELECT md5(concat_ws('|',
            (SELECT string_agg(m::text, ',' ORDER BY m.id) FROM members m),
            (SELECT string_agg(r::text, ',' ORDER BY r.id) FROM rooms r),
            (SELECT string_agg(c::text, ',' ORDER BY c.room_id, c.configuration) FROM room_capacities c),
            (SELECT string_agg(t::text, ',' ORDER BY t.member_id, t.tag_id) FROM member_tags t),
            (SELECT string_agg(a::text, ',' ORDER BY a.member_id, a.attribute_type_id) FROM member_attributes a),
            (SELECT string_agg(k::text, ',' ORDER BY k.id) FROM knowledge_entries k),
            (SELECT string_agg(q::text, ',' ORDER BY q.id) FROM requests q),
            (SELECT string_agg(p::text, ',' ORDER BY p.id) FROM catalogue_picks p),
            (SELECT string_agg(s::text, ',' ORDER BY s.id) FROM response_signals s),
            (SELECT string_agg(t::text, ',' ORDER BY t.id) FROM training_sessions t)))",
    )
    .fetch_one(pool)
    .await
}

async fn count(pool: &PgPool, table: &str) -> sqlx::Result<i64> {
    sqlx::query_scalar(&format!("SELECT count(*) FROM {table}"))
        .fetch_one(pool)
        .await
}

async fn wipe(pool: &PgPool) -> sqlx::Result<()> {
    sqlx::query(&format!("TRUNCATE {TABLES} RESTART IDENTITY CASCADE"))
        .execute(pool)
        .await
        .map(|_| ())
}

#[sqlx::test(migrations = "../migrations")]
async fn seeding_300_members_is_complete_and_deterministic(pool: PgPool) -> anyhow::Result<()> {
    assert!(database_is_empty(&pool).await?);
    let options = SeedOptions {
        seed: 7,
        members: 300,
        progress: false,
    };
    let first = seed(&pool, &options).await?;
    assert!(!database_is_empty(&pool).await?);

    let expected = [
        ("pools", first.pools),
        ("members", first.members),
        ("rooms", first.rooms),
        ("room_capacities", first.room_capacities),
        ("member_tags", first.member_tags),
        ("member_attributes", first.member_attributes),
        ("knowledge_entries", first.knowledge_entries),
        ("users", first.users),
        ("team_favorites", first.team_favorites),
        ("requests", first.requests),
        ("request_emails", first.request_emails),
        ("catalogues", first.catalogues),
        ("catalogue_picks", first.catalogue_picks),
        ("availability_checks", first.availability_checks),
        ("response_signals", first.response_signals),
        ("training_sessions", first.training_sessions),
    ];
    for (table, rows) in expected {
        assert_eq!(count(&pool, table).await?, rows as i64, "{table}");
    }
    assert_eq!(first.pools, 5);
    assert_eq!(first.members, 300);
    assert!(
        first.rooms > 800 && first.room_capacities > 2500,
        "{first:?}"
    );
    assert_eq!(first.requests, 40);
    assert!(
        first.catalogues >= 10 && first.catalogue_picks >= 60,
        "{first:?}"
    );
    assert_eq!(first.users, 7);
    let admins: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM users WHERE role = 'admin' AND password_hash LIKE '$argon2id$%'",
    )
    .fetch_one(&pool)
    .await?;
    assert_eq!(
        admins, 1,
        "the demo admin can sign in with the demo password"
    );

    // Every pick passes seed 001's hard filter, computed by PostgreSQL itself.
    let bad_picks: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM catalogue_picks p
           JOIN catalogues c ON c.id = p.catalogue_id
           JOIN requests r ON r.id = c.request_id
           JOIN members m ON m.id = p.member_id
          WHERE NOT (m.pool_id = r.pool_id AND m.status = 'active'
                AND (m.postal_code = ANY (r.postal_codes)
                     OR earth_distance(ll_to_earth(m.lat, m.lng), ll_to_earth(r.center_lat, r.center_lng))
                        < r.radius_km * 1000)
                AND EXISTS (SELECT 1 FROM room_capacities rc
                             WHERE rc.room_id = p.room_id AND rc.member_id = m.id
                               AND rc.configuration = ANY (r.configurations)
                               AND rc.max_capacity >= r.participants))",
    )
    .fetch_one(&pool)
    .await?;
    assert_eq!(bad_picks, 0);

    // The keyword-free showcases are there and really keyword-free.
    let rooftop: (String, String) =
        sqlx::query_as("SELECT name, description FROM members WHERE code = '#100'")
            .fetch_one(&pool)
            .await?;
    assert!(
        rooftop.1.contains("terrasse panoramique") && !rooftop.1.to_lowercase().contains("rooftop")
    );
    let guideline: serde_json::Value = sqlx::query_scalar(
        "SELECT directives FROM training_sessions WHERE directives ->> 'trigger' = 'festif' LIMIT 1",
    )
    .fetch_one(&pool)
    .await?;
    assert_eq!(guideline["avoid"][0], "sous-sol");

    // Sequences were moved past the explicit ids: plain inserts work.
    let new_pool: i64 =
        sqlx::query_scalar("INSERT INTO pools (slug, name) VALUES ('essai', 'Essai') RETURNING id")
            .fetch_one(&pool)
            .await?;
    assert_eq!(new_pool, 6);
    sqlx::query("DELETE FROM pools WHERE id = 6")
        .execute(&pool)
        .await?;

    // A second load over the first one is refused, and changes nothing.
    let refused = seed(&pool, &options).await;
    assert!(refused.is_err_and(|e| e.to_string().contains("empty database")));
    assert_eq!(count(&pool, "members").await?, 300);

    // Same seed again, after a wipe: identical table contents.
    let digest_a = content_digest(&pool).await?;
    wipe(&pool).await?;
    assert!(database_is_empty(&pool).await?);
    let second = seed(&pool, &options).await?;
    assert_eq!(second.digest, first.digest);
    assert_eq!(content_digest(&pool).await?, digest_a);

    // Another seed: other data.
    wipe(&pool).await?;
    seed(&pool, &SeedOptions { seed: 8, ..options }).await?;
    assert_ne!(content_digest(&pool).await?, digest_a);
    Ok(())
}

/// Timing run for a big load into an existing, migrated, empty database:
/// `DEMO_SEED_URL=postgres://… DEMO_SEED_MEMBERS=70000 cargo test -p server
/// --test suite demo_data:: -- --ignored --nocapture`.
#[tokio::test]
#[ignore]
async fn seed_scratch_database() -> anyhow::Result<()> {
    let _ = tracing_subscriber::fmt()
        .with_env_filter("server=debug")
        .try_init();
    let url = std::env::var("DEMO_SEED_URL")?;
    let members = std::env::var("DEMO_SEED_MEMBERS").map_or(Ok(70_000), |n| n.parse())?;
    let pool = PgPool::connect(&url).await?;
    anyhow::ensure!(database_is_empty(&pool).await?, "{url} already has members");
    let summary = seed(
        &pool,
        &SeedOptions {
            seed: 42,
            members,
            progress: true,
        },
    )
    .await?;
    println!("{summary:#?}");
    Ok(())
}
