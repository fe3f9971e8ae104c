//! OpenTelemetry export (ADR 0042): with `OTEL_EXPORTER_OTLP_ENDPOINT` set,
//! a chat turn's spans reach an OTLP/HTTP collector as protobuf, with their
//! attributes and `service.name = maxy`, and only our spans; unset, nothing
//! of OpenTelemetry runs. Bad settings are refused naming their variable.
//!
//! The subscriber is scoped to the test's thread (`set_default`), not
//! installed globally: the test runtime is single-threaded, so the server,
//! the turn and the model call all run on that thread. Each test sets its
//! subscriber before its server starts and keeps it to the end.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use axum::Router;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as Attribute;
use opentelemetry_proto::tonic::common::v1::KeyValue;
use opentelemetry_proto::tonic::trace::v1::Span;
use prost::Message;
use serde_json::{json, Value};
use server::bench::fake_model::{last_tool_results, Answer, FakeModel, Script};
use server::config::{ConfigError, Env};
use server::telemetry::{self, TelemetryError, ENDPOINT_VAR, TRACES_ENDPOINT_VAR};
use sqlx::PgPool;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use support::app::{seed_demo, TestApp, PASSWORD, TEAM};

/// One export the collector received.
struct Export {
    content_type: String,
    request: ExportTraceServiceRequest,
}

/// A fake OTLP/HTTP collector on a loopback port, on its own thread and
/// runtime: the exporter's flush blocks, and must not block its server.
struct Collector {
    addr: SocketAddr,
    received: Arc<Mutex<Vec<Export>>>,
}

impl Collector {
    fn start() -> Collector {
        async fn receive(
            State(received): State<Arc<Mutex<Vec<Export>>>>,
            headers: HeaderMap,
            body: Bytes,
        ) -> StatusCode {
            let Ok(request) = ExportTraceServiceRequest::decode(body) else {
                return StatusCode::BAD_REQUEST;
            };
            let content_type = headers
                .get("content-type")
                .and_then(|v| v.to_str().ok())
                .unwrap_or_default()
                .to_string();
            received.lock().unwrap().push(Export {
                content_type,
                request,
            });
            StatusCode::OK
        }
        let received: Arc<Mutex<Vec<Export>>> = Arc::default();
        let state = received.clone();
        let (sender, addr) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
                sender.send(listener.local_addr().unwrap()).unwrap();
                let app = Router::new()
                    .route("/v1/traces", post(receive))
                    .with_state(state);
                axum::serve(listener, app).await.unwrap();
            });
        });
        Collector {
            addr: addr.recv().unwrap(),
            received,
        }
    }

    fn content_types(&self) -> Vec<String> {
        let received = self.received.lock().unwrap();
        received.iter().map(|e| e.content_type.clone()).collect()
    }

    fn exports(&self) -> usize {
        self.received.lock().unwrap().len()
    }

    /// Every span received, with its resource's `service.name`.
    fn spans(&self) -> Vec<(String, Span)> {
        let received = self.received.lock().unwrap();
        let mut spans = Vec::new();
        for export in received.iter() {
            for resource_spans in &export.request.resource_spans {
                let service = resource_spans
                    .resource
                    .as_ref()
                    .and_then(|r| string(&r.attributes, "service.name"))
                    .unwrap_or_default();
                for scope in &resource_spans.scope_spans {
                    for span in &scope.spans {
                        spans.push((service.clone(), span.clone()));
                    }
                }
            }
        }
        spans
    }
}

fn attribute<'a>(attributes: &'a [KeyValue], key: &str) -> Option<&'a Attribute> {
    attributes
        .iter()
        .find(|kv| kv.key == key)
        .and_then(|kv| kv.value.as_ref())
        .and_then(|v| v.value.as_ref())
}

fn string(attributes: &[KeyValue], key: &str) -> Option<String> {
    match attribute(attributes, key)? {
        Attribute::StringValue(s) => Some(s.clone()),
        _ => None,
    }
}

fn int(attributes: &[KeyValue], key: &str) -> Option<i64> {
    match attribute(attributes, key)? {
        Attribute::IntValue(n) => Some(*n),
        _ => None,
    }
}

/// Threads of the OpenTelemetry SDK (its batch processor's) in this process.
fn sdk_threads() -> Vec<String> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new(); // not Linux: nothing to look at
    };
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("comm")).ok())
        .filter(|name| name.starts_with("OpenTelemetry"))
        .collect()
}

