//! Hard search criteria from French free text: what a curator types in the
//! search box or the assistant passes to the `search_members` tool (seed
//! 001, "Recherche par prompt libre").
//!
//! "Trouve-moi un rooftop dans le 8ème pour 100 personnes festif avec vue
//! sur Paris" becomes postal code 75008, 100 participants and the semantic
//! query "rooftop festif avec vue sur Paris". The SQL stage filters on the
//! hard criteria; the vector stage ranks on the semantic query.
//!
//! Pure and deterministic: no I/O, no model, bounded work (the input is
//! cut at `MAX_INPUT_BYTES`, every pass is linear in the tokens times a
//! small phrase table). The text is tokenized once (`tokens`), each
//! extractor claims the tokens it understands (`scan`), and what nobody
//! claimed becomes the semantic query (`semantic`). Extractors run from the
//! most to the least specific pattern, so "à 3 km de Bercy" is a radius
//! before "3" could be read as a head count.

mod areas;
mod arrondissements;
mod broad;
mod budget;
pub(crate) mod code_areas;
mod codes;
mod configurations;
mod contacts;
mod departments;
mod distance;
mod elsewhere;
mod email;
pub(crate) mod events;
pub(crate) mod exclusions;
mod fuzzy;
mod guards;
mod head_counts;
pub(crate) mod kinds;
mod layout_spelling;
mod meals;
mod named_places;
mod near;
mod negation;
mod numbers;
mod participants;
mod people;
mod place_spelling;
mod places;
mod postal_codes;
mod scan;
mod seated_meals;
mod semantic;
mod signature;
mod tables;
pub(crate) mod tag_words;
mod tokens;
mod when;
mod whole_paris;

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod proptests_pasted;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_amounts;
#[cfg(test)]
mod tests_areas;
#[cfg(test)]
mod tests_demo;
#[cfg(test)]
mod tests_layouts;
#[cfg(test)]
mod tests_pasted;
#[cfg(test)]
mod tests_places;
#[cfg(test)]
mod tests_queries;

use crate::geo;
use code_areas::CodeArea;
use scan::Scan;

pub use near::MAX_RADIUS_KM;
pub use when::DATE_NOTE;
/// « Compris » for a meal with no layout said (`meals`).
pub const MEAL_NOTE: &str = "repas : les salles en théâtre ou en école passent après";

/// Longer input is cut (at a character boundary) before extraction: a
/// search prompt is a few sentences or one pasted e-mail, and the work
/// stays bounded. Covers the 6,000 characters `search::request` accepts,
/// accents included.
pub const MAX_INPUT_BYTES: usize = 16384;

/// A room layout (`room_capacities.configuration`): the one list, shared
/// with the page and the demo data.
pub use app::room_configurations::Configuration;

/// What the text asks for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Criteria {
    /// The capacity every matched room must reach (a hard filter): an
    /// explicit head count, or the lower bound of a range ("80 à 120").
    pub participants: Option<u32>,
    /// Top of a range ("entre 80 et 120 personnes" → 120): informs the fit
    /// of a room, never filters.
    pub participants_max: Option<u32>,
    /// A vague amount ("une trentaine", "quelques dizaines"): a fit
    /// preference, never a filter.
    pub participants_about: Option<u32>,
    /// Accepted layouts, in the order mentioned (any of them will do).
    pub configurations: Vec<Configuration>,
    /// Soft: the layouts preferred when the event is a meal and no layout
    /// was said (every one but theatre and classroom, `meals`): they order
    /// each venue's rooms and its rank, never exclude it.
    pub meal_layouts: Vec<Configuration>,
    /// Postal codes, in the order mentioned.
    pub postal_codes: Vec<String>,
    /// Postal codes the text names that no place has ("75999"): the
    /// caller says so rather than searching elsewhere.
    pub unknown_postal_codes: Vec<String>,
    /// Places outside the area the search covers (« à Lyon », « en
    /// Bretagne »), by name: the caller says it cannot locate them.
    pub places_elsewhere: Vec<String>,
    /// Départements searched as a whole ("dans le 93", "Hauts-de-Seine"):
    /// two digits, the first two of their postal codes.
    pub departments: Vec<String>,
    /// Postal codes the text rules out ("on évite le 17e", "pas côté
    /// Montreuil"): excluded in the SQL stage, whatever else is searched.
    pub excluded_postal_codes: Vec<String>,
    /// Départements ruled out ("surtout pas dans le 93"; "hors Paris" is
    /// "75").
    pub excluded_departments: Vec<String>,
    /// Kinds of venue ruled out ("pas de rooftop", "sans péniche"): tag
    /// names, excluded in the SQL stage.
    pub excluded_kinds: Vec<String>,
    /// Features the text asks for (« un rooftop », « avec parking », « vue
    /// sur la Seine »), as the tags venue sheets carry: soft, never a
    /// filter (ADR 0010). The ranking prefers venues that carry them and
    /// says which do not; the words also stay in the description.
    pub wanted_tags: Vec<String>,
    /// A point to search around, with or without a radius.
    pub near: Option<Near>,
    /// Venues asked for by code ("#102").
    pub member_codes: Vec<String>,
    /// "N'importe où en Île-de-France" and no narrower place: the caller
    /// should ask to narrow the area.
    pub broad_area: bool,
    /// What the organizer means to spend: a soft criterion for the ranking.
    pub budget: Option<Budget>,
    /// A negative amount in the text ("-20 personnes"), as written: the
    /// caller refuses it as the form refuses a negative field.
    pub negative_amount: Option<String>,
    /// Everything that is not a hard criterion, for the vector ranking.
    pub semantic_query: String,
    /// What was understood, in French, for display: the criteria
    /// ([`summary`]) then the extractors' remarks.
    pub notes: Vec<String>,
    /// The extractors' remarks alone ("autre repère ignoré : …").
    pub remarks: Vec<String>,
}

