//! The catalogue rules of seed 000, in one place for the builder and the
//! assistant's `add_members_to_catalog` (its tool checks and its executor):
//! how many picks a catalogue may hold, which rooms may be pinned, and how
//! long a pick's reason may be.
//!
//! Decision (issue #11, « a ninth goes in as a warning? »): a standard
//! catalogue holds at most 16 picks (the tool's 1–16); 4 + 4 is the norm. In
//! the builder a fifth venue in a tier goes in with a visible warning — a
//! human chose it — while the assistant is held to the norm (its executor
//! refuses what the builder only warns about). A training catalogue holds up
//! to 25, with no per-tier norm. A short tier is never refused, only flagged
//! (« mieux 4 + 2 forts que 4 + 4 bancals »).
//!
//! Only depends on `db` row types, so the tools, the executors and the
//! builder can all use it without import circles.
use crate::db::write_targets::{RequestBrief, RoomCapacity};

/// The longest one-line reason of a pick, in characters.
pub const MAX_REASON_CHARS: usize = app::catalogue_builder::MAX_REASON_CHARS;

/// The two kinds of catalogue (`catalogues.kind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Standard,
    Training,
}

impl Kind {
    pub fn key(self) -> &'static str {
        match self {
            Kind::Standard => "standard",
            Kind::Training => "training",
        }
    }

    pub fn from_key(key: &str) -> Kind {
        if key == "training" {
            Kind::Training
        } else {
            Kind::Standard
        }
    }
}

/// What a catalogue of one kind may hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    pub max_picks: usize,
    /// The norm per tier; `None` in the training workspace.
    pub max_per_tier: Option<usize>,
}

pub fn limits(kind: Kind) -> Limits {
    match kind {
        Kind::Standard => Limits {
            max_picks: 16,
            max_per_tier: Some(app::catalogue_builder::SLOTS_PER_TIER),
        },
        Kind::Training => Limits {
            max_picks: 25,
            max_per_tier: None,
        },
    }
}

/// A remark on a catalogue's totals that does not block it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// A tier holds more than the norm (the assistant may not do this).
    pub over_norm: bool,
    pub text: String,
}

/// « Aucun lieu compatible », « 1 lieu fortement recommandé », « 5 lieux compatibles ».
fn count_of(tier: &str, n: usize) -> String {
    let (one, many) = if tier == "recommended" {
        ("fortement recommandé", "fortement recommandés")
    } else {
        ("compatible", "compatibles")
    };
    match n {
        0 => format!("Aucun lieu {one}"),
        1 => format!("1 lieu {one}"),
        n => format!("{n} lieux {many}"),
    }
}

/// Checks a catalogue's totals: `Err` (French) past the hard limit, else
/// the warnings to show.
pub fn check(kind: Kind, recommended: usize, compatible: usize) -> Result<Vec<Warning>, String> {
    let limits = limits(kind);
    let total = recommended + compatible;
    if total > limits.max_picks {
        return Err(format!(
            "Un catalogue{} compte au plus {} lieux (il en compterait {total}) : \
             retirez d'abord un lieu.",
            if kind == Kind::Training {
                " d'entraînement"
            } else {
                ""
            },
            limits.max_picks
        ));
    }
    let mut warnings = Vec::new();
    let Some(norm) = limits.max_per_tier else {
        return Ok(warnings);
    };
    for (tier, n) in [("recommended", recommended), ("compatible", compatible)] {
        if n > norm {
            warnings.push(Warning {
                over_norm: true,
                text: format!(
                    "{} : la norme est {norm} + {norm}. Gardez-en {norm} si possible.",
                    count_of(tier, n)
                ),
            });
        } else if n < norm {
            warnings.push(Warning {
                over_norm: false,
                text: format!(
                    "{} sur {norm} : c'est permis — mieux 4 + 2 forts que 4 + 4 bancals — \
                     ne complétez qu'avec des lieux solides.",
                    count_of(tier, n)
                ),
            });
        }
    }
    Ok(warnings)
}

/// The layout and capacity in which a room holds the request: the first
/// requested layout that fits (any layout when none is requested, then the
/// largest); `None` when the room cannot hold the participants.
pub fn fitting<'a>(request: &RequestBrief, rows: &[&'a RoomCapacity]) -> Option<(&'a str, i32)> {
    let fits = |row: &&&'a RoomCapacity| -> Option<(&'a str, i32)> {
        let (configuration, capacity) = (row.configuration.as_deref()?, row.max_capacity?);
        let enough = request.participants.is_none_or(|n| capacity >= n);
        enough.then_some((configuration, capacity))
    };
    if request.configurations.is_empty() {
        return rows.iter().filter_map(|r| fits(&r)).max_by_key(|(_, c)| *c);
    }
    request.configurations.iter().find_map(|wanted| {
        rows.iter()
            .filter(|r| r.configuration.as_deref() == Some(wanted.as_str()))
            .find_map(|r| fits(&r))
    })
}

/// A pick's reason from the builder: trimmed, at most
/// [`MAX_REASON_CHARS`]; empty is allowed (the team may clear it). The
/// builder types it in a multi-line box, but the organizer reads one
/// paragraph: line breaks become spaces.
pub fn reason(value: &str) -> Result<String, String> {
    if value.contains('\0') {
        return Err("La raison contient un caractère nul.".into());
    }
    let value = value.split_whitespace().collect::<Vec<_>>().join(" ");
    let n = value.chars().count();
    if n > MAX_REASON_CHARS {
        return Err(format!(
            "La raison dépasse {MAX_REASON_CHARS} caractères ({n}) : une phrase suffit."
        ));
    }
    Ok(value)
}

/// A reason from elsewhere (the search) cut to the cap on a character
/// boundary, on one line.
pub fn clip_reason(value: &str) -> String {
    let one_line = value.replace(['\n', '\r', '\0'], " ");
    let trimmed = one_line.trim();
    if trimmed.chars().count() <= MAX_REASON_CHARS {
        return trimmed.to_string();
    }
    let mut out: String = trimmed.chars().take(MAX_REASON_CHARS - 1).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_holds_sixteen_training_twenty_five() {
        assert!(check(Kind::Standard, 8, 8).is_ok());
        assert!(check(Kind::Standard, 9, 8).is_err());
        assert!(check(Kind::Training, 25, 0).is_ok());
        assert!(check(Kind::Training, 20, 6).is_err());
    }

    #[test]
    fn a_fifth_is_over_the_norm_and_a_short_tier_only_a_warning() {
        let w = check(Kind::Standard, 5, 2).unwrap();
        assert!(w[0].over_norm);
        assert!(!w[1].over_norm);
        assert!(w[1].text.contains("4 + 2"));
        assert!(check(Kind::Standard, 4, 4).unwrap().is_empty());
        assert!(check(Kind::Training, 20, 1).unwrap().is_empty());
        let none = check(Kind::Standard, 0, 4).unwrap();
        assert!(none[0]
            .text
            .starts_with("Aucun lieu fortement recommandé sur 4"));
        let one = check(Kind::Standard, 4, 1).unwrap();
        assert!(one[0].text.starts_with("1 lieu compatible sur 4"));
    }

    #[test]
    fn reasons_are_one_capped_line() {
        assert_eq!(reason("  Belle terrasse.  ").unwrap(), "Belle terrasse.");
        assert!(reason(&"x".repeat(10_000)).is_err());
        assert_eq!(reason("deux\r\n  lignes").unwrap(), "deux lignes");
        assert_eq!(reason("").unwrap(), "");
        let long = clip_reason(&"é".repeat(400));
        assert_eq!(long.chars().count(), MAX_REASON_CHARS);
    }
}
