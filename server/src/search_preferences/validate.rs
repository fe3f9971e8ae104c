//! From what a preferences form posted to stored preferences: every bad
//! value is refused with a French message saying what to fix, nothing is
//! saved then. Pools and tags are checked against the catalogue by the
//! caller (`search_preferences::check_catalogue`); this part needs no
//! database.
use crate::search::request::MAX_RADIUS_KM;
use app::search_preferences::{
    Centre, PoolSpecialities, PreferencesInput, SearchPreferences, Zone,
};

pub const MAX_LABEL_CHARS: usize = 80;
pub const MAX_POSTAL_CODES: usize = 20;
pub const MAX_TAGS: usize = 10;
pub const MAX_TAG_CHARS: usize = 40;
pub const MAX_POOLS: usize = 20;
/// Any field longer than this is refused before it is read.
const MAX_FIELD_CHARS: usize = 2000;

/// Whose preferences the form edits: a user's specialities name their pool
/// on each line; a request's belong to its pool.
#[derive(Clone, Copy, Debug)]
pub enum Scope<'a> {
    User,
    Request { pool: &'a str },
}

/// Parses and checks `input`; the error is the message to show.
pub fn parse(input: &PreferencesInput, scope: Scope<'_>) -> Result<SearchPreferences, String> {
    for (name, value) in [
        ("Le nom de la zone", &input.zone_label),
        ("Les codes postaux", &input.postal_codes),
        ("Le centre", &input.centre),
        ("Le rayon", &input.radius_km),
        ("« Favoris d'abord »", &input.favorites_first),
        ("Les spécialités", &input.specialities),
    ] {
        if value.chars().count() > MAX_FIELD_CHARS {
            return Err(format!("{name} dépasse {MAX_FIELD_CHARS} caractères."));
        }
        if value.contains('\0') {
            return Err(format!("{name} contient un caractère invalide."));
        }
    }
    Ok(SearchPreferences {
        zone: zone(input)?,
        favorites_first: match input.favorites_first.trim() {
            "" => None,
            "oui" => Some(true),
            "non" => Some(false),
            other => {
                return Err(format!(
                    "« Favoris d'abord » : « {} » n'est pas une réponse (oui, non ou vide).",
                    cut(other)
                ))
            }
        },
        specialities: specialities(&input.specialities, scope)?,
    })
}

fn cut(s: &str) -> String {
    s.chars().take(40).collect()
}

fn zone(input: &PreferencesInput) -> Result<Option<Zone>, String> {
    let label = input.zone_label.trim();
    let codes: Vec<&str> = input
        .postal_codes
        .split([',', ';', ' ', '\n'])
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect();
    let centre_text = input.centre.trim();
    let radius_text = input.radius_km.trim();
    if label.is_empty() && codes.is_empty() && centre_text.is_empty() && radius_text.is_empty() {
        return Ok(None);
    }
    if label.is_empty() {
        return Err(
            "Donnez un nom à la zone (ex. « Paris 11e ») : il s'affiche sur la recherche.".into(),
        );
    }
    if label.chars().count() > MAX_LABEL_CHARS {
        return Err(format!(
            "Le nom de la zone dépasse {MAX_LABEL_CHARS} caractères."
        ));
    }
    let centre = if centre_text.is_empty() && radius_text.is_empty() {
        None
    } else {
        Some(centre(centre_text, radius_text)?)
    };
    if codes.is_empty() && centre.is_none() {
        return Err(format!(
            "La zone « {} » n'a ni codes postaux ni centre : donnez l'un ou l'autre.",
            cut(label)
        ));
    }
    if !codes.is_empty() && centre.is_some() {
        return Err(
            "Une zone est faite de codes postaux ou d'un centre avec un rayon, pas des deux."
                .into(),
        );
    }
    if codes.len() > MAX_POSTAL_CODES {
        return Err(format!(
            "Trop de codes postaux ({}) : {MAX_POSTAL_CODES} au plus.",
            codes.len()
        ));
    }
    let mut postal_codes: Vec<String> = Vec::new();
    for code in codes {
        if code.len() != 5 || !code.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!(
                "Code postal invalide : « {} » (5 chiffres attendus).",
                cut(code)
            ));
        }
        if !postal_codes.iter().any(|c| c == code) {
            postal_codes.push(code.to_string());
        }
    }
    Ok(Some(Zone {
        label: label.to_string(),
        postal_codes,
        centre,
    }))
}

