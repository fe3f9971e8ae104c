//! Availability checks sent to the venues of a sent catalogue (magic links,
//! of which only a stand-in hash is stored), the venues' answers, and the
//! response signals they leave; plus the 'booked' signal of a won request.

use super::dice::{self, Dice};
use super::model::{AvailabilityCheck, Dataset, Request, Stamp, BASE};
use super::signals::{self, Reactivity};

/// A link stays valid a week.
const VALIDITY_DAYS: i64 = 7;

/// `picks`: (member id, recommended?) of the catalogue sent at `sent`.
pub fn attach(
    rng: &mut Dice,
    data: &mut Dataset,
    seed: u64,
    request: &Request,
    sent: Stamp,
    picks: &[(i64, bool)],
) {
    for &(member_id, recommended) in picks {
        if !dice::chance(rng, if recommended { 0.8 } else { 0.4 }) {
            continue;
        }
        let id = data.availability_checks.len() as i64 + 1;
        let sent_at = sent.plus_minutes(dice::between(rng, 5, 600));
        let expires_at = sent_at.plus_days(VALIDITY_DAYS);
        let delay = Reactivity::of(seed, member_id).delay(rng);
        let answered = delay
            .map(|hours| Stamp(sent_at.0 + (hours * 3600.0) as i64))
            .filter(|at| *at <= BASE && *at < expires_at);
        let (status, answer) = match answered {
            Some(_) if dice::chance(rng, 0.75) => (
                "available",
                Some(*dice::pick(
                    rng,
                    &[
                        "Disponible, option posée pour une semaine.",
                        "Disponible, nous vous envoyons un devis.",
                        "Disponible uniquement en soirée.",
                    ],
                )),
            ),
            Some(_) => (
                "unavailable",
                Some(*dice::pick(
                    rng,
                    &[
                        "Complet ce jour-là, désolé.",
                        "Privatisé par un autre client à cette date.",
                    ],
                )),
            ),
            None if expires_at <= BASE => ("expired", None),
            None => ("pending", None),
        };
        data.availability_checks.push(AvailabilityCheck {
            id,
            request_id: request.id,
            member_id,
            status,
            answer,
            created_by: request.assigned_user_id,
            sent_at,
            answered_at: answered.filter(|_| matches!(status, "available" | "unavailable")),
            expires_at,
        });
        let hours = delay.map(|h| h.min((expires_at.0 - sent_at.0) as f64 / 3600.0));
        match (status, answered) {
            ("available", Some(at)) => signals::push(
                data,
                member_id,
                "availability_answered",
                hours,
                Some(request.id),
                Some(id),
                at,
            ),
            ("unavailable", Some(at)) => signals::push(
                data,
                member_id,
                "declined",
                hours,
                Some(request.id),
                Some(id),
                at,
            ),
            ("expired", _) => signals::push(
                data,
                member_id,
                "no_answer",
                None,
                Some(request.id),
                Some(id),
                expires_at,
            ),
            _ => {}
        }
    }
}

/// The venue a won request booked leaves a 'booked' signal.
pub fn booked(rng: &mut Dice, data: &mut Dataset, request: &Request, sent: Stamp) {
    if let Some(member_id) = request.won_member_id {
        let at = Stamp(sent.plus_days(dice::between(rng, 3, 20)).0.min(BASE.0));
        signals::push(data, member_id, "booked", None, Some(request.id), None, at);
    }
}
