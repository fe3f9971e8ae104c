//! Playbooks (seed 004): the team's procedures as rules the server enforces.
//!
//! - [`definition`]: a playbook's YAML (name, goal, activation, ordered steps
//!   and their guards, who may open and abandon it), validated with the line
//!   and field of every error; [`when`] is the expression language of
//!   `activation.when` and of the guards.
//! - [`skills`]: the assistant's tools as skills, each with the French
//!   `cognitive.objective` the scorer matches a described action against.
//! - [`decide`]: the one pure decision function (eligibility → deterministic
//!   triggers → score bands → margin → cap), used by every door and by the
//!   simulator ([`simulate`]).
//! - [`scoring`]: scores in [0,1] for a described action — one model call
//!   when a model is configured, calibrated embedding similarity offline.
//! - [`stations`]: where the assistant works and each station's guidance
//!   settings; [`store`]: definitions and their versions in the database.
//! - [`runtime`]: the doors (`seek_guidance`, `start_playbook`, the first
//!   write) and the open run that rules the conversation; every decision
//!   and every call outside a playbook is logged ([`log`]).
//! - [`miner`]: the weekly job that turns calls made outside any playbook
//!   into patterns and suggested playbooks.
pub mod console;
pub mod decide;
pub mod definition;
pub mod demo;
pub mod evaluate;
pub mod log;
pub mod miner;
pub mod runtime;
pub mod scoring;
pub mod simulate;
pub mod skills;
pub mod stations;
pub mod store;
pub mod when;
