//! A proposal checked against the draft it lands in (issue 25: a card
//! added 8 venues to a draft already at 4 + 4, and its approval failed).
//!
//! When the draft already holds venues, the card says what it does to it:
//! it **completes** the draft (only venues that are not in it yet, only in
//! its free places) or **replaces** it (the draft becomes the proposal).
//! The model may say which (`mode`); left out, Maxy chooses: the free places
//! are completed when the proposal has venues for them, the draft is
//! replaced when it has none. The decision and what it left out are part of
//! the canonical arguments, so the card shows exactly what will run and the
//! approval refuses when the draft changed in between.
use super::{tier_label, ResolvedPick};
use crate::catalogue_builder::rules::Limits;
use crate::tools::args::{DraftMode, Tier};
use crate::tools::ToolError;
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;

/// A venue already in the draft.
#[derive(Clone, Debug, PartialEq, sqlx::FromRow)]
pub struct DraftPick {
    pub member_id: i64,
    pub code: String,
    pub tier: String,
}

/// The request's open draft of `kind` (`standard`, `training`), in order.
pub async fn picks(
    conn: &mut PgConnection,
    request_id: i64,
    kind: &str,
) -> sqlx::Result<Vec<DraftPick>> {
    sqlx::query_as(
        "SELECT p.member_id, m.code, p.tier
           FROM catalogue_picks p
           JOIN catalogues c ON c.id = p.catalogue_id
           JOIN members m ON m.id = p.member_id
          WHERE c.request_id = $1 AND c.kind = $2 AND c.status = 'draft'
          ORDER BY p.tier DESC, p.position, p.id",
    )
    .bind(request_id)
    .bind(kind)
    .fetch_all(conn)
    .await
}

/// What the card does to a draft that held venues.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DraftChange {
    pub mode: DraftMode,
    /// The draft when the card was proposed.
    pub recommended: usize,
    pub compatible: usize,
    /// Proposed venues the card leaves out, with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub left_out: Vec<LeftOut>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeftOut {
    pub pick: ResolvedPick,
    pub why: Why,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Why {
    /// Already in the draft: not proposed again.
    InDraft,
    /// No free place left in its tier.
    NoRoom,
}

impl DraftChange {
    pub fn total(&self) -> usize {
        self.recommended + self.compatible
    }

    /// Free places per tier when the card was proposed (`None`: no norm
    /// per tier, the training workspace).
    pub fn free(&self, limits: Limits) -> (Option<usize>, Option<usize>, usize) {
        let per = |n: usize| limits.max_per_tier.map(|max| max.saturating_sub(n));
        (
            per(self.recommended),
            per(self.compatible),
            limits.max_picks.saturating_sub(self.total()),
        )
    }
}

fn invalid(text: String) -> ToolError {
    ToolError::InvalidArguments(text)
}

fn tier_key(tier: Tier) -> &'static str {
    super::tier_name(tier)
}

/// Decides what the proposal does to `draft` (picks in tier order) and
/// returns the picks that will be written.
pub fn plan(
    limits: Limits,
    asked: Option<DraftMode>,
    draft: &[DraftPick],
    picks: Vec<ResolvedPick>,
) -> Result<(Vec<ResolvedPick>, Option<DraftChange>), ToolError> {
    if draft.is_empty() {
        return Ok((picks, None));
    }
    let recommended = draft.iter().filter(|p| p.tier == "recommended").count();
    let mut change = DraftChange {
        mode: DraftMode::Complete,
        recommended,
        compatible: draft.len() - recommended,
        left_out: Vec::new(),
    };
    let in_draft = |p: &ResolvedPick| draft.iter().any(|d| d.member_id == p.member_id);
    let (mut free_r, mut free_c, mut free_total) = change.free(limits);
    let mode = match asked {
        Some(mode) => mode,
        None => {
            let fits_one = picks.iter().any(|p| {
                !in_draft(p)
                    && free_total > 0
                    && match p.tier {
                        Tier::Recommended => free_r != Some(0),
                        Tier::Compatible => free_c != Some(0),
                    }
            });
            if fits_one || picks.iter().all(in_draft) {
                DraftMode::Complete
            } else {
                DraftMode::Replace
            }
        }
    };
    change.mode = mode;
    if mode == DraftMode::Replace {
        let same = picks.len() == draft.len()
            && picks.iter().all(|p| {
                draft
                    .iter()
                    .any(|d| d.member_id == p.member_id && d.tier == tier_key(p.tier))
            });
        if same {
            return Err(invalid(
                "le brouillon contient déjà exactement ces lieux, aux mêmes niveaux : \
                 rien à remplacer"
                    .into(),
            ));
        }
        return Ok((picks, Some(change)));
    }
    let mut kept = Vec::new();
    for pick in picks {
        let free = match pick.tier {
            Tier::Recommended => &mut free_r,
            Tier::Compatible => &mut free_c,
        };
        let why = if in_draft(&pick) {
            Why::InDraft
        } else if free_total == 0 || *free == Some(0) {
            Why::NoRoom
        } else {
            if let Some(n) = free.as_mut() {
                *n -= 1;
            }
            free_total -= 1;
            kept.push(pick);
            continue;
        };
        change.left_out.push(LeftOut { pick, why });
    }
    if kept.is_empty() {
        let all_in = change.left_out.iter().all(|l| l.why == Why::InDraft);
        return Err(invalid(if all_in {
            "les lieux proposés sont déjà tous au brouillon : aucun n'est reproposé. \
             Proposez d'autres lieux, ou mode « replace » pour remplacer le brouillon"
                .to_string()
        } else {
            format!(
                "le brouillon est complet ({}) : aucune place libre pour ces lieux. \
                 Proposez mode « replace » pour remplacer ses lieux",
                counts(change.recommended, change.compatible)
            )
        }));
    }
    Ok((kept, Some(change)))
}

