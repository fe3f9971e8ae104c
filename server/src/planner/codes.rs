//! The numbers a message names: venue codes (`#233`) and whether the words
//! name a request (« demande », « dossier »…). Word-level only, so that the
//! intent, the target and the workflows can all read them.

/// At most this many venues are looked up from one message.
const MAX_CODES: usize = 3;

#[rustfmt::skip]
const REQUEST_WORDS: &[&str] = &["demande", "demandes", "request", "dossier"];

/// True when the words name a request (« demande », « request »…).
pub fn mentions_request(w: &[String]) -> bool {
    w.iter().any(|x| REQUEST_WORDS.contains(&x.as_str()))
}

/// Venue codes (`#102`) in the words, except a number that follows a
/// request word (« demande #12 » is a request).
pub fn member_codes(w: &[String]) -> Vec<String> {
    let mut codes = Vec::new();
    for (i, word) in w.iter().enumerate() {
        let Some(digits) = w.get(i + 1) else { break };
        if word != "#" || !is_number(digits) || digits.len() > 9 {
            continue;
        }
        let after_request = i > 0 && REQUEST_WORDS.contains(&w[i - 1].as_str());
        let code = format!("#{}", digits.trim_start_matches('0'));
        if !after_request && code.len() > 1 && !codes.contains(&code) && codes.len() < MAX_CODES {
            codes.push(code);
        }
    }
    codes
}

pub fn is_number(word: &str) -> bool {
    !word.is_empty() && word.chars().all(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::words::words;

    #[test]
    fn a_request_number_is_no_venue_code() {
        assert!(member_codes(&words("la demande #12")).is_empty());
        assert_eq!(member_codes(&words("#0102 et #103")), ["#102", "#103"]);
        assert!(is_number("0042") && !is_number("4a") && !is_number(""));
        assert!(mentions_request(&words("ce dossier")));
    }
}
