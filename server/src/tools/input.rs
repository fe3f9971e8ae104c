//! A model's tool input, read into its argument type and checked. Every
//! refusal is a [`ToolError::InvalidArguments`] in French that names what
//! to fix, so the model can correct its call.
use super::{ToolContext, ToolError};
use serde::de::DeserializeOwned;

/// The input read into `T`; unknown fields, wrong types and missing
/// fields are refused with the field's name. A `null` input is `{}`
/// (some models send no arguments at all for a tool without required ones).
pub fn parse<T: DeserializeOwned>(input: &serde_json::Value) -> Result<T, ToolError> {
    let value = match input {
        serde_json::Value::Null => serde_json::Value::Object(serde_json::Map::new()),
        serde_json::Value::Object(_) => input.clone(),
        other => {
            return Err(invalid(format!(
                "les arguments doivent être un objet JSON, pas {}",
                json_type(other)
            )))
        }
    };
    serde_json::from_value(value).map_err(|e| invalid(french(&e.to_string())))
}

/// serde's message, said in French where its shape is known; the field
/// names and types stay as serde wrote them (they are the schema's).
fn french(message: &str) -> String {
    if let Some(rest) = message.strip_prefix("unknown field ") {
        return match rest.split_once(", expected ") {
            Some((field, expected)) => format!(
                "champ inconnu {field} (champs acceptés : {})",
                expected.trim_start_matches("one of ")
            ),
            None => format!("champ inconnu {rest}"),
        };
    }
    if let Some(field) = message.strip_prefix("missing field ") {
        return format!("champ obligatoire manquant : {field}");
    }
    if let Some(rest) = message.strip_prefix("invalid type: ") {
        return format!("type invalide : {rest}");
    }
    if let Some(rest) = message.strip_prefix("invalid value: ") {
        return format!("valeur invalide : {rest}");
    }
    if let Some(rest) = message.strip_prefix("unknown variant ") {
        return format!("valeur inconnue {rest}");
    }
    message.to_string()
}

fn json_type(v: &serde_json::Value) -> &'static str {
    match v {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "un booléen",
        serde_json::Value::Number(_) => "un nombre",
        serde_json::Value::String(_) => "une chaîne",
        serde_json::Value::Array(_) => "un tableau",
        serde_json::Value::Object(_) => "un objet",
    }
}

pub fn invalid(message: impl Into<String>) -> ToolError {
    ToolError::InvalidArguments(message.into())
}

/// The request a tool reads: the argument, else the conversation's.
pub fn request_id(ctx: &ToolContext, given: Option<i64>) -> Result<i64, ToolError> {
    match given.or(ctx.request_id) {
        Some(id) if id > 0 => Ok(id),
        Some(id) => Err(invalid(format!(
            "request_id doit être un entier positif (reçu {id})"
        ))),
        None => Err(invalid("aucune demande en cours : précise request_id")),
    }
}

/// `limit` within `1..=max`, `default` when left out.
pub fn limit(given: Option<u32>, default: u32, max: u32) -> Result<i64, ToolError> {
    match given.unwrap_or(default) {
        n if (1..=max).contains(&n) => Ok(i64::from(n)),
        n => Err(invalid(format!(
            "limit doit être entre 1 et {max} (reçu {n})"
        ))),
    }
}

/// A venue code as the catalogue writes them: `#` and digits (`#102`).
pub fn member_code(code: &str) -> Result<String, ToolError> {
    let code = code.trim();
    let digits = code.strip_prefix('#').unwrap_or("");
    if !digits.is_empty() && digits.len() <= 9 && digits.bytes().all(|b| b.is_ascii_digit()) {
        Ok(code.to_string())
    } else {
        Err(invalid(format!(
            "code de lieu invalide « {} » : attendu # suivi de chiffres, par exemple #102",
            super::output::truncate(code, 40)
        )))
    }
}

/// Five-digit French postal codes, at most 50.
pub fn postal_codes(codes: &[String]) -> Result<Vec<String>, ToolError> {
    if codes.len() > 50 {
        return Err(invalid(format!(
            "au plus 50 codes postaux (reçu {})",
            codes.len()
        )));
    }
    codes
        .iter()
        .map(|c| {
            let c = c.trim();
            if c.len() == 5 && c.bytes().all(|b| b.is_ascii_digit()) {
                Ok(c.to_string())
            } else {
                Err(invalid(format!(
                    "code postal invalide « {} » : cinq chiffres attendus",
                    super::output::truncate(c, 20)
                )))
            }
        })
        .collect()
}

/// Départements by number (« 93 »): those Maxy knows (Île-de-France and
/// the Oise), at most 10.
pub fn departments(numbers: &[String]) -> Result<Vec<String>, ToolError> {
    if numbers.len() > 10 {
        return Err(invalid(format!(
            "au plus 10 départements (reçu {})",
            numbers.len()
        )));
    }
    numbers
        .iter()
        .map(|n| {
            let n = n.trim();
            match app::geo::department(n) {
                Some(d) => Ok(d.number.to_string()),
                None => Err(invalid(format!(
                    "département inconnu « {} » : deux chiffres parmi {}",
                    super::output::truncate(n, 20),
                    app::geo::DEPARTMENTS
                        .iter()
                        .map(|d| d.number)
                        .collect::<Vec<_>>()
                        .join(", ")
                ))),
            }
        })
        .collect()
}

/// At most this many tags a venue must all carry.
pub const MAX_TAGS: usize = 5;

