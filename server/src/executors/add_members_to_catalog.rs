//! Writes approved picks into the request's draft catalogue (`standard`,
//! or `training` for a training conversation), doing to the draft what the
//! card said: a card that **replaces** the draft takes its venues out and
//! writes its own; one that **completes** it (or adds to an empty draft)
//! puts new venues after the picks of their tier, and a venue already there
//! is updated, not added twice. All in the approval's transaction, under the
//! draft's row lock: the draft is first compared with the one the card was
//! proposed on, and a changed draft is refused with what changed, before
//! anything is written. The totals are checked after writing. The write is
//! audited as the builder's are (`catalogue.pick_removed`,
//! `catalogue.proposal_applied`, same function, same transaction).
use super::{recheck, stored, ExecContext, ExecError, Executed, Executor, Prepared};
use crate::audit::catalogue::{self as audit, Change, Venue, Written};
use crate::catalogue_builder::pick_reason::{self, Scope};
use crate::catalogue_builder::rules;
use crate::db::catalogue_drafts::{self, NewPick};
use crate::db::write_targets;
use crate::tools::args::DraftMode;
use crate::tools::write::add_members_to_catalog::draft::{self, counts};
use crate::tools::write::add_members_to_catalog::{kind, tier_name, CatalogueArgs};
use crate::tools::Mode;
use sqlx::PgConnection;
use std::collections::HashMap;

pub struct AddMembersToCatalog;

const NAME: &str = "add_members_to_catalog";

#[async_trait::async_trait]
impl Executor for AddMembersToCatalog {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn execute(
        &self,
        ctx: &ExecContext<'_>,
        conn: &mut PgConnection,
        arguments: &serde_json::Value,
        _prepared: &Prepared,
    ) -> Result<Executed, ExecError> {
        let args: CatalogueArgs = stored(arguments)?;
        let kind = kind(ctx.mode).key();
        // The draft locked first: the check below and the writes see the
        // same draft, and a concurrent approval waits.
        let catalogue_id =
            catalogue_drafts::lock_draft(conn, args.request_id, kind, ctx.user_id).await?;
        let reference = write_targets::request(&mut *conn, args.request_id)
            .await?
            .map_or_else(|| format!("n° {}", args.request_id), |r| r.reference);
        unchanged(conn, &args, kind, &reference).await?;
        recheck(conn, ctx.mode, NAME, arguments, args.input()).await?;
        let replaced = match args.draft.as_ref().map(|d| d.mode) {
            Some(DraftMode::Replace) => remove_all(conn, ctx.user_id, catalogue_id).await?,
            _ => 0,
        };
        let existing = catalogue_drafts::picks(conn, catalogue_id).await?;
        let mut next: HashMap<String, i32> = HashMap::new();
        for p in &existing {
            let n = next.entry(p.tier.clone()).or_insert(0);
            *n = (*n).max(p.position + 1);
        }
        let (mut added, mut updated) = (Vec::new(), Vec::new());
        let mut written = Vec::new();
        for pick in &args.picks {
            let tier = tier_name(pick.tier);
            let before = existing.iter().find(|p| p.member_id == pick.member_id);
            let position = match before {
                Some(old) if old.tier == tier => old.position,
                _ => {
                    let n = next.entry(tier.to_string()).or_insert(0);
                    *n += 1;
                    *n - 1
                }
            };
            let row = NewPick {
                member_id: pick.member_id,
                tier,
                position,
                explanation: &pick.reason,
                room_id: pick.room_id,
            };
            let logged = Written {
                venue: Venue {
                    id: pick.member_id,
                    code: &pick.member_code,
                },
                tier,
                position,
                room_id: pick.room_id,
            };
            if before.is_some() {
                catalogue_drafts::update_pick(conn, catalogue_id, &row).await?;
                updated.push(logged);
            } else {
                catalogue_drafts::insert_pick(conn, catalogue_id, &row, ctx.user_id).await?;
                added.push(logged);
            }
            written.push(serde_json::json!({
                "member_code": pick.member_code,
                "tier": tier,
                "position": position,
                "room_id": pick.room_id,
            }));
        }
        check_totals(conn, ctx.mode, catalogue_id).await?;
        // A sentence that names another room or layout than the pin is
        // rewritten from the pin (a person's own reason is kept).
        pick_reason::refresh(conn, catalogue_id, Scope::Contradicting).await?;
        // The builder open on this draft sees a new version (and reloads
        // before its next edit); the acceptance rate follows the new picks.
        let version = catalogue_drafts::touch(conn, catalogue_id, ctx.user_id).await?;
        let counts = (added.len(), updated.len());
        let change = Change::ProposalApplied {
            conversation_id: ctx.conversation_id,
            added,
            updated,
        };
        audit::record(conn, ctx.user_id, catalogue_id, Some(version), &change).await?;
        let (added, updated) = counts;
        let mut detail = format!(
            "{} au catalogue{} de la demande {reference}",
            count(added, "lieu ajouté", "lieux ajoutés"),
            if kind == "training" {
                " d'entraînement"
            } else {
                ""
            }
        );
        if replaced > 0 {
            detail = format!(
                "Brouillon remplacé : {} retiré{}, {detail}",
                count(replaced, "lieu", "lieux"),
                if replaced > 1 { "s" } else { "" }
            );
        }
        if updated > 0 {
            detail.push_str(&format!(
                " ({} déjà présent{} mis à jour)",
                updated,
                if updated > 1 { "s" } else { "" }
            ));
        }
        detail.push('.');
        Ok(Executed {
            detail,
            result: serde_json::json!({
                "catalogue_id": catalogue_id,
                "kind": kind,
                "replaced": replaced,
                "added": added,
                "updated": updated,
                "picks": written,
            }),
        })
    }
}

