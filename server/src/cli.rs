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
}

#[derive(Debug, clap::Args)]
pub struct SeedArgs {
    /// How many venues ("members") to generate.
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(1..=500_000))]
    pub members: u64,
    /// The random seed: the same seed always gives the same data.
    #[arg(long, default_value_t = 42)]
    pub seed: u64,
    /// Do nothing when the database already has venues.
    #[arg(long)]
    pub if_empty: bool,
    /// No progress bar (logs only).
    #[arg(long)]
    pub quiet: bool,
}
