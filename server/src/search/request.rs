//! From what the caller sent to a validated search: structured fields win
//! over what the free text says; every bad value is a clear French error.
use super::criteria::{self, Configuration, Near};
use app::venue_search::SearchForm;

/// A refused search: the message says what to fix.
#[derive(Debug, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct Invalid(pub String);

fn invalid(message: impl Into<String>) -> Invalid {
    Invalid(message.into())
}

pub const MAX_TEXT_CHARS: usize = 2000;
pub const MAX_PARTICIPANTS: u32 = 5000;
pub const MAX_RADIUS_KM: f64 = 100.0;
/// Radius when a centre is given without one.
pub const DEFAULT_RADIUS_KM: f64 = 5.0;

#[derive(Clone, Debug, PartialEq)]
pub struct SearchRequest {
    pub pool_slug: String,
    pub participants: Option<u32>,
    pub configurations: Vec<Configuration>,
    pub postal_codes: Vec<String>,
    pub near: Option<Near>,
    pub member_codes: Vec<String>,
    pub broad_area: bool,
    pub semantic_query: String,
    /// What was understood, for display.
    pub understood: Vec<String>,
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

    /// The capacity every matched room must reach.
    pub fn min_capacity(&self) -> i32 {
        self.participants
            .map_or(1, |p| i32::try_from(p).unwrap_or(i32::MAX))
    }

    /// Centre and radius in metres, for the hard filter.
    pub fn radius_metres(&self) -> Option<(f64, f64, f64)> {
        self.near
            .as_ref()
            .and_then(|n| Some((n.lat, n.lng, n.radius_km? * 1000.0)))
    }
}

pub fn build(form: &SearchForm) -> Result<SearchRequest, Invalid> {
    let pool_slug = form.pool.trim().to_string();
    if pool_slug.is_empty() {
        return Err(invalid(
            "Choisissez un pool : toute recherche commence par un pool.",
        ));
    }
    if form.text.chars().count() > MAX_TEXT_CHARS {
        return Err(invalid(format!(
            "Le texte dépasse {MAX_TEXT_CHARS} caractères."
        )));
    }
    let parsed = criteria::extract(&form.text);

    let participants = match form.participants {
        Some(n) if n < 1 => {
            return Err(invalid("Le nombre de participants doit être d'au moins 1."))
        }
        Some(n) => Some(u32::try_from(n).unwrap_or(u32::MAX)),
        None => parsed.participants,
    };
    match participants {
        Some(0) => return Err(invalid("Le nombre de participants doit être d'au moins 1.")),
        Some(n) if n > MAX_PARTICIPANTS => {
            return Err(invalid(format!(
                "{n} participants : la recherche accepte au plus {MAX_PARTICIPANTS} personnes."
            )))
        }
        _ => {}
    }

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
    }

    let mut postal_codes = Vec::new();
    for code in &form.postal_codes {
        let code = code.trim();
        if code.len() != 5 || !code.bytes().all(|b| b.is_ascii_digit()) {
            return Err(invalid(format!(
                "Code postal invalide : « {code} » (5 chiffres attendus)."
            )));
        }
        postal_codes.push(code.to_string());
    }
    if postal_codes.is_empty() {
        postal_codes = parsed.postal_codes.clone();
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
            let radius_km = radius.unwrap_or(DEFAULT_RADIUS_KM);
            Some(Near {
                label: format!("{lat:.4}, {lng:.4}"),
                lat,
                lng,
                radius_km: Some(radius_km),
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

    let request = SearchRequest {
        pool_slug,
        participants,
        configurations,
        postal_codes,
        near,
        member_codes: parsed.member_codes.clone(),
        broad_area: parsed.broad_area,
        semantic_query: parsed.semantic_query.clone(),
        understood: parsed.notes.clone(),
    };
    let has_criteria = request.participants.is_some()
        || !request.configurations.is_empty()
        || !request.postal_codes.is_empty()
        || request.near.is_some()
        || !request.member_codes.is_empty()
        || !request.semantic_query.trim().is_empty();
    if !has_criteria {
        return Err(invalid("Décrivez le lieu recherché ou donnez au moins un critère (zone, jauge, configuration)."));
    }
    Ok(request)
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
            (form(|f| f.pool = " ".into()), "Choisissez un pool"),
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
            (form(|f| f.text = "  ".into()), "au moins un critère"),
            (form(|f| f.text = "x".repeat(MAX_TEXT_CHARS + 1)), "dépasse"),
        ];
        for (form, needle) in cases {
            let err = build(&form).err().map(|e| e.0).unwrap_or_default();
            assert!(err.contains(needle), "{form:?} gave {err:?}");
        }
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
