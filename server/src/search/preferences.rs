//! What a request prefers beyond its hard filters: the room size it
//! suits best and the budget. The deterministic scorer weighs them and the
//! reasons mention them; neither ever excludes a venue (ADR 0010).
use super::request::SearchRequest;
use crate::db::venue_search::Signals;

/// What the request prefers beyond its hard filters: the soft side of
/// the ranking.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Wants {
    /// The head count a room should suit (top of a range, or a vague amount).
    pub people: Option<u32>,
    /// Euros per person the organizer means to spend.
    pub budget_per_person: Option<u32>,
}

impl Wants {
    pub fn of(req: &SearchRequest) -> Self {
        Wants {
            people: req.fit_target(),
            budget_per_person: req.budget_per_person(),
        }
    }
}

/// How a venue's per-person prices sit with the budget: `None` when either
/// is unknown (the part is then left out, not guessed). Within budget is
/// 1; a range that starts within budget 0.8; above it, falling fast.
pub fn budget_fit(budget: Option<u32>, s: &Signals) -> Option<f64> {
    let budget = f64::from(budget?);
    let min = f64::from(s.price_per_person_min_eur.or(s.price_per_person_max_eur)?);
    let max = f64::from(s.price_per_person_max_eur.unwrap_or(min as i32));
    Some(if max <= budget {
        1.0
    } else if min <= budget {
        0.8
    } else {
        (budget / min).powi(2).clamp(0.0, 0.7)
    })
}
