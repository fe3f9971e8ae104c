//! The wire format of `/v1/embeddings`: request and response bodies and
//! error bodies. Nothing here leaves the `openai` module.
use serde::{Deserialize, Serialize};

#[derive(Serialize)]
pub(super) struct WireRequest<'a> {
    pub model: &'a str,
    pub input: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dimensions: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_type: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub task_type: Option<&'static str>,
}

#[derive(Deserialize)]
struct WireResponse {
    data: Vec<WireEmbedding>,
}

#[derive(Deserialize)]
struct WireEmbedding {
    /// Servers may answer out of order; a missing index means "in order".
    index: Option<usize>,
    embedding: Vec<f32>,
}

/// The vectors of a 2xx body in input order, or why the body is unusable.
pub(super) fn parse_vectors(body: &[u8], expected: usize) -> Result<Vec<Vec<f32>>, String> {
    let response: WireResponse = serde_json::from_slice(body).map_err(|e| {
        let text = String::from_utf8_lossy(body);
        // Python servers write NaN and Infinity, which are not JSON.
        if text.contains("NaN") || text.contains("Infinity") {
            "answered non-finite numbers (NaN or Infinity)".to_string()
        } else {
            format!("answered a body that is not an embeddings response ({e})")
        }
    })?;
    if response.data.len() != expected {
        return Err(format!(
            "answered {} embeddings for {expected} texts",
            response.data.len()
        ));
    }
    let mut items: Vec<(usize, Vec<f32>)> = response
        .data
        .into_iter()
        .enumerate()
        .map(|(position, item)| (item.index.unwrap_or(position), item.embedding))
        .collect();
    items.sort_by_key(|(index, _)| *index);
    if items.iter().enumerate().any(|(i, (index, _))| i != *index) {
        return Err("answered indexes that are not 0..n, each once".to_string());
    }
    // Numbers beyond f32 range parse as infinities.
    if items.iter().any(|(_, v)| v.iter().any(|x| !x.is_finite())) {
        return Err("answered non-finite numbers".to_string());
    }
    Ok(items.into_iter().map(|(_, vector)| vector).collect())
}

/// The server's own error message when it sends one, else the start of the body.
pub(super) fn error_message(body: &[u8]) -> String {
    let text = match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(json) => match json["error"]["message"].as_str().or(json["error"].as_str()) {
            Some(message) => message.to_string(),
            None => json.to_string(),
        },
        Err(_) => String::from_utf8_lossy(body).into_owned(),
    };
    crate::outbound::quote(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_messages_prefer_the_servers_own() {
        let openai = br#"{"error":{"message":"bad input","type":"invalid_request_error"}}"#;
        assert_eq!(error_message(openai), "bad input");
        assert_eq!(error_message(br#"{"error":"overloaded"}"#), "overloaded");
        assert_eq!(error_message(b"  "), "(empty body)");
        assert_eq!(error_message(&[b'x'; 500]).len(), 200);
    }
}
