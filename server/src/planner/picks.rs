//! The catalogue the qualify workflow proposes, from the search's tiers
//! (seed 000, « Catalogue, règles »): at most 4 recommended and 4
//! compatible, the matched room pinned, one sentence of reason each. The
//! signals and the team's training move venues between tiers; nothing is
//! ever added to fill the catalogue: fewer good venues beat padding.
use super::answer::one_sentence;
use super::results::{Pick, Search, Session, Signal};
use crate::catalogue_builder::internal_signals::for_organizer;
use crate::geo::fold;
use serde_json::{json, Value};

/// Per tier, in chat.
pub const PER_TIER: usize = 4;

/// Below this response rate a venue is a risky first choice.
const WEAK_RESPONSE_RATE: f64 = 0.3;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    Recommended,
    Compatible,
}

/// A venue of the proposal.
#[derive(Clone, Debug, PartialEq)]
pub struct Chosen {
    pub pick: Pick,
    pub tier: Tier,
    /// Why it moved, in French (« favori de l'équipe »).
    pub notes: Vec<String>,
}

impl Chosen {
    /// The pick as `add_members_to_catalog` takes it.
    pub fn to_json(&self) -> Value {
        let tier = match self.tier {
            Tier::Recommended => "recommended",
            Tier::Compatible => "compatible",
        };
        let mut v = json!({
            "member_code": self.pick.code,
            "tier": tier,
            "reason": self.reason(),
        });
        if let Some(id) = self.pick.room.as_ref().and_then(|r| r.id) {
            v["room_id"] = json!(id);
        }
        v
    }

    /// One sentence for the organizer: the search's reason without the
    /// team's signals. Why the venue moved (`notes`) is said to the team in
    /// the chat, never written into the reason: « (favori de l'équipe) »
    /// reached organizers that way, twice when the search had said it too.
    fn reason(&self) -> String {
        let base = self
            .pick
            .reason
            .as_deref()
            .map(one_sentence)
            .map(|r| for_organizer(&r))
            .unwrap_or_default();
        if base.is_empty() {
            return "Correspond aux critères de la demande.".to_string();
        }
        base
    }
}

/// The proposal, recommended first; venues the training rejected are left
/// out and returned apart (code, why).
pub fn choose(
    search: &Search,
    signals: &[Signal],
    sessions: &[Session],
) -> (Vec<Chosen>, Vec<(String, String)>) {
    let mut excluded = Vec::new();
    let mut all: Vec<Chosen> = Vec::new();
    let tiered = search
        .recommended
        .iter()
        .map(|p| (p, Tier::Recommended))
        .chain(search.compatible.iter().map(|p| (p, Tier::Compatible)));
    for (pick, tier) in tiered {
        if all.iter().any(|c| c.pick.code == pick.code) {
            continue;
        }
        let mut chosen = Chosen {
            pick: pick.clone(),
            tier,
            notes: Vec::new(),
        };
        if let Some(why) = rejected_by_training(&chosen.pick, sessions) {
            excluded.push((pick.code.clone(), why));
            continue;
        }
        adjust(
            &mut chosen,
            signals.iter().find(|s| s.code == pick.code),
            sessions,
        );
        all.push(chosen);
    }
    // Favourites first within a tier, the search's order otherwise.
    let favourite = |c: &Chosen| c.notes.iter().any(|n| n.starts_with("favori"));
    let (mut recommended, compatible): (Vec<Chosen>, Vec<Chosen>) =
        all.into_iter().partition(|c| c.tier == Tier::Recommended);
    recommended.sort_by_key(|c| !favourite(c));
    // A recommended venue past the fourth is still stronger than the
    // compatible ones: it leads them.
    let overflow: Vec<Chosen> = recommended
        .split_off(recommended.len().min(PER_TIER))
        .into_iter()
        .map(|mut c| {
            c.tier = Tier::Compatible;
            c
        })
        .collect();
    let compatible: Vec<Chosen> = overflow
        .into_iter()
        .chain(compatible)
        .take(PER_TIER)
        .collect();
    recommended.extend(compatible);
    (recommended, excluded)
}

/// Signals and training move a venue between tiers.
fn adjust(c: &mut Chosen, signal: Option<&Signal>, sessions: &[Session]) {
    let weak = signal
        .and_then(|s| s.response_rate)
        .filter(|r| *r < WEAK_RESPONSE_RATE);
    if let Some(rate) = weak {
        if c.tier == Tier::Recommended {
            c.tier = Tier::Compatible;
        }
        c.notes.push(format!(
            "répond peu : {} % des demandes",
            (rate * 100.0).round() as i64
        ));
    } else if signal.is_some_and(|s| s.team_favorite) {
        c.tier = Tier::Recommended;
        c.notes.push("favori de l'équipe".to_string());
    }
    if let Some(why) = demoted_by_training(&c.pick, sessions) {
        c.tier = Tier::Compatible;
        c.notes.push(why);
    }
}

/// A session that rejected this very venue.
fn rejected_by_training(pick: &Pick, sessions: &[Session]) -> Option<String> {
    sessions
        .iter()
        .find(|s| s.verdict == "rejected" && s.member_code.as_deref() == Some(&pick.code))
        .map(|s| {
            s.reason
                .as_deref()
                .map(one_sentence)
                .unwrap_or_else(|| "écarté par l'équipe".to_string())
        })
}

/// A session that demoted this venue, or a directive to avoid what its
/// name or room says (« sous-sol »).
fn demoted_by_training(pick: &Pick, sessions: &[Session]) -> Option<String> {
    if sessions
        .iter()
        .any(|s| s.verdict == "demoted" && s.member_code.as_deref() == Some(&pick.code))
    {
        return Some("rétrogradé par l'équipe".to_string());
    }
    let described = fold(&format!(
        "{} {}",
        pick.name,
        pick.room
            .as_ref()
            .and_then(|r| r.name.as_deref())
            .unwrap_or("")
    ));
    sessions.iter().flat_map(|s| &s.avoid).find_map(|avoid| {
        let word = fold(avoid);
        (word.len() >= 4 && described.contains(&word)).then(|| format!("consigne : éviter {avoid}"))
    })
}
