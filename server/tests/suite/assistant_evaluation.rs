//! The assistant's evaluation set (issue 25): everyday messages of the
//! team, as they type them (typos, « pax », D-2025-00012, #233, tu and
//! vous), sent through the real chat (`/api/chat/send`, then the SSE log)
//! to the offline assistant on the seeded demo. Each case says what the
//! turn must do — the tools it calls, the facts its answer states (read by
//! SQL from the same database), the one card it proposes or none — and
//! every case is also held to the rules no answer may break: nothing
//! written without a card, no number stated that the data does not give,
//! no wrapper tag, internal key or tool name shown to a person.
//!
//! The set lives in `data/assistant_evaluation.yaml`; the score is printed
//! (run with `--nocapture`) and recorded in `docs/assistant-evaluation.md`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use reqwest::StatusCode;
use serde::Deserialize;
use sqlx::PgPool;
use support::app::{seed_demo, TestApp, PASSWORD, TEAM};

/// One message and what its turn must do.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    /// What the team member types.
    say: String,
    /// The conversation's request (its reference), when the chat is opened
    /// from a request page.
    #[serde(default)]
    request: Option<String>,
    /// What the case measures: the score is given per group too.
    group: String,
    /// Tools the turn must call (each at least once).
    #[serde(default)]
    tools: Vec<String>,
    /// Tools the turn must not call.
    #[serde(default)]
    not_tools: Vec<String>,
    /// SQL queries returning one text each: every value must be in the
    /// answer. With `only_facts`, no other number may be stated.
    #[serde(default)]
    facts: Vec<String>,
    #[serde(default)]
    only_facts: bool,
    /// The write tool of the one card the turn must propose; none when
    /// absent.
    #[serde(default)]
    card: Option<String>,
    /// Words the answer must contain (a link, « hors-ligne »…).
    #[serde(default)]
    says: Vec<String>,
    /// Words the answer must not contain.
    #[serde(default)]
    never: Vec<String>,
}

/// What one turn did, as the chat page sees it.
#[derive(Debug, Default)]
struct Turn {
    text: String,
    tools: Vec<String>,
    cards: Vec<String>,
    status: String,
}

/// Tables the assistant could write to: unchanged by any turn, whatever
/// it proposes (the cards wait in `ai_pending_approvals`).
const DOMAIN_TABLES: &[&str] = &[
    "requests",
    "request_emails",
    "catalogues",
    "catalogue_picks",
    "members",
    "rooms",
    "room_capacities",
    "training_sessions",
    "knowledge_entries",
    "availability_checks",
    "ai_memories",
    "tasks",
    "team_favorites",
];

async fn digest(db: &PgPool) -> Vec<String> {
    let mut out = Vec::new();
    for table in DOMAIN_TABLES {
        let sql = format!(
            "SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM {table} t"
        );
        out.push(sqlx::query_scalar(&sql).fetch_one(db).await.unwrap());
    }
    out
}

async fn request_id(db: &PgPool, reference: &str) -> i64 {
    sqlx::query_scalar("SELECT id FROM requests WHERE reference = $1")
        .bind(reference)
        .fetch_one(db)
        .await
        .unwrap_or_else(|e| panic!("request {reference}: {e}"))
}

/// One message in a new conversation, then its whole turn.
async fn ask(app: &TestApp, session: &str, case: &Case) -> Turn {
    let request = match &case.request {
        Some(reference) => Some(request_id(&app.db, reference).await.to_string()),
        None => None,
    };
    let mut fields = vec![("text", case.say.as_str())];
    if let Some(id) = request.as_deref() {
        fields.push(("request_id", id));
    }
    let reply = app
        .post_form("/api/chat/send", &fields, Some(session))
        .await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let conversation = reply.json()["conversation_id"].as_i64().unwrap();
    let mut turn = Turn::default();
    for (_, e) in app.events(session, conversation, 0).await {
        let text = |k: &str| e[k].as_str().unwrap_or_default().to_string();
        match e["type"].as_str().unwrap_or_default() {
            "text_delta" => turn.text.push_str(&text("text")),
            "tool_started" => turn.tools.push(text("name")),
            "approval_requested" => turn.cards.push(text("tool_name")),
            "turn_finished" => turn.status = text("status"),
            // A notice is read by the person like the answer.
            "notice" => turn.text.push_str(&format!("\n{}", text("text"))),
            _ => {}
        }
    }
    turn
}

