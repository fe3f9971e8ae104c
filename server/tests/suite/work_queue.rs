//! « À faire » on a real database: each kind of item reaches the member it
//! concerns and no one else (a card in my conversation, comments and
//! favourites on my requests' catalogues, my requests to qualify, my
//! reminders due today or overdue, venues' answers to my checks); what is
//! done, decided, expired, not yet due or too old stays off; the budget and
//! playbook alerts reach admins only. Through the real router, the home page
//! shows the queue and a team member's page has no admin alert.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use crate::support;

use app::work_queue::{WorkKind, WorkQueue, WorkQueueDesk};
use server::llm::budget::BudgetSettings;
use server::work_queue::WorkQueueService;
use sqlx::PgPool;

const CAMILLE: i64 = 1;
const JULIEN: i64 = 2;

async fn exec(db: &PgPool, sql: &str) {
    sqlx::raw_sql(sql).execute(db).await.unwrap();
}

/// Camille has one item of every kind and one of each that must not show;
/// Julien has a card of his own.
async fn plant(db: &PgPool) {
    exec(
        db,
        "INSERT INTO users (id, email, display_name, role) VALUES
             (1, 'camille@reciprok.fr', 'Camille Martin', 'team'),
             (2, 'julien@reciprok.fr', 'Julien Bernard', 'team');
         INSERT INTO pools (id, slug, name) VALUES (1, 'hotels', 'Hôtels');
         INSERT INTO members (id, code, name, pool_id, status, postal_code, city, lat, lng)
         VALUES (101, '#101', 'Le Belvédère', 1, 'active', '75008', 'Paris', 48.873, 2.310),
                (102, '#102', 'La Verrière', 1, 'active', '75011', 'Paris', 48.858, 2.380);
         INSERT INTO requests (id, reference, pool_id, organizer_name, description, event_type,
                               participants, area, status, assigned_user_id, created_at)
         VALUES (41, 'D-2026-00041', 1, 'Nadia Rousseau', 'Séminaire', 'seminaire', 80, 'Lyon',
                 'new', 1, now() - interval '2 days'),
                (42, 'D-2026-00042', 1, 'Karim Lefèvre', 'Soirée', 'soiree', 120, 'Paris 8e',
                 'catalogue_sent', 1, now() - interval '10 days'),
                (43, 'D-2026-00043', 1, 'Olivier Vincent', 'Déjeuner', 'dejeuner', 20, NULL,
                 'qualifying', 2, now()),
                (44, 'D-2026-00044', 1, 'Éric Long', 'Gala', 'gala', 300, NULL,
                 'won', 1, now());
         -- Camille's conversation about 41: one card waiting, one decided,
         -- one expired; Julien's conversation: one card waiting.
         INSERT INTO ai_conversations (id, user_id, request_id, title) VALUES
             (7, 1, 41, 'Séminaire 80 pers. · Lyon'), (8, 2, NULL, 'Autre');
         INSERT INTO ai_messages (id, conversation_id, seq, role) VALUES
             (70, 7, 0, 'assistant'), (80, 8, 0, 'assistant');
         INSERT INTO ai_pending_approvals (id, conversation_id, message_id, tool_call_id, tool_name,
                                           arguments, arguments_hash, status, expires_at,
                                           decided_at)
         VALUES (501, 7, 70, 'c1', 'update_request', '{}', sha256('a'), 'pending',
                 now() + interval '1 hour', NULL),
                (502, 7, 70, 'c2', 'update_request', '{}', sha256('b'), 'rejected',
                 now() + interval '1 hour', now()),
                (503, 7, 70, 'c3', 'update_request', '{}', sha256('c'), 'pending',
                 now() - interval '1 minute', NULL),
                (504, 8, 80, 'c4', 'save_memory', '{}', sha256('d'), 'pending',
                 now() + interval '1 hour', NULL);
         INSERT INTO ai_events (conversation_id, seq, event) VALUES
             (7, 1, '{\"type\": \"approval_requested\", \"approval_id\": 501,
                      \"title\": \"Modifier la demande D-2026-00041\"}'),
             (8, 1, '{\"type\": \"approval_requested\", \"approval_id\": 504,
                      \"title\": \"Retenir dans votre mémoire\"}');
         -- A sent catalogue of 42 (Camille's): a comment and two favourites;
         -- an old comment on 44's catalogue.
         INSERT INTO catalogues (id, request_id, status, sent_at) VALUES
             (1, 42, 'sent', now() - interval '1 day'), (2, 44, 'sent', now() - interval '40 days');
         INSERT INTO catalogue_picks (catalogue_id, member_id, tier, position, added_by,
                                      organizer_favorite)
         VALUES (1, 101, 'recommended', 0, 'team', true), (1, 102, 'compatible', 0, 'team', true),
                (2, 101, 'recommended', 0, 'team', false);
         INSERT INTO catalogue_feedback (catalogue_id, comment) VALUES
             (1, 'Le Belvédère nous plaît, <b>pouvez-vous</b> confirmer la terrasse ?');
         INSERT INTO catalogue_feedback (catalogue_id, comment, updated_at)
         VALUES (2, 'Ancien commentaire', now() - interval '30 days');
         -- Comments on one venue: on 42's Belvédère (Camille's), an old one
         -- on 44's, and one on the catalogue of 43 (Julien's).
         INSERT INTO catalogues (id, request_id, status, sent_at) VALUES
             (3, 43, 'sent', now() - interval '1 day');
         INSERT INTO catalogue_picks (catalogue_id, member_id, tier, position, added_by)
         VALUES (3, 102, 'recommended', 0, 'team');
         INSERT INTO organizer_pick_comments (pick_id, catalogue_id, comment, updated_at)
         SELECT p.id, p.catalogue_id, c.comment, now() - c.age
           FROM catalogue_picks p
           JOIN (VALUES (1, 101, 'La terrasse est-elle   couverte ?', interval '1 hour'),
                        (2, 101, 'Ancienne remarque', interval '30 days'),
                        (3, 102, 'Trop loin pour nous', interval '2 hours'))
                AS c (catalogue_id, member_id, comment, age)
             ON c.catalogue_id = p.catalogue_id AND c.member_id = p.member_id;
         -- Reminders: Camille's overdue and due tonight, tomorrow's, a done
         -- one; Julien's overdue one.
         INSERT INTO tasks (user_id, title, due_at, status, completed_at, request_id) VALUES
             (1, 'Relancer Nadia pour les dates', now() - interval '1 day', 'open', NULL, 41),
             (1, 'Appeler le Belvédère', now() + interval '1 minute', 'open', NULL, NULL),
             (1, 'Préparer le point de lundi', now() + interval '3 days', 'open', NULL, NULL),
             (1, 'Déjà fait', now() - interval '2 hours', 'done', now(), NULL),
             (2, 'Rappel de Julien', now() - interval '1 hour', 'open', NULL, NULL);
         -- Venues' answers: La Verrière answered for 42 (Camille's request);
         -- one still pending.
         INSERT INTO availability_checks (request_id, member_id, status, conditions,
                                          sent_at, answered_at, expires_at)
         VALUES (42, 102, 'available', 'Terrasse seulement si beau temps',
                 now() - interval '1 day', now() - interval '3 hours', now() + interval '5 days'),
                (42, 101, 'pending', NULL,
                 now() - interval '1 day', NULL, now() + interval '5 days');",
    )
    .await;
}