/// « 4 recommandés + 4 compatibles ».
pub fn counts(recommended: usize, compatible: usize) -> String {
    let one = |n: usize, tier: Tier| {
        let label = tier_label(tier);
        if n > 1 {
            format!("{n} {label}s")
        } else {
            format!("{n} {label}")
        }
    };
    format!(
        "{} + {}",
        one(recommended, Tier::Recommended),
        one(compatible, Tier::Compatible)
    )
}

/// « 1 lieu », « 8 lieux ».
pub fn venues(n: usize) -> String {
    if n == 1 {
        "1 lieu".to_string()
    } else {
        format!("{n} lieux")
    }
}

/// What the card says it does to the draft, in the team's words:
/// « remplace les 8 lieux du brouillon par ces 8 lieux », « complète le
/// brouillon (2 places libres en recommandés) avec 2 lieux ».
pub fn sentence(change: &DraftChange, limits: Limits, written: usize, training: bool) -> String {
    let draft = if training {
        "brouillon d'entraînement"
    } else {
        "brouillon"
    };
    let mut out = match change.mode {
        DraftMode::Replace => {
            let before = if change.total() == 1 {
                format!("le lieu du {draft}")
            } else {
                format!("les {} lieux du {draft}", change.total())
            };
            format!("remplace {before} par ces {}", venues(written))
        }
        DraftMode::Complete => format!(
            "complète le {draft} ({}) avec {}",
            free_places(change, limits),
            venues(written)
        ),
    };
    let in_draft = change
        .left_out
        .iter()
        .filter(|l| l.why == Why::InDraft)
        .count();
    let no_room = change.left_out.len() - in_draft;
    if in_draft > 0 {
        out.push_str(&format!(
            " ; {} déjà au {draft} {} pas reproposé{}",
            venues(in_draft),
            if in_draft > 1 { "ne sont" } else { "n'est" },
            if in_draft > 1 { "s" } else { "" }
        ));
    }
    if no_room > 0 {
        out.push_str(&format!(
            " ; {} sans place libre {} de côté",
            venues(no_room),
            if no_room > 1 { "laissés" } else { "laissé" }
        ));
    }
    out
}