fn centre(centre: &str, radius: &str) -> Result<Centre, String> {
    // « 48.8566, 2.3522 » as maps copy it, or the French « 48,8566 ; 2,3522 ».
    let parts: Vec<String> = if centre.contains(';') {
        centre
            .split(';')
            .map(|p| p.trim().replace(',', "."))
            .collect()
    } else {
        centre
            .split([',', ' '])
            .map(|p| p.trim().to_string())
            .collect()
    };
    let parts: Vec<&str> = parts
        .iter()
        .map(String::as_str)
        .filter(|p| !p.is_empty())
        .collect();
    let coords: Option<Vec<f64>> = parts.iter().map(|p| p.parse::<f64>().ok()).collect();
    let (lat, lng) = match coords.as_deref() {
        Some([lat, lng]) if lat.is_finite() && lng.is_finite() => (*lat, *lng),
        _ => return Err(
            "Centre : coordonnées GPS en degrés décimaux attendues, latitude puis longitude (ex. 48.8566, 2.3522)."
                .into(),
        ),
    };
    if !(-90.0..=90.0).contains(&lat) || !(-180.0..=180.0).contains(&lng) {
        return Err("Coordonnées du centre hors limites.".into());
    }
    if radius.is_empty() {
        return Err("Un centre demande un rayon (en km).".into());
    }
    let radius_km: f64 = radius
        .replace(',', ".")
        .parse()
        .map_err(|_| format!("Rayon invalide : « {} » (un nombre de km).", cut(radius)))?;
    if !(radius_km > 0.0 && radius_km <= MAX_RADIUS_KM) {
        return Err(format!(
            "Le rayon doit être compris entre 0 et {MAX_RADIUS_KM} km."
        ));
    }
    Ok(Centre {
        lat,
        lng,
        radius_km,
    })
}

fn tags(list: &str, pool: &str) -> Result<Vec<String>, String> {
    let mut tags: Vec<String> = Vec::new();
    for tag in list.split(',').map(str::trim).filter(|t| !t.is_empty()) {
        if tag.chars().count() > MAX_TAG_CHARS {
            return Err(format!(
                "Spécialité trop longue : « {}… » ({MAX_TAG_CHARS} caractères au plus).",
                cut(tag)
            ));
        }
        if !tags.iter().any(|t| t.eq_ignore_ascii_case(tag)) {
            tags.push(tag.to_string());
        }
    }
    if tags.len() > MAX_TAGS {
        return Err(format!(
            "Trop de spécialités pour le pool « {pool} » ({}) : {MAX_TAGS} au plus.",
            tags.len()
        ));
    }
    Ok(tags)
}

