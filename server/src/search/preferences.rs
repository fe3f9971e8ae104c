//! What a request prefers beyond its hard filters: the room size it
//! suits best, the budget and the features asked for. The deterministic
//! scorer weighs them and the reasons mention them; none ever excludes a
//! venue (ADR 0010).
use super::finalist::Finalist;
use super::request::SearchRequest;
use crate::db::venue_search::Signals;

/// What the request prefers beyond its hard filters: the soft side of
/// the ranking.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Wants {
    /// The head count a room should suit (top of a range, or a vague amount).
    pub people: Option<u32>,
    /// Euros per person the organizer means to spend.
    pub budget_per_person: Option<u32>,
    /// Features asked for, as tags (lower case): « rooftop », « parking ».
    pub tags: Vec<String>,
    /// The layouts a meal is served in (keys), when the event is a meal
    /// and no layout was asked; empty otherwise.
    pub meal_layouts: Vec<String>,
}

impl Wants {
    pub fn of(req: &SearchRequest) -> Self {
        Wants {
            people: req.fit_target(),
            budget_per_person: req.budget_per_person(),
            tags: req.wanted_tags.clone(),
            meal_layouts: req.preferred_configuration_keys(),
        }
    }

    /// True when a meal was asked for and the venue's room shown is in a
    /// layout no meal is served in: its rooms that hold the group are all
    /// theatre or classroom (the room shown is chosen among meal layouts
    /// first, `venue_search::matched_rooms`).
    pub fn unsuited_for_the_meal(&self, configuration: &str) -> bool {
        !self.meal_layouts.is_empty() && !self.meal_layouts.iter().any(|l| l == configuration)
    }

    /// What the ranking of these finalists prefers: the features asked
    /// for that at least one of them carries. A feature none carries lifts
    /// no score and would be said missing under every pick: it is left out
    /// and returned, for the search to say so once.
    pub fn for_finalists(req: &SearchRequest, finalists: &[Finalist<'_>]) -> (Self, Vec<String>) {
        let mut wants = Self::of(req);
        let (held, unheld) = wants
            .tags
            .drain(..)
            .partition(|t| finalists.iter().any(|f| f.signals.tags.contains(t)));
        wants.tags = held;
        (wants, unheld)
    }

    /// The features asked for that the venue's sheet does not carry.
    pub fn missing_tags(&self, s: &Signals) -> Vec<&str> {
        self.tags
            .iter()
            .filter(|t| !s.tags.contains(t))
            .map(String::as_str)
            .collect()
    }

    /// The share of the features asked for that the venue carries; `None`
    /// when none was asked (the part is then left out).
    pub fn tags_fit(&self, s: &Signals) -> Option<f64> {
        if self.tags.is_empty() {
            return None;
        }
        let held = self.tags.len() - self.missing_tags(s).len();
        Some(held as f64 / self.tags.len() as f64)
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
