//! Structured directives (seed 000): `{"trigger": "festif", "prefer":
//! ["jardin", "terrasse"], "avoid": ["sous-sol"]}` — when a request is
//! about the trigger, venues with the preferred words go up and those with
//! the avoided ones go down.
//!
//! Checked here, with a French message naming the problem, before the
//! table's CHECK (`chk_training_directives`) ever sees them: whatever this
//! accepts, the CHECK accepts too (a property test holds it).
use super::event_type::fold;
use serde::{Deserialize, Serialize};

/// Characters per trigger or word.
pub const MAX_WORD_CHARS: usize = 60;
/// Words per list.
pub const MAX_WORDS: usize = 20;
const KEYS: [&str; 3] = ["trigger", "prefer", "avoid"];

/// Directives as stored (trimmed, each word once).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Directives {
    pub trigger: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub prefer: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub avoid: Vec<String>,
}

impl Directives {
    /// The JSON stored in `training_sessions.directives`.
    pub fn to_json(&self) -> serde_json::Value {
        let mut map = serde_json::Map::new();
        map.insert("trigger".into(), self.trigger.clone().into());
        map.insert("prefer".into(), self.prefer.clone().into());
        map.insert("avoid".into(), self.avoid.clone().into());
        serde_json::Value::Object(map)
    }

    /// Reads stored directives (anything the CHECK accepted); `None` for a
    /// shape no check would have let in.
    pub fn from_stored(value: &serde_json::Value) -> Option<Self> {
        serde_json::from_value(value.clone()).ok()
    }
}

/// What is wrong with directives, in French for the team.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Invalid(pub String);

fn invalid(text: impl Into<String>) -> Invalid {
    Invalid(text.into())
}

/// Checks directives given as JSON (the chat tool's arguments, an import).
pub fn check_json(value: &serde_json::Value) -> Result<Directives, Invalid> {
    let Some(map) = value.as_object() else {
        return Err(invalid(
            "La consigne doit être un objet {trigger, prefer, avoid}.",
        ));
    };
    if let Some(unknown) = map.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(invalid(format!(
            "Clé inconnue dans la consigne : « {unknown} » (clés permises : trigger, prefer, avoid)."
        )));
    }
    let trigger = match map.get("trigger") {
        None | Some(serde_json::Value::Null) => String::new(),
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(_) => {
            return Err(invalid(
                "Le déclencheur de la consigne (« trigger ») doit être un texte.",
            ))
        }
    };
    let list = |key: &str, label: &str| -> Result<Vec<String>, Invalid> {
        match map.get(key) {
            None | Some(serde_json::Value::Null) => Ok(Vec::new()),
            Some(serde_json::Value::Array(items)) => items
                .iter()
                .enumerate()
                .map(|(i, item)| match item {
                    serde_json::Value::String(s) => Ok(s.clone()),
                    other => Err(invalid(format!(
                        "La liste « {label} » ne doit contenir que des mots : l'élément {} vaut {other}.",
                        i + 1
                    ))),
                })
                .collect(),
            Some(_) => Err(invalid(format!(
                "« {label} » doit être une liste de mots."
            ))),
        }
    };
    let prefer = list("prefer", "à préférer")?;
    let avoid = list("avoid", "à éviter")?;
    check(&trigger, &prefer, &avoid)
}

/// Checks directives given as fields (the forms, the typed tool arguments).
pub fn check(trigger: &str, prefer: &[String], avoid: &[String]) -> Result<Directives, Invalid> {
    let trigger = word(trigger, "Le déclencheur de la consigne")?.ok_or_else(|| {
        invalid("Le déclencheur de la consigne est vide : dites quand elle s'applique (ex. « festif »).")
    })?;
    let prefer = words(prefer, "à préférer")?;
    let avoid = words(avoid, "à éviter")?;
    if prefer.is_empty() && avoid.is_empty() {
        return Err(invalid(
            "La consigne ne dit rien : donnez au moins un mot à préférer ou à éviter.",
        ));
    }
    if let Some(both) = prefer
        .iter()
        .find(|p| avoid.iter().any(|a| fold(a) == fold(p)))
    {
        return Err(invalid(format!(
            "« {both} » est à la fois à préférer et à éviter : choisissez."
        )));
    }
    Ok(Directives {
        trigger,
        prefer,
        avoid,
    })
}

