//! The model's JSON answer, validated before anything of it is used.
//!
//! The shape is strict: an object with the fields of [`Answer`] and no
//! other (a missing field or `null` means "nothing said"), optionally
//! inside a ```json fence; a value of the wrong type, or a description
//! longer than the request, makes the answer unusable (the caller asks
//! once more). Values of the right type that fall outside the contract are
//! dropped and reported, never fatal: a layout key we do not have, a postal
//! code or place the gazetteer does not know, a head count over 5,000, a
//! radius over 100 km, a venue code or a negative amount the text does not
//! contain. Dropping a hard criterion widens the search; keeping a wrong one
//! would exclude good venues without anybody noticing.
use super::places;
use super::preview::preview;
use crate::geo;
use crate::search::criteria::{Budget, Configuration, Criteria};
use serde::Deserialize;

/// The capacity bounds of the search form (`search::request`).
pub const MAX_PARTICIPANTS: u32 = 5000;
/// A whole event: well above any venue hire.
pub const MAX_TOTAL_EUR: u32 = 10_000_000;
pub const MAX_PER_PERSON_EUR: u32 = 100_000;
/// A negative amount is quoted as written ("-20 personnes"): a few words.
const MAX_NEGATIVE_AMOUNT_CHARS: usize = 40;

/// What the model must answer (see the prompt).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    #[serde(default)]
    pub participants: Option<f64>,
    #[serde(default)]
    pub participants_max: Option<f64>,
    #[serde(default)]
    pub participants_about: Option<f64>,
    #[serde(default)]
    pub configurations: Option<Vec<String>>,
    #[serde(default)]
    pub postal_codes: Option<Vec<String>>,
    #[serde(default)]
    pub near: Option<NearAnswer>,
    #[serde(default)]
    pub member_codes: Option<Vec<String>>,
    #[serde(default)]
    pub broad_area: Option<bool>,
    #[serde(default)]
    pub budget: Option<BudgetAnswer>,
    #[serde(default)]
    pub negative_amount: Option<String>,
    pub semantic_query: String,
}

/// A place by name: its coordinates come from the gazetteer, never from
/// the model.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NearAnswer {
    pub place: String,
    #[serde(default)]
    pub radius_km: Option<f64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BudgetAnswer {
    #[serde(default)]
    pub total_eur: Option<f64>,
    #[serde(default)]
    pub per_person_eur: Option<f64>,
}

#[derive(Debug, PartialEq)]
pub struct Parsed {
    /// Without notes: the caller words them.
    pub criteria: Criteria,
    /// What was left out and why, for the logs.
    pub dropped: Vec<String>,
}

/// `request`: the organizer's text as the model saw it.
pub fn parse(text: &str, request: &str) -> Result<Parsed, String> {
    let answer: Answer = serde_json::from_str(crate::llm::unfenced(text))
        .map_err(|e| format!("not the JSON object asked for ({e})"))?;
    let semantic_query = description(&answer.semantic_query, request)?;
    let mut dropped = Vec::new();
    let participants = head_count(answer.participants, "participants", &mut dropped);
    let participants_max = head_count(answer.participants_max, "participants_max", &mut dropped)
        .and_then(|max| match participants {
            Some(min) if max > min => Some(max),
            _ => {
                dropped.push(format!(
                    "participants_max {max}: the top of a range needs a lower bound under it"
                ));
                None
            }
        });
    let participants_about = head_count(
        answer.participants_about,
        "participants_about",
        &mut dropped,
    );
    let configurations = layouts(answer.configurations.unwrap_or_default(), &mut dropped);
    let codes = places::postal_codes(
        answer.postal_codes.unwrap_or_default(),
        request,
        &mut dropped,
    );
    // A place outside the area is said, not dropped in silence.
    let mut places_elsewhere = Vec::new();
    let near = answer
        .near
        .and_then(|n| match geo::lookup_elsewhere(&n.place) {
            Some(place) => {
                places_elsewhere.push(place.name.to_string());
                None
            }
            None => places::near(&n.place, n.radius_km, &mut dropped),
        });
    let member_codes = member_codes(
        answer.member_codes.unwrap_or_default(),
        request,
        &mut dropped,
    );
    let broad_area = answer.broad_area.unwrap_or(false)
        && codes.known.is_empty()
        && near.is_none()
        && places_elsewhere.is_empty()
        && member_codes.is_empty();
    let heads = participants.or(participants_about);
    let budget = answer.budget.and_then(|b| budget(&b, heads, &mut dropped));
    let negative_amount = answer
        .negative_amount
        .and_then(|a| negative_amount(&a, request, &mut dropped));
    Ok(Parsed {
        criteria: Criteria {
            participants,
            participants_max,
            participants_about,
            configurations,
            postal_codes: codes.known,
            unknown_postal_codes: codes.unknown,
            places_elsewhere,
            near,
            member_codes,
            broad_area,
            budget,
            negative_amount,
            semantic_query,
            ..Criteria::default()
        },
        dropped,
    })
}

