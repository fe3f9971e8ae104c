//! E-mail that leaves Maxy, against a real SMTP server process
//! (`scripts/smtp-catcher.py` on aiosmtpd): the catalogue e-mailed to its
//! organizer and availability checks to venues, in French with a plain-text
//! and an HTML part holding the right link, third-party names escaped; each
//! send recorded on the request and shown to the team; a server that does
//! not answer → retried, « Échec » shown with the reason, then delivered
//! once it is up; without `MAXY_SMTP_URL`, nothing is queued and the team
//! is told so; an availability check the assistant proposed and the team
//! approved is e-mailed the same way.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use app::outreach::Outreach;
use reqwest::StatusCode;
use server::auth::tokens::SigningKey;
use server::config::{Env, MailSettings};
use server::jobs::{Registry, WorkerOptions};
use server::mail::{Outbox, SmtpSender};
use server::outreach::OutreachService;
use sqlx::PgPool;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use support::app::{seed_demo, TestApp, PASSWORD, TEAM};

const SITE: &str = "http://maxy.test";
const ORGANIZER: &str = "jeanne.dupont@example.org";
const ORGANIZER_NAME: &str = "Jeanne <Dupont> & Fils";

/// The catcher process; killed when dropped.
struct Catcher {
    child: Child,
    folder: PathBuf,
    // Kept open for the process's life: a closed pipe would kill it at
    // its next write.
    _stdout: std::io::BufReader<std::process::ChildStdout>,
}

