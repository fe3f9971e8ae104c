//! Migrations apply to an empty database, and a second run changes nothing.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use server::db::MIGRATOR;
use sqlx::PgPool;

/// Every column, constraint and index of the public schema, as one text.
async fn schema_fingerprint(db: &PgPool) -> String {
    sqlx::query_scalar(
        r#"SELECT md5(string_agg(line, E'\n' ORDER BY line)) FROM (
             SELECT format('col %s.%s %s %s %s', table_name, column_name, data_type, is_nullable, column_default) AS line
               FROM information_schema.columns WHERE table_schema = 'public'
             UNION ALL
             SELECT format('con %s %s', conname, pg_get_constraintdef(oid)) FROM pg_constraint
              WHERE connamespace = 'public'::regnamespace
             UNION ALL
             SELECT format('idx %s', indexdef) FROM pg_indexes WHERE schemaname = 'public'
           ) lines"#,
    )
    .fetch_one(db)
    .await
    .expect("fingerprint")
}

#[sqlx::test(migrations = false)]
async fn migrations_apply_to_an_empty_database_then_are_a_no_op(db: PgPool) {
    MIGRATOR.run(&db).await.expect("first run");
    let applied: i64 = sqlx::query_scalar("SELECT count(*) FROM _sqlx_migrations WHERE success")
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(applied as usize, MIGRATOR.iter().count());
    let before = schema_fingerprint(&db).await;

    MIGRATOR.run(&db).await.expect("second run");
    assert_eq!(
        schema_fingerprint(&db).await,
        before,
        "a second run changed the schema"
    );
    let applied_again: i64 = sqlx::query_scalar("SELECT count(*) FROM _sqlx_migrations")
        .fetch_one(&db)
        .await
        .expect("count");
    assert_eq!(applied_again, applied);
}

#[sqlx::test(migrations = false)]
async fn the_extensions_search_needs_are_installed(db: PgPool) {
    MIGRATOR.run(&db).await.expect("migrate");
    let names: Vec<String> =
        sqlx::query_scalar("SELECT extname::text FROM pg_extension ORDER BY 1")
            .fetch_all(&db)
            .await
            .expect("extensions");
    for wanted in ["cube", "earthdistance", "vector"] {
        assert!(
            names.iter().any(|n| n == wanted),
            "{wanted} missing from {names:?}"
        );
    }
    let version: String =
        sqlx::query_scalar("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
            .fetch_one(&db)
            .await
            .expect("version");
    let mut parts = version.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    let (major, minor) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
    assert!(
        (major, minor) >= (0, 8),
        "pgvector {version} < 0.8 (HNSW iterative scans, halfvec)"
    );
}
