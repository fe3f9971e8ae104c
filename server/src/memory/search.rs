//! `user_data_semantic_search` (seed 003 part 7): one user's memories and
//! reminders found by meaning, by their words and by their dates, ranked
//! by one tuned function, each hit saying how sure the search is.
//!
//! 1. **Candidates**: the rows nearest to the question's vector (exact
//!    cosine over the rows of the configured model and dimension), the rows
//!    sharing a word with it (unaccented French full text, any word), and
//!    when the question names a time (« jeudi », « cette semaine ») the
//!    reminders due then ([`super::dates`]).
//! 2. **Ranking** ([`super::ranking`], tuned per model in [`super::floor`]):
//!    cosine + words + date, a keep floor, and « correspond » only for a
//!    best row that clears the match bar with a lead over the next.
//! 3. **Judge**: with a language model configured, the best candidates go
//!    to it with the question ([`super::judge`]); what it says answers
//!    becomes « correspond », and nothing when it says none. Offline, or
//!    when it fails or is late, the ranking stands.
//! 4. **Recency**: when nothing is kept, the latest memories, each marked
//!    [`Confidence::Recent`] (« aucun souvenir ne correspond ; voici les
//!    plus récents »), so a user with rows never gets an empty answer.
//!
//! The answer's source: `vector` when a row was found by meaning (its
//! cosine alone keeps it, or the judge read it), `fts` when rows were shown
//! for their words or dates only (always so during an embedding outage),
//! `recency` otherwise. An embedding outage is never an error.
//! Every search is logged (user, source, best similarity, hit count; never
//! the query at `info`) and, unless it runs for a page rendered on a GET
//! (`record` false: GET never writes), recorded in `memory_searches`.
use super::ranking::{Evidence, Ranked};
use super::validate::{self, MAX_HITS};
use super::{
    dates, embed, judge, Confidence, Hit, HitKind, MemoryError, MemoryStore, SearchAnswer,
    SearchSource, SourceSplit,
};
use crate::db::memory_vectors::{self, HitRow};
use crate::db::{ai_memories, memory_candidates, memory_searches, tasks};
use std::collections::HashMap;

/// Rows the recency step returns (the seed's "five latest").
pub const RECENCY_ROWS: usize = 5;
/// Rows each step proposes before the ranking.
const CANDIDATES_PER_STEP: i64 = 20;

pub async fn search(
    store: &MemoryStore,
    user_id: i64,
    query: &str,
    limit: usize,
    record: bool,
) -> Result<SearchAnswer, MemoryError> {
    let query = validate::query(query)?;
    let limit = limit.clamp(1, MAX_HITS);
    let answer = chain(store, user_id, &query, limit).await?;
    let source = label(answer.source);
    tracing::info!(
        user_id,
        source,
        best_similarity = answer.best_similarity,
        hits = answer.hits.len(),
        matches = answer
            .hits
            .iter()
            .filter(|h| h.confidence == Confidence::Matches)
            .count(),
        record,
        "memory search"
    );
    if !record {
        return Ok(answer);
    }
    let hits = i32::try_from(answer.hits.len()).unwrap_or(i32::MAX);
    // The log row is for monitoring: losing it must not lose the answer.
    if let Err(e) =
        memory_searches::record(&store.db, user_id, source, answer.best_similarity, hits).await
    {
        tracing::warn!(user_id, "memory search not recorded: {e}");
    }
    Ok(answer)
}

/// One candidate row and what each step learnt of it.
struct Candidate {
    row: HitRow,
    cosine: Option<f64>,
    /// `ts_rank` when the full-text step found it.
    words: Option<f64>,
}

