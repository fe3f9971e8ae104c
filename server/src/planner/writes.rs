//! What the team asks Maxy to write, from their own message — a note in a
//! request's memo, a status, a reminder, a memory, an availability check,
//! venues added by code — each becomes exactly one approval card and
//! nothing else: the planner reads what the card needs, proposes the write,
//! and says that nothing is written before a person approves it. Removing
//! has no tool: it is said plainly, with the page that does it.
use super::answer::{number, short};
use super::codes::member_codes;
use super::intent::Write;
use super::results::{count, items, plain_at, text};
use super::statuses::status_named;
use super::step::{Call, Next};
use super::the_request;
use super::turn::{Outcome, Turn};
use super::when;
use super::words::any;
use serde_json::{json, Value};

/// The tool each write uses: the only write the planner may call for it.
pub fn tool(write: Write) -> &'static str {
    match write {
        Write::Memo | Write::Status => "update_request",
        Write::Reminder => "create_reminder",
        Write::Memory => "save_memory",
        Write::Availability => "request_availability_check",
        Write::AddVenues => "add_members_to_catalog",
    }
}

pub fn next(turn: &Turn, write: Write) -> Next {
    let tool = tool(write);
    if let Some(step) = turn.step(tool) {
        return match &step.outcome {
            Outcome::Missing => Next::Say(String::new()),
            _ => Next::Say(proposed(write, turn)),
        };
    }
    match write {
        Write::Memory => memory(turn),
        Write::Reminder => reminder(turn),
        _ => on_request(turn, write),
    }
}

/// What the team reads once the card is up.
fn proposed(write: Write, turn: &Turn) -> String {
    let what = match write {
        Write::Memo => "l'ajout au mémo de la demande",
        Write::Status => "le changement de statut de la demande",
        Write::Reminder => "le rappel",
        Write::Memory => "ce souvenir dans votre mémoire",
        Write::Availability => "la demande de disponibilité au lieu",
        Write::AddVenues => "l'ajout au catalogue",
    };
    let several = turn.steps.iter().filter(|s| s.name == tool(write)).count() > 1;
    format!(
        "J'ai préparé {what} : {} ci-dessus. Rien n'est écrit avant que vous l'approuviez.",
        if several {
            "vérifiez les cartes"
        } else {
            "vérifiez la carte"
        }
    )
}

/// What follows « : » or « que » in the message: the text to write.
fn content(text: &str) -> Option<String> {
    let after = if let Some((_, rest)) = text.split_once(':') {
        rest.to_string()
    } else {
        // Lower case keeps French text's characters one for one.
        let lower = text.to_lowercase();
        let at = [" que ", " qu'", " qu’"]
            .iter()
            .filter_map(|k| lower.find(k).map(|i| i + k.len()))
            .min()?;
        text.chars().skip(lower[..at].chars().count()).collect()
    };
    let after = after
        .trim()
        .trim_matches(['«', '»', '"', ' '])
        .trim()
        .to_string();
    (!after.is_empty()).then_some(after)
}

fn memory(turn: &Turn) -> Next {
    match content(&turn.text) {
        Some(c) => Next::call("save_memory", json!({ "content": short(&c, 2000) })),
        None => Next::Say(
            "Que dois-je retenir ? Écrivez-le après « retiens que … » ou après deux-points."
                .to_string(),
        ),
    }
}

fn reminder(turn: &Turn) -> Next {
    let w = super::words::words(&turn.text);
    let Some((due, _)) = when::day(&w, when::today()) else {
        return Next::Say(
            "Pour quand est ce rappel ? Donnez un jour (« demain », « lundi », « le 12/12 », \
             « dans 3 jours »)."
                .to_string(),
        );
    };
    let title = reminder_title(&turn.text);
    let mut input = json!({ "title": title, "due_at": due.to_string() });
    if let Some(target) = &turn.target {
        input["request_id"] = json!(target.id);
    }
    Next::call("create_reminder", input)
}

/// « Rappelle-moi de relancer le traiteur demain » → « Relancer le traiteur demain ».
fn reminder_title(text: &str) -> String {
    let lower = text.to_lowercase();
    let start = [
        "rappelle-moi de ",
        "rappelle moi de ",
        "rappelle-moi d'",
        "rappelle-moi d’",
        "rappel pour ",
        "rappel : ",
        "rappel: ",
        "rappelle-nous de ",
    ]
    .iter()
    .find_map(|k| lower.find(k).map(|i| i + k.len()))
    .unwrap_or(0);
    let rest: String = text.chars().skip(lower[..start].chars().count()).collect();
    let rest = rest.trim().trim_end_matches(['.', '!']).trim();
    let mut chars = rest.chars();
    let title = match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => "Rappel".to_string(),
    };
    short(&title, 200)
}

