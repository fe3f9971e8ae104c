//! The `maxy` command line.
use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "maxy",
    version,
    about = "Maxy, the AI assistant of the Reciprok venue marketplace"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Apply pending migrations, then serve the web app (the default).
    Serve,
    /// Apply pending database migrations and exit.
    Migrate,
    /// Load deterministic demo data (venues, rooms, requests, catalogues, users).
    Seed(SeedArgs),
    /// Create a user or reset a password (the first admin of a new install).
    #[command(subcommand)]
    User(UserCommand),
    /// Issue or revoke a magic link for an organizer or a venue.
    #[command(subcommand)]
    Link(LinkCommand),
    /// Compute embeddings now (the job workers otherwise keep them current).
    #[command(subcommand)]
    Embed(EmbedCommand),
    /// Measure the venue search (docs/benchmarks.md).
    #[command(subcommand)]
    Bench(BenchCommand),
    /// Measure an embedding model against a labelled set (docs/memory-calibration.md).
    #[command(subcommand)]
    Calibrate(CalibrateCommand),
    /// Playbooks: the miner of patterns observed outside them, the simulator.
    #[command(subcommand)]
    Playbooks(PlaybooksCommand),
}

#[derive(Debug, Subcommand)]
pub enum PlaybooksCommand {
    /// Count this week's calls made outside any playbook and write the
    /// suggested playbooks of the frequent patterns.
    Mine {
        /// An instant of the Paris week to mine (RFC 3339; default: now).
        #[arg(long)]
        at: Option<chrono::DateTime<chrono::FixedOffset>>,
    },
    /// Dry-run the decision function: one JSON object on standard input
    /// (the explicit form or the configuration form), one on standard
    /// output; nothing is written anywhere.
    Simulate,
}

#[derive(Debug, Subcommand)]
pub enum CalibrateCommand {
    /// Precision/recall per similarity floor of the memory pipeline's model.
    Memory(CalibrateMemoryArgs),
    /// Fit the offline playbook scoring's mapping and report it per band
    /// (docs/playbook-scoring.md).
    Playbooks(CalibratePlaybooksArgs),
}

#[derive(Debug, clap::Args)]
pub struct CalibratePlaybooksArgs {
    /// Labelled actions in the format of server/data/playbook_actions.yaml
    /// (default: that set, compiled into the binary).
    #[arg(long)]
    pub cases: Option<std::path::PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct CalibrateMemoryArgs {
    /// A labelled set in the format of server/data/memory_calibration.json
    /// (default: that set, compiled into the binary).
    #[arg(long)]
    pub set: Option<std::path::PathBuf>,
    /// Search cases in the format of server/data/memory_cases.yaml
    /// (default: those cases, compiled into the binary).
    #[arg(long)]
    pub cases: Option<std::path::PathBuf>,
}

#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Stages 1+2 against a naive baseline, and the whole search, p50/p95/p99.
    Search {
        /// Rounds over the fixed set of searches.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=10_000))]
        rounds: u64,
    },
    /// The whole search while a backlog of venue texts is embedded: the
    /// query lane against one shared lane, and against an idle embedder.
    Lanes {
        /// Searches per measurement.
        #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=10_000))]
        searches: u64,
        /// Venue texts in the backlog.
        #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        venues: u64,
    },
    /// The chat: server overhead per turn (model time excluded) and many
    /// conversations at once, against a local fake model.
    Chat {
        /// Turns measured one after the other, per kind of turn.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=100_000))]
        turns: u64,
        /// Turns run before each measurement and not counted: a server
        /// answers for days, so its connections have planned its
        /// statements (PostgreSQL plans a prepared statement anew on each
        /// of its first five runs on a connection).
        #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(0..=100_000))]
        warmup: u64,
        /// Conversations streaming at the same time.
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=10_000))]
        concurrent: u64,
        /// Milliseconds the fake model waits before each delta.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(0..=10_000))]
        pace_ms: u64,
        /// Milliseconds the fake model takes to its first token in the
        /// second overhead run (0: only the run where it answers at once).
        #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u64).range(0..=10_000))]
        think_ms: u64,
    },
    /// The combined load: conversations streaming at once, kept busy,
    /// while venue searches arrive at a fixed rate; errors, p95s and
    /// resident memory before and after.
    Load {
        /// Conversations streaming at the same time.
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=10_000))]
        streams: u64,
        /// Venue searches started per second.
        #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..=10_000))]
        searches_per_second: u32,
        /// How long the load lasts, in seconds.
        #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3_600))]
        seconds: u64,
        /// Milliseconds the fake model waits before each delta.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(0..=10_000))]
        pace_ms: u64,
    },
    /// The chat as the page meets it: a `maxy serve` process with a local
    /// fake model, clients that send through HTTP and follow each turn on
    /// its SSE log, venue searches beside them through the venue page's
    /// endpoint; time to the first words and to the whole answer, searches'
    /// times, the server's memory.
    Streams {
        /// Conversations streaming at the same time.
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=10_000))]
        streams: u64,
        /// Venue searches started per second beside them (0: none).
        #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(0..=10_000))]
        searches_per_second: u32,
        /// How long the load lasts, in seconds.
        #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3_600))]
        seconds: u64,
        /// Milliseconds the fake model waits before each delta.
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(0..=10_000))]
        pace_ms: u64,
    },
    /// The memory search's vector path at scale: one user's memories among
    /// many users' (seeds synthetic rows once), exact against HNSW.
    Memory {
        /// Users, each with `--per-user` memories.
        #[arg(long, default_value_t = 101, value_parser = clap::value_parser!(u64).range(1..=10_000))]
        users: u64,
        #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        per_user: u64,
        /// Searches per measurement.
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=100_000))]
        searches: u64,
        /// Also build an HNSW index (minutes at a million rows) and compare.
        #[arg(long)]
        hnsw: bool,
    },
    /// The playbooks' decision function (decisions per second over 3, 10
    /// and 50 candidates) and the simulator's explicit form end to end.
    Playbooks {
        /// Passes over the 1,000 candidate sets of each size.
        #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=100_000))]
        rounds: u64,
    },
}