async fn chain(
    store: &MemoryStore,
    user_id: i64,
    query: &str,
    limit: usize,
) -> Result<SearchAnswer, MemoryError> {
    let db = &store.db;
    let today = dates::paris_date(chrono::Utc::now());
    let window = dates::window_in(query, today);
    let vector = embed::for_query(store.embedder.as_ref(), user_id, query).await;
    let (dims, model) = (store.embedder.dimensions(), store.embedder.model());

    let mut candidates: Vec<Candidate> = Vec::new();
    let mut index: HashMap<(String, i64), usize> = HashMap::new();
    let mut add = |row: HitRow, cosine: Option<f64>, words: Option<f64>| {
        let key = (row.kind.clone(), row.id);
        match index.get(&key) {
            Some(&at) => {
                let c: &mut Candidate = &mut candidates[at];
                c.cosine = c.cosine.or(cosine);
                c.words = c.words.or(words);
            }
            None => {
                index.insert(key, candidates.len());
                candidates.push(Candidate { row, cosine, words });
            }
        }
    };
    let mut best_similarity = None;
    if let Some(v) = &vector {
        let nearest =
            memory_vectors::nearest(db, user_id, v, dims, model, CANDIDATES_PER_STEP).await?;
        best_similarity = nearest.first().map(|r| r.score);
        for row in nearest {
            let cosine = row.score;
            add(row, Some(cosine), None);
        }
    }
    for row in ai_memories::fts(db, user_id, query, CANDIDATES_PER_STEP).await? {
        let rank = row.score;
        add(row, None, Some(rank));
    }
    for row in tasks::fts(db, user_id, query, CANDIDATES_PER_STEP).await? {
        let rank = row.score;
        add(row, None, Some(rank));
    }
    if let Some(w) = window {
        for row in memory_candidates::due_between(db, user_id, w.first, w.last, CANDIDATES_PER_STEP)
            .await?
        {
            add(row, None, None);
        }
    }
    if let Some(v) = &vector {
        complete_cosines(store, user_id, v, &mut candidates).await?;
    }

    let best_words = candidates
        .iter()
        .filter_map(|c| c.words)
        .fold(0.0, f64::max);
    let evidence: Vec<Evidence> = candidates
        .iter()
        .map(|c| Evidence {
            cosine: c.cosine,
            words: match c.words {
                Some(r) if best_words > 0.0 => r / best_words,
                _ => 0.0,
            },
            in_window: window.is_some_and(|w| {
                c.row
                    .due_at
                    .is_some_and(|d| w.contains(dates::paris_date(d)))
                    || dates::mentions_date_in(
                        &format!("{}\n{}", c.row.title, c.row.content),
                        &w,
                        today,
                    )
            }),
        })
        .collect();
    let mut ranked: Vec<Ranked> = store.tuning.rank(&evidence);
    if let Some(llm) = &store.judge {
        if let Some(judged) = judged(store, llm, user_id, query, &candidates, &evidence).await {
            ranked = judged;
        }
    }

    if !ranked.is_empty() {
        let mut taken: Vec<Option<Candidate>> = candidates.into_iter().map(Some).collect();
        let hits: Vec<Hit> = ranked
            .iter()
            .take(limit)
            .filter_map(|r| {
                let c = taken[r.index].take()?;
                // Found by meaning when its cosine alone would keep it (or
                // the judge read it); by its words or date otherwise.
                let by_meaning = c.cosine.is_some_and(|cos| {
                    r.confidence == Confidence::Matches || cos >= store.tuning.keep_floor
                });
                let matched_by = if by_meaning {
                    SearchSource::Vector
                } else {
                    SearchSource::Fts
                };
                let score = c.cosine.or(c.words).unwrap_or(0.0);
                Some(hit(c.row, score, matched_by, r.confidence))
            })
            .collect();
        let source = if hits.iter().any(|h| h.matched_by == SearchSource::Vector) {
            SearchSource::Vector
        } else {
            SearchSource::Fts
        };
        return Ok(SearchAnswer {
            source,
            hits,
            best_similarity,
        });
    }
    let recent = limit.min(RECENCY_ROWS) as i64;
    let mut rows = ai_memories::latest(db, user_id, recent).await?;
    if (rows.len() as i64) < recent {
        rows.extend(tasks::latest(db, user_id, recent - rows.len() as i64).await?);
    }
    Ok(SearchAnswer {
        source: SearchSource::Recency,
        hits: rows
            .into_iter()
            .map(|r| hit(r, 0.0, SearchSource::Recency, Confidence::Recent))
            .collect(),
        best_similarity,
    })
}

