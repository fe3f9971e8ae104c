//! The server behind PgBouncer in transaction mode (issue « Operations »,
//! ADR 0040): a real PgBouncer (>= 1.21, `max_prepared_statements` on) in
//! front of the test database, two server connections for ten of the
//! server's; what needs a session of its own goes to
//! `MAXY_DATABASE_DIRECT_URL`.
//!
//! PgBouncer is required, not optional: `scripts/install-deps.sh` installs
//! it (on Debian 12 it builds trixie's source package, the 1.18 binary
//! package hands sqlx's prepared statements to the wrong server). Set
//! `MAXY_PGBOUNCER` to use another binary.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
mod support;

use server::config::{Config, Env};
use sqlx::PgPool;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Transaction pooling tracks named prepared statements from this version.
const MIN_VERSION: (u32, u32) = (1, 21);
/// Server connections PgBouncer opens to the test database.
const SERVER_CONNECTIONS: usize = 2;

/// One PgBouncer process in transaction mode on a free loopback port, its
/// files in a folder of its own; killed and removed when dropped.
struct Bouncer {
    child: Child,
    dir: PathBuf,
    port: u16,
}

impl Drop for Bouncer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

impl Bouncer {
    /// Starts it in front of the server of `DATABASE_URL` (any database
    /// name is forwarded there).
    async fn start() -> Bouncer {
        let binary = binary();
        let server = reqwest::Url::parse(&std::env::var("DATABASE_URL").expect("DATABASE_URL"))
            .expect("DATABASE_URL is a URL");
        let host = server.host_str().unwrap_or("127.0.0.1");
        let user = match server.username() {
            "" => "postgres".to_string(),
            user => decode(user),
        };
        let mut target = format!(
            "host={host} port={} user={user}",
            server.port().unwrap_or(5432)
        );
        if let Some(password) = server.password() {
            target += &format!(" password='{}'", decode(password).replace('\'', "''"));
        }
        let port = free_port().await;
        let dir =
            std::env::temp_dir().join(format!("maxy-pgbouncer-{}-{port}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // Clients are trusted on loopback, as the local cluster trusts them;
        // PgBouncer itself logs in with DATABASE_URL's user.
        std::fs::write(dir.join("users.txt"), format!("\"{user}\" \"\"\n")).unwrap();
        std::fs::write(
            dir.join("pgbouncer.ini"),
            format!(
                "[databases]\n\
                 * = {target}\n\
                 [pgbouncer]\n\
                 listen_addr = 127.0.0.1\n\
                 listen_port = {port}\n\
                 unix_socket_dir =\n\
                 auth_type = trust\n\
                 auth_file = {users}\n\
                 pool_mode = transaction\n\
                 default_pool_size = {SERVER_CONNECTIONS}\n\
                 max_prepared_statements = 200\n\
                 ignore_startup_parameters = extra_float_digits\n",
                users = dir.join("users.txt").display(),
            ),
        )
        .unwrap();
        let log = dir.join("pgbouncer.log");
        let mut command = Command::new(&binary);
        if running_as_root() {
            // PgBouncer refuses to run as root; it reads its files first,
            // then becomes `postgres`.
            command.args(["-u", "postgres"]);
        }
        let child = command
            .arg(dir.join("pgbouncer.ini"))
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&log).unwrap())
            .stderr(std::fs::File::create(dir.join("stderr.log")).unwrap())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", binary.display()));
        let mut bouncer = Bouncer { child, dir, port };
        bouncer.wait_until_listening().await;
        bouncer
    }