/// The writes about one request: read it first (the memo to add to, the
/// status it has, the dates and the venues), then one card.
fn on_request(turn: &Turn, write: Write) -> Next {
    let (id, request) = match the_request::read(
        turn,
        "Pour quelle demande ? Donnez sa référence (« D-2025-00043 ») ou ouvrez la \
         conversation depuis la page de la demande.",
    ) {
        Ok(read) => read,
        Err(first) => return first,
    };
    let w = super::words::words(&turn.text);
    match write {
        Write::Memo => {
            let Some(added) = content(&turn.text) else {
                return Next::Say(
                    "Que dois-je ajouter au mémo ? Écrivez-le après deux-points \
                     (« ajoute au mémo : … »)."
                        .to_string(),
                );
            };
            let memo = match plain_at(request, "team_memo") {
                Some(old) if !old.trim().is_empty() => format!("{}\n{}", old.trim_end(), added),
                _ => added,
            };
            Next::call(
                "update_request",
                json!({ "request_id": id, "team_memo": memo }),
            )
        }
        Write::Status => {
            let status = status_named(&w).unwrap_or("cancelled");
            if text(request, "status") == Some(status) {
                return Next::Say(format!(
                    "La demande {} est déjà « {} » : rien à changer.",
                    text(request, "reference").unwrap_or("?"),
                    app::requests::status_label(status).to_lowercase()
                ));
            }
            Next::call(
                "update_request",
                json!({ "request_id": id, "status": status }),
            )
        }
        Write::Availability => {
            let calls: Vec<Call> = member_codes(&w)
                .into_iter()
                .map(|code| Call {
                    name: "request_availability_check",
                    input: json!({ "request_id": id, "member_code": code }),
                })
                .collect();
            Next::Call(calls)
        }
        Write::AddVenues => add_venues(turn, request, id, &w),
        Write::Reminder | Write::Memory => Next::Say(String::new()),
    }
}

/// Venues added by code: each venue's sheet read first, its room that
/// holds the request's group pinned, and a reason that says so.
fn add_venues(turn: &Turn, request: &Value, id: i64, w: &[String]) -> Next {
    let codes = member_codes(w);
    let missing: Vec<Call> = codes
        .iter()
        .map(|code| Call {
            name: "get_member",
            input: json!({ "code": code }),
        })
        .filter(|c| !turn.made(c.name, &c.input))
        .collect();
    if !missing.is_empty() {
        return Next::Call(missing);
    }
    let tier = if any(w, &["compatible", "compatibles"], &[]) {
        "compatible"
    } else {
        "recommended"
    };
    let participants = count(request, "participants");
    let wanted: Vec<String> = super::results::strings(request, "configurations");
    let picks: Vec<Value> = turn
        .steps
        .iter()
        .filter(|s| s.name == "get_member")
        .filter_map(|s| match &s.outcome {
            Outcome::Json(v) => Some(v.get("member").unwrap_or(v).clone()),
            _ => None,
        })
        .map(|m| {
            let (room, reason) = pinned_room(&m, participants, &wanted);
            let mut pick = json!({
                "member_code": text(&m, "code").unwrap_or(""),
                "tier": tier,
                "reason": reason,
            });
            if let Some(room) = room {
                pick["room_id"] = json!(room);
            }
            pick
        })
        .collect();
    if picks.is_empty() {
        return Next::Say("Je ne trouve pas ces lieux : vérifiez leurs codes (« #233 »).".into());
    }
    Next::call(
        "add_members_to_catalog",
        json!({ "request_id": id, "picks": picks }),
    )
}

/// The smallest room that holds the group in a layout the request accepts
/// (any layout when it names none), and the reason that says it.
fn pinned_room(m: &Value, participants: Option<u64>, wanted: &[String]) -> (Option<i64>, String) {
    let need = participants.unwrap_or(1);
    let mut best: Option<(u64, i64, String, String)> = None;
    for room in items(m, "rooms") {
        let Some(caps) = room.get("capacities").and_then(Value::as_object) else {
            continue;
        };
        for (conf, cap) in caps {
            let Some(cap) = cap.as_u64() else { continue };
            if cap < need || (!wanted.is_empty() && !wanted.contains(conf)) {
                continue;
            }
            if best.as_ref().is_none_or(|b| cap < b.0) {
                best = Some((
                    cap,
                    room.get("id").and_then(Value::as_i64).unwrap_or(0),
                    plain_at(room, "name").unwrap_or_else(|| "salle".into()),
                    conf.clone(),
                ));
            }
        }
    }
    let name = plain_at(m, "name").unwrap_or_default();
    match best {
        Some((cap, room_id, room, conf)) if room_id > 0 => (
            Some(room_id),
            format!(
                "{room} : jusqu'à {} personnes {}.",
                number(cap),
                app::room_configurations::phrase_of(&conf)
            ),
        ),
        _ => (None, format!("{name}, ajouté par l'équipe.")),
    }
}

/// Removing is not a chat tool: said plainly, with the page that does it.
pub fn remove(turn: &Turn) -> String {
    let page = turn.target.as_ref().map_or("/demandes".to_string(), |t| {
        format!("/demandes/{}/catalogue", t.id)
    });
    format!(
        "Je ne peux pas retirer de lieux ni supprimer depuis la conversation, et je ne propose \
         rien à la place. Faites-le dans le constructeur de catalogue ({page}) : chaque lieu a \
         son bouton « Retirer », et « Apprendre » permet de ne plus proposer un lieu pour ce \
         type d'événement."
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_to_write() {
        assert_eq!(
            content("Ajoute au mémo : appeler avant midi").as_deref(),
            Some("appeler avant midi")
        );
        assert_eq!(
            content("retiens que le Pavillon ferme en août").as_deref(),
            Some("le Pavillon ferme en août")
        );
        assert_eq!(content("retiens"), None);
        assert_eq!(
            reminder_title("Rappelle-moi de relancer le traiteur demain."),
            "Relancer le traiteur demain"
        );
    }
}