/// Numbers stated in `text`, leaving out those that are part of a
/// reference (D-2025-00012), a venue code (#233), a date (12/06/2026),
/// a postcode or a time: « 8 demandes », « 2 635 lieux » → 8, 2635.
fn numbers(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        let mut digits = String::new();
        while i < chars.len()
            && (chars[i].is_ascii_digit()
                || (matches!(chars[i], '\u{a0}' | '\u{202f}' | ' ')
                    && chars.get(i + 1).is_some_and(char::is_ascii_digit)
                    && chars.get(i + 4).is_none_or(|c| !c.is_ascii_digit())
                    && chars[i + 1..].iter().take(3).all(char::is_ascii_digit)))
        {
            if chars[i].is_ascii_digit() {
                digits.push(chars[i]);
            }
            i += 1;
        }
        let before = start.checked_sub(1).map(|j| chars[j]);
        let after = chars.get(i).copied();
        let part_of_something = matches!(before, Some('#' | '-' | '/' | ':' | '.' | ','))
            || before.is_some_and(|c| c.is_alphabetic())
            || matches!(after, Some('/' | ':' | '-' | ',' | '.' | 'h' | 'e' | '%'))
                && chars.get(i + 1).is_some_and(|c| c.is_alphanumeric())
            || matches!(after, Some('e' | 'h' | '%'))
            || digits.len() == 5;
        if !part_of_something {
            out.push(digits);
        }
    }
    out
}

