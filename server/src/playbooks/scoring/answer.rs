//! The model's answer, read strictly: `{"scores": {"<name>": <score>, …}}`
//! (a Markdown fence around it is tolerated), one score in [0,1] for every
//! candidate shown, by its exact name.
//!
//! A candidate left out refuses the whole answer: a score of our own for it
//! would mix two scales in one decision, and the offline scores are a safe
//! fallback. A name that is no candidate is ignored: names are unique, so
//! it cannot shift the others' scores the way a misread number would, and
//! it can open nothing since only candidates are weighed. A score that is
//! not a number in [0,1] refuses the whole answer (the scale was misread).
//!
//! Reasons name candidates (our own names) and kinds, never text of the
//! answer: the action may quote an organizer, and the model may echo it.
use serde_json::Value;

/// One score per name of `names`, in their order; `Err` says why the
/// answer is unusable.
pub fn parse(text: &str, names: &[&str]) -> Result<Vec<f64>, String> {
    let json: Value =
        serde_json::from_str(crate::llm::unfenced(text)).map_err(|_| "not JSON".to_string())?;
    let Value::Object(object) = json else {
        return Err("not a JSON object".into());
    };
    if object.keys().any(|k| k != "scores") {
        return Err("a key other than \"scores\"".into());
    }
    let scores = match object.get("scores") {
        Some(Value::Object(scores)) => scores,
        Some(_) => return Err("\"scores\" is not an object".into()),
        None => return Err("\"scores\" is missing".into()),
    };
    names
        .iter()
        .map(|name| {
            let value = scores
                .get(*name)
                .ok_or_else(|| format!("no score for candidate `{name}`"))?;
            value
                .as_f64()
                .filter(|s| (0.0..=1.0).contains(s))
                .ok_or_else(|| format!("the score of `{name}` is not a number in [0,1]"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::parse;

    const NAMES: [&str; 3] = ["groupe-plus-de-200", "search_members", "save_memory"];

    #[test]
    fn scores_come_back_in_the_candidates_order() {
        let text =
            r#"{"scores": {"save_memory": 0, "groupe-plus-de-200": 0.92, "search_members": 1}}"#;
        assert_eq!(parse(text, &NAMES), Ok(vec![0.92, 1.0, 0.0]));
        let fenced = format!("```json\n{text}\n```");
        assert_eq!(parse(&fenced, &NAMES), Ok(vec![0.92, 1.0, 0.0]));
        assert_eq!(parse(r#"{"scores": {}}"#, &[]), Ok(vec![]));
    }

    #[test]
    fn names_that_are_no_candidate_are_ignored() {
        let text = r#"{"scores": {"save_memory": 0.1, "groupe-plus-de-200": 0.9, "search_members": 0.2, "drop_database": 1}}"#;
        assert_eq!(parse(text, &NAMES), Ok(vec![0.9, 0.2, 0.1]));
    }

    #[test]
    fn anything_else_is_refused_whole() {
        for (text, why) in [
            ("", "not JSON"),
            ("Le parcours groupe convient.", "not JSON"),
            ("[0.9, 0.1, 0.2]", "not a JSON object"),
            ("{}", "\"scores\" is missing"),
            (r#"{"scores": [0.9]}"#, "not an object"),
            (
                r#"{"scores": {"groupe-plus-de-200": 0.9, "search_members": 0.1}}"#,
                "no score for candidate `save_memory`",
            ),
            (
                r#"{"scores": {"groupe-plus-de-200": 1.2, "search_members": 0.1, "save_memory": 0}}"#,
                "`groupe-plus-de-200` is not a number in [0,1]",
            ),
            (
                r#"{"scores": {"groupe-plus-de-200": -0.1, "search_members": 0.1, "save_memory": 0}}"#,
                "not a number in [0,1]",
            ),
            (
                r#"{"scores": {"groupe-plus-de-200": "0.9", "search_members": 0.1, "save_memory": 0}}"#,
                "not a number in [0,1]",
            ),
            (
                r#"{"scores": {"groupe-plus-de-200": 0.9, "search_members": 0.1, "save_memory": 0}, "why": "x"}"#,
                "a key other",
            ),
        ] {
            let err = parse(text, &NAMES).expect_err(text);
            assert!(err.contains(why), "{text}: {err}");
        }
    }

    #[test]
    fn reasons_never_quote_the_answer() {
        let secret = "code porte 4521";
        for text in [
            format!(r#"{{"scores": {{"{secret}": 1}}}}"#),
            format!(r#"{{"{secret}": 1}}"#),
            secret.to_string(),
            format!(r#"{{"scores": {{"save_memory": "{secret}"}}}}"#),
        ] {
            let err = parse(&text, &NAMES).expect_err(&text);
            assert!(!err.contains("4521"), "{err}");
        }
    }
}