/// Splits a comma-separated form field into words (empty pieces dropped).
pub fn split_list(field: &str) -> Vec<String> {
    field
        .split([',', ';', '\n'])
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// One trimmed word or phrase; `None` when blank.
fn word(raw: &str, what: &str) -> Result<Option<String>, Invalid> {
    let text = raw.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.is_empty() {
        return Ok(None);
    }
    if text.chars().any(char::is_control) {
        return Err(invalid(format!("{what} contient un caractère invisible.")));
    }
    let n = text.chars().count();
    if n > MAX_WORD_CHARS {
        return Err(invalid(format!(
            "{what} est trop long ({n} caractères, {MAX_WORD_CHARS} au plus) : « {}… ».",
            text.chars().take(20).collect::<String>()
        )));
    }
    if fold(&text).is_empty() {
        return Err(invalid(format!(
            "{what} ne contient ni lettre ni chiffre : « {text} »."
        )));
    }
    Ok(Some(text))
}

fn words(list: &[String], label: &str) -> Result<Vec<String>, Invalid> {
    let mut out: Vec<String> = Vec::new();
    for raw in list {
        let what = format!("Un mot de la liste « {label} »");
        let Some(w) = word(raw, &what)? else {
            return Err(invalid(format!(
                "La liste « {label} » contient un mot vide."
            )));
        };
        if !out.iter().any(|o| fold(o) == fold(&w)) {
            out.push(w);
        }
    }
    if out.len() > MAX_WORDS {
        return Err(invalid(format!(
            "La liste « {label} » a {} mots : {MAX_WORDS} au plus.",
            out.len()
        )));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn err(v: serde_json::Value) -> String {
        check_json(&v).unwrap_err().0
    }

    #[test]
    fn a_good_directive_is_trimmed_and_deduplicated() {
        let d = check_json(&json!({"trigger": " festif ", "prefer": ["jardin", "Jardin", " terrasse"], "avoid": ["sous-sol"]})).unwrap();
        assert_eq!(d.trigger, "festif");
        assert_eq!(d.prefer, vec!["jardin", "terrasse"]);
        assert_eq!(d.avoid, vec!["sous-sol"]);
    }

    #[test]
    fn each_rule_names_its_problem() {
        assert!(err(json!("festif")).contains("objet"));
        assert!(err(json!({"trigger": "", "prefer": ["jardin"]})).contains("déclencheur"));
        assert!(err(json!({"prefer": ["jardin"]})).contains("déclencheur"));
        assert!(err(json!({"trigger": 3, "prefer": ["jardin"]})).contains("texte"));
        assert!(err(json!({"trigger": "festif", "prefer": ["jardin", 2]})).contains("élément 2"));
        assert!(err(json!({"trigger": "festif", "prefer": "jardin"})).contains("liste"));
        assert!(
            err(json!({"trigger": "festif", "prefer": ["x"], "when": "toujours"}))
                .contains("« when »")
        );
        assert!(
            err(json!({"trigger": "festif", "prefer": ["a".repeat(61)]})).contains("trop long")
        );
        let many: Vec<String> = (0..21).map(|i| format!("mot{i}")).collect();
        assert!(err(json!({"trigger": "festif", "prefer": many})).contains("21 mots"));
        assert!(
            err(json!({"trigger": "festif", "prefer": ["Jardin"], "avoid": ["jardin"]}))
                .contains("à la fois")
        );
        assert!(err(json!({"trigger": "festif"})).contains("ne dit rien"));
        assert!(err(json!({"trigger": "festif", "prefer": ["  "]})).contains("mot vide"));
        assert!(err(json!({"trigger": "festif", "prefer": ["a\u{0}b"]})).contains("invisible"));
    }

    #[test]
    fn form_lists_split_on_commas() {
        assert_eq!(
            split_list("jardin, terrasse,, "),
            vec!["jardin", "terrasse"]
        );
        assert!(split_list("  ").is_empty());
    }
}