/// « 2 places libres en recommandés », « 1 place libre en recommandés, 2 en
/// compatibles », « 9 places libres ».
fn free_places(change: &DraftChange, limits: Limits) -> String {
    let places = |n: usize| {
        if n > 1 {
            format!("{n} places libres")
        } else {
            format!("{n} place libre")
        }
    };
    let (r, c, total) = change.free(limits);
    let (Some(r), Some(c)) = (r, c) else {
        return places(total);
    };
    match (r, c) {
        (0, 0) => "aucune place libre".to_string(),
        (r, 0) => format!("{} en recommandés", places(r)),
        (0, c) => format!("{} en compatibles", places(c)),
        (r, c) => format!("{} en recommandés, {c} en compatibles", places(r)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHAT: Limits = Limits {
        max_picks: 16,
        max_per_tier: Some(4),
    };

    fn resolved(id: i64, tier: Tier) -> ResolvedPick {
        ResolvedPick {
            member_id: id,
            member_code: format!("#{id}"),
            tier,
            reason: "Belle salle.".into(),
            room_id: None,
        }
    }

    fn draft(recommended: &[i64], compatible: &[i64]) -> Vec<DraftPick> {
        let row = |id: &i64, tier: &str| DraftPick {
            member_id: *id,
            code: format!("#{id}"),
            tier: tier.into(),
        };
        recommended
            .iter()
            .map(|id| row(id, "recommended"))
            .chain(compatible.iter().map(|id| row(id, "compatible")))
            .collect()
    }

    fn proposal(recommended: &[i64], compatible: &[i64]) -> Vec<ResolvedPick> {
        recommended
            .iter()
            .map(|id| resolved(*id, Tier::Recommended))
            .chain(compatible.iter().map(|id| resolved(*id, Tier::Compatible)))
            .collect()
    }

    #[test]
    fn an_empty_draft_takes_the_proposal_as_it_is() {
        let (kept, change) = plan(CHAT, None, &[], proposal(&[1, 2], &[3])).unwrap();
        assert_eq!(kept.len(), 3);
        assert_eq!(change, None);
    }

    #[test]
    fn a_full_draft_is_replaced_and_the_card_says_so() {
        let full = draft(&[1, 2, 3, 4], &[5, 6, 7, 8]);
        let new = proposal(&[11, 12, 3, 14], &[15, 16, 17, 18]);
        let (kept, change) = plan(CHAT, None, &full, new).unwrap();
        let change = change.unwrap();
        assert_eq!(change.mode, DraftMode::Replace);
        assert_eq!(kept.len(), 8);
        assert_eq!(
            sentence(&change, CHAT, kept.len(), false),
            "remplace les 8 lieux du brouillon par ces 8 lieux"
        );
    }

    #[test]
    fn free_places_are_completed_and_venues_in_the_draft_are_not_proposed_again() {
        let half = draft(&[1, 2], &[5, 6, 7, 8]);
        let new = proposal(&[1, 11, 12, 13], &[15]);
        let (kept, change) = plan(CHAT, None, &half, new).unwrap();
        let change = change.unwrap();
        assert_eq!(change.mode, DraftMode::Complete);
        let ids: Vec<i64> = kept.iter().map(|p| p.member_id).collect();
        assert_eq!(ids, [11, 12]);
        assert_eq!(
            sentence(&change, CHAT, kept.len(), false),
            "complète le brouillon (2 places libres en recommandés) avec 2 lieux ; 1 lieu déjà \
             au brouillon n'est pas reproposé ; 2 lieux sans place libre laissés de côté"
        );
    }

    #[test]
    fn nothing_new_or_no_free_place_is_said_not_proposed() {
        let full = draft(&[1, 2, 3, 4], &[5, 6, 7, 8]);
        let again = proposal(&[1, 2, 3, 4], &[5, 6, 7, 8]);
        let Err(ToolError::InvalidArguments(why)) = plan(CHAT, None, &full, again.clone()) else {
            panic!("accepted");
        };
        assert!(why.contains("déjà tous au brouillon"), "{why}");
        let Err(ToolError::InvalidArguments(why)) =
            plan(CHAT, Some(DraftMode::Replace), &full, again)
        else {
            panic!("accepted");
        };
        assert!(why.contains("rien à remplacer"), "{why}");
        let Err(ToolError::InvalidArguments(why)) =
            plan(CHAT, Some(DraftMode::Complete), &full, proposal(&[11], &[]))
        else {
            panic!("accepted");
        };
        assert!(
            why.contains("4 recommandés + 4 compatibles") && why.contains("replace"),
            "{why}"
        );
        assert!(!why.contains("recommended"), "{why}");
    }

    #[test]
    fn a_resolved_proposal_resolves_again_to_itself() {
        // The approval resolves the stored card again (kept picks, then the
        // ones left out) and refuses unless it comes out the same.
        let half = draft(&[1, 2], &[5, 6, 7, 8]);
        let first = proposal(&[1, 11, 12, 13], &[15]);
        let (kept, change) = plan(CHAT, None, &half, first).unwrap();
        let change = change.unwrap();
        let again: Vec<ResolvedPick> = kept
            .iter()
            .cloned()
            .chain(change.left_out.iter().map(|l| l.pick.clone()))
            .collect();
        let (kept2, change2) = plan(CHAT, Some(change.mode), &half, again).unwrap();
        assert_eq!(kept2, kept);
        assert_eq!(change2, Some(change));
    }
}
