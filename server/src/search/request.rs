//! From what the caller sent to a validated search: structured fields win
//! over what the free text says (and « Compris » says so); every bad value
//! is a clear French error.
use super::criteria::{self, Budget, Configuration, Criteria, Near};
use app::venue_search::SearchForm;

/// A refused search: the message says what to fix.
#[derive(Debug, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct Invalid(pub String);

fn invalid(message: impl Into<String>) -> Invalid {
    Invalid(message.into())
}

pub use app::venue_search::MAX_TEXT_CHARS;
pub const MAX_PARTICIPANTS: u32 = 5000;
pub const MAX_RADIUS_KM: f64 = 100.0;
/// Radius when a centre is given without one.
pub const DEFAULT_RADIUS_KM: f64 = 5.0;

#[derive(Clone, Debug, PartialEq)]
pub struct SearchRequest {
    /// The pool asked for; `None`: every pool (`search::scope`).
    pub pool_slug: Option<String>,
    /// The capacity every matched room must reach.
    pub participants: Option<u32>,
    /// Top of a range: informs the fit only.
    pub participants_max: Option<u32>,
    /// A vague amount: informs the fit only.
    pub participants_about: Option<u32>,
    pub configurations: Vec<Configuration>,
    /// Soft: the layouts a meal prefers when none was asked
    /// (`criteria::meals`): they choose each venue's room and move its rank.
    pub meal_layouts: Vec<Configuration>,
    pub postal_codes: Vec<String>,
    /// Codes the request named that no place has: said, never searched.
    pub unknown_postal_codes: Vec<String>,
    /// Places outside the area the search covers (« Lyon »): said, never
    /// searched.
    pub places_elsewhere: Vec<String>,
    pub near: Option<Near>,
    /// Départements searched whole (two digits).
    pub departments: Vec<String>,
    /// What the text rules out: postal codes, départements, kinds (tags).
    pub excluded_postal_codes: Vec<String>,
    pub excluded_departments: Vec<String>,
    pub excluded_kinds: Vec<String>,
    /// Soft: features asked for, as tags; the ranking prefers them.
    pub wanted_tags: Vec<String>,
    pub member_codes: Vec<String>,
    pub broad_area: bool,
    /// Soft: the ranking compares it with venue prices.
    pub budget: Option<Budget>,
    pub semantic_query: String,
    /// What was understood and applied, for display (« Compris »).
    pub understood: Vec<String>,
    /// The request's kind of event, when given (lower-case, trimmed): the
    /// training of that kind applies (`search::lessons`).
    pub event_type: Option<String>,
    /// The free text as written, where training triggers are looked for.
    pub text: String,
}

impl SearchRequest {
    /// The configuration keys of the hard filter: any layout when none was asked.
    pub fn configuration_keys(&self) -> Vec<String> {
        let chosen: &[Configuration] = if self.configurations.is_empty() {
            &Configuration::ALL
        } else {
            &self.configurations
        };
        chosen.iter().map(|c| c.key().to_string()).collect()
    }

    /// The head count a room should suit best: the top of a range, the
    /// head count, or a vague amount.
    pub fn fit_target(&self) -> Option<u32> {
        self.participants_max
            .or(self.participants)
            .or(self.participants_about)
    }

    /// The configuration keys a venue's shown room is chosen from first.
    pub fn preferred_configuration_keys(&self) -> Vec<String> {
        self.meal_layouts
            .iter()
            .map(|c| c.key().to_string())
            .collect()
    }

    /// Per-person budget in euros, when one is known.
    pub fn budget_per_person(&self) -> Option<u32> {
        self.budget.as_ref().and_then(|b| b.per_person_eur)
    }

    /// The capacity every matched room must reach.
    pub fn min_capacity(&self) -> i32 {
        self.participants
            .map_or(1, |p| i32::try_from(p).unwrap_or(i32::MAX))
    }

    /// The criteria as applied, for the form to show.
    pub fn applied(&self) -> app::venue_search::AppliedCriteria {
        let mut zone: Vec<String> = self
            .departments
            .iter()
            .filter_map(|d| crate::geo::department(d))
            .map(|d| d.name.to_string())
            .collect();
        if let Some(near) = &self.near {
            zone.push(match near.radius_km {
                Some(km) => format!(
                    "{} autour {}",
                    app::fr::distance_km(km),
                    criteria::of(&near.label)
                ),
                None => format!("près {}", criteria::of(&near.label)),
            });
        }
        app::venue_search::AppliedCriteria {
            participants: self.participants,
            configurations: self
                .configurations
                .iter()
                .map(|c| c.key().to_string())
                .collect(),
            postal_codes: self.postal_codes.clone(),
            zone: (!zone.is_empty()).then(|| zone.join(", ")),
        }
    }

