//! serde_norway's errors in the team's words. Its messages are English and
//! carry the path of the value (`steps[1]: unknown field …`) and its place
//! (`at line 4 column 5`); this splits them and says them in French, so an
//! admin editing a playbook reads what to fix and where.

/// A serde_norway error, split: the field path (none at the root), the
/// French message, and its place when serde_norway knows it.
#[derive(Debug, PartialEq, Eq)]
pub struct Split {
    pub field: Option<String>,
    pub message: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
}

/// A syntax error (the text is not YAML).
pub fn syntax(error: &serde_norway::Error) -> Split {
    let (line, column) = place(error);
    let text = error.to_string();
    let problem = strip_place(&text);
    Split {
        field: None,
        message: format!("YAML invalide : {}", syntax_in_french(problem)),
        line,
        column,
    }
}

/// A shape error (YAML, but not a playbook: unknown key, missing field,
/// wrong type).
pub fn shape(error: &serde_norway::Error) -> Split {
    let (line, column) = place(error);
    let text = error.to_string();
    let text = strip_place(&text);
    let (path, message) = match text.split_once(": ") {
        Some((path, rest)) if is_path(path) => (Some(path.to_string()), rest),
        _ => (None, text),
    };
    let join = |name: &str| match &path {
        Some(p) => format!("{p}.{name}"),
        None => name.to_string(),
    };
    if let Some(rest) = message.strip_prefix("unknown field `") {
        let (name, expected) = rest.split_once('`').unwrap_or((rest, ""));
        let allowed = names(expected);
        return Split {
            field: Some(join(name)),
            message: if allowed.is_empty() {
                format!("champ inconnu « {name} »")
            } else {
                format!("champ inconnu « {name} » (champs possibles : {allowed})")
            },
            line,
            column,
        };
    }
    if let Some(rest) = message.strip_prefix("missing field `") {
        let name = rest.split('`').next().unwrap_or(rest);
        return Split {
            field: Some(join(name)),
            message: format!("champ obligatoire « {name} » manquant"),
            line,
            column,
        };
    }
    let message = if let Some(rest) = message.strip_prefix("invalid type: ") {
        let (found, expected) = rest.split_once(", expected ").unwrap_or((rest, ""));
        format!(
            "type invalide : {} au lieu {}",
            found_in_french(found),
            expected_in_french(expected)
        )
    } else if message.contains("more than one document") {
        "un seul document YAML est attendu (retirez les « --- » en trop)".to_string()
    } else {
        format!("définition invalide ({message})")
    };
    Split {
        field: path,
        message,
        line,
        column,
    }
}

fn place(error: &serde_norway::Error) -> (Option<usize>, Option<usize>) {
    match error.location() {
        Some(l) => (Some(l.line()), Some(l.column())),
        None => (None, None),
    }
}

/// The message without serde_norway's « at line L column C » and the
/// context that follows it.
fn strip_place(text: &str) -> &str {
    match text.find(" at line ") {
        Some(cut) => &text[..cut],
        None => text,
    }
}

/// `steps[1].guard`, `activation`: what serde_norway prints as a path.
fn is_path(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '[' | ']' | '?'))
}

/// « expected one of `name`, `goal` » → « name, goal ».
fn names(expected: &str) -> String {
    expected
        .split('`')
        .skip(1)
        .step_by(2)
        .collect::<Vec<_>>()
        .join(", ")
}

fn found_in_french(found: &str) -> String {
    let (kind, value) = found.split_once(' ').unwrap_or((found, ""));
    let kind = match kind {
        "string" => "un texte",
        "map" => return "un objet (clés : valeurs)".to_string(),
        "sequence" => return "une liste".to_string(),
        "boolean" => "un booléen",
        "integer" => "un nombre entier",
        "floating" => "un nombre",
        "unit" => return "une valeur vide".to_string(),
        _ => return found.to_string(),
    };
    if value.is_empty() {
        kind.to_string()
    } else {
        let value = value.trim_start_matches("point ");
        match value.strip_prefix('"').and_then(|v| v.strip_suffix('"')) {
            Some(text) => format!("{kind} « {text} »"),
            None => format!("{kind} ({value})"),
        }
    }
}

