//! A meal with no layout said (« un dîner de 80 personnes ») filters on no
//! layout: it may be seated or standing (docs/criteria.md). But it is never
//! served in rows of chairs facing a stage or at classroom desks, so the
//! search prefers the other layouts: the room shown for each venue is one
//! where a meal can be served when the venue has one that holds the group,
//! and a venue whose rooms holding the group are all theatre or classroom
//! comes after, with its reason saying so.
//!
//! Only when the meal is the event: « séminaire avec déjeuner sur place »
//! is a working day whose lunch says nothing of the rooms.

use super::negation::{self, Category};
use super::scan::Scan;
use super::seated_meals::MEALS;
use super::{Configuration, Criteria};

/// What a meal is not served in.
pub const NOT_FOR_MEALS: [Configuration; 2] = [Configuration::Theatre, Configuration::Ecole];

/// Events whose meal is a break in the day, not the event (folded).
#[rustfmt::skip]
const WORKING_DAYS: &[&str] = &[
    "seminaire", "seminaires", "journee", "journees", "atelier", "ateliers", "workshop",
    "workshops", "team building", "offsite", "off site", "convention", "conventions",
];

/// The layouts a meal prefers (every layout but theatre and classroom)
/// when the text's event is a meal and no layout was read.
pub fn extract(scan: &Scan, found: &mut Criteria) {
    if !found.configurations.is_empty() {
        return;
    }
    if (0..scan.len()).any(|i| scan.longest(i, WORKING_DAYS).is_some()) {
        return;
    }
    let meal_said = (0..scan.len())
        .filter_map(|i| scan.longest(i, MEALS).map(|(_, n)| i..i + n))
        .any(|meal| negation::ruled_out(scan, meal, Category::Kind).is_none());
    if meal_said {
        found.meal_layouts = Configuration::ALL
            .into_iter()
            .filter(|c| !NOT_FOR_MEALS.contains(c))
            .collect();
    }
}

#[cfg(test)]
mod tests {
    use super::super::extract;
    use super::Configuration::*;

    #[test]
    fn a_meal_alone_prefers_the_layouts_a_meal_is_served_in() {
        let c = extract("Un dîner de 80 personnes près de l'Opéra");
        assert!(
            c.configurations.is_empty(),
            "no filter: {:?}",
            c.configurations
        );
        assert_eq!(c.meal_layouts, [Reunion, U, Cabaret, Banquet, Cocktail]);
        assert!(!extract("déjeuner pour 30 dans le 8e")
            .meal_layouts
            .is_empty());
        assert!(
            c.notes.iter().any(|n| n.contains("théâtre ou en école")),
            "{:?}",
            c.notes
        );
    }

    #[test]
    fn no_preference_when_a_layout_is_said_or_the_meal_is_a_break() {
        for text in [
            "dîner assis pour 80",
            "dîner de gala 120 personnes",
            "dîner en cocktail pour 80",
            "conférence puis dîner, 100 personnes",
            "séminaire de 25 personnes avec déjeuner sur place",
            "journée d'étude, 40 personnes, déjeuner compris",
            "soirée de 80 personnes, pas de dîner",
            "cocktail de 80 personnes",
        ] {
            assert!(extract(text).meal_layouts.is_empty(), "{text}");
        }
    }
}