fn service(db: &PgPool, cap_eur: f64) -> WorkQueueService {
    WorkQueueService {
        db: db.clone(),
        budget: BudgetSettings {
            cap_eur,
            usd_to_eur: 1.0,
        },
    }
}

fn texts(queue: &WorkQueue, kind: WorkKind) -> Vec<String> {
    queue.of(kind).into_iter().map(|i| i.text).collect()
}

#[sqlx::test(migrations = "../migrations")]
async fn each_item_reaches_the_member_it_concerns(db: PgPool) {
    plant(&db).await;
    let queue = service(&db, 200.0).queue(CAMILLE, false).await.unwrap();

    let cards = queue.of(WorkKind::Approval);
    assert_eq!(cards.len(), 1, "{cards:?}");
    assert_eq!(
        cards[0].text,
        "Modifier la demande D-2026-00041 — conversation « Séminaire 80 pers. · Lyon »"
    );
    assert_eq!(cards[0].href, "/chat/7");
    assert_eq!(cards[0].reference.as_deref(), Some("D-2026-00041"));

    let comments = queue.of(WorkKind::Comment);
    assert_eq!(
        comments.len(),
        2,
        "the old comments and Julien's are not listed: {comments:?}"
    );
    // Newest first: the catalogue's comment (just now), then the venue's
    // (an hour ago, its spaces collapsed).
    assert!(
        comments[0]
            .text
            .starts_with("Karim Lefèvre a commenté le catalogue : « Le Belvédère nous plaît"),
        "{comments:?}"
    );
    assert_eq!(comments[0].href, "/demandes/42/catalogue");
    assert_eq!(comments[0].reference.as_deref(), Some("D-2026-00042"));
    assert_eq!(
        comments[1].text,
        "Karim Lefèvre a commenté Le Belvédère : « La terrasse est-elle couverte ? »"
    );
    assert_eq!(comments[1].href, "/demandes/42/catalogue");
    assert_eq!(comments[1].reference.as_deref(), Some("D-2026-00042"));
    // An hour ago is « il y a … » the same Paris day, « hier à … » just
    // after midnight in Paris.
    let now = chrono::Utc::now();
    let same_day =
        app::fr::to_paris(now - chrono::Duration::hours(1)).date() == app::fr::to_paris(now).date();
    let expected = if same_day { "il y a " } else { "hier à " };
    assert!(comments[1].when.starts_with(expected), "{comments:?}");

    assert_eq!(
        texts(&queue, WorkKind::Favourite),
        ["Karim Lefèvre a mis 2 lieux en favori : Le Belvédère, La Verrière"]
    );

    let to_qualify = queue.of(WorkKind::ToQualify);
    assert_eq!(to_qualify.len(), 1, "{to_qualify:?}");
    assert_eq!(
        to_qualify[0].text,
        "Séminaire, 80 personnes, Lyon : à qualifier"
    );
    assert_eq!(to_qualify[0].href, "/demandes/41");
    assert!(to_qualify[0].when.starts_with("reçue "), "{to_qualify:?}");

    let reminders = queue.of(WorkKind::Reminder);
    let titles: Vec<&str> = reminders.iter().map(|r| r.text.as_str()).collect();
    // Due tonight counts only while « tonight » is still today in Paris.
    assert!(
        titles.contains(&"Relancer Nadia pour les dates"),
        "{titles:?}"
    );
    assert!(
        !titles.contains(&"Préparer le point de lundi"),
        "{titles:?}"
    );
    assert!(!titles.contains(&"Déjà fait"), "{titles:?}");
    assert!(!titles.contains(&"Rappel de Julien"), "{titles:?}");
    let overdue = &reminders[0];
    assert_eq!(
        overdue.text, "Relancer Nadia pour les dates",
        "overdue first"
    );
    assert!(overdue.urgent);
    assert!(
        overdue.when.starts_with("en retard : prévu hier à "),
        "{overdue:?}"
    );
    assert_eq!(overdue.href, "/memoire");
    assert_eq!(overdue.reference.as_deref(), Some("D-2026-00041"));

    assert_eq!(
        texts(&queue, WorkKind::Availability),
        ["La Verrière est disponible, sous conditions"]
    );
    assert_eq!(queue.of(WorkKind::Availability)[0].href, "/demandes/42");

    // A team member sees no admin alert.
    assert!(queue.of(WorkKind::Budget).is_empty());
    assert!(queue.of(WorkKind::Playbook).is_empty());

    // Julien: his own card and reminder, nothing of Camille's.
    let julien = service(&db, 200.0).queue(JULIEN, false).await.unwrap();
    assert_eq!(
        texts(&julien, WorkKind::Approval),
        ["Retenir dans votre mémoire — conversation « Autre »"]
    );
    assert_eq!(texts(&julien, WorkKind::Reminder), ["Rappel de Julien"]);
    assert_eq!(
        texts(&julien, WorkKind::ToQualify),
        ["Déjeuner d'affaires, 20 personnes : à qualifier"]
    );
    let julien_comments = julien.of(WorkKind::Comment);
    assert_eq!(
        julien_comments.len(),
        1,
        "his request's venue comment only: {julien_comments:?}"
    );
    assert_eq!(
        julien_comments[0].text,
        "Olivier Vincent a commenté La Verrière : « Trop loin pour nous »"
    );
    assert_eq!(julien_comments[0].href, "/demandes/43/catalogue");
    assert_eq!(
        julien_comments[0].reference.as_deref(),
        Some("D-2026-00043")
    );
    for kind in [WorkKind::Favourite, WorkKind::Availability] {
        assert!(julien.of(kind).is_empty(), "{kind:?}: {julien:?}");
    }
}

