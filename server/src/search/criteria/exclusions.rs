//! What the text rules out, said back in « Compris »: « hors Paris 17e,
//! Montreuil (93100) », « sans rooftop ni péniche ». The SQL stage
//! excludes the same (`db::venue_search::HardFilter`).

use super::Criteria;
use crate::geo;

/// One note for the places ruled out, one for the kinds; none when
/// nothing is.
pub fn notes(c: &Criteria) -> Vec<String> {
    let mut places: Vec<String> = Vec::new();
    for number in &c.excluded_departments {
        places.push(match geo::department(number) {
            Some(d) if d.number == "75" => "Paris intra-muros".to_string(),
            Some(d) => format!("{} ({})", d.name, d.number),
            None => number.clone(),
        });
    }
    for code in &c.excluded_postal_codes {
        let name = geo::postal_code_name(code);
        // The 16th is two codes and one name.
        if !places.contains(&name) {
            places.push(name);
        }
    }
    let mut notes = Vec::new();
    if !places.is_empty() {
        notes.push(format!("hors {}", places.join(", ")));
    }
    if !c.excluded_kinds.is_empty() {
        let labels: Vec<String> = c.excluded_kinds.iter().map(|k| app::fr::tag(k)).collect();
        notes.push(format!("sans {}", labels.join(" ni ")));
    }
    notes
}
