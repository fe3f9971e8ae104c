//! `maxy`: the server binary and its subcommands.
//!
//! Every failure ends as one line on stderr (`maxy: …`) and a non-zero exit.
use clap::Parser;
use server::cli::{Cli, Command};
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    server::telemetry::init();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(rt) => rt,
        Err(e) => return fail(&anyhow::anyhow!("cannot start the async runtime: {e}")),
    };
    match runtime.block_on(server::run(cli.command.unwrap_or(Command::Serve))) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(&e),
    }
}

fn fail(error: &anyhow::Error) -> ExitCode {
    eprintln!("maxy: {error:#}");
    ExitCode::FAILURE
}
