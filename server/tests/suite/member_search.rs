//! `member_search` (migration 0011) is derived data: every write to members
//! or room capacities must leave it equal to what it would be rebuilt from
//! scratch, or stage 1 of the venue search returns wrong venues.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use sqlx::PgPool;

/// The rows as the triggers left them, and as a full rebuild computes them.
async fn assert_in_step(db: &PgPool, context: &str) {
    let row = "member_id, pool_id, postal_code, earth::text, cap_reunion, cap_u, cap_theatre, cap_cabaret, cap_ecole, cap_banquet, cap_cocktail";
    let kept: Vec<String> = sqlx::query_scalar(&format!(
        "SELECT row({row})::text FROM member_search ORDER BY member_id"
    ))
    .fetch_all(db)
    .await
    .unwrap();
    let mut tx = db.begin().await.unwrap();
    sqlx::query("DELETE FROM member_search")
        .execute(&mut *tx)
        .await
        .unwrap();
    sqlx::query("SELECT refresh_member_search(ARRAY(SELECT id FROM members))")
        .execute(&mut *tx)
        .await
        .unwrap();
    let rebuilt: Vec<String> = sqlx::query_scalar(&format!(
        "SELECT row({row})::text FROM member_search ORDER BY member_id"
    ))
    .fetch_all(&mut *tx)
    .await
    .unwrap();
    tx.rollback().await.unwrap();
    assert_eq!(kept, rebuilt, "member_search drifted after: {context}");
}

async fn caps(db: &PgPool, member: i64) -> Option<(i32, i32)> {
    sqlx::query_as("SELECT cap_cocktail, cap_banquet FROM member_search WHERE member_id = $1")
        .bind(member)
        .fetch_optional(db)
        .await
        .unwrap()
}

async fn exec(db: &PgPool, sql: &str, member: i64) {
    sqlx::query(sql).bind(member).execute(db).await.unwrap();
}

#[sqlx::test(migrations = "../migrations")]
async fn every_write_keeps_member_search_exact(db: PgPool) {
    sqlx::query("INSERT INTO pools (slug, name) VALUES ('a', 'A'), ('b', 'B')")
        .execute(&db)
        .await
        .unwrap();
    let member: i64 = sqlx::query_scalar(
        "INSERT INTO members (code, name, pool_id, status, postal_code, city, lat, lng)
         SELECT '#1', 'Le Belvédère', id, 'active', '75008', 'Paris', 48.87, 2.31 FROM pools WHERE slug = 'a'
         RETURNING id",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(
        caps(&db, member).await,
        Some((0, 0)),
        "an active member without rooms has a row with no capacity"
    );

    // Two rooms: the largest capacity per configuration wins.
    exec(
        &db,
        "INSERT INTO rooms (member_id, name) VALUES ($1, 'Salon'), ($1, 'Terrasse')",
        member,
    )
    .await;
    exec(
        &db,
        "INSERT INTO room_capacities (room_id, member_id, configuration, max_capacity)
         SELECT r.id, r.member_id, c.configuration, c.cap
           FROM rooms r
           JOIN (VALUES ('Salon', 'cocktail', 80), ('Salon', 'banquet', 50), ('Terrasse', 'cocktail', 200))
                AS c(room, configuration, cap) ON c.room = r.name
          WHERE r.member_id = $1",
        member,
    )
    .await;
    assert_eq!(caps(&db, member).await, Some((200, 50)));
    assert_in_step(&db, "rooms added").await;

    exec(&db, "UPDATE room_capacities SET max_capacity = 60 WHERE member_id = $1 AND configuration = 'banquet'", member).await;
    assert_eq!(caps(&db, member).await, Some((200, 60)));

    // Deleting a room cascades to its capacities, which refresh the row.
    exec(
        &db,
        "DELETE FROM rooms WHERE member_id = $1 AND name = 'Terrasse'",
        member,
    )
    .await;
    assert_eq!(caps(&db, member).await, Some((80, 60)));
    assert_in_step(&db, "room deleted").await;

    // A description edit does not matter; a move does.
    exec(
        &db,
        "UPDATE members SET description = 'Vue sur les toits' WHERE id = $1",
        member,
    )
    .await;
    exec(
        &db,
        "UPDATE members SET lat = 48.85, lng = 2.35, postal_code = '75004' WHERE id = $1",
        member,
    )
    .await;
    let postal: String =
        sqlx::query_scalar("SELECT postal_code FROM member_search WHERE member_id = $1")
            .bind(member)
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(postal, "75004");
    exec(
        &db,
        "UPDATE members SET pool_id = (SELECT id FROM pools WHERE slug = 'b') WHERE id = $1",
        member,
    )
    .await;
    assert_in_step(&db, "member moved to another place and pool").await;

    // Coordinates removed: still searchable by postal code, without a position.
    exec(
        &db,
        "UPDATE members SET lat = NULL, lng = NULL WHERE id = $1",
        member,
    )
    .await;
    let earth: Option<String> =
        sqlx::query_scalar("SELECT earth::text FROM member_search WHERE member_id = $1")
            .bind(member)
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(earth, None);

    // Only active members are searchable.
    exec(
        &db,
        "UPDATE members SET status = 'inactive' WHERE id = $1",
        member,
    )
    .await;
    assert_eq!(caps(&db, member).await, None, "inactive: no row");
    exec(&db, "UPDATE room_capacities SET max_capacity = 90 WHERE member_id = $1 AND configuration = 'cocktail'", member).await;
    assert_eq!(
        caps(&db, member).await,
        None,
        "a room edit does not resurrect it"
    );
    exec(
        &db,
        "UPDATE members SET status = 'active' WHERE id = $1",
        member,
    )
    .await;
    assert_eq!(
        caps(&db, member).await,
        Some((90, 60)),
        "reactivated with current rooms"
    );
    assert_in_step(&db, "status changes").await;

    exec(&db, "DELETE FROM members WHERE id = $1", member).await;
    assert_eq!(caps(&db, member).await, None);
    assert_in_step(&db, "member deleted").await;
}

#[sqlx::test(migrations = "../migrations")]
async fn a_bulk_load_fills_member_search_in_one_pass(db: PgPool) {
    // The demo generator's COPY path: statement triggers see every row.
    let options = server::demo::SeedOptions {
        seed: 7,
        members: 300,
        progress: false,
    };
    server::demo::seed(&db, &options).await.unwrap();
    let (members, rows): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM members WHERE status = 'active'), (SELECT count(*) FROM member_search)",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert!(members > 200, "{members} active members");
    assert_eq!(rows, members, "one row per active member");
    assert_in_step(&db, "demo load").await;
}