/// Tags a venue must carry, trimmed, in lower case and each once, at
/// most [`MAX_TAGS`]; whether each exists is the database's to say.
pub fn tags(names: &[String]) -> Result<Vec<String>, ToolError> {
    if names.len() > MAX_TAGS {
        return Err(invalid(format!(
            "au plus {MAX_TAGS} caractéristiques (reçu {})",
            names.len()
        )));
    }
    let mut tags: Vec<String> = Vec::new();
    for n in names {
        let n = n.trim().to_lowercase();
        if n.is_empty() || n.chars().count() > 40 {
            return Err(invalid(format!(
                "caractéristique invalide « {} »",
                super::output::truncate(&n, 40)
            )));
        }
        if !tags.contains(&n) {
            tags.push(n);
        }
    }
    Ok(tags)
}

/// Kinds of venue ruled out, by the tag names the search excludes on.
pub fn kinds(names: &[String]) -> Result<Vec<String>, ToolError> {
    let known = crate::search::criteria::kinds::tags();
    if names.len() > known.len() {
        return Err(invalid(format!(
            "au plus {} types de lieu (reçu {})",
            known.len(),
            names.len()
        )));
    }
    names
        .iter()
        .map(|n| {
            let n = n.trim().to_lowercase();
            if known.contains(&n.as_str()) {
                Ok(n)
            } else {
                Err(invalid(format!(
                    "type de lieu inconnu « {} » : un parmi {}",
                    super::output::truncate(&n, 30),
                    known.join(", ")
                )))
            }
        })
        .collect()
}

/// A centre and a radius: (lat, lng, metres), once in bounds.
pub fn near(n: &super::args::Near) -> Result<(f64, f64, f64), ToolError> {
    let ok = (-90.0..=90.0).contains(&n.lat)
        && (-180.0..=180.0).contains(&n.lng)
        && n.radius_km > 0.0
        && n.radius_km <= 200.0;
    if ok {
        Ok((n.lat, n.lng, n.radius_km * 1000.0))
    } else {
        Err(invalid(
            "near : lat entre -90 et 90, lng entre -180 et 180, radius_km entre 0 et 200",
        ))
    }
}

/// A room layout key (reunion, u, theatre, cabaret, ecole, banquet, cocktail).
pub fn configuration(key: &str) -> Result<String, ToolError> {
    use app::room_configurations::Configuration;
    match Configuration::from_key(key.trim()) {
        Some(c) => Ok(c.key().to_string()),
        None => Err(invalid(format!(
            "configuration inconnue « {} » : reunion, u, theatre, cabaret, ecole, banquet ou cocktail",
            super::output::truncate(key, 30)
        ))),
    }
}

/// A database failure: logged here, once, and an opaque error for the model.
pub fn unavailable(tool: &str, e: sqlx::Error) -> ToolError {
    tracing::error!(tool, error = %e, "a read tool could not query the database");
    ToolError::Unavailable
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::args;

    #[test]
    fn unknown_fields_are_named() {
        let e = parse::<args::GetMember>(&serde_json::json!({"code": "#1", "confirmed": true}));
        let Err(ToolError::InvalidArguments(m)) = e else {
            panic!("{e:?}")
        };
        assert!(m.contains("champ inconnu `confirmed`"), "{m}");
        assert!(m.contains("`code`"), "{m}");
    }

    #[test]
    fn wrong_types_and_missing_fields_say_so() {
        let e = parse::<args::GetMember>(&serde_json::json!({"code": 12}));
        assert!(matches!(e, Err(ToolError::InvalidArguments(m)) if m.starts_with("type invalide")));
        let e = parse::<args::GetMember>(&serde_json::json!({}));
        assert!(
            matches!(e, Err(ToolError::InvalidArguments(m)) if m.contains("manquant : `code`"))
        );
        let e = parse::<args::GetRequest>(&serde_json::json!([1]));
        assert!(matches!(e, Err(ToolError::InvalidArguments(m)) if m.contains("un tableau")));
        assert_eq!(
            parse::<args::GetRequest>(&serde_json::Value::Null),
            Ok(args::GetRequest::default())
        );
    }

    proptest::proptest! {
        /// A field the type does not have is refused, and named, whatever it is.
        #[test]
        fn any_unknown_field_is_refused_by_name(field in "[a-z_]{1,20}") {
            proptest::prop_assume!(field != "code");
            let input = serde_json::json!({"code": "#1", (field.clone()): true});
            let e = parse::<args::GetMember>(&input);
            let named = matches!(&e, Err(ToolError::InvalidArguments(m)) if m.contains(&format!("`{field}`")));
            proptest::prop_assert!(named, "{:?}", e);
        }

        #[test]
        fn member_codes_are_hash_and_digits(code in "\\PC{0,12}") {
            let ok = code.trim().strip_prefix('#').is_some_and(|d| {
                !d.is_empty() && d.len() <= 9 && d.bytes().all(|b| b.is_ascii_digit())
            });
            proptest::prop_assert_eq!(member_code(&code).is_ok(), ok);
        }
    }

    #[test]
    fn codes_and_limits() {
        assert_eq!(member_code(" #102 "), Ok("#102".to_string()));
        for bad in ["102", "#", "#12a", "PAR-00042", "#1234567890"] {
            assert!(member_code(bad).is_err(), "{bad}");
        }
        assert_eq!(limit(None, 10, 20), Ok(10));
        assert!(limit(Some(0), 10, 20).is_err());
        assert!(limit(Some(21), 10, 20).is_err());
        assert!(postal_codes(&["7500".into()]).is_err());
        assert!(configuration("gala").is_err());
        assert_eq!(configuration("cocktail"), Ok("cocktail".into()));
    }
}