impl Criteria {
    /// True when anything but the semantic query was extracted.
    pub fn has_hard_criteria(&self) -> bool {
        self.participants.is_some()
            || !self.configurations.is_empty()
            || !self.postal_codes.is_empty()
            || !self.departments.is_empty()
            || self.near.is_some()
            || !self.places_elsewhere.is_empty()
            || !self.member_codes.is_empty()
            || self.broad_area
            || self.excludes_anything()
    }

    /// True when the text rules out a place or a kind of venue.
    pub fn excludes_anything(&self) -> bool {
        !self.excluded_postal_codes.is_empty()
            || !self.excluded_departments.is_empty()
            || !self.excluded_kinds.is_empty()
    }
}

/// A point to search around.
#[derive(Clone, Debug, PartialEq)]
pub struct Near {
    /// The place's name ("Gare de Lyon").
    pub label: String,
    pub lat: f64,
    pub lng: f64,
    /// `Some`: a hard radius ("à 1 km de"). `None`: a proximity without a
    /// distance ("près de la gare du Nord"): results are ranked nearest
    /// first but nothing is excluded (ADR 0010).
    pub radius_km: Option<f64>,
    /// How far « près de » reaches around this place when no radius is
    /// given (the gazetteer's scale: a landmark's own, a commune's 5 km):
    /// what a count with no radius counts within.
    pub reach_km: f64,
}

/// A budget, in whole euros: what was said, and the per-person figure
/// the ranking compares with venue prices.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Budget {
    /// The whole event ("budget 20 k€").
    pub total_eur: Option<u32>,
    /// Per person: said ("60 €/pers") or the total divided by the head
    /// count ("20 k€ pour 100 personnes" → 200).
    pub per_person_eur: Option<u32>,
}

/// Extracts the hard criteria of `text` and keeps the rest as the
/// semantic query. Never panics; any input is accepted.
pub fn extract(text: &str) -> Criteria {
    let (text, truncated) = truncate(text);
    let (scan, mut criteria, mut notes) = hard(text);
    let natural = semantic::query(&scan, semantic::Joiner::Natural);
    let commas = semantic::query(&scan, semantic::Joiner::Commas);
    // The description must not read as a criterion of its own. Spaces can
    // join two leftovers into one ("Paris" + "12 juin"): then commas keep
    // them apart; commas can make a list ("le 20" + "2" → "le 20, 2"):
    // then semicolons.
    let reads_nothing = |query: &str| !hard(query).1.has_hard_criteria();
    criteria.semantic_query = if reads_nothing(&natural) {
        natural
    } else if reads_nothing(&commas) {
        commas
    } else {
        let semicolons = semantic::query(&scan, semantic::Joiner::Semicolons);
        if reads_nothing(&semicolons) {
            semicolons
        } else if natural == commas || hard(&natural).1 == hard(&commas).1 {
            natural
        } else {
            commas
        }
    };
    if truncated {
        notes.push(format!("texte tronqué à {MAX_INPUT_BYTES} octets"));
    }
    criteria.remarks = notes.clone();
    criteria.notes = describe(&criteria, notes);
    criteria
}

