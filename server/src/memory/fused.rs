//! The fused ranking (issue #12, "beyond the seed"): when the vector path is
//! weak, exact-word full-text hits are merged into its answer, so a semantic
//! floor never hides a literal match (a venue name, a person, a reference
//! that the model maps far from the query).
//!
//! Reciprocal-rank fusion rather than a blend of scores: cosine similarities
//! and `ts_rank` values live on unrelated scales (and e5's cosines crowd into
//! a narrow band), while ranks compare across both. Each hit keeps its own
//! score and says which path found it; a hit both paths found counts twice
//! and is marked `vector`.
use super::{Hit, HitKind, SearchSource};
use std::collections::HashMap;

/// The usual RRF constant: dampens the head so that rank 1 of one list does
/// not outweigh ranks 1–3 of the other.
const RRF_K: f64 = 60.0;

/// How close to the floor the best vector hit may be before the answer
/// counts as weak (cosine units; e5's related and unrelated pairs sit a few
/// hundredths apart, so "close" must be small).
pub const WEAK_MARGIN: f64 = 0.02;

/// True when the vector answer should be completed by full text.
pub fn is_weak(hits: usize, best: f64, floor: f64, limit: usize) -> bool {
    hits < limit || best < floor + WEAK_MARGIN
}

/// Merges `vector` and `fts` hits (each best first) into at most `limit`
/// hits, deduplicated by (kind, id).
pub fn fuse(vector: Vec<Hit>, fts: Vec<Hit>, limit: usize) -> Vec<Hit> {
    let mut merged: Vec<(f64, Hit)> = Vec::with_capacity(vector.len() + fts.len());
    let mut index: HashMap<(HitKind, i64), usize> = HashMap::new();
    for (list, source) in [(vector, SearchSource::Vector), (fts, SearchSource::Fts)] {
        for (rank, mut hit) in list.into_iter().enumerate() {
            let weight = 1.0 / (RRF_K + rank as f64 + 1.0);
            match index.get(&(hit.kind, hit.id)) {
                Some(&at) => merged[at].0 += weight,
                None => {
                    hit.matched_by = source;
                    index.insert((hit.kind, hit.id), merged.len());
                    merged.push((weight, hit));
                }
            }
        }
    }
    // Stable: on equal weight the vector hit (pushed first) stays ahead.
    merged.sort_by(|a, b| b.0.total_cmp(&a.0));
    merged.into_iter().take(limit).map(|(_, hit)| hit).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Utc;

    fn hit(kind: HitKind, id: i64, score: f64) -> Hit {
        Hit {
            kind,
            id,
            title: format!("{id}"),
            content: String::new(),
            score,
            matched_by: SearchSource::Recency,
            confidence: super::super::Confidence::Maybe,
            due_at: None,
            created_at: Utc::now(),
        }
    }

    #[test]
    fn both_lists_interleave_and_duplicates_merge() {
        let v = vec![hit(HitKind::Memory, 1, 0.9), hit(HitKind::Memory, 2, 0.8)];
        let f = vec![hit(HitKind::Task, 1, 0.3), hit(HitKind::Memory, 2, 0.2)];
        let out = fuse(v, f, 10);
        let ids: Vec<_> = out.iter().map(|h| (h.kind, h.id, h.matched_by)).collect();
        assert_eq!(
            ids,
            [
                // Memory 2 was found by both: it rises to the top.
                (HitKind::Memory, 2, SearchSource::Vector),
                (HitKind::Memory, 1, SearchSource::Vector),
                (HitKind::Task, 1, SearchSource::Fts),
            ]
        );
        assert_eq!(out[0].score, 0.8, "a hit keeps its own path's score");
    }

    #[test]
    fn the_limit_holds_and_a_literal_hit_survives_it() {
        let v = (1..=3).map(|i| hit(HitKind::Memory, i, 0.9)).collect();
        let f = vec![hit(HitKind::Memory, 99, 0.1)];
        let out = fuse(v, f, 2);
        assert_eq!(out.len(), 2);
        assert!(out
            .iter()
            .any(|h| h.id == 99 && h.matched_by == SearchSource::Fts));
    }

    #[test]
    fn weakness() {
        assert!(is_weak(2, 0.95, 0.8, 5), "fewer hits than asked");
        assert!(is_weak(5, 0.81, 0.8, 5), "best close to the floor");
        assert!(!is_weak(5, 0.9, 0.8, 5));
    }
}
