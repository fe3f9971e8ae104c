//! Query vectors kept by their text. The same searches come back all day
//! (a request searched again after an edit, a held search, the same words
//! typed by two members), and each costs the query lane a round trip to the
//! model (15–25 ms locally, more on a hosted API) that one lock and one
//! lookup here replace. A model answers the same text with the same vector,
//! so a hit changes nothing but the wait.
use hashlink::LruCache;
use std::sync::Mutex;

/// Distinct query texts kept per pipeline: 2,048 × 384 floats ≈ 3 MB with
/// the local model (12 MB at 1,536 dimensions).
const CAPACITY: usize = 2_048;

pub(super) struct QueryCache {
    vectors: Mutex<LruCache<String, Vec<f32>>>,
}

impl Default for QueryCache {
    fn default() -> Self {
        QueryCache::with_capacity(CAPACITY)
    }
}

/// The cache key: runs of whitespace as one space, trimmed. The tokenizer
/// splits on whitespace, so these texts reach the model as the same tokens;
/// case and accents are kept (they change the tokens, and the vector).
pub(super) fn key(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

impl QueryCache {
    fn with_capacity(capacity: usize) -> Self {
        QueryCache {
            vectors: Mutex::new(LruCache::new(capacity)),
        }
    }

    /// Keeps nothing.
    pub fn disabled() -> Self {
        QueryCache::with_capacity(0)
    }

    /// The kept vector of every text, or `None` when one is missing.
    pub fn all(&self, texts: &[String]) -> Option<Vec<Vec<f32>>> {
        let mut vectors = self.vectors.lock().unwrap_or_else(|e| e.into_inner());
        texts
            .iter()
            .map(|text| vectors.get(&key(text)).cloned())
            .collect()
    }

    pub fn keep(&self, texts: &[String], vectors: &[Vec<f32>]) {
        let mut kept = self.vectors.lock().unwrap_or_else(|e| e.into_inner());
        for (text, vector) in texts.iter().zip(vectors) {
            kept.insert(key(text), vector.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spacing_does_not_make_another_query_but_case_does() {
        assert_eq!(
            key("  salle   pour 80\tpersonnes \n"),
            "salle pour 80 personnes"
        );
        assert_ne!(key("Rooftop"), key("rooftop"));
    }

    #[test]
    fn a_text_is_answered_only_when_every_text_is_kept() {
        let cache = QueryCache::default();
        let texts = vec!["séminaire à Lyon".to_string(), "rooftop".to_string()];
        assert_eq!(cache.all(&texts), None);
        cache.keep(&texts[..1], &[vec![1.0, 0.0]]);
        assert_eq!(cache.all(&texts), None);
        assert_eq!(
            cache.all(&["  séminaire  à Lyon".to_string()]),
            Some(vec![vec![1.0, 0.0]])
        );
        cache.keep(&texts, &[vec![1.0, 0.0], vec![0.0, 1.0]]);
        assert_eq!(
            cache.all(&texts),
            Some(vec![vec![1.0, 0.0], vec![0.0, 1.0]])
        );
    }

    #[test]
    fn a_disabled_cache_keeps_nothing() {
        let cache = QueryCache::disabled();
        cache.keep(&["rooftop".to_string()], &[vec![1.0]]);
        assert_eq!(cache.all(&["rooftop".to_string()]), None);
    }

    #[test]
    fn the_least_recently_used_text_goes_first() {
        let cache = QueryCache::default();
        for i in 0..CAPACITY {
            cache.keep(&[format!("q{i}")], &[vec![i as f32]]);
        }
        assert!(cache.all(&["q0".to_string()]).is_some()); // q0 used again
        cache.keep(&["new".to_string()], &[vec![0.5]]);
        assert!(cache.all(&["q0".to_string()]).is_some());
        assert_eq!(cache.all(&["q1".to_string()]), None);
    }
}