impl Drop for Catcher {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

/// A Python that has aiosmtpd (Debian's package is for the system one).
fn python() -> &'static str {
    for candidate in ["/usr/bin/python3", "python3"] {
        let ok = Command::new(candidate)
            .args(["-c", "import aiosmtpd"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            return candidate;
        }
    }
    panic!("no python3 with aiosmtpd: run scripts/install-deps.sh (python3-aiosmtpd)")
}

fn catcher(port: u16) -> Catcher {
    let folder = std::env::temp_dir().join(format!("maxy-mail-{}-{port}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    let mut child = Command::new(python())
        .arg(support::repo_root().join("scripts/smtp-catcher.py"))
        .arg(format!("127.0.0.1:{port}"))
        .arg(&folder)
        .stdout(Stdio::piped())
        .spawn()
        .expect("the SMTP catcher starts");
    // "ready" once it listens.
    let mut out = std::io::BufReader::new(child.stdout.take().expect("stdout"));
    let mut line = String::new();
    std::io::BufRead::read_line(&mut out, &mut line).expect("the catcher says it is ready");
    assert_eq!(line.trim(), "ready");
    Catcher {
        child,
        folder,
        _stdout: out,
    }
}

/// The messages the catcher kept, oldest first.
fn received(folder: &Path) -> Vec<serde_json::Value> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(folder)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    files.retain(|p| p.extension().is_some_and(|e| e == "json"));
    files.sort();
    files
        .iter()
        .map(|p| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap())
        .collect()
}

fn settings(port: u16) -> MailSettings {
    let url = format!("smtp://127.0.0.1:{port}");
    MailSettings::from_source(&Env::from_pairs([
        ("MAXY_SMTP_URL", url.as_str()),
        ("MAXY_SMTP_TIMEOUT_SECS", "3"),
    ]))
    .unwrap()
}

fn service(db: &PgPool, outbox: Outbox) -> OutreachService {
    OutreachService {
        db: db.clone(),
        key: SigningKey::new(support::SECRET_KEY.as_bytes().to_vec()),
        outbox,
    }
}

fn registry(db: &PgPool, port: u16) -> Registry {
    let sender = SmtpSender::from_settings(&settings(port)).unwrap();
    server::mail::register_jobs(Registry::default(), db, sender)
}

/// Runs the due mail jobs (one per claim) until none is due.
async fn run_jobs(db: &PgPool, registry: &Registry) {
    while server::jobs::worker::run_once(db, registry, "test", &WorkerOptions::default())
        .await
        .unwrap()
        > 0
    {}
}

async fn team_user(db: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
        .bind(TEAM)
        .fetch_one(db)
        .await
        .unwrap()
}

struct Fixture {
    request_id: i64,
    catalogue_id: i64,
    member_ids: Vec<i64>,
}

/// A draft catalogue of three venues (with contact addresses) on a request
/// whose organizer has an address and a name that needs escaping.
async fn fixture(db: &PgPool) -> Fixture {
    let request_id: i64 = sqlx::query_scalar(
        "SELECT r.id FROM requests r
          WHERE NOT EXISTS (SELECT 1 FROM catalogues c
                             WHERE c.request_id = r.id AND c.kind = 'standard' AND c.status = 'draft')
          ORDER BY r.id LIMIT 1",
    )
    .fetch_one(db)
    .await
    .unwrap();
    sqlx::query(
        "UPDATE requests SET organizer_email = $2, organizer_name = $3, participants = 120,
                event_start_date = DATE '2027-03-12', event_end_date = NULL
          WHERE id = $1",
    )
    .bind(request_id)
    .bind(ORGANIZER)
    .bind(ORGANIZER_NAME)
    .execute(db)
    .await
    .unwrap();
    let catalogue_id: i64 = sqlx::query_scalar(
        "INSERT INTO catalogues (request_id, kind, status) VALUES ($1, 'standard', 'draft') RETURNING id",
    )
    .bind(request_id)
    .fetch_one(db)
    .await
    .unwrap();
    let member_ids: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM members WHERE contact_email IS NOT NULL ORDER BY id LIMIT 3",
    )
    .fetch_all(db)
    .await
    .unwrap();
    for (i, member) in member_ids.iter().enumerate() {
        sqlx::query(
            "INSERT INTO catalogue_picks (catalogue_id, member_id, tier, position, added_by)
             VALUES ($1, $2, 'recommended', $3, 'team')",
        )
        .bind(catalogue_id)
        .bind(member)
        .bind(i as i32)
        .execute(db)
        .await
        .unwrap();
    }
    Fixture {
        request_id,
        catalogue_id,
        member_ids,
    }
}

async fn send_row(db: &PgPool, id: i64) -> (String, i32, Option<String>, bool) {
    sqlx::query_as(
        "SELECT status, attempts, last_error, body_text IS NOT NULL FROM mail_sends WHERE id = $1",
    )
    .bind(id)
    .fetch_one(db)
    .await
    .unwrap()
}

#[sqlx::test(migrations = "../migrations")]
async fn the_catalogue_and_the_checks_are_emailed_in_french_with_both_parts(db: PgPool) {
    seed_demo(&db).await;
    let smtp = catcher(2525);
    let user = team_user(&db).await;
    let f = fixture(&db).await;
    let outreach = service(&db, Outbox::new(&settings(2525), Some(SITE)));

    let sent = outreach.send_catalogue(user, f.catalogue_id).await.unwrap();
    assert_eq!(sent.emailed_to.as_deref(), Some(ORGANIZER));
    assert_eq!(sent.mail_note, None);
    let checks = outreach
        .send_availability_checks(user, f.request_id, f.member_ids[..2].to_vec())
        .await
        .unwrap();
    assert!(checks.iter().all(|c| c.emailed_to.is_some()), "{checks:?}");
    // Queued, not sent, until the job runs.
    assert!(received(&smtp.folder).is_empty());
    let view = outreach.view(f.request_id, None).await.unwrap();
    assert_eq!(view.mails.len(), 3);
    assert!(view
        .mails
        .iter()
        .all(|m| m.status_label == "En file d'envoi"));

    run_jobs(&db, &registry(&db, 2525)).await;
    let mails = received(&smtp.folder);
    let rows: Vec<(String, Option<String>)> =
        sqlx::query_as("SELECT status, last_error FROM mail_sends ORDER BY id")
            .fetch_all(&db)
            .await
            .unwrap();
    assert_eq!(mails.len(), 3, "{rows:?}");
    let catalogue = mails
        .iter()
        .find(|m| m["to"][0] == ORGANIZER)
        .expect("the organizer's e-mail");
    assert_eq!(catalogue["content_type"], "multipart/alternative");
    let subject = catalogue["subject"].as_str().unwrap();
    assert!(
        subject.starts_with("Votre sélection de lieux pour votre événement"),
        "{subject}"
    );
    let text = catalogue["text"].as_str().unwrap();
    let html = catalogue["html"].as_str().unwrap();
    let link = format!("{SITE}{}", sent.path);
    assert!(text.contains(&link), "{text}");
    assert!(html.contains(&format!("href=\"{link}\"")), "{html}");
    assert!(text.contains("Bonjour Jeanne <Dupont> & Fils,"), "{text}");
    assert!(html.contains("Jeanne &lt;Dupont&gt; &amp; Fils"), "{html}");
    assert!(!html.contains("<Dupont>"));
    assert!(text.contains("Prochaine étape"), "{text}");
    assert!(text.contains("3 lieux"), "{text}");
    assert!(text.contains("Camille"), "the sender signs: {text}");
    // Each venue got its own link to answer.
    for check in &checks {
        let venue_link = format!("{SITE}{}", check.path);
        let mail = mails
            .iter()
            .find(|m| m["text"].as_str().unwrap().contains(&venue_link))
            .unwrap_or_else(|| panic!("no e-mail holds {venue_link}"));
        assert_eq!(mail["to"][0], check.emailed_to.clone().unwrap());
        assert!(mail["subject"]
            .as_str()
            .unwrap()
            .starts_with("Êtes-vous disponible le 12/03/2027"));
        assert!(mail["html"].as_str().unwrap().contains("Répondre"));
    }

    // Recorded: who, when, to whom, status; the link no longer kept.
    let view = outreach.view(f.request_id, None).await.unwrap();
    assert!(view.mail_configured);
    for m in &view.mails {
        assert_eq!(m.status, "sent");
        assert!(
            m.status_label.starts_with("Envoyé le "),
            "{}",
            m.status_label
        );
        assert_eq!(m.queued_by.as_deref(), Some("Camille Martin"));
        assert_eq!(m.attempts, 1);
    }
    let kept: i64 =
        sqlx::query_scalar("SELECT count(*) FROM mail_sends WHERE body_text IS NOT NULL")
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(kept, 0, "a delivered message keeps no link");
    // A second run sends nothing twice.
    run_jobs(&db, &registry(&db, 2525)).await;
    assert_eq!(received(&smtp.folder).len(), 3);
}

#[sqlx::test(migrations = "../migrations")]
async fn a_server_that_does_not_answer_is_retried_shown_then_delivered(db: PgPool) {
    seed_demo(&db).await;
    let user = team_user(&db).await;
    let f = fixture(&db).await;
    // Nothing listens on 2527 yet.
    let outreach = service(&db, Outbox::new(&settings(2527), Some(SITE)));
    let checks = outreach
        .send_availability_checks(user, f.request_id, vec![f.member_ids[0]])
        .await
        .unwrap();
    assert!(checks[0].emailed_to.is_some());
    let send_id: i64 = sqlx::query_scalar("SELECT id FROM mail_sends WHERE request_id = $1")
        .bind(f.request_id)
        .fetch_one(&db)
        .await
        .unwrap();

    let jobs = registry(&db, 2527);
    let started = Instant::now();
    run_jobs(&db, &jobs).await;
    // Two attempts in the job (the shared retry loop), then the queue's backoff.
    assert!(started.elapsed() >= Duration::from_millis(500));
    let (status, attempts, error, kept) = send_row(&db, send_id).await;
    assert_eq!((status.as_str(), attempts, kept), ("failed", 1, true));
    assert_eq!(
        error.as_deref(),
        Some("le serveur d'envoi est injoignable (2 essais)")
    );
    let (job_status, later): (String, bool) =
        sqlx::query_as("SELECT status, run_at > now() FROM jobs WHERE dedupe_key = $1")
            .bind(format!("mail.send:{send_id}"))
            .fetch_one(&db)
            .await
            .unwrap();
    assert_eq!(
        (job_status.as_str(), later),
        ("queued", true),
        "retried later"
    );

    // The team sees it, over HTTP like the builder.
    let app = TestApp::start_with(db.clone(), &[("MAXY_SMTP_URL", "smtp://127.0.0.1:2527")]).await;
    let session = app.sign_in(TEAM, PASSWORD).await;
    let request = f.request_id.to_string();
    let view = app
        .post_form(
            "/api/outreach/view",
            &[("request_id", &request)],
            Some(&session),
        )
        .await;
    assert_eq!(view.status, StatusCode::OK, "{}", view.body);
    let mail = &view.json()["mails"][0];
    assert_eq!(mail["status_label"], "Échec de l'envoi");
    assert_eq!(
        mail["last_error"],
        "le serveur d'envoi est injoignable (2 essais)"
    );
    assert!(mail["next_try"]
        .as_str()
        .unwrap()
        .starts_with("nouvel essai automatique à "));
    assert_eq!(mail["can_retry"], true);

    // Not due yet: a run sends nothing.
    let smtp = catcher(2527);
    run_jobs(&db, &jobs).await;
    assert!(received(&smtp.folder).is_empty());
    // « Réessayer maintenant »: due now, delivered.
    let send = send_id.to_string();
    let retried = app
        .post_form(
            "/api/outreach/mail/retry",
            &[("send_id", &send)],
            Some(&session),
        )
        .await;
    assert_eq!(retried.status, StatusCode::OK, "{}", retried.body);
    assert_eq!(send_row(&db, send_id).await.0, "queued");
    run_jobs(&db, &jobs).await;
    let mails = received(&smtp.folder);
    assert_eq!(mails.len(), 1);
    assert!(mails[0]["text"]
        .as_str()
        .unwrap()
        .contains(&format!("{SITE}{}", checks[0].path)));
    let (status, attempts, error, kept) = send_row(&db, send_id).await;
    assert_eq!(
        (status.as_str(), attempts, error, kept),
        ("sent", 2, None, false)
    );
    let audited: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM audit_log WHERE action = 'mail.retried' AND actor_id IS NOT NULL",
    )
    .fetch_one(&db)
    .await
    .unwrap();
    assert_eq!(audited, 1);
    // Sent: nothing left to retry, and an anonymous caller cannot anyway.
    let again = app
        .post_form(
            "/api/outreach/mail/retry",
            &[("send_id", &send)],
            Some(&session),
        )
        .await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.body);
    let anonymous = app
        .post_form("/api/outreach/mail/retry", &[("send_id", &send)], None)
        .await;
    assert_ne!(anonymous.status, StatusCode::OK);
}

