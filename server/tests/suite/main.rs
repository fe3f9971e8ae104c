//! The integration tests that can share one process, built as one test
//! executable: each file apart cost its own compile and link of the
//! server's dependencies, about 3 s of CPU per file. Run one file's tests
//! with its module name, `cargo test -p server --test suite approvals::`.
//!
//! Kept apart in `tests/`, each its own process: the reliability suite
//! (`cargo reliability`: processes killed, servers restarted, load), tests
//! that read process-wide state (the metrics, the global log subscriber,
//! the benchmark stage clock), and tests that assert durations.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

#[path = "../support/mod.rs"]
mod support;

// Fixtures shared by several files, each loaded once.
#[path = "approvals/fixture.rs"]
mod approvals_fixture;
#[path = "memory_store/fakes.rs"]
mod memory_fakes;
#[path = "offline_planner/harness.rs"]
mod planner_harness;
#[path = "venue_llm_rank/fixture.rs"]
mod ranking_fixture;

mod approvals;
mod approvals_at_once;
mod assistant_evaluation;
mod audit_flood;
mod auth;
mod builder_audit;
mod catalogue_builder;
mod catalogue_proposals;
mod chat;
mod chat_follow_reads;
mod chat_injection;
mod chat_summary;
mod cli_accounts;
mod console_accounts;
mod console_journal;
mod criteria_corpus;
mod demo_data;
mod form_errors_http;
mod hardening;
mod http_errors;
mod http_pages;
mod jobs;
mod link_use_counts;
mod link_uses;
mod llm_budget;
mod llm_recording;
mod magic_links;
mod mail_outreach;
mod measures;
mod member_search;
mod memory_calibration;
mod memory_cases;
mod memory_features;
mod memory_housekeeping;
mod memory_http;
mod memory_search_judged;
mod memory_store;
mod migrations;
mod module_graph;
mod offline_planner;
mod offline_planner_safety;
mod offline_wrappers;
mod organizer_page_renderings;
mod origin_checks;
mod outreach;
mod pick_reasons;
mod planted_markers;
mod playbook_console;
mod playbook_definitions;
mod playbook_facts;
mod playbook_miner;
mod playbook_store;
mod playbooks_chat;
mod playbooks_simulate_cli;
mod pool_scope;
mod read_replica;
mod requests_desk;
mod router_builds;
mod search_actions;
mod search_preferences;
mod sign_in_limits;
mod startup;
mod static_assets;
mod textarea_injection;
mod tools_read;
mod training;
mod training_http;
mod venue_llm_rank;
mod venue_search;
mod venue_semantic;
mod work_queue;
mod write_arguments_unwrapped;
