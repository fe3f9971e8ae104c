//! The key facts of stage-3 finalists that the LLM ranker shows the model
//! (seed 001: "tarifs, tags, extraits KB"), cut short in SQL so 50 sheets
//! stay about one page.
//!
//! Runtime-checked (`query_as`, not `query!`): a read-only projection whose
//! shape the tests exercise, without another entry in the offline `.sqlx/` data.
use sqlx::PgExecutor;

/// Characters of description and of each knowledge excerpt fetched; the
/// prompt trims further on word boundaries.
const DESCRIPTION_CHARS: i32 = 400;
const EXCERPT_CHARS: i32 = 240;
/// Tags and knowledge entries per venue (the most recent entries).
const MAX_TAGS: i64 = 8;
const MAX_EXCERPTS: i64 = 2;

#[derive(Clone, Debug, Default, sqlx::FromRow)]
pub struct VenueFacts {
    pub member_id: i64,
    pub description: String,
    pub price_per_person_min_eur: Option<i32>,
    pub price_per_person_max_eur: Option<i32>,
    pub venue_hire_from_eur: Option<i32>,
    pub price_notes: Option<String>,
    pub tags: Vec<String>,
    /// Newest first.
    pub knowledge: Vec<String>,
    /// Attributes the venue has: the label of a true yes/no attribute,
    /// « label : value » otherwise (training directives look for words there).
    pub attributes: Vec<String>,
}

pub async fn for_members(
    db: impl PgExecutor<'_>,
    member_ids: &[i64],
) -> sqlx::Result<Vec<VenueFacts>> {
    sqlx::query_as(
        "SELECT m.id AS member_id,
                left(m.description, $2) AS description,
                m.price_per_person_min_eur, m.price_per_person_max_eur, m.venue_hire_from_eur,
                left(m.price_notes, $3) AS price_notes,
                coalesce((SELECT array_agg(t.name ORDER BY t.name)
                            FROM (SELECT t.name FROM member_tags mt JOIN tags t ON t.id = mt.tag_id
                                   WHERE mt.member_id = m.id ORDER BY t.name LIMIT $4) t),
                         '{}') AS tags,
                coalesce((SELECT array_agg(k.excerpt ORDER BY k.created_at DESC)
                            FROM (SELECT left(k.content, $3) AS excerpt, k.created_at
                                    FROM knowledge_entries k WHERE k.member_id = m.id
                                   ORDER BY k.created_at DESC LIMIT $5) k),
                         '{}') AS knowledge,
                coalesce((SELECT array_agg(CASE WHEN jsonb_typeof(a.value) = 'boolean' THEN at.label
                                                ELSE at.label || ' : ' || (a.value #>> '{}') END
                                           ORDER BY at.label)
                            FROM member_attributes a JOIN attribute_types at ON at.id = a.attribute_type_id
                           WHERE a.member_id = m.id AND a.value <> 'false'::jsonb),
                         '{}') AS attributes
           FROM members m
          WHERE m.id = ANY($1)",
    )
    .bind(member_ids)
    .bind(DESCRIPTION_CHARS)
    .bind(EXCERPT_CHARS)
    .bind(MAX_TAGS)
    .bind(MAX_EXCERPTS)
    .fetch_all(db)
    .await
}
