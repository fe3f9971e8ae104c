//! The fold of a conversation's log: what each event shows, and that
//! replays, reloads and reconnections never show anything twice.
use super::*;
use crate::chat::{CardBody, CardField, ConversationSummary};

fn at(seq: i64, event: ChatEvent) -> SeqEvent {
    SeqEvent { seq, event }
}

fn user(text: &str) -> ChatEvent {
    ChatEvent::UserMessage {
        text: text.into(),
        author: "Camille Martin".into(),
    }
}

fn delta(text: &str) -> ChatEvent {
    ChatEvent::TextDelta { text: text.into() }
}

fn started(offline: bool) -> ChatEvent {
    ChatEvent::TurnStarted {
        turn_id: 1,
        offline,
        model: "offline".into(),
    }
}

fn finished(cost_eur: f64) -> ChatEvent {
    ChatEvent::TurnFinished {
        turn_id: 1,
        status: "done".into(),
        cost_eur,
    }
}

fn card(approval_id: i64) -> ApprovalCard {
    ApprovalCard {
        approval_id,
        tool_name: "update_request".into(),
        title: "Mettre à jour la demande D-2026-00001".into(),
        expires_at: "2026-12-01T14:00:00Z".into(),
        arguments_hash: "ab12".into(),
        body: CardBody::Fields {
            rows: vec![CardField {
                label: "Participants".into(),
                value: "80".into(),
            }],
        },
        read_before: vec!["Lecture de la demande".into()],
        after_emails: false,
    }
}

fn decided(approval_id: i64, status: &str) -> ChatEvent {
    ChatEvent::ApprovalDecided {
        approval_id,
        status: status.into(),
        detail: "fait".into(),
        decided_by: Some("Camille Martin".into()),
    }
}

fn fold(events: Vec<ChatEvent>) -> Timeline {
    let mut t = Timeline::default();
    for (i, e) in events.into_iter().enumerate() {
        assert!(t.apply(&at(i as i64 + 1, e)));
    }
    t
}

fn log(events: Vec<SeqEvent>, running: bool, offline: bool, cost_eur: f64) -> ConversationLog {
    ConversationLog {
        conversation: ConversationSummary {
            id: 7,
            request_reference: None,
            title: "Rooftop".into(),
            request_id: None,
            updated_at: "2026-12-01T12:00:00Z".into(),
            pending_approvals: 0,
        },
        events,
        running,
        offline,
        cost_eur,
    }
}

#[test]
fn consecutive_deltas_make_one_answer_and_a_tool_splits_it() {
    let t = fold(vec![
        user("Trouve un rooftop"),
        started(true),
        delta("Je "),
        delta("cherche."),
        ChatEvent::ToolStarted {
            call_id: "c1".into(),
            name: "search_members".into(),
            label: "Recherche de lieux…".into(),
        },
        delta("Voici "),
        delta("8 lieux."),
        finished(0.0),
    ]);
    assert_eq!(
        t.entries,
        vec![
            Entry::User {
                text: "Trouve un rooftop".into(),
                author: "Camille Martin".into()
            },
            Entry::Assistant {
                text: "Je cherche.".into(),
                interrupted: false
            },
            Entry::Tool {
                call_id: "c1".into(),
                label: "Recherche de lieux…".into(),
                summary: None,
                is_error: false
            },
            Entry::Assistant {
                text: "Voici 8 lieux.".into(),
                interrupted: false
            },
            Entry::TurnEnd {
                status: "done".into(),
                cost_eur: 0.0
            },
        ]
    );
    assert!(t.offline);
    assert!(!t.running);
    assert_eq!(t.last_seq, 8);
}

#[test]
fn a_tool_line_shows_its_summary_once_finished() {
    let t = fold(vec![
        ChatEvent::ToolStarted {
            call_id: "c1".into(),
            name: "search_members".into(),
            label: "Recherche de lieux…".into(),
        },
        ChatEvent::ToolStarted {
            call_id: "c2".into(),
            name: "count_members".into(),
            label: "Comptage…".into(),
        },
        ChatEvent::ToolFinished {
            call_id: "c1".into(),
            name: "search_members".into(),
            summary: "4 recommandés, 3 compatibles".into(),
            is_error: false,
        },
        ChatEvent::ToolFinished {
            call_id: "c2".into(),
            name: "count_members".into(),
            summary: "Pool inconnu".into(),
            is_error: true,
        },
    ]);
    assert_eq!(t.entries.len(), 2, "a finish updates its line: {t:?}");
    assert!(matches!(&t.entries[0],
        Entry::Tool { summary: Some(s), is_error: false, label, .. }
            if s == "4 recommandés, 3 compatibles" && label == "Recherche de lieux…"));
    assert!(matches!(&t.entries[1],
        Entry::Tool { summary: Some(s), is_error: true, .. } if s == "Pool inconnu"));
}