/// The description, whitespace and control characters cleaned; one longer
/// than the request is not a description of it.
fn description(query: &str, request: &str) -> Result<String, String> {
    let flat: String = query
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .filter(|c| !c.is_control())
        .collect();
    if flat.chars().count() > request.chars().count() {
        return Err("semantic_query is longer than the request itself".to_string());
    }
    Ok(flat)
}

/// A whole number of people within the search's bounds.
fn head_count(value: Option<f64>, field: &str, dropped: &mut Vec<String>) -> Option<u32> {
    let value = value?;
    match whole(value, MAX_PARTICIPANTS) {
        Some(n) => Some(n),
        None => {
            dropped.push(format!(
                "{field} {value}: not a head count in 1..={MAX_PARTICIPANTS}"
            ));
            None
        }
    }
}

/// `value` as a whole number in `1..=max`.
fn whole(value: f64, max: u32) -> Option<u32> {
    (value.is_finite() && value.fract() == 0.0 && value >= 1.0 && value <= f64::from(max))
        .then_some(value as u32)
}

/// Known layout keys, each once, in the order given.
fn layouts(keys: Vec<String>, dropped: &mut Vec<String>) -> Vec<Configuration> {
    let mut out = Vec::new();
    for key in keys {
        match Configuration::from_key(key.trim()) {
            Some(c) if !out.contains(&c) => out.push(c),
            Some(_) => {}
            None => dropped.push(format!("layout {}: not a known key", preview(&key))),
        }
    }
    out
}

/// "#" and 1 to 9 digits, written in the request: a venue asked for by
/// code skips the search, so an invented one must never get through.
fn member_codes(codes: Vec<String>, request: &str, dropped: &mut Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for code in codes {
        let code = code.trim();
        let digits = code.strip_prefix('#').unwrap_or_default();
        let well_formed =
            (1..=9).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit());
        if !well_formed {
            dropped.push(format!(
                "venue code {}: not # and 1 to 9 digits",
                preview(code)
            ));
        } else if !request.contains(code) && !request.contains(&format!("# {digits}")) {
            dropped.push(format!("venue code {code}: not in the request"));
        } else if !out.iter().any(|c| c == code) {
            out.push(code.to_string());
        }
    }
    out
}

/// Sane amounts in whole euros; the per-person figure derived from a
/// total and a head count when the model gave only the total.
fn budget(b: &BudgetAnswer, heads: Option<u32>, dropped: &mut Vec<String>) -> Option<Budget> {
    let mut amount = |value: Option<f64>, max: u32, field: &str| {
        let value = value?;
        let kept = whole(value.round(), max);
        if kept.is_none() {
            dropped.push(format!(
                "budget {field} {value}: not an amount in 1..={max} €"
            ));
        }
        kept
    };
    let total_eur = amount(b.total_eur, MAX_TOTAL_EUR, "total_eur");
    let per_person_eur =
        amount(b.per_person_eur, MAX_PER_PERSON_EUR, "per_person_eur").or_else(|| {
            let per_person = total_eur? / heads?;
            // Derived, so bounded like a figure the model would have said.
            (1..=MAX_PER_PERSON_EUR)
                .contains(&per_person)
                .then_some(per_person)
        });
    (total_eur.is_some() || per_person_eur.is_some()).then_some(Budget {
        total_eur,
        per_person_eur,
    })
}

/// A negative amount refuses the search: only one the request says, as
/// it says it.
fn negative_amount(amount: &str, request: &str, dropped: &mut Vec<String>) -> Option<String> {
    let amount = amount.trim();
    let negative = amount.starts_with(['-', '−']);
    if amount.is_empty() {
        None
    } else if !negative
        || amount.chars().count() > MAX_NEGATIVE_AMOUNT_CHARS
        || !request.contains(amount)
    {
        dropped.push(format!(
            "negative amount {}: not a negative amount the request says",
            preview(amount)
        ));
        None
    } else {
        Some(amount.to_string())
    }
}
