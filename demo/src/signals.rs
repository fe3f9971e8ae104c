//! How reactive each venue is (a stable trait per member, derived from its
//! id), and the background response signals get_member_signals aggregates:
//! answers to info requests, silences.

use super::dice::{self, Concept, Dice};
use super::index::Index;
use super::model::{Dataset, ResponseSignal, Stamp, BASE};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reactivity {
    Fast,
    Normal,
    Slow,
    /// Rarely or never answers.
    Silent,
}

impl Reactivity {
    pub fn of(seed: u64, member_id: i64) -> Reactivity {
        let mut rng = dice::stream(seed, Concept::Signal, member_id as u64);
        *dice::weighted(
            &mut rng,
            &[
                (Reactivity::Fast, 30),
                (Reactivity::Normal, 40),
                (Reactivity::Slow, 20),
                (Reactivity::Silent, 10),
            ],
        )
    }

    /// Hours until an answer (one decimal), or None for no answer at all.
    pub fn delay(self, rng: &mut Dice) -> Option<f64> {
        let hours = match self {
            Reactivity::Fast => dice::uniform(rng, 0.3, 6.0),
            Reactivity::Normal => dice::uniform(rng, 4.0, 48.0),
            Reactivity::Slow => dice::uniform(rng, 36.0, 160.0),
            Reactivity::Silent if dice::chance(rng, 0.85) => return None,
            Reactivity::Silent => dice::uniform(rng, 100.0, 300.0),
        };
        Some((hours * 10.0).round() / 10.0)
    }
}

pub fn push(
    data: &mut Dataset,
    member_id: i64,
    kind: &'static str,
    hours: Option<f64>,
    request_id: Option<i64>,
    check_id: Option<i64>,
    at: Stamp,
) {
    data.signals.push(ResponseSignal {
        id: data.signals.len() as i64 + 1,
        member_id,
        kind,
        response_hours: hours,
        request_id,
        availability_check_id: check_id,
        created_at: at,
    });
}

/// Info-request answers and silences for about a quarter of active venues.
pub fn fill_background(data: &mut Dataset, seed: u64, index: &Index) {
    let mut rng = dice::stream(seed, Concept::Signal, u64::MAX >> 24);
    let members: Vec<usize> = index.all_active().collect();
    for position in members {
        if !dice::chance(&mut rng, 0.25) {
            continue;
        }
        let member_id = data.members[position].id;
        let reactivity = Reactivity::of(seed, member_id);
        for _ in 0..dice::between(&mut rng, 1, 4) {
            let asked = BASE
                .plus_days(-dice::between(&mut rng, 5, 300))
                .plus_minutes(dice::between(&mut rng, 480, 1140));
            match reactivity.delay(&mut rng) {
                Some(hours) => {
                    let at = Stamp(asked.0 + (hours * 3600.0) as i64);
                    push(
                        data,
                        member_id,
                        "info_answered",
                        Some(hours),
                        None,
                        None,
                        at,
                    );
                }
                None => push(
                    data,
                    member_id,
                    "no_answer",
                    None,
                    None,
                    None,
                    asked.plus_days(7),
                ),
            }
        }
    }
}
