//! Log lines captured in a test, read back as text: for "logged once",
//! "redacted" and "never logged" assertions.
use std::io::Write;
use std::sync::{Arc, Mutex};
use tracing::subscriber::DefaultGuard;

#[derive(Clone, Default)]
pub struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("log buffer").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn subscriber(&self, level: tracing::Level) -> impl tracing::Subscriber + Send + Sync {
        let writer = self.clone();
        tracing_subscriber::fmt()
            .with_max_level(level)
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .finish()
    }

    /// This thread's lines at `level` and above, until the guard drops
    /// (`#[tokio::test]` and `#[sqlx::test]` run on one thread).
    pub fn start(&self, level: tracing::Level) -> DefaultGuard {
        tracing::subscriber::set_default(self.subscriber(level))
    }

    /// Every thread's lines, for the rest of the process (one test per binary).
    pub fn start_globally(&self, level: tracing::Level) {
        tracing::subscriber::set_global_default(self.subscriber(level))
            .expect("no other global subscriber");
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().expect("log buffer")).into_owned()
    }
}

/// The INFO lines `f` logs on this thread.
pub async fn capture_logs<F: std::future::Future<Output = ()>>(f: F) -> String {
    let logs = Captured::default();
    let guard = logs.start(tracing::Level::INFO);
    f.await;
    drop(guard);
    logs.text()
}