    async fn wait_until_listening(&mut self) {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                panic!("PgBouncer exited ({status}):\n{}", self.output());
            }
            if tokio::net::TcpStream::connect(("127.0.0.1", self.port))
                .await
                .is_ok()
            {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "PgBouncer does not listen on 127.0.0.1:{} after 5 s:\n{}",
                self.port,
                self.output()
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    fn output(&self) -> String {
        ["pgbouncer.log", "stderr.log"]
            .iter()
            .map(|f| std::fs::read_to_string(self.dir.join(f)).unwrap_or_default())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The URL of `database` through this PgBouncer.
    fn url(&self, database: &str) -> String {
        let server = reqwest::Url::parse(&std::env::var("DATABASE_URL").unwrap()).unwrap();
        let user = match server.username() {
            "" => "postgres",
            user => user,
        };
        format!("postgres://{user}@127.0.0.1:{}/{database}", self.port)
    }
}

/// The PgBouncer to run: `MAXY_PGBOUNCER`, else the first recent enough of
/// the usual places. Absent or too old, the test fails and says why.
fn binary() -> PathBuf {
    let candidates: Vec<PathBuf> = match std::env::var_os("MAXY_PGBOUNCER") {
        Some(path) => vec![PathBuf::from(path)],
        None => [
            "/usr/local/bin/pgbouncer",
            "/usr/sbin/pgbouncer",
            "/usr/bin/pgbouncer",
        ]
        .iter()
        .map(PathBuf::from)
        .collect(),
    };
    let mut found = Vec::new();
    for path in candidates {
        let Some(version) = version(&path) else {
            continue;
        };
        if version >= MIN_VERSION {
            return path;
        }
        found.push(format!("{} ({}.{})", path.display(), version.0, version.1));
    }
    panic!(
        "no PgBouncer >= {}.{} found (found: {}): run scripts/install-deps.sh as root (on \
         Debian 12 it builds trixie's PgBouncer into /usr/local), or set MAXY_PGBOUNCER to a \
         binary. Older versions hand sqlx's prepared statements to the wrong server in \
         transaction mode (ADR 0040).",
        MIN_VERSION.0,
        MIN_VERSION.1,
        if found.is_empty() {
            "none".to_string()
        } else {
            found.join(", ")
        }
    )
}

/// `(major, minor)` of `pgbouncer --version` ("PgBouncer 1.24.1").
fn version(path: &Path) -> Option<(u32, u32)> {
    let out = Command::new(path).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let number = text.lines().next()?.strip_prefix("PgBouncer ")?;
    let mut parts = number.split('.');
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

fn running_as_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").is_ok_and(|m| m.uid() == 0)
}

async fn free_port() -> u16 {
    support::closed_port().await.port()
}

/// `%xx` escapes of a URL's user or password, decoded.
fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(b)) => {
                out.push(b);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The server's settings with `DATABASE_URL` through `bouncer` and the
/// direct address beside it.
fn settings(bouncer: &Bouncer, database: &str, direct: &str) -> Config {
    let pooled = bouncer.url(database);
    Config::from_source(&Env::from_pairs([
        ("DATABASE_URL", pooled.as_str()),
        ("MAXY_DATABASE_DIRECT_URL", direct),
        ("MAXY_DB_MAX_CONNECTIONS", "10"),
    ]))
    .unwrap()
}

/// Advisory locks held in the current database.
async fn advisory_locks(db: &PgPool) -> i64 {
    sqlx::query_scalar(
        "SELECT count(*) FROM pg_locks l JOIN pg_database d ON d.oid = l.database
          WHERE l.locktype = 'advisory' AND d.datname = current_database()",
    )
    .fetch_one(db)
    .await
    .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn the_server_works_through_pgbouncer_in_transaction_mode(db: PgPool) {
    let started = Instant::now();
    let bouncer = Bouncer::start().await;
    let direct_url = support::url_of(&db).await;
    let database = direct_url.rsplit_once('/').unwrap().1.to_string();
    let config = settings(&bouncer, &database, &direct_url);
    let pooled = server::db::connect(&config.database).await.unwrap();

    // Migrations run on their own direct connection and leave no lock.
    server::db::migrate(&config.database, &pooled)
        .await
        .unwrap();
    assert_eq!(advisory_locks(&db).await, 0);

    // Many interleaved parameterised queries from the server's pool (ten
    // connections over two server connections): three texts with the
    // same parameter type, so a statement run on the wrong server would
    // give a wrong answer rather than an error; transactions; and the
    // server's own unnamed statement (the member count, planned for its
    // values at every run).
    let errors = Arc::new(Mutex::new(Vec::<String>::new()));
    let backends = Arc::new(Mutex::new(HashSet::<i32>::new()));
    let mut tasks = Vec::new();
    for t in 0..20_i64 {
        let (pool, errors, backends) = (pooled.clone(), errors.clone(), backends.clone());
        tasks.push(tokio::spawn(async move {
            for i in 0..100_i64 {
                let n = t * 1000 + i;
                if i % 5 == 4 {
                    let filter = server::db::member_search::CountFilter {
                        pool_id: Some(n),
                        postal_codes: &[],
                        departments: &[],
                        radius: None,
                        excluded_postal_codes: &[],
                        excluded_departments: &[],
                        excluded_kinds: &[],
                        tags: &[],
                        capacity: None,
                    };
                    match server::db::member_search::count(&pool, &filter).await {
                        Ok(0) => {}
                        Ok(got) => errors
                            .lock()
                            .unwrap()
                            .push(format!("members of pool {n}: {got}, not 0")),
                        Err(e) => errors.lock().unwrap().push(format!("member count: {e}")),
                    }
                    continue;
                }
                let (sql, expected) = match i % 5 {
                    0 => ("SELECT $1::int8 + 1, pg_backend_pid()", n + 1),
                    1 => ("SELECT $1::int8 * 2, pg_backend_pid()", n * 2),
                    2 => ("SELECT $1::int8 - 7, pg_backend_pid()", n - 7),
                    _ => ("SELECT length($1::text)::int8, pg_backend_pid()", 5),
                };
                let answer: Result<(i64, i32), sqlx::Error> = if i % 5 == 3 {
                    async {
                        let mut tx = pool.begin().await?;
                        let row = sqlx::query_as(sql)
                            .bind("abcde")
                            .fetch_one(&mut *tx)
                            .await?;
                        tx.commit().await?;
                        Ok(row)
                    }
                    .await
                } else {
                    sqlx::query_as(sql).bind(n).fetch_one(&pool).await
                };
                match answer {
                    Ok((got, pid)) if got == expected => {
                        backends.lock().unwrap().insert(pid);
                    }
                    Ok((got, _)) => errors
                        .lock()
                        .unwrap()
                        .push(format!("{sql} with {n}: {got}, not {expected}")),
                    Err(e) => errors.lock().unwrap().push(format!("{sql}: {e}")),
                }
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    let errors = errors.lock().unwrap().clone();
    assert!(
        errors.is_empty(),
        "{} of 2000 queries failed or answered wrong, e.g. {:?}",
        errors.len(),
        &errors[..errors.len().min(5)]
    );
    let backends: Vec<i32> = backends.lock().unwrap().iter().copied().collect();
    assert!(
        backends.len() <= SERVER_CONNECTIONS && pooled.size() > SERVER_CONNECTIONS as u32,
        "{} client connections shared {} server connections",
        pooled.size(),
        backends.len()
    );

    // A transaction's advisory lock holds through the pooler, and goes
    // with its transaction.
    let key = "memory.summary:1";
    let try_lock =
        "SELECT pg_try_advisory_xact_lock(('x' || substr(md5($1), 1, 16))::bit(64)::bigint)";
    let mut first = pooled.begin().await.unwrap();
    let taken: bool = sqlx::query_scalar(try_lock)
        .bind(key)
        .fetch_one(&mut *first)
        .await
        .unwrap();
    let mut second = pooled.begin().await.unwrap();
    let also: bool = sqlx::query_scalar(try_lock)
        .bind(key)
        .fetch_one(&mut *second)
        .await
        .unwrap();
    assert!(taken && !also, "one holder at a time");
    second.rollback().await.unwrap();
    first.rollback().await.unwrap();
    assert_eq!(advisory_locks(&db).await, 0);

    // LISTEN on the direct pool hears what is notified through the pooler.
    let direct = server::db::direct_pool(&config.database).unwrap();
    let (heard_tx, mut heard) = tokio::sync::mpsc::unbounded_channel::<String>();
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    let listener = tokio::spawn(server::db::notifications::listen(
        direct.clone(),
        "pgbouncer_test",
        move |heard| {
            if let Some(payload) = heard.payload() {
                let _ = heard_tx.send(payload.to_string());
            }
        },
        shutdown,
    ));
    let deadline = Instant::now() + Duration::from_secs(5);
    let payload = loop {
        // Sent until heard: the LISTEN may not be in place yet.
        sqlx::query("SELECT pg_notify('pgbouncer_test', $1)")
            .bind("woken")
            .execute(&pooled)
            .await
            .unwrap();
        if let Ok(Some(payload)) =
            tokio::time::timeout(Duration::from_millis(100), heard.recv()).await
        {
            break payload;
        }
        assert!(Instant::now() < deadline, "no notification heard in 5 s");
    };
    assert_eq!(payload, "woken");
    stop.send(true).unwrap();
    listener.await.unwrap();

    // PgBouncer's server connections must be gone before the test
    // database is dropped.
    direct.close().await;
    pooled.close().await;
    drop(bouncer);
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let left: i64 =
            sqlx::query_scalar("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY($1)")
                .bind(&backends)
                .fetch_one(&db)
                .await
                .unwrap();
        if left == 0 || Instant::now() > deadline {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "took {:?}",
        started.elapsed()
    );
}
