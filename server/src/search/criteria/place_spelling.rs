//! Place names as hurried people type them: one or two typos
//! (« Vincenes », « Fontainbleau », « Levalois-Perret »), a hyphen or a
//! space more or less (« Maison-Laffitte »), « St » for « Saint ». Only
//! after a word that announces a place (« à », « près de », « côté »), only
//! names of six letters or more, the first letter right, and only to a
//! single closest name: « Neuily » is Neuilly; a word as close to two
//! places is no place.

use super::fuzzy;
use super::scan::Scan;
use crate::geo::{self, Context, Place, PlaceMatch};
use std::sync::OnceLock;

/// Most words a place name takes.
const MOST_WORDS: usize = 5;
/// Shortest name (letters, spaces and hyphens left out) corrected.
const SHORTEST: usize = 6;

/// Every commune and landmark alias, written without spaces, and its
/// place and number of words.
fn names(context: Context) -> &'static [(String, Place)] {
    static TRIGGERED: OnceLock<Vec<(String, Place)>> = OnceLock::new();
    static DISTANCE: OnceLock<Vec<(String, Place)>> = OnceLock::new();
    let cell = if context >= Context::Distance {
        &DISTANCE
    } else {
        &TRIGGERED
    };
    cell.get_or_init(|| {
        let mut all = Vec::new();
        for c in geo::COMMUNES {
            for alias in c.aliases {
                all.push((alias.replace(' ', ""), Place::Commune(c)));
            }
        }
        for l in geo::LANDMARKS {
            let mut aliases: Vec<&str> = l.bare.iter().chain(l.triggered).copied().collect();
            if context >= Context::Distance {
                aliases.extend(l.distance_only);
            }
            for alias in aliases {
                all.push((alias.replace(' ', ""), Place::Landmark(l)));
            }
        }
        all
    })
}

/// A place misspelt at `i`, after a word that announces one: the
/// place and how many tokens its name takes.
pub fn place_at(scan: &Scan, i: usize, context: Context) -> Option<PlaceMatch> {
    if context == Context::Bare {
        return None;
    }
    let words: Vec<&str> = scan
        .free_words(i, MOST_WORDS)
        .into_iter()
        .map(|w| match w {
            "st" => "saint",
            "ste" => "sainte",
            other => other,
        })
        .collect();
    let names = names(context);
    let vocabulary: Vec<&str> = names.iter().map(|(n, _)| n.as_str()).collect();
    // The longest run of words that spells a name.
    (1..=words.len()).rev().find_map(|n| {
        let joined: String = words.get(..n)?.concat();
        if joined.chars().count() < SHORTEST || !joined.chars().all(char::is_alphabetic) {
            return None;
        }
        let entry = fuzzy::closest(&joined, &vocabulary)?;
        if entry.chars().next() != joined.chars().next() {
            return None;
        }
        let (_, place) = names.iter().find(|(name, _)| name == entry)?;
        // One place, however many of its aliases are this close.
        let others = names
            .iter()
            .filter(|(name, p)| name == entry && p.name() != place.name())
            .count();
        (others == 0).then_some(PlaceMatch {
            place: *place,
            words: n,
        })
    })
}
