//! Nouns that count people ("personnes", "pax", "invités", "guests"…),
//! typos included: what makes a number a head count, and what every other
//! reader checks before taking a number as its own (a date, a budget, a
//! postal code).

use super::fuzzy;

/// Nouns that count people.
#[rustfmt::skip]
const PEOPLE: &[&str] = &[
    "personne", "personnes", "pers", "pax", "participant", "participants", "invite", "invites",
    "convive", "convives", "couvert", "couverts", "collaborateur", "collaborateurs", "salarie",
    "salaries", "employe", "employes", "adulte", "adultes", "enfant", "enfants", "gens", "places",
    "people", "guests", "persons", "membres", "delegues", "congressistes", "visiteurs",
    "spectateurs", "clients", "etudiants", "cadres", "managers", "personnalites", "invitees",
    "participantes", "collaboratrices", "salariees", "employees", "attendees", "delegates",
    "person", "guest", "ppl", "adherents", "benevoles", "stagiaires", "apprenants", "eleves",
    "partenaires", "commerciaux", "agents", "medecins", "experts", "dirigeants", "chercheurs",
    "journalistes", "intervenants", "exposants", "seniors", "jeunes", "familles", "ados",
    "actionnaires", "associes", "collegues", "amis", "proches", "vip", "vips", "inscrits",
    "inscrites", "diplomes", "laureats",
];

/// True when `word` (folded) counts people, small typos included
/// ("personnnes", "particpants").
pub fn is_people_unit(word: &str) -> bool {
    // Entry by entry: "participans" is as close to "participant" as to
    // "participants", a tie that still names people.
    PEOPLE.contains(&word) || PEOPLE.iter().any(|p| fuzzy::closest(word, &[p]).is_some())
}
