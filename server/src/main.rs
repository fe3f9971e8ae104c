//! `maxy`: the server binary and its subcommands.
//!
//! Every failure ends as one line on stderr (`maxy: …`) and a non-zero exit.
use clap::Parser;
use server::cli::{Cli, Command};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Once the command is over (for `serve`, after its graceful shutdown),
    // the spans still queued are exported, waiting at most 5 s (ADR 0042);
    // an early return's drop does the same.
    let telemetry = match server::telemetry::init() {
        Ok(telemetry) => telemetry,
        Err(e) => return fail(&e.into()),
    };
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => return fail(&anyhow::anyhow!("cannot start the async runtime: {e}")),
    };
    let code = match runtime.block_on(server::run(cli.command.unwrap_or(Command::Serve))) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e),
    };
    telemetry.shutdown();
    code
}

fn fail(error: &anyhow::Error) -> ExitCode {
    eprintln!("maxy: {error:#}");
    ExitCode::FAILURE
}