/// The model's reading of the best candidates (by fused score, kept or
/// not: the keep floor is the offline stand-in for this reading): those it
/// says answer, « correspond », in its order; none: nothing is kept and
/// the search falls back to recency. `None` when it gave no verdict.
async fn judged(
    store: &MemoryStore,
    llm: &std::sync::Arc<dyn crate::llm::LlmProvider>,
    user_id: i64,
    query: &str,
    candidates: &[Candidate],
    evidence: &[Evidence],
) -> Option<Vec<Ranked>> {
    let mut order: Vec<(usize, f64)> = evidence
        .iter()
        .enumerate()
        .map(|(i, e)| (i, store.tuning.fused(e)))
        .collect();
    order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    order.truncate(judge::MAX_CANDIDATES);
    let shown: Vec<Hit> = order
        .iter()
        .map(|&(i, _)| {
            let c = &candidates[i];
            let score = c.cosine.or(c.words).unwrap_or(0.0);
            hit(
                c.row.clone(),
                score,
                SearchSource::Vector,
                Confidence::Maybe,
            )
        })
        .collect();
    let recording = crate::llm::Recording::new(
        llm.clone(),
        store.db.clone(),
        crate::llm::CallContext {
            user_id: Some(user_id),
            ..Default::default()
        },
    );
    match judge::judge(&recording, user_id, query, &shown, judge::DEFAULT_BOUND).await {
        judge::Verdict::Answers(picked) => Some(
            picked
                .into_iter()
                .filter_map(|p| order.get(p))
                .map(|&(index, fused)| Ranked {
                    index,
                    fused,
                    confidence: Confidence::Matches,
                })
                .collect(),
        ),
        judge::Verdict::Unavailable(_) => None,
    }
}

/// The cosine of candidates found by words or dates only, so every row
/// with a vector is ranked on the same evidence.
async fn complete_cosines(
    store: &MemoryStore,
    user_id: i64,
    vector: &pgvector::Vector,
    candidates: &mut [Candidate],
) -> Result<(), MemoryError> {
    let missing = |kind: &str| -> Vec<i64> {
        candidates
            .iter()
            .filter(|c| c.cosine.is_none() && c.row.kind == kind)
            .map(|c| c.row.id)
            .collect()
    };
    let (memory_ids, task_ids) = (missing("memory"), missing("task"));
    if memory_ids.is_empty() && task_ids.is_empty() {
        return Ok(());
    }
    let found = memory_candidates::cosines(
        &store.db,
        user_id,
        vector,
        store.embedder.dimensions(),
        store.embedder.model(),
        &memory_ids,
        &task_ids,
    )
    .await?;
    for (kind, id, cosine) in found {
        if let Some(c) = candidates
            .iter_mut()
            .find(|c| c.row.kind == kind && c.row.id == id)
        {
            c.cosine = Some(cosine);
        }
    }
    Ok(())
}

pub async fn source_split(
    store: &MemoryStore,
    user_id: i64,
    days: i32,
) -> Result<SourceSplit, MemoryError> {
    let mut split = SourceSplit::default();
    for (source, n) in memory_searches::split(&store.db, user_id, days.clamp(1, 366)).await? {
        match source.as_str() {
            "vector" => split.vector = n,
            "fts" => split.fts = n,
            _ => split.recency = n,
        }
    }
    Ok(split)
}

pub fn label(source: SearchSource) -> &'static str {
    match source {
        SearchSource::Vector => "vector",
        SearchSource::Fts => "fts",
        SearchSource::Recency => "recency",
    }
}

fn hit(row: HitRow, score: f64, matched_by: SearchSource, confidence: Confidence) -> Hit {
    Hit {
        kind: if row.kind == "task" {
            HitKind::Task
        } else {
            HitKind::Memory
        },
        id: row.id,
        title: row.title,
        content: row.content,
        score,
        matched_by,
        confidence,
        due_at: row.due_at,
        created_at: row.created_at,
    }
}