/// What `c` asks for, in French, one note per criterion: « Compris ».
pub fn summary(c: &Criteria) -> Vec<String> {
    describe(c, Vec::new())
}

/// Runs every extractor: the scan (which tokens were claimed), the
/// criteria, and notes the extractors want shown.
fn hard(text: &str) -> (Scan<'_>, Criteria, Vec<String>) {
    let mut scan = Scan::new(text);
    let mut criteria = Criteria::default();
    let mut notes = Vec::new();
    // Headers, greetings and signatures of an e-mail are nobody's words.
    let subjects = email::extract(&mut scan);
    contacts::extract(&mut scan);
    codes::extract(&mut scan, &mut criteria);
    // Money, then dates, hours and durations: none of their numbers may be
    // read as a head count or an arrondissement.
    budget::extract(&mut scan, &mut criteria);
    if when::extract(&mut scan) {
        notes.push(when::DATE_NOTE.to_string());
    }
    places::extract(&mut scan, &mut criteria, &mut notes);
    kinds::extract(&mut scan, &mut criteria);
    participants::extract(&mut scan, &mut criteria, &mut notes);
    configurations::extract(&mut scan, &mut criteria);
    meals::extract(&scan, &mut criteria);
    // What else a negation refuses is no description to rank on.
    negation::take_leftovers(&mut scan);
    budget::complete(&mut criteria);
    // The subject gave its criteria; the rest of it repeats the message.
    for subject in subjects {
        scan.consume(subject);
    }
    (scan, criteria, notes)
}

/// `text` cut to `MAX_INPUT_BYTES` at a character boundary, and whether
/// it was cut.
fn truncate(text: &str) -> (&str, bool) {
    if text.len() <= MAX_INPUT_BYTES {
        return (text, false);
    }
    let mut end = MAX_INPUT_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (text.get(..end).unwrap_or_default(), true)
}

/// "5", "1,5", "0,8": kilometres the French way.
pub(crate) fn format_km(km: f64) -> String {
    let tenths = (km * 10.0).round();
    if tenths % 10.0 == 0.0 {
        format!("{}", tenths / 10.0)
    } else {
        format!("{:.1}", tenths / 10.0).replace('.', ",")
    }
}

/// Places named with a common noun, said with its article and in lower
/// case: « près de la gare de Lyon », « à 2 km du stade de France ».
const COMMON_NOUNS: [(&str, &str); 7] = [
    ("Gare ", "de la gare "),
    ("Tour ", "de la tour "),
    ("Porte ", "de la porte "),
    ("Bois ", "du bois "),
    ("Stade ", "du stade "),
    ("Canal ", "du canal "),
    ("Aéroport ", "de l'aéroport "),
];

/// Places whose name is said with an article: « près du Louvre », « de la
/// Bastille », « des Invalides ».
const WITH_ARTICLE: [(&str, &str); 17] = [
    ("Louvre", "du "),
    ("Trocadéro", "du "),
    ("Châtelet – Les Halles", "du "),
    ("Quartier latin", "du "),
    ("Champs-Élysées", "des "),
    ("Invalides", "des "),
    ("Batignolles", "des "),
    ("Buttes-Chaumont", "des "),
    ("Grands Boulevards", "des "),
    ("Madeleine", "de la "),
    ("Concorde", "de la "),
    ("Bastille", "de la "),
    ("République", "de la "),
    ("Butte-aux-Cailles", "de la "),
    ("Bibliothèque François-Mitterrand", "de la "),
    ("Opéra", "de l'"),
    ("Arc de Triomphe", "de l'"),
];

/// "de Versailles", "d'Issy", "du Marais", "de La Défense", "de la gare de
/// Lyon", "du Louvre".
pub(crate) fn of(name: &str) -> String {
    if let Some((prefix, said)) = COMMON_NOUNS.iter().find(|(p, _)| name.starts_with(p)) {
        return format!("{said}{}", &name[prefix.len()..]);
    }
    if let Some((_, article)) = WITH_ARTICLE.iter().find(|(n, _)| *n == name) {
        return format!("{article}{name}");
    }
    if let Some(rest) = name.strip_prefix("Le ") {
        format!("du {rest}")
    } else if let Some(rest) = name.strip_prefix("Les ") {
        format!("des {rest}")
    } else if geo::fold(name).starts_with(['a', 'e', 'i', 'o', 'u', 'y']) {
        format!("d'{name}")
    } else {
        format!("de {name}")
    }
}

