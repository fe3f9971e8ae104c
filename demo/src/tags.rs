//! The tag vocabulary and the typed attributes, and how a venue's sketch
//! turns into its tags and attribute values (consistent with its text).

use super::dice::{self, Dice};
use super::features::Feature;
use super::model::AttrValue;
use super::sketch::{Catering, Sketch, Style};

/// Tag ids are their position here plus one.
pub const TAGS: &[&str] = &[
    "rooftop",
    "terrasse",
    "vue-panoramique",
    "jardin",
    "extérieur",
    "péniche",
    "bord-de-l-eau",
    "insolite",
    "sous-sol",
    "cave-voûtée",
    "loft",
    "industriel",
    "atelier",
    "lumière-naturelle",
    "vue-seine",
    "vue-tour-eiffel",
    "cheminée",
    "piscine",
    "parc",
    "scène",
    "sonorisation",
    "cuisine-démo",
    "team-building",
    "patrimoine",
    "spa",
    "hébergement",
    "art-déco",
    "haussmannien",
    "contemporain",
    "bohème",
    "traiteur-interne",
    "traiteur-libre",
    "privatisation-totale",
    "écran-led",
    "climatisation",
    "dj-autorisé",
    "proche-gare",
    "éco-responsable",
    "festif",
    "calme",
    "parking",
    "accessible-pmr",
];

pub fn tag_id(name: &str) -> Option<i64> {
    TAGS.iter().position(|t| *t == name).map(|i| i as i64 + 1)
}

/// (key, French label, value type); ids are the position plus one.
pub const ATTRIBUTE_TYPES: &[(&str, &str, &str)] = &[
    ("parking", "Parking", "bool"),
    ("parking_spaces", "Places de parking", "int"),
    ("pmr", "Accès PMR", "bool"),
    (
        "max_noise_hour",
        "Heure limite de musique amplifiée",
        "text",
    ),
    (
        "catering",
        "Restauration (in : interne, out : traiteur libre, both)",
        "text",
    ),
    ("min_budget_eur", "Budget minimum (€ HT)", "int"),
    ("accommodation_rooms", "Chambres sur place", "int"),
    ("outdoor_space", "Espace extérieur", "bool"),
    ("dj_allowed", "DJ autorisé", "bool"),
];

/// Tag names of a venue, sorted by tag id and without duplicates.
pub fn tags_for(rng: &mut Dice, sketch: &Sketch) -> Vec<i64> {
    let mut names: Vec<&str> = sketch
        .features
        .iter()
        .flat_map(|(f, w)| f.tags(*w))
        .copied()
        .collect();
    if let Some(tag) = sketch.style.tag() {
        names.push(tag);
    }
    match sketch.catering {
        Catering::Internal => names.push("traiteur-interne"),
        Catering::External => names.push("traiteur-libre"),
        Catering::Both => names.extend(["traiteur-interne", "traiteur-libre"]),
    }
    for equipment in &sketch.equipment {
        match *equipment {
            "écran LED" => names.push("écran-led"),
            "sonorisation" | "régie son et lumière" => names.push("sonorisation"),
            "climatisation" => names.push("climatisation"),
            _ => {}
        }
    }
    if sketch.dj_allowed {
        names.push("dj-autorisé");
    }
    // Loose, text-independent labels the team adds over time.
    for (tag, p) in [
        ("privatisation-totale", 0.3),
        ("proche-gare", 0.12),
        ("éco-responsable", 0.1),
    ] {
        if dice::chance(rng, p) {
            names.push(tag);
        }
    }
    if matches!(
        sketch.features.first(),
        Some((Feature::OnWater | Feature::Industrial, _))
    ) {
        names.push("insolite");
    }
    let mut ids: Vec<i64> = names.into_iter().filter_map(tag_id).collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// (attribute type id, value) pairs of a venue, by type id.
pub fn attributes_for(rng: &mut Dice, sketch: &Sketch, min_budget: i32) -> Vec<(i64, AttrValue)> {
    let has = |f: Feature| sketch.features.iter().any(|(x, _)| *x == f);
    let outdoor = sketch.features.iter().any(|(f, _)| f.is_outdoor());
    let mut values = vec![(1, AttrValue::Bool(has(Feature::Parking)))];
    if has(Feature::Parking) {
        values.push((2, AttrValue::Int(dice::between(rng, 2, 12) * 5)));
    }
    values.push((3, AttrValue::Bool(has(Feature::Accessible))));
    if dice::chance(rng, 0.8) {
        // Outdoor venues and quiet styles stop earlier, party places later.
        let hour = if sketch.style == Style::Festive || sketch.dj_allowed {
            dice::pick(rng, &["01:00", "02:00", "05:00"])
        } else if outdoor || sketch.style == Style::Calm {
            dice::pick(rng, &["22:00", "22:30", "23:00"])
        } else {
            dice::pick(rng, &["23:00", "00:00", "01:00"])
        };
        values.push((4, AttrValue::Text(hour)));
    }
    values.push((5, AttrValue::Text(sketch.catering.key())));
    if dice::chance(rng, 0.7) {
        values.push((6, AttrValue::Int(i64::from(min_budget))));
    }
    if has(Feature::Accommodation) {
        values.push((7, AttrValue::Int(sketch.bedrooms.into())));
    }
    values.push((8, AttrValue::Bool(outdoor)));
    if dice::chance(rng, 0.5) || sketch.dj_allowed {
        values.push((9, AttrValue::Bool(sketch.dj_allowed)));
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    #[test]
    fn vocabulary_is_sane() {
        assert!((38..=45).contains(&TAGS.len()));
        let unique: BTreeSet<String> = TAGS.iter().map(|t| t.to_lowercase()).collect();
        assert_eq!(
            unique.len(),
            TAGS.len(),
            "tags are unique case-insensitively"
        );
        for (key, _, vt) in ATTRIBUTE_TYPES {
            assert!(key.chars().all(|c| c.is_ascii_lowercase() || c == '_'));
            assert!(["bool", "int", "text"].contains(vt));
        }
        assert_eq!(tag_id("rooftop"), Some(1));
    }
}
