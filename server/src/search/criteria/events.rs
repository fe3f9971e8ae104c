//! The layout an event implies when no layout is named: a conference sits
//! in a theatre, a training in a classroom, a board around a meeting
//! table, a seated meal at banquet tables, an apéritif stands.
//!
//! Event words describe the event: they stay in the semantic query. Only
//! the seated word of a seated meal (« assis ») is a layout word and is
//! taken. « Séminaire », « soirée », « gala » or a meal alone imply
//! nothing: they are held in any layout.

use super::layout_spelling::Reading;
use super::seated_meals;
use super::Configuration::{self, *};
use std::ops::Range;

/// Event phrases and the layout each implies.
#[rustfmt::skip]
pub const EVENTS: &[(&str, Configuration)] = &[
    // Talks to an audience.
    ("conference", Theatre), ("conferences", Theatre), ("colloque", Theatre),
    ("colloques", Theatre), ("congres", Theatre), ("assemblee generale", Theatre),
    ("assemblees generales", Theatre), ("ag", Theatre), ("keynote", Theatre),
    ("keynotes", Theatre), ("pleniere", Theatre), ("plenieres", Theatre), ("projection", Theatre),
    ("projections", Theatre), ("avant premiere", Theatre), ("convention", Theatre),
    ("conventions", Theatre), ("symposium", Theatre), ("general assembly", Theatre),
    ("town hall", Theatre),
    // Teaching.
    ("formation", Ecole), ("formations", Ecole), ("training", Ecole), ("trainings", Ecole),
    ("examen", Ecole), ("examens", Ecole), ("un cours", Ecole), ("des cours", Ecole),
    ("nos cours", Ecole), ("cours de", Ecole), ("cours pour", Ecole), ("cours d", Ecole), ("cours magistral", Ecole),
    ("une classe", Ecole), ("des classes", Ecole), ("nos classes", Ecole), ("ma classe", Ecole),
    ("notre classe", Ecole), ("cette classe", Ecole), ("classe de", Ecole), ("classe d", Ecole),
    ("classes de", Ecole),
    // Meetings.
    ("reunion", Reunion), ("reunions", Reunion), ("board", Reunion), ("comite", Reunion),
    ("comites", Reunion), ("codir", Reunion), ("comex", Reunion), ("copil", Reunion),
    ("conseil d administration", Reunion), ("conseil de surveillance", Reunion),
    ("conseil de direction", Reunion), ("meeting", Reunion), ("meetings", Reunion),
    // Seated meals (« dîner assis » is read by `seated_meals`).
    ("diner de gala", Banquet), ("diners de gala", Banquet), ("repas de gala", Banquet),
    ("dejeuner de gala", Banquet), ("gala dinner", Banquet), ("seated dinner", Banquet),
    ("seated lunch", Banquet), ("sit down dinner", Banquet), ("banquet", Banquet),
    ("banquets", Banquet), ("plan de table", Banquet),
    // Drinks, standing.
    ("cocktail", Cocktail), ("cocktails", Cocktail), ("cocktail dinatoire", Cocktail),
    ("aperitif", Cocktail), ("aperitifs", Cocktail), ("apero", Cocktail), ("aperos", Cocktail),
    ("afterwork", Cocktail), ("afterworks", Cocktail), ("after work", Cocktail),
    ("reception", Cocktail), ("receptions", Cocktail), ("vin d honneur", Cocktail),
    ("pot de depart", Cocktail), ("pot d adieu", Cocktail), ("pot de fin d annee", Cocktail),
    ("pot de noel", Cocktail), ("pot de retraite", Cocktail), ("pot de bienvenue", Cocktail),
    ("happy hour", Cocktail), ("cocktail party", Cocktail),
];

/// Phrases where an event word names something else: a kind of venue, a
/// piece of equipment, a small group, a family party, a cooking class.
#[rustfmt::skip]
pub const MASKS: &[&str] = &[
    "centre de conferences", "centre de conference", "centres de conferences",
    "centre de congres", "palais des congres", "visio conference", "video conference",
    "audio conference", "tele conference", "web conference", "ecran de projection",
    "materiel de projection", "systeme de projection", "equipement de projection",
    "avec projection", "et projection", "projection video", "video projection",
    "convention collective", "convention de stage", "convention de partenariat",
    "au cours", "en cours", "cours d eau", "cours de cuisine", "cours de yoga", "cours de danse",
    "cours de sport", "cours de pilates", "cours de cocktail", "cours de cocktails",
    "cours d oenologie", "cours de mixologie", "cours de patisserie", "cours de peinture",
    "cours de dessin", "cours de poterie", "cours de chant", "cours de musique",
    "cours de theatre", "cours de boxe", "cours de fitness", "cours de gym", "cours collectif",
    "cours collectifs", "cours de degustation", "classe affaires", "classe eco",
    "classe economique", "mood board", "white board", "story board", "petit comite",
    "comite restreint", "comite reduit", "comite d entreprise", "comite des fetes",
    "comite social", "reunion de famille", "reunion familiale", "reunions de famille",
    "reunion d amis", "reunion d anciens", "ile de la reunion", "salle de reception",
    "salles de reception", "lieu de reception", "lieux de reception", "espace de reception",
    "espaces de reception", "appartement de reception", "appartements de reception",
    "salon de reception", "salons de reception", "pieces de reception", "reception de mariage", "a la reception", "bar a cocktails",
    "bar a cocktail", "cocktail de fruits", "cocktail de vitamines", "en examen",
    "mise en examen",
];

/// An event said at `i`: the layout it implies, how many tokens name it,
/// and the tokens of a seated word to take (« assis »), empty otherwise.
pub struct Implied {
    pub layout: Configuration,
    pub len: usize,
    pub seated: Range<usize>,
}

/// The event at `i`, if one implies a layout.
pub fn implied_at(reading: &Reading, i: usize) -> Option<Implied> {
    if let Some(seated) = seated_meals::seated_after_meal(reading, i) {
        return Some(Implied {
            layout: Banquet,
            len: 1,
            seated,
        });
    }
    let (layout, len) = EVENTS
        .iter()
        .filter_map(|(phrase, layout)| reading.phrase(i, phrase).map(|n| (*layout, n)))
        .max_by_key(|&(_, n)| n)?;
    if reading.overlapped_by(i..i + len, MASKS) {
        return None;
    }
    Some(Implied {
        layout,
        len,
        seated: 0..0,
    })
}

/// Every word the event tables use, for typo correction.
pub fn words() -> impl Iterator<Item = &'static str> {
    EVENTS
        .iter()
        .map(|(p, _)| *p)
        .chain(MASKS.iter().copied())
        .chain(seated_meals::MEALS.iter().copied())
        .chain(seated_meals::SEATED.iter().copied())
}
