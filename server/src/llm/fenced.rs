//! Models often wrap the JSON they were asked for in a Markdown fence:
//! every task that reads JSON from a model reads it through here.

/// The JSON inside a Markdown fence, or the text as is.
pub fn unfenced(text: &str) -> &str {
    let text = text.trim();
    let Some(rest) = text.strip_prefix("```") else {
        return text;
    };
    // Drop the info string ("json") on the fence's line.
    let body = rest.split_once('\n').map_or("", |(_, body)| body);
    body.trim_end().strip_suffix("```").unwrap_or(body).trim()
}

#[cfg(test)]
mod tests {
    use super::unfenced;

    #[test]
    fn takes_the_json_out_of_a_fence() {
        assert_eq!(unfenced("```json\n{\"a\": 1}\n```"), "{\"a\": 1}");
        assert_eq!(unfenced("  {\"a\": 1} "), "{\"a\": 1}");
        assert_eq!(unfenced("```\n[]\n```"), "[]");
    }
}
