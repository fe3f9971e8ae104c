//! The room configurations (layouts) a room's capacity is given for (seed
//! 001, "configurations Kactus"): one list, with its stored keys and its
//! French wording, for the search page, the search criteria and filters,
//! the ranking prompt and the demo data.
use std::fmt::Write as _;

/// One layout; the order of [`Configuration::ALL`] is the order shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Configuration {
    Reunion,
    U,
    Theatre,
    Cabaret,
    Ecole,
    Banquet,
    Cocktail,
}

impl Configuration {
    pub const ALL: [Configuration; 7] = [
        Configuration::Reunion,
        Configuration::U,
        Configuration::Theatre,
        Configuration::Cabaret,
        Configuration::Ecole,
        Configuration::Banquet,
        Configuration::Cocktail,
    ];

    /// The value stored in `room_capacities.configuration` and sent by the
    /// search form.
    pub fn key(self) -> &'static str {
        match self {
            Configuration::Reunion => "reunion",
            Configuration::U => "u",
            Configuration::Theatre => "theatre",
            Configuration::Cabaret => "cabaret",
            Configuration::Ecole => "ecole",
            Configuration::Banquet => "banquet",
            Configuration::Cocktail => "cocktail",
        }
    }

    pub fn from_key(key: &str) -> Option<Configuration> {
        Configuration::ALL.into_iter().find(|c| c.key() == key)
    }

    /// The French label the UI shows ("réunion", "en U", "théâtre"…): a
    /// bare "U" reads as a letter, so its label carries its "en".
    pub fn label(self) -> &'static str {
        match self {
            Configuration::Reunion => "réunion",
            Configuration::U => "en U",
            Configuration::Theatre => "théâtre",
            Configuration::Cabaret => "cabaret",
            Configuration::Ecole => "école",
            Configuration::Banquet => "banquet",
            Configuration::Cocktail => "cocktail",
        }
    }

    /// How French says "in this layout": "en cocktail", "en U" (never
    /// « en en U »).
    pub fn phrase(self) -> &'static str {
        match self {
            Configuration::Reunion => "en réunion",
            Configuration::U => "en U",
            Configuration::Theatre => "en théâtre",
            Configuration::Cabaret => "en cabaret",
            Configuration::Ecole => "en école",
            Configuration::Banquet => "en banquet",
            Configuration::Cocktail => "en cocktail",
        }
    }
}

/// The label of a stored key; a key this version does not know is shown
/// as it is.
pub fn label_of(key: &str) -> &str {
    match Configuration::from_key(key) {
        Some(c) => c.label(),
        None => key,
    }
}

/// The phrase of a stored key ("en cocktail"); an unknown key gets "en".
pub fn phrase_of(key: &str) -> String {
    match Configuration::from_key(key) {
        Some(c) => c.phrase().to_string(),
        None => format!("en {key}"),
    }
}

/// Every label, French-style: "réunion, en U, … ou cocktail".
pub fn all_labels() -> String {
    let mut out = String::new();
    let last = Configuration::ALL.len() - 1;
    for (i, c) in Configuration::ALL.iter().enumerate() {
        let sep = match i {
            0 => "",
            i if i == last => " ou ",
            _ => ", ",
        };
        let _ = write!(out, "{sep}{}", c.label());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_and_unknown_keys_stay_readable() {
        for c in Configuration::ALL {
            assert_eq!(Configuration::from_key(c.key()), Some(c));
            assert!(c.phrase().starts_with("en "), "{c:?}");
        }
        assert_eq!(Configuration::from_key("piscine"), None);
        assert_eq!(label_of("piscine"), "piscine");
        assert_eq!(label_of("u"), "en U");
    }

    #[test]
    fn layouts_read_as_french_complements() {
        assert_eq!(phrase_of("cocktail"), "en cocktail");
        assert_eq!(phrase_of("u"), "en U", "never « en en U »");
        assert_eq!(phrase_of("theatre"), "en théâtre");
        assert_eq!(
            all_labels(),
            "réunion, en U, théâtre, cabaret, école, banquet ou cocktail"
        );
    }
}