/// `text` without what it quotes (« … »): the examples of the help, the
/// team's own words. Numbers there are not stated as facts.
fn unquoted(text: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in text.chars() {
        match c {
            '«' => depth += 1,
            '»' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

/// `text` with the spaces between digits gone: « 7\u{a0}700 » and « 7700 »
/// state the same number.
fn squash(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::new();
    for (i, c) in chars.iter().enumerate() {
        let between_digits = i > 0
            && chars[i - 1].is_ascii_digit()
            && chars.get(i + 1).is_some_and(char::is_ascii_digit);
        if !(matches!(c, ' ' | '\u{a0}' | '\u{202f}') && between_digits) {
            out.push(*c);
        }
    }
    out
}

/// What breaks the rules every answer must keep: shown to a person, so
/// French, with no wrapper tag, internal key or tool name.
fn broken_rules(text: &str) -> Vec<String> {
    let mut why = Vec::new();
    for tag in ["<external_content", "</external_content", "&lt;external"] {
        if text.contains(tag) {
            why.push(format!("wrapper tag « {tag} » shown"));
        }
    }
    let keys = [
        "catalogue_sent",
        "qualifying",
        "recommended",
        "compatible_",
        "cancelled",
        "team-building",
        "salles-seminaires",
        "lieux-atypiques",
    ];
    for word in text.split(|c: char| c.is_whitespace() || "«»()[],.;:!?'\"".contains(c)) {
        let snake = word.contains('_')
            && word
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '_' || c.is_ascii_digit());
        if snake || keys.contains(&word) {
            why.push(format!("internal key « {word} » shown"));
        }
    }
    if text.trim().is_empty() {
        why.push("empty answer".into());
    }
    why
}

/// Why the turn fails its case (empty: it passes).
async fn judge(db: &PgPool, case: &Case, turn: &Turn, wrote: bool) -> Vec<String> {
    let mut why = broken_rules(&turn.text);
    if turn.status != "done" {
        why.push(format!("turn ended « {} »", turn.status));
    }
    if wrote {
        why.push("something was written without an approval".into());
    }
    for tool in &case.tools {
        if !turn.tools.contains(tool) {
            why.push(format!("{tool} not called (called {:?})", turn.tools));
        }
    }
    for tool in &case.not_tools {
        if turn.tools.contains(tool) {
            why.push(format!("{tool} called"));
        }
    }
    match (&case.card, turn.cards.as_slice()) {
        (None, []) => {}
        (Some(want), [got]) if want == got => {}
        (want, got) => why.push(format!("cards {got:?}, expected {want:?}")),
    }
    let mut allowed: Vec<String> = numbers(&case.say);
    for sql in &case.facts {
        let fact: String = sqlx::query_scalar(sql)
            .fetch_one(db)
            .await
            .unwrap_or_else(|e| panic!("fact {sql}: {e}"));
        if !squash(&turn.text).contains(&squash(&fact)) {
            why.push(format!("fact « {fact} » missing"));
        }
        allowed.extend(numbers(&fact));
    }
    if case.only_facts {
        for n in numbers(&unquoted(&turn.text)) {
            if !allowed.contains(&n) {
                why.push(format!("number {n} stated, not a fact of the case"));
            }
        }
    }
    for s in &case.says {
        if !turn.text.contains(s.as_str()) {
            why.push(format!("« {s} » missing"));
        }
    }
    for s in &case.never {
        if turn.text.contains(s.as_str()) {
            why.push(format!("« {s} » said"));
        }
    }
    why
}

fn cases() -> Vec<Case> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/assistant_evaluation.yaml"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let cases: Vec<Case> = serde_norway::from_str(&text).unwrap();
    // An unquoted « #233 » starts a YAML comment and cuts the message.
    let coded = text
        .lines()
        .filter(|l| l.starts_with("- say:") && l.contains('#'))
        .count();
    let kept = cases.iter().filter(|c| c.say.contains('#')).count();
    assert_eq!(kept, coded, "quote every message with a venue code");
    cases
}

#[sqlx::test(migrations = "../migrations")]
async fn the_everyday_messages_are_answered_right_or_honestly(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db).await;
    let team = app.sign_in(TEAM, PASSWORD).await;
    let cases = cases();
    assert!(cases.len() >= 120, "the set has {} messages", cases.len());
    let only = std::env::var("MAXY_EVAL_ONLY").ok();
    let mut failed: Vec<(String, String, Vec<String>, String)> = Vec::new();
    let mut per_group: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    let (mut written, mut wrong_numbers, mut run) = (0, 0, 0);
    for case in &cases {
        if only.as_deref().is_some_and(|o| !case.say.contains(o)) {
            continue;
        }
        run += 1;
        let before = digest(&app.db).await;
        let turn = ask(&app, &team, case).await;
        let wrote = digest(&app.db).await != before;
        let why = judge(&app.db, case, &turn, wrote).await;
        let group = per_group.entry(case.group.clone()).or_default();
        group.1 += 1;
        if why.is_empty() {
            group.0 += 1;
            continue;
        }
        written += usize::from(wrote || !turn.cards.is_empty() && case.card.is_none());
        wrong_numbers += usize::from(why.iter().any(|w| w.starts_with("number ")));
        let shown = format!("(outils : {:?})\n{}", turn.tools, turn.text);
        failed.push((case.group.clone(), case.say.clone(), why, shown));
    }
    let passed = run - failed.len();
    println!("\nÉvaluation de l'assistant : {passed}/{run} réussis");
    for (group, (ok, n)) in &per_group {
        println!("  {group:<16} {ok}/{n}");
    }
    for (group, say, why, text) in &failed {
        println!(
            "\n✗ [{group}] {say}\n  {}\n  ---\n  {}",
            why.join("\n  "),
            text.replace('\n', "\n  ")
        );
    }
    assert_eq!(written, 0, "a write or a card nobody asked for");
    assert_eq!(wrong_numbers, 0, "a number the data does not give");
    assert!(
        passed * 100 >= run * 95,
        "{passed}/{run} passed: below 95 %"
    );
}

#[test]
fn numbers_leave_out_references_codes_and_dates() {
    assert_eq!(
        numbers(
            "Il y a 8 demandes (D-2025-00012), #233, le 12/06/2026 à 9h, 75008, 2\u{a0}635 lieux."
        ),
        ["8", "2635"]
    );
    assert_eq!(numbers("Paris 8e, 60 personnes"), ["60"]);
    assert_eq!(
        numbers(&unquoted("Essayez « 80 personnes » : 3 lieux")),
        ["3"]
    );
    assert!(broken_rules("statut catalogue_sent").len() == 1);
    assert!(broken_rules("<external_content type=\"x\">").len() == 1);
    assert!(broken_rules("Appelle list_requests").len() == 1);
    assert!(broken_rules("8 demandes en qualification.").is_empty());
}