#[sqlx::test(migrations = "../migrations")]
async fn a_member_with_nothing_to_do_has_an_empty_queue(db: PgPool) {
    plant(&db).await;
    exec(
        &db,
        "INSERT INTO users (id, email, display_name) VALUES (9, 'lea@reciprok.fr', 'Léa');",
    )
    .await;
    let queue = service(&db, 200.0).queue(9, false).await.unwrap();
    assert!(queue.items.is_empty(), "{queue:?}");
}

#[sqlx::test(migrations = "../migrations")]
async fn admins_also_see_the_budget_and_the_playbook_alerts(db: PgPool) {
    plant(&db).await;
    exec(
        &db,
        "INSERT INTO llm_calls (task, provider, model, cost_usd, latency_ms, status)
         VALUES ('chat', 'anthropic', 'claude', 170, 900, 'ok');
         INSERT INTO suggested_playbooks (pattern_key, occurrences, window_start, window_end)
         VALUES ('after:a|call:b', 12, now() - interval '7 days', now()),
                ('after:c|call:d', 9, now() - interval '7 days', now());",
    )
    .await;
    let admin = service(&db, 200.0).queue(CAMILLE, true).await.unwrap();
    let budget = admin.of(WorkKind::Budget);
    assert_eq!(budget.len(), 1, "{budget:?}");
    assert!(
        budget[0]
            .text
            .starts_with("Budget IA : 170 € sur 200 € ce mois-ci (85 %)"),
        "{budget:?}"
    );
    assert_eq!(budget[0].href, "/console");
    assert!(!budget[0].urgent, "under the cap");
    let playbooks = admin.of(WorkKind::Playbook);
    assert_eq!(playbooks.len(), 1, "{playbooks:?}");
    assert!(
        playbooks[0].text.starts_with("2 motifs repérés"),
        "{playbooks:?}"
    );
    assert_eq!(playbooks[0].href, "/console/motifs");
    // The admin's own items are still there.
    assert_eq!(admin.of(WorkKind::Approval).len(), 1);

    // Over the cap: urgent. Under 80 %: no alert.
    let over = service(&db, 150.0).queue(CAMILLE, true).await.unwrap();
    assert!(over.of(WorkKind::Budget)[0].urgent);
    let calm = service(&db, 1000.0).queue(CAMILLE, true).await.unwrap();
    assert!(calm.of(WorkKind::Budget).is_empty());

    // The same member without the admin role: none of it.
    let team = service(&db, 150.0).queue(CAMILLE, false).await.unwrap();
    assert!(team.of(WorkKind::Budget).is_empty());
    assert!(team.of(WorkKind::Playbook).is_empty());
}