    /// Centre and radius in metres, for the hard filter.
    pub fn radius_metres(&self) -> Option<(f64, f64, f64)> {
        self.near
            .as_ref()
            .and_then(|n| Some((n.lat, n.lng, n.radius_km? * 1000.0)))
    }
}

/// Reads the text with the deterministic extractor and validates.
pub fn build(form: &SearchForm) -> Result<SearchRequest, Invalid> {
    check_text(form)?;
    build_from(form, criteria::extract(&form.text), Vec::new())
}

/// The checks to pass before anything reads the text.
pub fn check_text(form: &SearchForm) -> Result<(), Invalid> {
    if form.text.chars().count() > MAX_TEXT_CHARS {
        return Err(invalid(format!(
            "Le texte dépasse {MAX_TEXT_CHARS} caractères."
        )));
    }
    if form
        .event_type
        .as_deref()
        .is_some_and(|t| t.chars().count() > crate::training::event_type::MAX_CHARS)
    {
        return Err(invalid(format!(
            "Le type d'événement dépasse {} caractères.",
            crate::training::event_type::MAX_CHARS
        )));
    }
    Ok(())
}

/// Validates the form against what the text was read as (`parsed`), the
/// form's fields winning; `reader_notes` say who read the text.
pub fn build_from(
    form: &SearchForm,
    parsed: Criteria,
    reader_notes: Vec<String>,
) -> Result<SearchRequest, Invalid> {
    check_text(form)?;
    // No pool: every pool, never the first of the list (`search::scope`).
    let pool_slug = Some(form.pool.trim())
        .filter(|p| !p.is_empty())
        .map(str::to_string);
    if let Some(amount) = &parsed.negative_amount {
        return Err(invalid(format!(
            "Le nombre de participants doit être d'au moins 1 (le texte dit « {amount} »)."
        )));
    }
    // Which fields of the form replaced what the text said, for « Compris ».
    let mut overridden: Vec<String> = Vec::new();

    let (participants, participants_max, participants_about) = match form.participants {
        Some(n) if n < 1 => {
            return Err(invalid("Le nombre de participants doit être d'au moins 1."))
        }
        Some(n) => {
            let n = u32::try_from(n).unwrap_or(u32::MAX);
            if parsed.participants.is_some_and(|p| p != n) || parsed.participants_about.is_some() {
                overridden.push(format!("jauge {n}"));
            }
            (Some(n), None, None)
        }
        None => (
            parsed.participants,
            parsed.participants_max,
            parsed.participants_about,
        ),
    };
    for n in [participants, participants_max].into_iter().flatten() {
        if n == 0 {
            return Err(invalid("Le nombre de participants doit être d'au moins 1."));
        }
        if n > MAX_PARTICIPANTS {
            return Err(invalid(format!(
                "{n} participants : la recherche accepte au plus {MAX_PARTICIPANTS} personnes."
            )));
        }
    }
    let participants_about = participants_about.map(|n| n.min(MAX_PARTICIPANTS));

    let mut configurations = Vec::new();
    for key in &form.configurations {
        let key = key.trim();
        match Configuration::from_key(key) {
            Some(c) if !configurations.contains(&c) => configurations.push(c),
            Some(_) => {}
            None => {
                return Err(invalid(format!(
                    "Configuration inconnue : « {key} » ({}).",
                    app::room_configurations::all_labels()
                )))
            }
        }
    }
    if configurations.is_empty() {
        configurations = parsed.configurations.clone();
    } else if !parsed.configurations.is_empty() && parsed.configurations != configurations {
        overridden.push("configurations".into());
    }

    let mut postal_codes = Vec::new();
    let mut unknown_postal_codes = Vec::new();
    for code in &form.postal_codes {
        let code = code.trim();
        if code.len() != 5 || !code.bytes().all(|b| b.is_ascii_digit()) {
            return Err(invalid(format!(
                "Code postal invalide : « {code} » (5 chiffres attendus)."
            )));
        }
        if is_unknown_paris_code(code) {
            unknown_postal_codes.push(code.to_string());
        } else if !postal_codes.iter().any(|c| c == code) {
            postal_codes.push(code.to_string());
        }
    }
    if form.postal_codes.is_empty() {
        postal_codes = parsed.postal_codes.clone();
        unknown_postal_codes = parsed.unknown_postal_codes.clone();
    } else if !parsed.postal_codes.is_empty() && parsed.postal_codes != postal_codes {
        overridden.push("codes postaux".into());
    }

    let near = match (form.near_lat, form.near_lng, form.radius_km) {
        (None, None, None) => parsed.near.clone(),
        (None, None, Some(_)) | (Some(_), None, _) | (None, Some(_), _) => return Err(invalid(
            "Un rayon demande un point de départ : donnez la latitude et la longitude du centre.",
        )),
        (Some(lat), Some(lng), radius) => {
            if !(-90.0..=90.0).contains(&lat) || !(-180.0..=180.0).contains(&lng) {
                return Err(invalid("Coordonnées du centre hors limites."));
            }
            if parsed.near.is_some() {
                overridden.push("centre et rayon".into());
            }
            Some(Near {
                // A person reads a place, never coordinates.
                label: form
                    .near_label
                    .clone()
                    .filter(|l| !l.trim().is_empty())
                    .unwrap_or_else(|| nearest_place(lat, lng)),
                lat,
                lng,
                radius_km: Some(radius.unwrap_or(DEFAULT_RADIUS_KM)),
                reach_km: DEFAULT_RADIUS_KM,
            })
        }
    };
    if let Some(radius_km) = near.as_ref().and_then(|n| n.radius_km) {
        if !(radius_km > 0.0 && radius_km <= MAX_RADIUS_KM) {
            return Err(invalid(format!(
                "Le rayon doit être compris entre 0 et {MAX_RADIUS_KM} km."
            )));
        }
    }

    // The form's postal codes replace the text's area, départements included;
    // what the text rules out still holds, but a code the form asks for.
    let departments = if form.postal_codes.is_empty() {
        parsed.departments.clone()
    } else {
        Vec::new()
    };
    let excluded_postal_codes: Vec<String> = parsed
        .excluded_postal_codes
        .iter()
        .filter(|c| !form.postal_codes.iter().any(|f| f.trim() == c.as_str()))
        .cloned()
        .collect();

    // A total is split over the head count actually applied: the form's,
    // when it replaced the text's (the reader already split it otherwise).
    let budget = parsed.budget.clone().map(|mut b| {
        if let (Some(total), Some(n), true) =
            (b.total_eur, participants, form.participants.is_some())
        {
            b.per_person_eur = Some((total + n / 2) / n.max(1));
        }
        b
    });

    // A layout on the form is said: a meal then prefers nothing more.
    let meal_layouts = if configurations.is_empty() {
        parsed.meal_layouts.clone()
    } else {
        Vec::new()
    };
    let applied = Criteria {
        participants,
        participants_max,
        participants_about,
        configurations: configurations.clone(),
        meal_layouts: meal_layouts.clone(),
        postal_codes: postal_codes.clone(),
        unknown_postal_codes: unknown_postal_codes.clone(),
        near: near.clone(),
        departments: departments.clone(),
        excluded_postal_codes: excluded_postal_codes.clone(),
        excluded_departments: parsed.excluded_departments.clone(),
        excluded_kinds: parsed.excluded_kinds.clone(),
        wanted_tags: parsed.wanted_tags.clone(),
        member_codes: parsed.member_codes.clone(),
        broad_area: parsed.broad_area,
        budget: budget.clone(),
        ..Criteria::default()
    };
    let mut understood = criteria::summary(&applied);
    understood.extend(parsed.remarks.iter().cloned());
    if !overridden.is_empty() {
        understood.push(format!(
            "le formulaire remplace le texte : {}",
            overridden.join(", ")
        ));
    }
    understood.extend(reader_notes);
    let understood = said_once(understood);

    let request = SearchRequest {
        pool_slug,
        participants,
        participants_max,
        participants_about,
        configurations,
        meal_layouts,
        postal_codes,
        unknown_postal_codes,
        places_elsewhere: parsed.places_elsewhere,
        near,
        departments,
        excluded_postal_codes,
        excluded_departments: parsed.excluded_departments,
        excluded_kinds: parsed.excluded_kinds,
        wanted_tags: parsed.wanted_tags,
        member_codes: parsed.member_codes,
        broad_area: parsed.broad_area,
        budget,
        semantic_query: parsed.semantic_query,
        understood,
        event_type: form
            .event_type
            .as_deref()
            .and_then(crate::training::event_type::normalize),
        text: form.text.clone(),
    };
    let has_criteria = request.participants.is_some()
        || request.participants_about.is_some()
        || !request.configurations.is_empty()
        || !request.postal_codes.is_empty()
        || !request.departments.is_empty()
        || !request.excluded_postal_codes.is_empty()
        || !request.excluded_departments.is_empty()
        || !request.excluded_kinds.is_empty()
        || !request.unknown_postal_codes.is_empty()
        || !request.places_elsewhere.is_empty()
        || request.near.is_some()
        || !request.member_codes.is_empty()
        || request.broad_area
        // Emoji and punctuation alone describe nothing.
        || request.semantic_query.chars().any(char::is_alphanumeric);
    if !has_criteria {
        return Err(invalid(
            "Que cherchez-vous ? Décrivez le lieu ou l'événement (ambiance, type de soirée…) ou donnez un critère : zone, nombre de personnes, configuration.",
        ));
    }
    Ok(request)
}

