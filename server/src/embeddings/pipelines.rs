//! One embedding client per pipeline (seed 003, part 4).
//!
//! Venues, user memory and training each get their own client, built from
//! their own settings: their own model, dimension and canary. Pointing the
//! memory pipeline at another model or gateway can never change the vectors
//! stored for venues.
use super::openai::{ClientBuildError, OpenAiEmbeddings};
use super::EmbeddingProvider;
use crate::config::{EmbeddingPipeline, EmbeddingSettings};
use std::sync::Arc;

/// The three pipelines' providers; cheap to clone.
#[derive(Clone)]
pub struct Embedders {
    pub venues: Arc<dyn EmbeddingProvider>,
    pub memory: Arc<dyn EmbeddingProvider>,
    pub training: Arc<dyn EmbeddingProvider>,
}

impl Embedders {
    /// Build once per process (the canary logs once per pipeline and endpoint).
    pub fn from_settings(settings: &EmbeddingSettings) -> Result<Self, ClientBuildError> {
        let client =
            |p: EmbeddingPipeline| -> Result<Arc<dyn EmbeddingProvider>, ClientBuildError> {
                Ok(Arc::new(OpenAiEmbeddings::new(
                    p,
                    settings.pipeline(p),
                    settings.timeout,
                )?))
            };
        Ok(Embedders {
            venues: client(EmbeddingPipeline::Venues)?,
            memory: client(EmbeddingPipeline::Memory)?,
            training: client(EmbeddingPipeline::Training)?,
        })
    }

    pub fn pipeline(&self, p: EmbeddingPipeline) -> &Arc<dyn EmbeddingProvider> {
        match p {
            EmbeddingPipeline::Venues => &self.venues,
            EmbeddingPipeline::Memory => &self.memory,
            EmbeddingPipeline::Training => &self.training,
        }
    }
}

/// Models and dimensions only: the providers hold keys and are not `Debug`.
impl std::fmt::Debug for Embedders {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut s = f.debug_struct("Embedders");
        for p in EmbeddingPipeline::ALL {
            let provider = self.pipeline(p);
            s.field(
                p.label(),
                &format_args!("{} ({} dims)", provider.model(), provider.dimensions()),
            );
        }
        s.finish()
    }
}