fn expected_in_french(expected: &str) -> &'static str {
    match expected {
        "a boolean" => "d'un booléen (true ou false)",
        "a string" => "d'un texte",
        "a sequence" => "d'une liste",
        e if e.starts_with("struct") || e.contains("map") => "d'un objet (clés : valeurs)",
        _ => "de la valeur attendue",
    }
}

/// libyaml's common problems, said so that the fix is plain.
fn syntax_in_french(problem: &str) -> String {
    let known = [
        (
            "mapping values are not allowed",
            "deux-points inattendu (mettez entre guillemets une valeur qui contient « : »)",
        ),
        (
            "did not find expected key",
            "clé attendue introuvable (indentation incohérente ?)",
        ),
        (
            "did not find expected '-' indicator",
            "tiret de liste attendu (indentation incohérente ?)",
        ),
        (
            "cannot start any plain scalar",
            "caractère interdit en début de valeur (mettez la valeur entre guillemets)",
        ),
        (
            "cannot start any token",
            "caractère inattendu (une tabulation ? indentez avec des espaces)",
        ),
        (
            "found a tab character",
            "tabulation interdite : indentez avec des espaces",
        ),
        (
            "found unexpected end of stream",
            "fin du texte inattendue (guillemet non fermé ?)",
        ),
        (
            "did not find expected ',' or ']'",
            "liste non fermée (« ] » ou « , » attendu)",
        ),
        (
            "did not find expected ',' or '}'",
            "objet non fermé (« } » ou « , » attendu)",
        ),
        (
            "could not find expected ':'",
            "deux-points attendu après la clé",
        ),
        (
            "unknown anchor",
            "ancre inconnue (alias « * » sans « & » correspondant)",
        ),
        ("duplicate entry", "clé en double"),
        (
            "more than one document",
            "un seul document YAML est attendu (retirez le « --- » qui en commence un autre)",
        ),
        ("recursion limit exceeded", "imbrication trop profonde"),
        ("repetition limit exceeded", "trop de répétitions d'alias"),
        ("found undefined tag handle", "étiquette YAML inconnue"),
    ];
    known
        .iter()
        .find(|(english, _)| problem.contains(english))
        .map_or_else(
            || format!("syntaxe incorrecte ({problem})"),
            |(_, f)| f.to_string(),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Probe {
        name: String,
        inner: Option<Inner>,
    }
    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Inner {
        flag: bool,
    }

    fn shape_of(source: &str) -> Split {
        let error = serde_norway::from_str::<Probe>(source).expect_err("refused");
        shape(&error)
    }

    #[test]
    fn an_unknown_key_names_its_path_and_the_allowed_keys() {
        let s = shape_of("name: a\ninner:\n  flag: true\n  colour: red\n");
        assert_eq!(s.field.as_deref(), Some("inner.colour"));
        assert_eq!(
            s.message,
            "champ inconnu « colour » (champs possibles : flag)"
        );
        assert_eq!(s.line, Some(4));
    }

    #[test]
    fn a_missing_field_is_named() {
        let s = shape_of("inner:\n  flag: true\n");
        assert_eq!(s.field.as_deref(), Some("name"));
        assert_eq!(s.message, "champ obligatoire « name » manquant");
    }

    #[test]
    fn a_wrong_type_says_what_was_expected() {
        let s = shape_of("name: a\ninner:\n  flag: peut-être\n");
        assert_eq!(s.field.as_deref(), Some("inner.flag"));
        assert!(s.message.contains("au lieu d'un booléen"), "{}", s.message);
        assert_eq!(s.line, Some(3));
    }

    #[test]
    fn a_syntax_error_is_located_and_french() {
        let error = serde_norway::from_str::<serde_norway::Value>("name: a\ngoal: b: c\n")
            .expect_err("refused");
        let s = syntax(&error);
        assert_eq!(s.line, Some(2));
        assert!(
            s.message.starts_with("YAML invalide : deux-points"),
            "{}",
            s.message
        );
    }
}
