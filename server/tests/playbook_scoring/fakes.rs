//! An embedding provider in memory: a text's vector counts its words
//! (hashed into 64 dimensions), so texts sharing words are close; it
//! records every text it embeds with its input type.
use server::embeddings::{EmbeddingError, EmbeddingProvider, InputType};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Mutex;

#[derive(Default)]
pub struct WordsEmbedder {
    pub seen: Mutex<Vec<(String, InputType)>>,
}

impl WordsEmbedder {
    pub fn seen(&self) -> Vec<(String, InputType)> {
        self.seen.lock().unwrap().clone()
    }
}

pub fn vector(text: &str) -> Vec<f32> {
    let mut v = vec![0.01_f32; 64];
    for word in text.split_whitespace() {
        let mut h = DefaultHasher::new();
        word.to_lowercase().hash(&mut h);
        v[(h.finish() % 64) as usize] += 1.0;
    }
    v
}

#[async_trait::async_trait]
impl EmbeddingProvider for WordsEmbedder {
    fn model(&self) -> &str {
        "words"
    }
    fn dimensions(&self) -> u32 {
        64
    }
    async fn embed(
        &self,
        texts: &[String],
        input_type: InputType,
    ) -> Result<Vec<Vec<f32>>, EmbeddingError> {
        let mut seen = self.seen.lock().unwrap();
        seen.extend(texts.iter().map(|t| (t.clone(), input_type)));
        Ok(texts.iter().map(|t| vector(t)).collect())
    }
}

/// A provider that is always down.
pub struct DownEmbedder;

#[async_trait::async_trait]
impl EmbeddingProvider for DownEmbedder {
    fn model(&self) -> &str {
        "down"
    }
    fn dimensions(&self) -> u32 {
        64
    }
    async fn embed(&self, _: &[String], _: InputType) -> Result<Vec<Vec<f32>>, EmbeddingError> {
        Err(EmbeddingError::Unavailable("connection refused".into()))
    }
}