#[test]
fn a_finish_without_its_start_still_shows_a_line_in_french() {
    let t = fold(vec![ChatEvent::ToolFinished {
        call_id: "lost".into(),
        name: "get_request".into(),
        summary: "Demande D-2026-00001".into(),
        is_error: false,
    }]);
    assert!(matches!(&t.entries[..],
        [Entry::Tool { label, summary: Some(_), .. }] if label == "Lecture de la demande…"));
    // A write refused before any card: its French label, never its key.
    let t = fold(vec![ChatEvent::ToolFinished {
        call_id: "refused".into(),
        name: "add_members_to_catalog".into(),
        summary: "Proposition impossible : catalogue complet".into(),
        is_error: true,
    }]);
    assert!(matches!(&t.entries[..],
        [Entry::Tool { label, .. }] if label == "Proposition d'ajout au catalogue…"));
}

#[test]
fn a_decision_updates_its_card_in_place() {
    let t = fold(vec![
        ChatEvent::ApprovalRequested(card(4)),
        ChatEvent::ApprovalRequested(card(5)),
        delta("Validez la carte."),
        decided(5, "rejected"),
    ]);
    assert_eq!(t.entries.len(), 3);
    assert_eq!(t.card_status(4), Some(&CardStatus::Pending));
    let five = t.card_status(5).unwrap();
    assert_eq!(five.label(), "Refusée");
    assert!(matches!(five, CardStatus::Decided { detail, .. } if detail == "fait"));
    assert_eq!(t.card_status(6), None);
}

#[test]
fn the_same_card_proposed_twice_is_shown_once() {
    let t = fold(vec![
        ChatEvent::ApprovalRequested(card(4)),
        ChatEvent::ApprovalRequested(card(4)),
    ]);
    assert_eq!(t.entries.len(), 1);
}

#[test]
fn status_labels_are_french() {
    let label = |s: &str| {
        CardStatus::Decided {
            status: s.into(),
            detail: String::new(),
            decided_by: None,
        }
        .label()
    };
    assert_eq!(label("executed"), "Exécutée");
    assert_eq!(label("failed"), "Échec");
    assert_eq!(label("rejected"), "Refusée");
    assert_eq!(label("expired"), "Expirée");
    assert_eq!(CardStatus::Pending.label(), "En attente");
}

#[test]
fn events_already_seen_are_ignored() {
    let mut t = Timeline::default();
    assert!(t.apply(&at(1, user("Bonjour"))));
    assert!(t.apply(&at(2, delta("Bon"))));
    assert!(t.apply(&at(3, delta("jour"))));
    // The stream resumed from an older seq (or repeated one): no echo.
    assert!(!t.apply(&at(3, delta("jour"))));
    assert!(!t.apply(&at(2, delta("Bon"))));
    assert!(!t.apply(&at(-1, user("vieux"))));
    assert!(t.apply(&at(4, delta(" !"))));
    assert_eq!(t.entries.len(), 2);
    assert_eq!(
        t.entries[1],
        Entry::Assistant {
            text: "Bonjour !".into(),
            interrupted: false
        }
    );
    assert_eq!(t.last_seq, 4);
}

#[test]
fn resuming_after_a_reload_gives_the_same_screen_as_watching_live() {
    let events: Vec<SeqEvent> = vec![
        user("Qualifie cette demande"),
        started(true),
        delta("Je lis "),
        delta("la demande."),
        ChatEvent::ApprovalRequested(card(9)),
        delta("Approuvez."),
        finished(0.12),
    ]
    .into_iter()
    .enumerate()
    .map(|(i, e)| at(i as i64 + 10, e))
    .collect();
    let live = {
        let mut t = Timeline::default();
        for e in &events {
            t.apply(e);
        }
        t
    };
    for cut in 0..events.len() {
        // Loaded up to `cut`, then the stream replays from a little earlier.
        let mut t = Timeline::from_log(&log(events[..cut].to_vec(), true, true, 0.0));
        for e in &events[cut.saturating_sub(2)..] {
            t.apply(e);
        }
        assert_eq!(t.entries, live.entries, "cut at {cut}");
        assert_eq!(t.last_seq, 16);
        assert!(!t.running, "cut at {cut}");
    }
}

#[test]
fn a_loaded_log_takes_the_servers_word_on_state_and_cost() {
    let events = vec![at(1, user("Bonjour")), at(2, finished(0.05))];
    let t = Timeline::from_log(&log(events.clone(), false, true, 0.07));
    assert!(t.offline);
    assert!(!t.running);
    assert!((t.cost_eur - 0.07).abs() < 1e-9, "{}", t.cost_eur);
    // The user message is stored; the turn has not started yet.
    let mut t = Timeline::from_log(&log(vec![at(1, user("Bonjour"))], true, false, 0.0));
    assert!(t.running);
    assert!(!t.offline);
    // A turn the offline planner answers shows the badge at once…
    t.apply(&at(2, started(true)));
    assert!(t.offline);
    // …and the server's word wins when the log is reloaded.
    t.merge_log(&log(vec![at(1, user("Bonjour"))], false, false, 0.0));
    assert!(!t.offline);
}

