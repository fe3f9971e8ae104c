//! What the timeline keeps of an event is what a person reads: every text
//! an event carries goes through [`for_people`], so a wrapper the model
//! echoed (`<external_content type="…">`) never reaches the page. The
//! assistant's own text is cleaned when rendered (`markdown::render`): its
//! deltas may cut a tag in two.
use crate::chat::{ApprovalCard, CardBody, CardField, CardPick};
pub use crate::external_text::for_people;

/// The card with every text it shows cleaned; its id, hash and expiry as is.
pub fn card(card: &ApprovalCard) -> ApprovalCard {
    let mut card = card.clone();
    card.title = for_people(&card.title);
    card.read_before = card.read_before.iter().map(|r| for_people(r)).collect();
    card.body = match card.body {
        CardBody::Catalogue {
            request_id,
            request_reference,
            picks,
        } => CardBody::Catalogue {
            request_id,
            request_reference: for_people(&request_reference),
            picks: picks.iter().map(pick).collect(),
        },
        CardBody::Fields { rows } => CardBody::Fields {
            rows: rows
                .iter()
                .map(|r| CardField {
                    label: for_people(&r.label),
                    value: for_people(&r.value),
                })
                .collect(),
        },
    };
    card
}

fn pick(p: &CardPick) -> CardPick {
    CardPick {
        member_name: for_people(&p.member_name),
        city: for_people(&p.city),
        room_name: p.room_name.as_deref().map(for_people),
        reason: for_people(&p.reason),
        ..p.clone()
    }
}
