//! Logging through `tracing`, filtered by `MAXY_LOG` (default `info`); the
//! chat's stage events (`agent::stages`), which only `maxy bench chat`
//! records; and, when `OTEL_EXPORTER_OTLP_ENDPOINT` (or
//! `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) is set, our spans exported over
//! OpenTelemetry (OTLP/HTTP, protobuf; ADR 0042). Each layer has its own
//! filter: the log's level does not hide the stage events from the
//! benchmark nor spans from the exporter, and the exporter sees only our
//! own targets (`server`, `app`, `maxy::*`), never sqlx's or hyper's.
//!
//! Without an endpoint nothing of OpenTelemetry is built: no layer, no
//! exporter thread. The SDK reads the other standard variables itself
//! (`OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`,
//! `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_EXPORTER_OTLP_TIMEOUT`,
//! `OTEL_TRACES_SAMPLER`/`_ARG`, `OTEL_BSP_*`); the headers may carry a
//! token and are never logged.
mod otlp;

pub use otlp::{traces_endpoint, ENDPOINT_VAR, TRACES_ENDPOINT_VAR};

use crate::config::{redact_url, ConfigError, Env};
use opentelemetry_sdk::trace::SdkTracerProvider;
use std::time::Duration;
use tracing::Subscriber;

/// The longest the last spans' export may hold the process's exit.
const SHUTDOWN_WAIT: Duration = Duration::from_secs(5);

/// Why telemetry could not start.
#[derive(Debug, thiserror::Error)]
pub enum TelemetryError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The SDK refused the exporter (its message names no header value).
    #[error("cannot build the OTLP span exporter: {0}")]
    Exporter(String),
}

/// What [`init`] started: the span exporter, when there is one. Dropping it
/// (or [`Telemetry::shutdown`]) sends the spans still queued, waiting at
/// most 5 s.
#[derive(Debug, Default)]
pub struct Telemetry {
    otlp: Option<SdkTracerProvider>,
    /// Where spans go (password hidden), for the start-up line.
    endpoint: Option<String>,
}

impl Telemetry {
    /// Whether spans are exported (an endpoint is set).
    pub fn exporting(&self) -> bool {
        self.otlp.is_some()
    }

    /// Exports the spans queued so far now, waiting at most 5 s (the SDK's
    /// bound). Blocking: from async code, call it on a blocking thread.
    pub fn flush(&self) {
        if let Some(provider) = &self.otlp {
            if let Err(e) = provider.force_flush() {
                tracing::warn!(error = %e, "cannot flush the OTLP span export");
            }
        }
    }

    /// Exports what is queued and stops the exporter (bounded wait).
    pub fn shutdown(mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        if let Some(provider) = self.otlp.take() {
            if let Err(e) = provider.shutdown_with_timeout(SHUTDOWN_WAIT) {
                tracing::warn!(error = %e, "the last spans may not have been exported");
            }
        }
    }
}

impl Drop for Telemetry {
    fn drop(&mut self) {
        self.stop();
    }
}

/// Installs the process's subscriber, read from the environment. An invalid
/// OTLP setting is an error that names its variable, as for every setting.
pub fn init() -> Result<Telemetry, TelemetryError> {
    let (subscriber, telemetry) = subscriber(&Env::process())?;
    if tracing::subscriber::set_global_default(subscriber).is_ok() {
        if let Some(endpoint) = &telemetry.endpoint {
            tracing::info!(endpoint = %endpoint, "exporting spans over OTLP");
        }
    }
    Ok(telemetry)
}

/// The subscriber [`init`] installs, not installed (tests scope it to a
/// thread with `tracing::subscriber::set_default`). The OTLP decisions
/// (whether, where, which protocol) read `env`; the SDK reads the rest of
/// the `OTEL_*` variables from the process.
pub fn subscriber(
    env: &Env,
) -> Result<(impl Subscriber + Send + Sync + 'static, Telemetry), TelemetryError> {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::{EnvFilter, Layer};
    let filter = EnvFilter::try_from_env("MAXY_LOG").unwrap_or_else(|_| EnvFilter::new("info"));
    let telemetry = match traces_endpoint(env)? {
        Some(endpoint) => Telemetry {
            otlp: Some(otlp::provider(&endpoint)?),
            endpoint: Some(redact_url(&endpoint)),
        },
        None => Telemetry::default(),
    };
    let otlp = telemetry.otlp.as_ref().map(|provider| {
        use opentelemetry::trace::TracerProvider as _;
        tracing_opentelemetry::layer()
            .with_tracer(provider.tracer("maxy"))
            // Tokio's worker threads say nothing about a turn.
            .with_threads(false)
            .with_filter(exported())
    });
    let subscriber = tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_filter(filter),
        )
        .with(crate::agent::stages::layer())
        .with(otlp);
    Ok((subscriber, telemetry))
}

/// What the exporter sees: our spans (`chat_turn`, `tool`, `model_call`,
/// `request`…) and our events inside them, the stage events included;
/// nothing of the libraries (sqlx, hyper, the SDK's own logs).
fn exported() -> tracing_subscriber::filter::Targets {
    use tracing::Level;
    tracing_subscriber::filter::Targets::new()
        .with_target("server", Level::INFO)
        .with_target("app", Level::INFO)
        .with_target("maxy", Level::TRACE)
}
