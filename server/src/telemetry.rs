//! Logging through `tracing`, filtered by `MAXY_LOG` (default `info`), and
//! the chat's stage events (`agent::stages`), which only `maxy bench chat`
//! records. Each layer has its own filter: the log's level does not hide
//! the stage events from the benchmark, nor do they reach the log.

pub fn init() {
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    use tracing_subscriber::{EnvFilter, Layer};
    let filter = EnvFilter::try_from_env("MAXY_LOG").unwrap_or_else(|_| EnvFilter::new("info"));
    let _ = tracing_subscriber::registry()
        .with(
            tracing_subscriber::fmt::layer()
                .with_writer(std::io::stderr)
                .with_filter(filter),
        )
        .with(crate::agent::stages::layer())
        .try_init();
}