#[test]
fn a_turn_finished_live_adds_its_cost() {
    let mut t = Timeline::from_log(&log(vec![at(1, user("Bonjour"))], true, false, 0.10));
    t.apply(&at(2, started(false)));
    t.apply(&at(3, finished(0.02)));
    assert!((t.cost_eur - 0.12).abs() < 1e-9);
    assert_eq!(euros(t.cost_eur), "0,12 €");
}

#[test]
fn a_decision_answer_without_seq_changes_only_its_card() {
    let mut t = fold(vec![ChatEvent::ApprovalRequested(card(4))]);
    t.apply_decision(&delta("ignored"));
    t.apply_decision(&decided(4, "executed"));
    assert_eq!(t.last_seq, 1);
    assert_eq!(t.entries.len(), 1);
    assert_eq!(t.card_status(4).unwrap().label(), "Exécutée");
    // The log brings the same decision later: same screen.
    let before = t.entries.clone();
    assert!(t.apply(&at(2, decided(4, "executed"))));
    assert_eq!(t.entries, before);
}

#[test]
fn euros_are_written_the_french_way() {
    assert_eq!(euros(0.0), "0,00 €");
    assert_eq!(euros(0.123), "0,12 €");
    assert_eq!(euros(12.5), "12,50 €");
    assert_eq!(euros(-1.0), "0,00 €");
    assert_eq!(euros(f64::NAN), "0,00 €");
}

#[test]
fn merging_a_reloaded_log_adds_only_what_was_missed() {
    let mut t = Timeline::from_log(&log(
        vec![at(1, user("Bonjour")), at(2, delta("Bon"))],
        true,
        false,
        0.0,
    ));
    // Streamed live meanwhile.
    t.apply(&at(3, delta("jour")));
    let reloaded = log(
        vec![
            at(1, user("Bonjour")),
            at(2, delta("Bon")),
            at(3, delta("jour")),
            at(4, delta(".")),
            at(5, finished(0.01)),
        ],
        false,
        true,
        0.03,
    );
    t.merge_log(&reloaded);
    assert_eq!(
        t.entries[1],
        Entry::Assistant {
            text: "Bonjour.".into(),
            interrupted: false
        }
    );
    assert_eq!(t.entries.len(), 3);
    assert!(!t.running);
    assert!(t.offline);
    assert_eq!(euros(t.cost_eur), "0,03 €");
    // Merging it again changes nothing.
    let before = t.clone();
    t.merge_log(&reloaded);
    assert_eq!(t, before);
}

/// A model that stops mid-answer: the partial text stays, labelled, and the
/// text after it (the offline planner's answer) is another answer.
#[test]
fn an_interrupted_answer_keeps_its_text_and_the_next_answer_is_apart() {
    let mut t = Timeline::default();
    let events = [
        ChatEvent::TextDelta {
            text: "Voici trois li".into(),
        },
        ChatEvent::AnswerInterrupted,
        ChatEvent::Notice {
            text: "Le modèle distant ne répond pas.".into(),
        },
        ChatEvent::TextDelta {
            text: "Réponse hors-ligne.".into(),
        },
    ];
    for (i, event) in events.iter().enumerate() {
        t.apply(&SeqEvent {
            seq: i as i64 + 1,
            event: event.clone(),
        });
    }
    assert_eq!(
        t.entries,
        [
            Entry::Assistant {
                text: "Voici trois li".into(),
                interrupted: true
            },
            Entry::Notice {
                text: "Le modèle distant ne répond pas.".into()
            },
            Entry::Assistant {
                text: "Réponse hors-ligne.".into(),
                interrupted: false
            },
        ]
    );
    // Even with no notice between them, the answers stay apart.
    let mut t = Timeline::default();
    for (i, event) in [&events[0], &events[1], &events[3]].into_iter().enumerate() {
        t.apply(&SeqEvent {
            seq: i as i64 + 1,
            event: event.clone(),
        });
    }
    assert_eq!(t.entries.len(), 2);
}

#[test]
fn a_log_read_before_a_message_was_sent_does_not_end_its_turn() {
    let ended = vec![
        at(1, user("Bonjour")),
        at(2, started(true)),
        at(3, finished(0.0)),
    ];
    let mut t = Timeline::from_log(&log(ended.clone(), false, true, 0.0));
    // The next message is sent (its event is seq 4)…
    t.sent(4);
    assert!(t.running);
    // …then the reload asked for after the previous turn answers, late.
    t.merge_log(&log(ended.clone(), false, true, 0.0));
    assert!(t.running, "a stale log must not end the new turn");
    // Once the message is seen (stream or log), the server's word holds.
    let mut seen = ended;
    seen.push(at(4, user("Et maintenant ?")));
    t.merge_log(&log(seen, false, true, 0.0));
    assert!(!t.running);
    assert_eq!(t.awaiting, None);
}
