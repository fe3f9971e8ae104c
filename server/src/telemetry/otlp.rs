//! The OTLP exporter's settings: where spans go (the standard
//! `OTEL_EXPORTER_OTLP_*` variables, checked as every setting is) and the
//! SDK's tracer provider that sends them (ADR 0042).
use super::TelemetryError;
use crate::config::{redact_url, ConfigError, Env};
use opentelemetry_sdk::trace::SdkTracerProvider;

/// The collector's base address (the SDK appends `/v1/traces`).
pub const ENDPOINT_VAR: &str = "OTEL_EXPORTER_OTLP_ENDPOINT";
/// The traces address itself, used as given; wins over [`ENDPOINT_VAR`].
pub const TRACES_ENDPOINT_VAR: &str = "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT";

/// The only protocol built in.
const PROTOCOL: &str = "http/protobuf";

/// Where spans are sent, or `None` when they are not (no endpoint set, or
/// `OTEL_SDK_DISABLED=true`). `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is used
/// as given; `OTEL_EXPORTER_OTLP_ENDPOINT` gets `/v1/traces` appended, as
/// the specification says. Refused: an endpoint that is not an http(s) URL
/// (the SDK would silently fall back to localhost), a protocol other than
/// `http/protobuf` (the only one built in), any compression (none built in).
/// Empty variables count as unset, as the specification says.
pub fn traces_endpoint(env: &Env) -> Result<Option<String>, ConfigError> {
    if otel(env, "OTEL_SDK_DISABLED")?.is_some_and(|v| v.eq_ignore_ascii_case("true")) {
        return Ok(None);
    }
    let (var, value, endpoint) = match (otel(env, TRACES_ENDPOINT_VAR)?, otel(env, ENDPOINT_VAR)?) {
        (Some(traces), _) => (TRACES_ENDPOINT_VAR, traces, traces.to_string()),
        (None, Some(base)) => (
            ENDPOINT_VAR,
            base,
            format!("{}/v1/traces", base.trim_end_matches('/')),
        ),
        (None, None) => return Ok(None),
    };
    let http = value.split_once("://").is_some_and(|(scheme, rest)| {
        matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https")
            && !rest.trim_start_matches('/').is_empty()
    });
    if !http {
        return Err(invalid(
            var,
            "an http:// or https:// URL",
            &redact_url(value),
        ));
    }
    if let Some((var, protocol)) = first_set(
        env,
        &[
            "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
            "OTEL_EXPORTER_OTLP_PROTOCOL",
        ],
    )? {
        if protocol != PROTOCOL {
            return Err(invalid(var, PROTOCOL, protocol));
        }
    }
    if let Some((var, compression)) = first_set(
        env,
        &[
            "OTEL_EXPORTER_OTLP_TRACES_COMPRESSION",
            "OTEL_EXPORTER_OTLP_COMPRESSION",
        ],
    )? {
        if compression != "none" {
            return Err(invalid(
                var,
                "none (no compression is built in)",
                compression,
            ));
        }
    }
    Ok(Some(endpoint))
}

/// An `OTEL_*` variable, empty read as unset.
fn otel<'a>(env: &'a Env, var: &str) -> Result<Option<&'a str>, ConfigError> {
    match env.raw(var) {
        Ok(value) => Ok(value.map(str::trim).filter(|v| !v.is_empty())),
        // Maxy's own settings refuse an empty value; the specification
        // reads it as unset.
        Err(ConfigError::Empty { .. }) => Ok(None),
        Err(e) => Err(e),
    }
}

/// The first of `vars` that is set, with its value.
fn first_set<'a>(
    env: &'a Env,
    vars: &[&'static str],
) -> Result<Option<(&'static str, &'a str)>, ConfigError> {
    for var in vars {
        if let Some(value) = otel(env, var)? {
            return Ok(Some((var, value)));
        }
    }
    Ok(None)
}

fn invalid(var: &str, expected: &str, got: &str) -> ConfigError {
    ConfigError::Invalid {
        var: var.into(),
        expected: expected.into(),
        got: got.into(),
    }
}

/// The tracer provider exporting to `endpoint` in batches (the SDK's own
/// thread, with reqwest's blocking client: it runs outside Tokio). The
/// SDK reads the headers, timeout, sampler and batch settings itself.
pub(super) fn provider(endpoint: &str) -> Result<SdkTracerProvider, TelemetryError> {
    use opentelemetry_otlp::{SpanExporter, WithExportConfig};
    let exporter = SpanExporter::builder()
        .with_http()
        .with_endpoint(endpoint)
        .build()
        .map_err(|e| match e {
            // Its message would repeat the URL, password included.
            opentelemetry_otlp::ExporterBuildError::InvalidUri(_, reason) => {
                TelemetryError::Exporter(format!("invalid endpoint: {reason}"))
            }
            other => TelemetryError::Exporter(other.to_string()),
        })?;
    Ok(SdkTracerProvider::builder()
        .with_batch_exporter(exporter)
        .with_resource(resource())
        .build())
}

/// The standard resource (`OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`),
/// named `maxy` when neither names the service.
fn resource() -> opentelemetry_sdk::Resource {
    let named = std::env::var("OTEL_SERVICE_NAME").is_ok_and(|v| !v.trim().is_empty())
        || std::env::var("OTEL_RESOURCE_ATTRIBUTES").is_ok_and(|v| {
            v.split(',')
                .any(|pair| pair.trim_start().starts_with("service.name="))
        });
    let builder = opentelemetry_sdk::Resource::builder();
    if named {
        builder.build()
    } else {
        builder.with_service_name("maxy").build()
    }
}