#[sqlx::test(migrations = "../migrations")]
async fn the_home_page_is_the_queue_and_alerts_stay_with_admins(db: PgPool) {
    use support::app::{seed_demo, TestApp, ADMIN, PASSWORD, TEAM};
    seed_demo(&db).await;
    exec(
        &db,
        "INSERT INTO tasks (user_id, title, due_at)
         SELECT id, 'Relancer la Péniche Lumière', now() - interval '2 hours'
           FROM users WHERE email = 'camille.martin@reciprok.fr';
         INSERT INTO suggested_playbooks (pattern_key, occurrences, window_start, window_end)
         VALUES ('after:a|call:b', 12, now() - interval '7 days', now());",
    )
    .await;
    let app = TestApp::start(db).await;

    let team = app.sign_in(TEAM, PASSWORD).await;
    let home = app.get("/", Some(&team)).await;
    assert_eq!(home.status, reqwest::StatusCode::OK);
    assert!(
        home.body.contains("<title>À faire · Maxy</title>"),
        "{}",
        home.body
    );
    assert!(home.body.contains("Aller au contenu"), "the skip link");
    assert!(home.body.contains("id=\"contenu\""), "its target");
    assert!(
        home.body.contains("Relancer la Péniche Lumière"),
        "the reminder is listed"
    );
    assert!(home.body.contains("en retard : prévu "), "and said overdue");
    assert!(
        !home.body.contains("motif repéré"),
        "no playbook alert for the team"
    );

    let admin = app.sign_in(ADMIN, PASSWORD).await;
    let home = app.get("/", Some(&admin)).await;
    assert_eq!(home.status, reqwest::StatusCode::OK);
    assert!(
        home.body.contains("Un motif repéré dans les conversations"),
        "{}",
        home.body
    );
    assert!(
        !home.body.contains("Relancer la Péniche Lumière"),
        "Camille's reminder is hers"
    );

    // The server function answers a signed-in caller only.
    let anonymous = app.post_form("/api/home/queue", &[], None).await;
    assert_ne!(anonymous.status, reqwest::StatusCode::OK);
}
