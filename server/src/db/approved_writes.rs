//! The single-row writes of approved tool calls: a request's fields, a
//! knowledge entry. (The catalogue's are in `catalogue_drafts`, the
//! availability check's in `availability_checks`, training sessions in
//! `training::create`.) Each takes the executor's
//! connection, so the write commits with the approval's status.
//!
//! Runtime-checked queries: no offline data to regenerate.
use sqlx::PgConnection;

/// The fields `update_request` changes; `None` keeps the column.
#[derive(Clone, Debug, Default)]
pub struct RequestFields<'a> {
    pub status: Option<&'a str>,
    /// `Some("")` stores NULL.
    pub team_memo: Option<&'a str>,
    pub search_hints: Option<&'a str>,
    pub participants: Option<i32>,
    pub event_type: Option<&'a str>,
    pub configurations: Option<&'a [String]>,
    pub postal_codes: Option<&'a [String]>,
}

/// `false` when the request does not exist (any more).
pub async fn update_request(
    conn: &mut PgConnection,
    request_id: i64,
    f: &RequestFields<'_>,
) -> sqlx::Result<bool> {
    let done = sqlx::query(
        "UPDATE requests SET
                status         = coalesce($2, status),
                team_memo      = CASE WHEN $3::text IS NULL THEN team_memo ELSE nullif($3, '') END,
                search_hints   = CASE WHEN $4::text IS NULL THEN search_hints ELSE nullif($4, '') END,
                participants   = coalesce($5, participants),
                event_type     = coalesce($6, event_type),
                configurations = coalesce($7, configurations),
                postal_codes   = coalesce($8, postal_codes)
          WHERE id = $1",
    )
    .bind(request_id)
    .bind(f.status)
    .bind(f.team_memo)
    .bind(f.search_hints)
    .bind(f.participants)
    .bind(f.event_type)
    .bind(f.configurations)
    .bind(f.postal_codes)
    .execute(conn)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Source `ai`, written by the approver's decision.
pub async fn insert_knowledge_entry(
    conn: &mut PgConnection,
    member_id: i64,
    title: &str,
    content: &str,
    created_by: i64,
) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO knowledge_entries (member_id, title, content, source, created_by)
         VALUES ($1, $2, $3, 'ai', $4) RETURNING id",
    )
    .bind(member_id)
    .bind(title)
    .bind(content)
    .bind(created_by)
    .fetch_one(conn)
    .await
}