#[derive(Debug, Subcommand)]
pub enum EmbedCommand {
    /// Embed every venue whose vector is missing or stale; resumable.
    Venues(EmbedVenuesArgs),
    /// Embed every memory, task and training session whose vector is missing
    /// or of another model/dimension; resumable.
    Memory(EmbedMemoryArgs),
}

#[derive(Debug, clap::Args)]
pub struct EmbedMemoryArgs {
    /// Rows per embedding call and per commit.
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub batch: u64,
    /// Pause between two batches, in milliseconds.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(0..=60_000))]
    pub pause_ms: u64,
    /// No progress bar (logs and the summary only).
    #[arg(long)]
    pub quiet: bool,
    /// Seconds to wait for an embedding server that stopped answering before
    /// giving up (the failed batch is tried again meanwhile); 0 gives up at once.
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u64).range(0..=86_400))]
    pub patience: u64,
}

#[derive(Debug, clap::Args)]
pub struct EmbedVenuesArgs {
    /// Venues per embedding call and per commit.
    #[arg(long, default_value_t = 48, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub batch: u64,
    /// No progress bar (logs and the summary only).
    #[arg(long)]
    pub quiet: bool,
    /// Seconds to wait for an embedding server that stopped answering before
    /// giving up (the failed batch is tried again meanwhile); 0 gives up at once.
    #[arg(long, default_value_t = 600, value_parser = clap::value_parser!(u64).range(0..=86_400))]
    pub patience: u64,
}

#[derive(Debug, Subcommand)]
pub enum UserCommand {
    /// Create a user (or update an existing one with the same e-mail).
    Create {
        #[arg(long)]
        email: String,
        /// The name shown in the app.
        #[arg(long)]
        name: String,
        /// `team` or `admin`.
        #[arg(long, default_value = "team")]
        role: String,
        /// A profile label for playbook eligibility (repeatable).
        #[arg(long = "profile")]
        profiles: Vec<String>,
        /// Read the password from standard input instead of generating one.
        #[arg(long)]
        password_stdin: bool,
    },
    /// Set a new password and end every session of the user.
    ResetPassword {
        #[arg(long)]
        email: String,
        /// Read the password from standard input instead of generating one.
        #[arg(long)]
        password_stdin: bool,
    },
}

#[derive(Debug, Subcommand)]
pub enum LinkCommand {
    /// A link that opens one catalogue, read-only (for its organizer).
    Catalogue { catalogue_id: i64 },
    /// A link that answers one availability check (for the venue).
    Availability { check_id: i64 },
    /// Revoke a link by its id (printed when it was issued).
    Revoke { link_id: i64 },
}

#[derive(Debug, clap::Args)]
pub struct SeedArgs {
    /// How many venues ("members") to generate.
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..=500_000))]
    pub members: u64,
    /// The random seed: the same seed always gives the same data.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Do nothing when the database already has data (pools, venues, users or requests).
    #[arg(long)]
    pub if_empty: bool,
    /// No progress bar (logs only).
    #[arg(long)]
    pub quiet: bool,
}