fn specialities(text: &str, scope: Scope<'_>) -> Result<Vec<PoolSpecialities>, String> {
    let mut out: Vec<PoolSpecialities> = Vec::new();
    match scope {
        Scope::Request { pool } => {
            if text.contains('\n') || text.contains(':') {
                return Err(
                    "Spécialités de la demande : une liste séparée par des virgules (ex. « rooftop, jardin »), pour le pool de la demande."
                        .into(),
                );
            }
            let tags = tags(text, pool)?;
            if !tags.is_empty() {
                out.push(PoolSpecialities {
                    pool: pool.to_string(),
                    tags,
                });
            }
        }
        Scope::User => {
            for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
                let Some((pool, list)) = line.split_once(':') else {
                    return Err(format!(
                        "Spécialités : « {} » — précisez le pool, une ligne par pool (ex. « Hôtels : rooftop, jardin »).",
                        cut(line)
                    ));
                };
                let pool = pool.trim().to_string();
                if pool.is_empty() {
                    return Err("Spécialités : un pool manque avant « : ».".into());
                }
                if out.iter().any(|s| s.pool == pool) {
                    return Err(format!(
                        "Spécialités : le pool « {} » apparaît deux fois.",
                        cut(&pool)
                    ));
                }
                let tags = tags(list, &pool)?;
                if !tags.is_empty() {
                    out.push(PoolSpecialities { pool, tags });
                }
            }
            if out.len() > MAX_POOLS {
                return Err(format!("Spécialités : {MAX_POOLS} pools au plus."));
            }
        }
    }
    out.sort_by(|a, b| a.pool.cmp(&b.pool));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(f: impl FnOnce(&mut PreferencesInput)) -> PreferencesInput {
        let mut i = PreferencesInput::default();
        f(&mut i);
        i
    }

    #[test]
    fn an_empty_form_is_no_preference() {
        let p = parse(&PreferencesInput::default(), Scope::User).unwrap();
        assert!(p.is_empty());
    }

    #[test]
    fn a_full_form_is_read() {
        let p = parse(
            &input(|i| {
                i.zone_label = " Paris 11e ".into();
                i.postal_codes = "75011, 75011 75012".into();
                i.favorites_first = "oui".into();
                i.specialities = "hotels : rooftop, Jardin, jardin\nlofts: atelier".into();
            }),
            Scope::User,
        )
        .unwrap();
        let zone = p.zone.unwrap();
        assert_eq!(zone.label, "Paris 11e");
        assert_eq!(zone.postal_codes, vec!["75011", "75012"]);
        assert_eq!(p.favorites_first, Some(true));
        assert_eq!(p.specialities.len(), 2);
        assert_eq!(p.specialities[0].tags, vec!["rooftop", "Jardin"]);

        let p = parse(
            &input(|i| {
                i.zone_label = "Bastille".into();
                i.centre = "48.853, 2.369".into();
                i.radius_km = "1,5".into();
                i.specialities = "péniche".into();
            }),
            Scope::Request { pool: "bateaux" },
        )
        .unwrap();
        assert_eq!(p.zone.unwrap().centre.unwrap().radius_km, 1.5);
        assert_eq!(p.specialities[0].pool, "bateaux");
    }

    #[test]
    fn bad_input_is_refused_with_a_reason() {
        let cases: Vec<(PreferencesInput, Scope<'_>, &str)> = vec![
            (
                input(|i| i.postal_codes = "75011".into()),
                Scope::User,
                "nom à la zone",
            ),
            (
                input(|i| i.zone_label = "Paris".into()),
                Scope::User,
                "ni codes postaux ni centre",
            ),
            (
                input(|i| (i.zone_label, i.postal_codes) = ("P".into(), "7501".into())),
                Scope::User,
                "Code postal invalide",
            ),
            (
                input(|i| {
                    (i.zone_label, i.postal_codes, i.centre, i.radius_km) =
                        ("P".into(), "75011".into(), "48.8, 2.3".into(), "2".into())
                }),
                Scope::User,
                "pas des deux",
            ),
            (
                input(|i| (i.zone_label, i.centre) = ("P".into(), "48.8, 2.3".into())),
                Scope::User,
                "demande un rayon",
            ),
            (
                input(|i| {
                    (i.zone_label, i.centre, i.radius_km) =
                        ("P".into(), "48,8 2,3".into(), "2".into())
                }),
                Scope::User,
                "degrés décimaux",
            ),
            (
                input(|i| {
                    (i.zone_label, i.centre, i.radius_km) =
                        ("P".into(), "98, 2.3".into(), "2".into())
                }),
                Scope::User,
                "hors limites",
            ),
            (
                input(|i| {
                    (i.zone_label, i.centre, i.radius_km) =
                        ("P".into(), "48.8, 2.3".into(), "500".into())
                }),
                Scope::User,
                "entre 0 et",
            ),
            (
                input(|i| {
                    (i.zone_label, i.centre, i.radius_km) =
                        ("P".into(), "48.8, 2.3".into(), "loin".into())
                }),
                Scope::User,
                "Rayon invalide",
            ),
            (
                input(|i| i.favorites_first = "peut-être".into()),
                Scope::User,
                "n'est pas une réponse",
            ),
            (
                input(|i| i.specialities = "rooftop".into()),
                Scope::User,
                "précisez le pool",
            ),
            (
                input(|i| i.specialities = "hotels: a\nhotels: b".into()),
                Scope::User,
                "deux fois",
            ),
            (
                input(|i| i.specialities = "hotels : rooftop".into()),
                Scope::Request { pool: "hotels" },
                "liste séparée par des virgules",
            ),
            (
                input(|i| i.specialities = format!("hotels: {}", "x".repeat(50))),
                Scope::User,
                "trop longue",
            ),
            (
                input(|i| {
                    i.specialities = (0..11)
                        .map(|n| format!("t{n}"))
                        .collect::<Vec<_>>()
                        .join(",")
                }),
                Scope::Request { pool: "hotels" },
                "Trop de spécialités",
            ),
            (
                input(|i| i.zone_label = "x".repeat(3000)),
                Scope::User,
                "dépasse",
            ),
            (
                input(|i| i.zone_label = "a\0".into()),
                Scope::User,
                "caractère invalide",
            ),
        ];
        for (input, scope, needle) in cases {
            let err = parse(&input, scope).err().unwrap_or_default();
            assert!(err.contains(needle), "{input:?} gave {err:?}");
        }
    }
}
