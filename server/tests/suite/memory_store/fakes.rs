//! In-process embedders for the store's tests: a deterministic
//! bag-of-words model (texts sharing words are near) and a call counter.
use server::embeddings::{EmbeddingError, EmbeddingProvider, InputType};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

pub const BOW_DIMS: u32 = 256;

/// Each lower-cased word adds 1 to the component its FNV hash picks; the
/// vector is normalised. Deterministic across runs and platforms.
#[derive(Default)]
pub struct Bow {
    pub calls: AtomicUsize,
}

impl Bow {
    pub fn shared() -> Arc<Bow> {
        Arc::new(Bow::default())
    }

    pub fn calls(&self) -> usize {
        self.calls.load(Ordering::SeqCst)
    }

    pub fn vector(text: &str) -> Vec<f32> {
        let mut v = vec![0.0_f32; BOW_DIMS as usize];
        for word in text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
        {
            let mut h: u64 = 0xcbf29ce484222325;
            for b in word.to_lowercase().bytes() {
                h = (h ^ u64::from(b)).wrapping_mul(0x100000001b3);
            }
            v[(h % u64::from(BOW_DIMS)) as usize] += 1.0;
        }
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm == 0.0 {
            v[0] = 1.0;
        } else {
            v.iter_mut().for_each(|x| *x /= norm);
        }
        v
    }
}

#[async_trait::async_trait]
impl EmbeddingProvider for Bow {
    fn model(&self) -> &str {
        "fake-bow"
    }
    fn dimensions(&self) -> u32 {
        BOW_DIMS
    }
    async fn embed(
        &self,
        texts: &[String],
        _input_type: InputType,
    ) -> Result<Vec<Vec<f32>>, EmbeddingError> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        Ok(texts.iter().map(|t| Bow::vector(t)).collect())
    }
}
