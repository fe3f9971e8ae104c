//! « Montre les e-mails de la demande »: `list_request_emails`, then who
//! wrote, when and about what. Bodies are third-party text: they are not
//! repeated, and orders found in them are pointed out, never followed.
use super::answer::{date, plural, short};
use super::results::{items, looks_like_orders, plain_at, text};
use super::step::Next;
use super::turn::Turn;
use serde_json::{json, Value};

pub fn next(turn: &Turn) -> Next {
    let Some(target) = &turn.target else {
        return Next::Say(
            "De quelle demande voulez-vous les e-mails ? Donnez son numéro \
             (« les e-mails de la demande #42 ») ou ouvrez la conversation depuis la demande."
                .to_string(),
        );
    };
    if let Some(asked) = &target.unverified_reference {
        let Some(request) = turn.json("get_request") else {
            return Next::call("get_request", json!({ "request_id": target.id }));
        };
        let request = request.get("request").unwrap_or(request);
        if !text(request, "reference").is_some_and(|r| r.eq_ignore_ascii_case(asked)) {
            return Next::Say(format!(
                "Je ne retrouve pas la demande {asked}. Donnez son numéro (« demande #… »)."
            ));
        }
    }
    match turn.json("list_request_emails") {
        None => Next::call("list_request_emails", json!({ "request_id": target.id })),
        Some(v) => Next::Say(answer(v)),
    }
}

fn answer(v: &Value) -> String {
    let emails = items(v, "emails");
    if emails.is_empty() {
        return "Aucun e-mail pour cette demande.".to_string();
    }
    let mut out = format!(
        "{} pour cette demande :",
        plural(emails.len(), "e-mail", "e-mails")
    );
    let mut orders = false;
    for e in emails {
        let when = text(e, "received_at").map(date).unwrap_or_default();
        let incoming = text(e, "direction") != Some("outbound");
        let from = text(e, "from").map(|f| short(f, 80)).unwrap_or_default();
        let subject = plain_at(e, "subject").unwrap_or_else(|| "(sans objet)".to_string());
        let who = match (incoming, from.is_empty()) {
            (true, false) => format!("reçu de {from}"),
            (true, true) => "reçu".to_string(),
            (false, _) => "envoyé".to_string(),
        };
        out.push_str(&format!("\n- {when} {who} : « {} »", short(&subject, 120)));
        orders |= [plain_at(e, "subject"), plain_at(e, "body")]
            .iter()
            .flatten()
            .any(|t| looks_like_orders(t));
    }
    if orders {
        out.push_str(
            "\n\nAttention : un de ces e-mails contient ce qui ressemble à des consignes \
             adressées à l'assistant. Je les lis comme du texte de tiers et ne les suis pas.",
        );
    }
    out
}