/// The arrondissement or commune nearest to a centre given as coordinates.
fn nearest_place(lat: f64, lng: f64) -> String {
    let arrondissements = crate::geo::ARRONDISSEMENTS
        .iter()
        .map(|a| (a.name, (a.lat, a.lng)));
    let communes = crate::geo::COMMUNES
        .iter()
        .map(|c| (c.name, (c.lat, c.lng)));
    arrondissements
        .chain(communes)
        .map(|(name, at)| (name, crate::geo::distance_km((lat, lng), at)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map_or_else(
            || "le point choisi".to_string(),
            |(name, _)| name.to_string(),
        )
}

/// « Compris » says each criterion once: a note another note already
/// contains goes (« Paris 5e, 6e » beside « rive gauche : Paris 5e, 6e »),
/// and a travel time that became a radius (« 60 min en voiture ≈ 50 km »)
/// joins the radius it gave (« 50 km autour de Paris (60 min en voiture) »).
pub fn said_once(notes: Vec<String>) -> Vec<String> {
    let mut notes = notes;
    let mut i = 0;
    while i < notes.len() {
        let travel = notes[i]
            .split_once(" ≈ ")
            .filter(|(time, _)| time.contains(" min "))
            .map(|(time, km)| (time.to_string(), format!("{km} autour")));
        if let Some((time, radius)) = travel {
            if let Some(j) = notes.iter().position(|n| n.starts_with(&radius)) {
                notes[j] = format!("{} ({time})", notes[j]);
                notes.remove(i);
                continue;
            }
        }
        i += 1;
    }
    let mut out: Vec<String> = Vec::new();
    for (i, note) in notes.iter().enumerate() {
        let contained = notes
            .iter()
            .enumerate()
            .any(|(j, other)| j != i && other != note && other.contains(note.as_str()));
        if !contained && !out.contains(note) {
            out.push(note.clone());
        }
    }
    out
}

/// A Paris postal code that is no arrondissement ("75999", "75021").
fn is_unknown_paris_code(code: &str) -> bool {
    code.starts_with("75") && crate::geo::arrondissement_by_postal_code(code).is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(f: impl FnOnce(&mut SearchForm)) -> SearchForm {
        let mut form = SearchForm {
            pool: "hotels".into(),
            text: "salle lumineuse".into(),
            ..SearchForm::default()
        };
        f(&mut form);
        form
    }

    #[test]
    fn bad_inputs_are_refused_with_a_reason() {
        let cases: Vec<(SearchForm, &str)> = vec![
            (form(|f| f.participants = Some(0)), "au moins 1"),
            (form(|f| f.participants = Some(1_000_000)), "au plus 5000"),
            (
                form(|f| f.configurations = vec!["piscine".into()]),
                "Configuration inconnue",
            ),
            (
                form(|f| f.postal_codes = vec!["7500".into()]),
                "Code postal invalide",
            ),
            (form(|f| f.radius_km = Some(5.0)), "point de départ"),
            (form(|f| f.near_lat = Some(48.8)), "point de départ"),
            (
                form(|f| {
                    (f.near_lat, f.near_lng, f.radius_km) = (Some(48.8), Some(2.3), Some(-1.0))
                }),
                "rayon",
            ),
            (
                form(|f| {
                    (f.near_lat, f.near_lng, f.radius_km) = (Some(48.8), Some(2.3), Some(5000.0))
                }),
                "rayon",
            ),
            (
                form(|f| (f.near_lat, f.near_lng) = (Some(98.0), Some(2.3))),
                "hors limites",
            ),
            (form(|f| f.text = "  ".into()), "Que cherchez-vous"),
            (form(|f| f.text = "x".repeat(MAX_TEXT_CHARS + 1)), "dépasse"),
        ];
        for (form, needle) in cases {
            let err = build(&form).err().map(|e| e.0).unwrap_or_default();
            assert!(err.contains(needle), "{form:?} gave {err:?}");
        }
    }

    #[test]
    fn no_pool_means_every_pool_not_a_refusal() {
        let req = build(&form(|f| f.pool = " ".into())).unwrap();
        assert_eq!(req.pool_slug, None);
        let req = build(&form(|_| {})).unwrap();
        assert_eq!(req.pool_slug.as_deref(), Some("hotels"));
    }

    #[test]
    fn a_negative_amount_in_the_text_is_refused_like_the_field() {
        let parsed = Criteria {
            negative_amount: Some("-20 personnes".into()),
            ..Criteria::default()
        };
        let err = build_from(&form(|_| {}), parsed, Vec::new()).unwrap_err();
        assert!(err.0.contains("au moins 1"), "{err}");
        assert!(err.0.contains("-20 personnes"), "{err}");
    }

    #[test]
    fn an_unknown_paris_code_is_kept_apart_not_searched() {
        let req = build(&form(|f| {
            f.postal_codes = vec!["75999".into(), "75011".into()]
        }))
        .unwrap();
        assert_eq!(req.postal_codes, vec!["75011".to_string()]);
        assert_eq!(req.unknown_postal_codes, vec!["75999".to_string()]);
    }

    #[test]
    fn compris_shows_what_was_applied_and_which_form_field_won() {
        let req = build(&form(|f| {
            f.text = "salle lumineuse pour 80 personnes".into();
            f.participants = Some(40);
        }))
        .unwrap();
        assert!(
            req.understood.contains(&"40 personnes".to_string()),
            "{:?}",
            req.understood
        );
        assert!(
            !req.understood.iter().any(|n| n.contains("80")),
            "{:?}",
            req.understood
        );
        assert!(
            req.understood
                .iter()
                .any(|n| n.contains("formulaire") && n.contains("40")),
            "{:?}",
            req.understood
        );
    }

    #[test]
    fn a_budget_per_person_follows_the_head_count_applied() {
        let parsed = Criteria {
            participants: Some(100),
            budget: Some(Budget {
                total_eur: Some(20_000),
                per_person_eur: Some(200),
            }),
            semantic_query: "soirée".into(),
            ..Criteria::default()
        };
        let req = build_from(&form(|f| f.participants = Some(80)), parsed, Vec::new()).unwrap();
        assert_eq!(req.budget_per_person(), Some(250));
        assert_eq!(req.fit_target(), Some(80));
    }

    #[test]
    fn a_range_filters_on_its_bottom_and_fits_its_top() {
        let parsed = Criteria {
            participants: Some(80),
            participants_max: Some(120),
            semantic_query: "soirée".into(),
            ..Criteria::default()
        };
        let req = build_from(&form(|_| {}), parsed, Vec::new()).unwrap();
        assert_eq!(req.min_capacity(), 80);
        assert_eq!(req.fit_target(), Some(120));
    }

    #[test]
    fn compris_says_each_criterion_once() {
        let notes = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            said_once(notes(&[
                "Paris 5e, 15e",
                "rive gauche : Paris 5e, 15e",
                "50 km autour de Paris",
                "60 min en voiture ≈ 50 km",
                "80 personnes",
                "80 personnes",
            ])),
            notes(&[
                "rive gauche : Paris 5e, 15e",
                "50 km autour de Paris (60 min en voiture)",
                "80 personnes",
            ])
        );
    }

    #[test]
    fn a_centre_given_as_coordinates_is_named() {
        let req = build(&form(|f| {
            (f.near_lat, f.near_lng, f.radius_km) = (Some(48.8650), Some(2.1400), Some(3.0));
        }))
        .unwrap();
        let label = &req.near.as_ref().unwrap().label;
        assert!(!label.chars().any(|c| c.is_ascii_digit()), "{label}");
        assert!(
            !req.understood.iter().any(|n| n.contains("48")),
            "{:?}",
            req.understood
        );
    }

    #[test]
    fn structured_fields_win_over_the_text() {
        let req = build(&form(|f| {
            f.participants = Some(40);
            f.configurations = vec!["banquet".into(), "banquet".into()];
            f.postal_codes = vec!["75011".into()];
        }))
        .unwrap();
        assert_eq!(req.participants, Some(40));
        assert_eq!(req.configurations, vec![Configuration::Banquet]);
        assert_eq!(req.postal_codes, vec!["75011".to_string()]);
    }
}
