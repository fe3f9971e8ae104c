//! The judge's answer, read strictly: exactly `{"answers": [n, …]}` (a
//! Markdown fence around it is tolerated), where each `n` is the number a
//! candidate was shown with (1 to the number shown), at most once, best
//! first. `{"answers": []}` is a valid answer: none of them answers.
//!
//! Anything else refuses the whole answer rather than keeping its good part:
//! an unknown number or a repeated one means the model misread the list
//! (counted from 0, mixed two candidates), so even its plausible numbers may
//! point at the wrong memory, and another key or shape means it did not
//! follow the format it was given. The caller's fallback, the search's own
//! order, is always safe; a false « correspond » is not.
//!
//! Error messages name kinds and numbers, never text from the answer: the
//! model may have quoted a memory, and memories are not logged.
use serde_json::Value;

/// The candidates the model named, as indices into those shown (0-based),
/// best first; `Err` says why the answer is unusable.
pub fn parse(text: &str, shown: usize) -> Result<Vec<usize>, String> {
    let json: Value =
        serde_json::from_str(crate::llm::unfenced(text)).map_err(|_| "not JSON".to_string())?;
    let Value::Object(object) = json else {
        return Err(format!("not a JSON object but {}", kind_of(&json)));
    };
    if object.keys().any(|k| k != "answers") {
        return Err("a key other than \"answers\"".into());
    }
    let items = match object.get("answers") {
        Some(Value::Array(items)) => items,
        Some(other) => return Err(format!("\"answers\" is {}, not a list", kind_of(other))),
        None => return Err("\"answers\" is missing".into()),
    };
    let mut out: Vec<usize> = Vec::with_capacity(items.len());
    for item in items {
        let Some(n) = item.as_u64() else {
            return Err(format!(
                "an answer is {}, not a number shown",
                kind_of(item)
            ));
        };
        let index = usize::try_from(n)
            .ok()
            .filter(|n| (1..=shown).contains(n))
            .map(|n| n - 1)
            .ok_or_else(|| format!("{n} is not among the {shown} candidates shown"))?;
        if out.contains(&index) {
            return Err(format!("{n} is listed twice"));
        }
        out.push(index);
    }
    Ok(out)
}

/// What a JSON value is, for the reasons above.
fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(n) if n.is_i64() => "a negative number",
        Value::Number(_) => "a fractional number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn numbers_shown_become_indices_in_the_models_order() {
        assert_eq!(parse("{\"answers\": [3, 1]}", 4), Ok(vec![2, 0]));
        assert_eq!(parse(" {\"answers\":[8]} ", 8), Ok(vec![7]));
        assert_eq!(parse("```json\n{\"answers\": [2]}\n```", 2), Ok(vec![1]));
    }

    #[test]
    fn an_empty_list_says_none_answers() {
        assert_eq!(parse("{\"answers\": []}", 5), Ok(vec![]));
        assert_eq!(parse("{\"answers\": []}", 0), Ok(vec![]));
    }

    #[test]
    fn anything_else_is_refused_whole() {
        for (text, why) in [
            ("", "not JSON"),
            ("Le souvenir 2 répond.", "not JSON"),
            ("{\"answers\": [1,]}", "not JSON"),
            ("[1, 2]", "not a JSON object but a list"),
            ("{}", "\"answers\" is missing"),
            ("{\"answers\": 1}", "not a list"),
            ("{\"answers\": null}", "\"answers\" is null"),
            ("{\"answers\": [1], \"raison\": \"x\"}", "a key other"),
            ("{\"answers\": [0]}", "0 is not among the 3"),
            ("{\"answers\": [4]}", "4 is not among the 3"),
            ("{\"answers\": [1, 4]}", "4 is not among"),
            ("{\"answers\": [2, 2]}", "2 is listed twice"),
            ("{\"answers\": [-1]}", "a negative number"),
            ("{\"answers\": [1.0]}", "a fractional number"),
            ("{\"answers\": [\"1\"]}", "a string"),
            ("{\"answers\": [[1]]}", "a list"),
            ("{\"answers\": [18446744073709551615]}", "not among"),
        ] {
            let err = parse(text, 3).expect_err(text);
            assert!(err.contains(why), "{text}: {err}");
        }
    }

    #[test]
    fn reasons_never_quote_the_answer() {
        let secret = "code porte 4521";
        for text in [
            format!("{{\"answers\": [\"{secret}\"]}}"),
            format!("{{\"{secret}\": [1]}}"),
            secret.to_string(),
            format!("{{\"answers\": {{\"{secret}\": 1}}}}"),
        ] {
            let err = parse(&text, 3).expect_err(&text);
            assert!(!err.contains("4521"), "{err}");
        }
    }
}
