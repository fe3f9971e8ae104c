//! The canonical JSON text of arguments and its sha256: keys sorted (by
//! their UTF-8 bytes), no whitespace, strings escaped as serde_json does,
//! numbers as serde_json prints them. The same value gives the same hash on
//! every server, whatever order the keys were built or stored in (jsonb
//! reorders them).
use sha2::{Digest, Sha256};
use std::fmt::Write;

pub fn canonical(value: &serde_json::Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value);
    out
}

fn write_value(out: &mut String, value: &serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            let _ = write!(out, "{n}");
        }
        Value::String(s) => write_string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
            out.push('{');
            for (i, (key, item)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_string(out, key);
                out.push(':');
                write_value(out, item);
            }
            out.push('}');
        }
    }
}

fn write_string(out: &mut String, s: &str) {
    // serde_json's escaping of a plain string cannot fail.
    match serde_json::to_string(s) {
        Ok(quoted) => out.push_str(&quoted),
        Err(_) => out.push_str("\"\""),
    }
}

/// sha256 of the canonical text.
pub fn hash(value: &serde_json::Value) -> [u8; 32] {
    Sha256::digest(canonical(value).as_bytes()).into()
}

pub fn hex(bytes: &[u8]) -> String {
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// A hex string back to bytes; `None` for anything that is not hex.
pub fn unhex(text: &str) -> Option<Vec<u8>> {
    let text = text.trim();
    if !text.len().is_multiple_of(2) || !text.is_ascii() {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    #[test]
    fn keys_are_sorted_and_nothing_is_spaced() {
        let v = json!({"b": [1, {"z": null, "a": "é\"x"}], "a": true, "A": 1.5});
        assert_eq!(
            canonical(&v),
            r#"{"A":1.5,"a":true,"b":[1,{"a":"é\"x","z":null}]}"#
        );
    }

    #[test]
    fn the_hash_is_sha256_of_the_canonical_text() {
        // sha256("{}")
        assert_eq!(
            hex(&hash(&json!({}))),
            "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a"
        );
        assert_ne!(hash(&json!({"a": 1})), hash(&json!({"a": 2})));
    }

    proptest! {
        #[test]
        fn key_order_never_changes_the_hash(pairs in proptest::collection::vec(("[a-z]{1,6}", any::<i64>()), 0..12)) {
            let forward: serde_json::Map<String, serde_json::Value> =
                pairs.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
            let backward: serde_json::Map<String, serde_json::Value> =
                pairs.iter().rev().map(|(k, v)| (k.clone(), json!(v))).collect();
            // Same keys may carry different values when a key repeats: compare
            // only when both maps agree.
            if forward == backward {
                prop_assert_eq!(hash(&forward.clone().into()), hash(&backward.into()));
            }
            let text = canonical(&forward.clone().into());
            let back: serde_json::Value = serde_json::from_str(&text).unwrap();
            prop_assert_eq!(back, serde_json::Value::from(forward));
        }

        #[test]
        fn hex_round_trips(bytes in proptest::collection::vec(any::<u8>(), 0..40)) {
            prop_assert_eq!(unhex(&hex(&bytes)), Some(bytes));
        }
    }
}