/// Whether `condition` holds within 2 s (a thread's name is set once it
/// runs, and it ends a little after it is told to).
fn soon(condition: impl Fn() -> bool) -> bool {
    let started = Instant::now();
    while !condition() {
        if started.elapsed() > Duration::from_secs(2) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

/// A model that reads the request once (`get_request`), then answers.
fn script(request_id: i64) -> Script {
    Arc::new(move |body: &Value| {
        if last_tool_results(body).is_empty() {
            Answer::ToolUse {
                text: "Je lis la demande.".into(),
                name: "get_request".into(),
                input: json!({"request_id": request_id}),
            }
        } else {
            Answer::Text("Voici trois lieux.".into())
        }
    })
}

/// Held by the tests that start a server under a subscriber of their own:
/// they look at the process's threads, which the other would disturb.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// A demo database, a fake model that reads one request, and a server on
/// it with a signed-in member: started after the test's subscriber is set,
/// so every task of the server lives under that one subscriber.
async fn turn_setup(db: PgPool) -> (TestApp, FakeModel, String) {
    seed_demo(&db).await;
    let request_id: i64 = sqlx::query_scalar("SELECT id FROM requests ORDER BY id LIMIT 1")
        .fetch_one(&db)
        .await
        .unwrap();
    let model = FakeModel::start(script(request_id), Duration::ZERO, 8)
        .await
        .unwrap();
    let app = TestApp::on_model(db, &model.base_url(), &[]).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    (app, model, team)
}

#[sqlx::test(migrations = "../migrations")]
async fn nothing_of_opentelemetry_runs_when_no_endpoint_is_set(db: PgPool) {
    let _alone = ONE_AT_A_TIME.lock().await;
    let collector = Collector::start();
    // Other OTEL_* variables set, the endpoint empty.
    let env = Env::from_pairs([
        ("OTEL_SERVICE_NAME", "not-used"),
        (
            "OTEL_EXPORTER_OTLP_HEADERS",
            "authorization=Bearer%20sekrit",
        ),
        (ENDPOINT_VAR, ""),
    ]);
    let (subscriber, telemetry) = telemetry::subscriber(&env).unwrap();
    assert!(!telemetry.exporting());
    let _scope = tracing::subscriber::set_default(subscriber);
    let (app, model, team) = turn_setup(db).await;
    app.send_and_wait(&team, &[("text", "Des lieux pour cette demande ?")])
        .await;
    telemetry.flush();
    assert_eq!(sdk_threads(), Vec::<String>::new());
    assert_eq!(model.calls(), 2, "the turn ran its two model calls");
    assert_eq!(collector.exports(), 0);
}

/// The subscriber is set before the server starts and kept to the end: a
/// server task started under one subscriber and polled under another once
/// tore a request's span down under it (« tried to clone Id(1) »).
#[sqlx::test(migrations = "../migrations")]
async fn a_turns_spans_reach_the_collector_when_an_endpoint_is_set(db: PgPool) {
    let _alone = ONE_AT_A_TIME.lock().await;
    let collector = Collector::start();
    let endpoint = format!("http://{}", collector.addr);
    let env = Env::from_pairs([(ENDPOINT_VAR, endpoint.as_str())]);
    let (subscriber, telemetry) = telemetry::subscriber(&env).unwrap();
    assert!(telemetry.exporting());
    assert!(
        soon(|| !sdk_threads().is_empty()),
        "the batch processor's thread"
    );
    let telemetry = Arc::new(telemetry);
    let _scope = tracing::subscriber::set_default(subscriber);
    let (app, _model, team) = turn_setup(db).await;
    let started = Instant::now();
    let (conversation, _) = app
        .send_and_wait(&team, &[("text", "Des lieux pour cette demande ?")])
        .await;
    let done = |spans: &[(String, Span)]| {
        let named = |name: &str| spans.iter().filter(|(_, s)| s.name == name).count();
        named("chat_turn") >= 1 && named("tool") >= 1 && named("model_call") >= 2
    };
    loop {
        let flushing = telemetry.clone();
        tokio::task::spawn_blocking(move || flushing.flush())
            .await
            .unwrap();
        if done(&collector.spans()) {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "the spans never arrived: {:?}",
            collector
                .spans()
                .iter()
                .map(|(_, s)| s.name.clone())
                .collect::<Vec<_>>()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(collector
        .content_types()
        .iter()
        .all(|t| t == "application/x-protobuf"));
    let spans = collector.spans();
    assert!(spans.iter().all(|(service, _)| service == "maxy"));
    // Only our targets: no sqlx or hyper span among them.
    for (_, span) in &spans {
        let target = string(&span.attributes, "target").unwrap_or_default();
        assert!(
            ["server", "app", "maxy"]
                .iter()
                .any(|ours| target.starts_with(ours)),
            "{} from {target}",
            span.name
        );
    }
    let turn = spans
        .iter()
        .map(|(_, s)| s)
        .find(|s| s.name == "chat_turn")
        .unwrap();
    assert_eq!(
        int(&turn.attributes, "conversation_id"),
        Some(conversation),
        "{:?}",
        turn.attributes
    );
    assert!(int(&turn.attributes, "user_id").is_some());
    assert!(int(&turn.attributes, "turn_id").is_some());
    let inside_turn = |span: &Span| span.trace_id == turn.trace_id;
    let tool = spans
        .iter()
        .map(|(_, s)| s)
        .find(|s| s.name == "tool")
        .unwrap();
    assert_eq!(
        string(&tool.attributes, "tool").as_deref(),
        Some("get_request")
    );
    assert!(inside_turn(tool));
    let calls: Vec<&Span> = spans
        .iter()
        .map(|(_, s)| s)
        .filter(|s| {
            s.name == "model_call" && string(&s.attributes, "task").as_deref() == Some("chat")
        })
        .collect();
    assert_eq!(calls.len(), 2, "the two streamed rounds");
    for call in calls {
        assert_eq!(call.parent_span_id, turn.span_id, "a child of the turn");
        let attributes = &call.attributes;
        assert_eq!(string(attributes, "provider").as_deref(), Some("anthropic"));
        assert!(string(attributes, "model").is_some_and(|m| !m.is_empty()));
        // What the fake model reports in its stream (`bench::fake_model`).
        assert_eq!(
            int(attributes, "input_tokens"),
            Some(1200),
            "{attributes:?}"
        );
        assert_eq!(int(attributes, "output_tokens"), Some(40));
        assert!(call.end_time_unix_nano > call.start_time_unix_nano);
    }

    // Shut down: no export left behind, and the SDK's thread is gone.
    let telemetry = Arc::into_inner(telemetry).unwrap();
    tokio::task::spawn_blocking(move || telemetry.shutdown())
        .await
        .unwrap();
    assert!(soon(|| sdk_threads().is_empty()), "{:?}", sdk_threads());
    assert!(collector.exports() >= 1);
}

fn refused(pairs: &[(&str, &str)]) -> String {
    match telemetry::subscriber(&Env::from_pairs(pairs.iter().copied())) {
        Err(TelemetryError::Config(e @ ConfigError::Invalid { .. })) => e.to_string(),
        Err(other) => panic!("{pairs:?}: refused as {other}"),
        Ok(_) => panic!("{pairs:?}: accepted"),
    }
}

#[test]
fn bad_settings_are_refused_naming_their_variable() {
    for value in [
        "localhost:4318",
        "ftp://collector:21",
        "http://",
        "collector",
    ] {
        let error = refused(&[(ENDPOINT_VAR, value)]);
        assert!(error.starts_with(ENDPOINT_VAR), "{error}");
    }
    let error = refused(&[(TRACES_ENDPOINT_VAR, "127.0.0.1:4318/v1/traces")]);
    assert!(error.starts_with(TRACES_ENDPOINT_VAR), "{error}");
    // A password in the URL is not repeated.
    let error = refused(&[(ENDPOINT_VAR, "htp://user:sekrit@collector:4318")]);
    assert!(!error.contains("sekrit"), "{error}");
    let collector = ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318");
    let error = refused(&[collector, ("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")]);
    assert!(error.starts_with("OTEL_EXPORTER_OTLP_PROTOCOL"), "{error}");
    let error = refused(&[
        collector,
        ("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/json"),
    ]);
    assert!(
        error.starts_with("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL"),
        "{error}"
    );
    let error = refused(&[collector, ("OTEL_EXPORTER_OTLP_COMPRESSION", "gzip")]);
    assert!(
        error.starts_with("OTEL_EXPORTER_OTLP_COMPRESSION"),
        "{error}"
    );
}

#[test]
fn where_spans_go() {
    let endpoint = |pairs: &[(&str, &str)]| {
        telemetry::traces_endpoint(&Env::from_pairs(pairs.iter().copied())).unwrap()
    };
    assert_eq!(endpoint(&[]), None);
    assert_eq!(endpoint(&[(ENDPOINT_VAR, "")]), None, "empty is unset");
    assert_eq!(
        endpoint(&[(ENDPOINT_VAR, "http://collector:4318")]).as_deref(),
        Some("http://collector:4318/v1/traces")
    );
    assert_eq!(
        endpoint(&[(ENDPOINT_VAR, "https://otlp.example.com/otlp/")]).as_deref(),
        Some("https://otlp.example.com/otlp/v1/traces")
    );
    // The traces variable is used as given, and wins.
    assert_eq!(
        endpoint(&[
            (ENDPOINT_VAR, "http://collector:4318"),
            (TRACES_ENDPOINT_VAR, "http://traces:4318/custom"),
        ])
        .as_deref(),
        Some("http://traces:4318/custom")
    );
    assert_eq!(
        endpoint(&[
            (ENDPOINT_VAR, "http://collector:4318"),
            ("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf"),
        ])
        .as_deref(),
        Some("http://collector:4318/v1/traces")
    );
    assert_eq!(
        endpoint(&[
            (ENDPOINT_VAR, "http://collector:4318"),
            ("OTEL_SDK_DISABLED", "true"),
        ]),
        None
    );
}