/// The notes shown to the user: places, centre, head count, layouts,
/// features asked for, budget, venues, then what the extractors added.
fn describe(c: &Criteria, extra: Vec<String>) -> Vec<String> {
    let mut notes = Vec::new();
    let areas = code_areas::of(&c.postal_codes);
    if areas.contains(&CodeArea::Paris) {
        notes.push("Paris intra-muros (75001 à 75020)".to_string());
    }
    // Several arrondissements: one note ("Paris 3e, 4e"), left out when an
    // extractor's remark already names them ("Le Marais : Paris 3e, 4e").
    let mut arrondissements: Vec<&geo::Arrondissement> = areas
        .iter()
        .filter_map(|area| match area {
            CodeArea::Arrondissement(a, _) => Some(*a),
            _ => None,
        })
        .collect();
    let grouped = arrondissements.len() > 1;
    if grouped {
        arrondissements.sort_by_key(|a| a.number);
        let list = format!(
            "Paris {}",
            arrondissements
                .iter()
                .map(|a| a.name.trim_start_matches("Paris "))
                .collect::<Vec<_>>()
                .join(", ")
        );
        if !extra.iter().any(|e| e.contains(&list)) {
            notes.push(list);
        }
    }
    for area in &areas {
        match area {
            CodeArea::Paris => {}
            CodeArea::Arrondissement(a, codes) if !grouped => {
                notes.push(format!("{} ({})", codes.join(", "), a.name));
            }
            CodeArea::Arrondissement(..) => {}
            CodeArea::Commune(code, commune) => notes.push(format!("{code} ({})", commune.name)),
            CodeArea::Unknown(code) => notes.push(code.to_string()),
        }
    }
    for number in &c.departments {
        if let Some(d) = geo::department(number) {
            notes.push(format!("{} ({})", d.name, d.number));
        }
    }
    notes.extend(exclusions::notes(c));
    if let Some(near) = &c.near {
        notes.push(match near.radius_km {
            Some(km) => format!("{} km autour {}", format_km(km), of(&near.label)),
            None => format!("près {} (classés par distance)", of(&near.label)),
        });
    }
    match (c.participants, c.participants_max, c.participants_about) {
        (Some(min), Some(max), _) => notes.push(format!("{min} à {max} personnes")),
        (Some(n), None, _) => notes.push(format!("{n} personne{}", if n > 1 { "s" } else { "" })),
        (None, _, Some(n)) => notes.push(format!("environ {n} personnes (indicatif)")),
        _ => {}
    }
    if !c.configurations.is_empty() {
        let labels: Vec<&str> = c.configurations.iter().map(|l| l.label()).collect();
        notes.push(labels.join(" ou "));
    }
    if !c.meal_layouts.is_empty() {
        notes.push(MEAL_NOTE.to_string());
    }
    if !c.wanted_tags.is_empty() {
        let labels: Vec<String> = c.wanted_tags.iter().map(|t| app::fr::tag(t)).collect();
        let what = if labels.len() > 1 {
            "atouts souhaités"
        } else {
            "atout souhaité"
        };
        notes.push(format!("{what} : {}", labels.join(", ")));
    }
    if let Some(budget) = &c.budget {
        notes.push(budget_note(budget));
    }
    if !c.member_codes.is_empty() {
        notes.push(format!("lieux demandés : {}", c.member_codes.join(", ")));
    }
    if c.broad_area {
        notes.push("zone très large (Île-de-France) : à préciser".to_string());
    }
    notes.extend(extra);
    notes
}

/// "budget ≈ 200 €/pers (20 000 € au total)", "budget 60 €/pers",
/// "budget 15 000 € au total".
fn budget_note(b: &Budget) -> String {
    match (b.total_eur, b.per_person_eur) {
        (Some(total), Some(each)) => format!(
            "budget ≈ {} €/pers ({} € au total)",
            format_thousands(each),
            format_thousands(total)
        ),
        (None, Some(each)) => format!("budget {} €/pers", format_thousands(each)),
        (Some(total), None) => format!("budget {} € au total", format_thousands(total)),
        (None, None) => "budget".to_string(),
    }
}

/// "20 000": thousands grouped by a narrow no-break space, as French
/// typography writes them (and so a line never breaks inside).
fn format_thousands(n: u32) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (k, c) in digits.chars().enumerate() {
        if k > 0 && (digits.len() - k).is_multiple_of(3) {
            out.push('\u{202f}');
        }
        out.push(c);
    }
    out
}