/// Refuses, with what changed and what to do, when the draft is no longer
/// the one the card was proposed on (the card said « remplace les 8 lieux »
/// or « 2 places libres »: it would now do something else).
async fn unchanged(
    conn: &mut PgConnection,
    args: &CatalogueArgs,
    kind: &str,
    reference: &str,
) -> Result<(), ExecError> {
    let now = draft::picks(conn, args.request_id, kind).await?;
    let recommended = now.iter().filter(|p| p.tier == "recommended").count();
    let compatible = now.len() - recommended;
    let (was_r, was_c) = args
        .draft
        .as_ref()
        .map_or((0, 0), |d| (d.recommended, d.compatible));
    if (recommended, compatible) == (was_r, was_c) {
        return Ok(());
    }
    let before = if was_r + was_c == 0 {
        "vide".to_string()
    } else {
        counts(was_r, was_c)
    };
    Err(ExecError::Refused(format!(
        "le brouillon de la demande {reference} a changé depuis la carte : il compte \
         maintenant {} (la carte a été préparée sur un brouillon {}). Demandez à Maxy une \
         nouvelle proposition (« Qualifie cette demande ») : elle partira du brouillon actuel",
        counts(recommended, compatible),
        if was_r + was_c == 0 {
            before
        } else {
            format!("à {before}")
        }
    )))
}

/// A replacing card: every venue of the draft taken out (audited one by
/// one, as the builder's removals are). Returns how many.
async fn remove_all(
    conn: &mut PgConnection,
    user_id: i64,
    catalogue_id: i64,
) -> Result<usize, ExecError> {
    let removed: Vec<(i64, String, String)> = sqlx::query_as(
        "DELETE FROM catalogue_picks p USING members m
          WHERE p.catalogue_id = $1 AND m.id = p.member_id
          RETURNING p.member_id, m.code, p.tier",
    )
    .bind(catalogue_id)
    .fetch_all(&mut *conn)
    .await?;
    for (id, code, tier) in &removed {
        let change = Change::Removed {
            venue: Venue { id: *id, code },
            tier,
        };
        audit::record(conn, user_id, catalogue_id, None, &change).await?;
    }
    Ok(removed.len())
}

fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// The draft's totals after writing, by the catalogue rules the builder
/// applies too ([`crate::catalogue_builder::rules::check`]): past the hard
/// limit is refused, and the assistant is also held to the 4 + 4 norm that
/// the builder only warns about (a human may add a fifth; the model may not).
async fn check_totals(
    conn: &mut PgConnection,
    mode: Mode,
    catalogue_id: i64,
) -> Result<(), ExecError> {
    let picks = catalogue_drafts::picks(conn, catalogue_id).await?;
    let recommended = picks.iter().filter(|p| p.tier == "recommended").count();
    let compatible = picks.len() - recommended;
    let warnings = rules::check(kind(mode), recommended, compatible).map_err(ExecError::Refused)?;
    if warnings.iter().any(|w| w.over_norm) {
        let max = rules::limits(kind(mode)).max_per_tier.unwrap_or(usize::MAX);
        // People read this on the failed card: the tier in their words.
        let (tier, n) = if recommended > max {
            ("recommandés", recommended)
        } else {
            ("compatibles", compatible)
        };
        return Err(ExecError::Refused(format!(
            "le catalogue compterait {n} lieux {tier}, au plus {max} : \
             retirez des lieux du brouillon d'abord"
        )));
    }
    Ok(())
}