#[sqlx::test(migrations = "../migrations")]
async fn without_smtp_nothing_is_queued_and_the_team_is_told(db: PgPool) {
    seed_demo(&db).await;
    let app = TestApp::start(db.clone()).await;
    let f = fixture(&db).await;
    let session = app.sign_in(TEAM, PASSWORD).await;
    let id = f.catalogue_id.to_string();
    let sent = app
        .post_form(
            "/api/outreach/send",
            &[("catalogue_id", &id)],
            Some(&session),
        )
        .await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.body);
    assert_eq!(sent.json()["mail_note"], "envoi par e-mail non configuré");
    assert!(sent.json()["path"].as_str().unwrap().starts_with("/c/"));
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM mail_sends")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(rows, 0);
    let request = f.request_id.to_string();
    let view = app
        .post_form(
            "/api/outreach/view",
            &[("request_id", &request)],
            Some(&session),
        )
        .await;
    assert_eq!(view.json()["mail_configured"], false);
}

/// The assistant's availability check, once approved, e-mails its venue
/// through the builder's outbox path (row, job, message with the link);
/// without e-mail set up the team gets the link to pass on, as before.
#[sqlx::test(migrations = "../migrations")]
async fn an_approved_availability_check_from_the_assistant_is_emailed(db: PgPool) {
    use app::chat::Decision;
    use server::approvals;
    use server::tools::{write, Mode, ToolContext};
    use std::sync::Arc;

    seed_demo(&db).await;
    let smtp = catcher(2529);
    let user = team_user(&db).await;
    let f = fixture(&db).await;
    let conversation: i64 = sqlx::query_scalar(
        "INSERT INTO ai_conversations (user_id, request_id, mode) VALUES ($1, $2, 'chat') RETURNING id",
    )
    .bind(user)
    .bind(f.request_id)
    .fetch_one(&db)
    .await
    .unwrap();
    let message = server::db::ai_messages::append(&db, conversation, "assistant", &[], None)
        .await
        .unwrap()
        .id;
    let tools = ToolContext {
        db: db.clone(),
        user_id: user,
        conversation_id: conversation,
        request_id: Some(f.request_id),
        search: Arc::new(server::search::SearchService {
            read_db: None,
            db: db.clone(),
            embedder: None,
            llm: Arc::new(server::llm::OfflineLlm),
        }),
        embedder: None,
        memory: None,
    };
    let key = SigningKey::new(support::SECRET_KEY.as_bytes().to_vec());
    let venue = |id: i64| {
        let db = db.clone();
        async move {
            sqlx::query_as::<_, (String, String)>(
                "SELECT code, contact_email FROM members WHERE id = $1",
            )
            .bind(id)
            .fetch_one(&db)
            .await
            .unwrap()
        }
    };
    let card = |code: String, call: &'static str| {
        let (db, tools) = (db.clone(), &tools);
        async move {
            let input = serde_json::json!({"request_id": f.request_id, "member_code": code});
            let proposal = write::propose(tools, Mode::Chat, "request_availability_check", &input)
                .await
                .unwrap();
            approvals::create(
                &db,
                conversation,
                message,
                call,
                "request_availability_check",
                &proposal.arguments,
                approvals::DEFAULT_TTL,
            )
            .await
            .unwrap()
        }
    };

    // E-mail set up: queued in the approval's transaction, then delivered.
    let (code, address) = venue(f.member_ids[0]).await;
    let pending = card(code, "c1").await;
    let outbox = Outbox::new(&settings(2529), Some(SITE));
    let approve = Decision::Approve {
        arguments_hash: pending.arguments_hash.clone(),
    };
    let done = approvals::decide_with_mail(&db, &key, None, &outbox, user, pending.id, approve)
        .await
        .unwrap();
    assert_eq!(done.status, "executed", "{}", done.detail);
    assert!(
        done.detail
            .contains(&format!("e-mail en file d'envoi pour {address}")),
        "{}",
        done.detail
    );
    assert!(!done.for_model.contains("/v/"), "{}", done.for_model);
    let path = done
        .detail
        .split("(lien : ")
        .nth(1)
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("the link for the team: {}", done.detail))
        .to_string();
    assert!(path.starts_with("/v/"), "{path}");
    let queued: Vec<(String, i64)> = sqlx::query_as(
        "SELECT s.kind, s.member_id FROM mail_sends s
           JOIN availability_checks c ON c.id = s.check_id
          WHERE c.request_id = $1",
    )
    .bind(f.request_id)
    .fetch_all(&db)
    .await
    .unwrap();
    assert_eq!(queued, [("availability".to_string(), f.member_ids[0])]);
    run_jobs(&db, &registry(&db, 2529)).await;
    let mails = received(&smtp.folder);
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert_eq!(mails[0]["to"][0], address.as_str());
    let text = mails[0]["text"].as_str().unwrap();
    assert!(text.contains(&format!("{SITE}{path}")), "{text}");
    assert!(mails[0]["subject"]
        .as_str()
        .unwrap()
        .starts_with("Êtes-vous disponible le 12/03/2027"));

    // No e-mail set up: the link to pass on, nothing queued.
    let (code, _) = venue(f.member_ids[1]).await;
    let pending = card(code, "c2").await;
    let approve = Decision::Approve {
        arguments_hash: pending.arguments_hash.clone(),
    };
    let done = approvals::decide_with_memory(&db, &key, None, user, pending.id, approve)
        .await
        .unwrap();
    assert_eq!(done.status, "executed", "{}", done.detail);
    assert!(
        done.detail.contains("lien à transmettre au lieu : /v/"),
        "{}",
        done.detail
    );
    assert!(!done.detail.contains("e-mail"), "{}", done.detail);
    let sends: i64 = sqlx::query_scalar("SELECT count(*) FROM mail_sends")
        .fetch_one(&db)
        .await
        .unwrap();
    assert_eq!(sends, 1, "nothing queued without e-mail");
}
