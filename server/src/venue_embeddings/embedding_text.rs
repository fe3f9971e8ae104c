//! The text a venue is embedded from (seed 001, "Génération des embeddings"):
//! name, description, tags joined, rooms as `name: description`, knowledge
//! entries, separated by blank lines, empty parts left out.
//!
//! Built by one SQL query for a whole batch of members, in a fixed order
//! (tags by name, rooms by position, knowledge by date), so the same data
//! always gives the same text and the same sha256: unchanged venues are
//! recognised and never re-embedded. The query lives here rather than in
//! `db/` because it *is* the definition of the text.
use sha2::{Digest, Sha256};
use sqlx::PgExecutor;

/// One venue's text, and what its stored embedding (if any) was made from.
#[derive(Clone, Debug)]
pub struct VenueText {
    pub member_id: i64,
    pub text: String,
    /// sha256 of `text` (UTF-8).
    pub hash: [u8; 32],
    pub stored: Option<StoredEmbedding>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredEmbedding {
    pub model: String,
    pub dims: i32,
    pub text_hash: Vec<u8>,
}

impl VenueText {
    /// The stored vector was made from this exact text by this model and size.
    pub fn is_current(&self, model: &str, dims: i32) -> bool {
        self.stored.as_ref().is_some_and(|s| {
            s.model == model && s.dims == dims && s.text_hash.as_slice() == self.hash.as_slice()
        })
    }
}

/// sha256 of a venue text, as stored in `member_embeddings.text_hash`.
pub fn text_hash(text: &str) -> [u8; 32] {
    Sha256::digest(text.as_bytes()).into()
}

/// The texts of the members among `member_ids` that still exist, by id.
pub async fn venue_texts(
    db: impl PgExecutor<'_>,
    member_ids: &[i64],
) -> sqlx::Result<Vec<VenueText>> {
    // concat_ws skips NULLs; NULLIF turns empty parts into NULLs, like the
    // seed's `.filter(Boolean)`. A room without a description is its name.
    let rows = sqlx::query!(
        r#"SELECT m.id,
                  concat_ws(E'\n\n',
                      NULLIF(btrim(m.name), ''),
                      NULLIF(btrim(m.description), ''),
                      t.tags, r.rooms, k.knowledge) AS "text!",
                  e.model AS "model?", e.dims AS "dims?", e.text_hash AS "text_hash?"
             FROM members m
             LEFT JOIN LATERAL (
                  SELECT NULLIF(string_agg(btrim(tg.name), ', ' ORDER BY lower(tg.name), tg.id), '') AS tags
                    FROM member_tags mt JOIN tags tg ON tg.id = mt.tag_id
                   WHERE mt.member_id = m.id) t ON true
             LEFT JOIN LATERAL (
                  SELECT NULLIF(string_agg(
                             btrim(ro.name) || CASE WHEN btrim(ro.description) <> ''
                                                    THEN ': ' || btrim(ro.description) ELSE '' END,
                             E'\n' ORDER BY ro.position, ro.id), '') AS rooms
                    FROM rooms ro
                   WHERE ro.member_id = m.id) r ON true
             LEFT JOIN LATERAL (
                  SELECT NULLIF(string_agg(btrim(ke.content), E'\n' ORDER BY ke.created_at, ke.id), '') AS knowledge
                    FROM knowledge_entries ke
                   WHERE ke.member_id = m.id) k ON true
             LEFT JOIN member_embeddings e ON e.member_id = m.id
            WHERE m.id = ANY($1)
            ORDER BY m.id"#,
        member_ids
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let stored = match (r.model, r.dims, r.text_hash) {
                (Some(model), Some(dims), Some(text_hash)) => Some(StoredEmbedding {
                    model,
                    dims,
                    text_hash,
                }),
                _ => None,
            };
            VenueText {
                member_id: r.id,
                hash: text_hash(&r.text),
                text: r.text,
                stored,
            }
        })
        .collect())
}
