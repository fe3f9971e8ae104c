//! The list of stored keys the wording test (`end2end/wording.test.mjs`)
//! must never find on a page, kept in `end2end/wording-keys.json` and
//! checked here against the label tables, so the browser test cannot drift
//! from the code. The test writes nothing unless asked:
//! `MAXY_WRITE_WORDING_KEYS=1 cargo test -p app --features ssr wording_keys`.
//!
//! A key that is also a French word the pages use (« cocktail », « gala »,
//! « formation »: it is a word of some label) or shorter than three letters
//! is left out: finding it on a page proves nothing.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};

use super::labels::{Table, TABLES};
use crate::playbook_console as console;
use crate::room_configurations::Configuration;

/// Keys that are also words of the team's French or of venues' own texts
/// (« open space », « active »), though no label uses them.
const ALSO_WORDS: &[&str] = &["active", "chat", "import", "open", "service", "standard"];

fn families() -> Vec<(String, Vec<(&'static str, &'static str)>)> {
    let mut out: Vec<(String, Vec<(&'static str, &'static str)>)> = TABLES
        .iter()
        .map(|(name, table)| (name.to_string(), table.to_vec()))
        .collect();
    out.push((
        "room_configurations".into(),
        Configuration::ALL
            .iter()
            .map(|c| (c.key(), c.label()))
            .collect(),
    ));
    let console: [(&str, Table); 5] = [
        ("playbook_statuses", console::STATUSES),
        ("playbook_max_modes", console::MAX_MODES),
        ("playbook_modes", console::MODES),
        ("playbook_origins", console::ORIGINS),
        ("caller_profiles", console::PROFILES),
    ];
    for (name, table) in console {
        out.push((name.into(), table.to_vec()));
    }
    out
}

fn words_of_labels(families: &[(String, Vec<(&str, &str)>)]) -> BTreeSet<String> {
    families
        .iter()
        .flat_map(|(_, table)| table.iter().map(|(_, label)| label.to_lowercase()))
        .flat_map(|label| {
            label
                .split(|c: char| !c.is_alphanumeric() && c != '-')
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// `{ family: [keys…] }`, sorted, as the JSON file holds it.
fn expected() -> String {
    let families = families();
    let words = words_of_labels(&families);
    let mut keys: BTreeMap<String, BTreeSet<&str>> = BTreeMap::new();
    for (name, table) in &families {
        for (key, _) in table {
            let telling =
                key.chars().count() >= 3 && !words.contains(*key) && !ALSO_WORDS.contains(key);
            if telling {
                keys.entry(name.clone()).or_default().insert(key);
            }
        }
    }
    let json = serde_json::json!({
        "about": "Stored keys no page may show (end2end/wording.test.mjs). Generated and checked by app/src/fr/wording_keys.rs: do not edit by hand.",
        "keys": keys,
    });
    format!("{}\n", serde_json::to_string_pretty(&json).unwrap())
}

#[test]
fn wording_keys_json_is_current() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../end2end/wording-keys.json");
    let want = expected();
    if std::env::var_os("MAXY_WRITE_WORDING_KEYS").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "end2end/wording-keys.json is out of date with the label tables: run \
         MAXY_WRITE_WORDING_KEYS=1 cargo test -p app --features ssr wording_keys"
    );
}

#[test]
fn french_words_are_left_out_and_slugs_kept() {
    let json = expected();
    for slug in [
        "\"soiree\"",
        "\"seminaire\"",
        "\"catalogue_sent\"",
        "\"recommended\"",
        "\"theatre\"",
        "\"team-building\"",
    ] {
        assert!(json.contains(slug), "{slug} must be listed");
    }
    for word in [
        "\"cocktail\"",
        "\"gala\"",
        "\"formation\"",
        "\"u\"",
        "\"open\"",
    ] {
        assert!(!json.contains(word), "{word} is a French word or too short");
    }
}
