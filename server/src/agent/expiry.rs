//! Cards nobody decided in time: a sweep moves them to `expired` and tells
//! their conversations, so an open page shows « Expirée » at once instead of
//! a button that would only be refused.
use super::live::Live;
use crate::approvals;
use crate::db::ai_events;
use app::chat::ChatEvent;
use sqlx::PgPool;
use std::time::Duration;

/// How often the server looks for expired cards: an expiry shows within
/// this delay (deciding an expired card is refused at any moment anyway).
pub const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// What an expired card says.
pub const EXPIRED_DETAIL: &str =
    "Proposition expirée sans décision de l'équipe : rien n'a été écrit.";

/// Expires every card past its time and appends one `ApprovalDecided`
/// (`expired`) to its conversation's log, in one transaction: a card is
/// never expired without its event, nor announced twice (several servers
/// may sweep at once; each card is moved by exactly one of them).
/// Returns how many cards expired.
pub async fn sweep(db: &PgPool, live: &Live) -> Result<usize, approvals::ApprovalError> {
    let mut tx = db.begin().await?;
    let expired = approvals::expire_due(&mut *tx).await?;
    for card in &expired {
        let event = ChatEvent::ApprovalDecided {
            approval_id: card.approval_id,
            status: "expired".into(),
            detail: EXPIRED_DETAIL.into(),
            decided_by: None,
        };
        ai_events::append(&mut *tx, card.conversation_id, None, &[event]).await?;
    }
    tx.commit().await?;
    for card in &expired {
        live.notify(card.conversation_id);
    }
    Ok(expired.len())
}

/// [`sweep`] every [`SWEEP_EVERY`], for the server's lifetime.
pub async fn sweep_forever(db: PgPool, live: std::sync::Arc<Live>) {
    let mut every = tokio::time::interval(SWEEP_EVERY);
    loop {
        every.tick().await;
        match sweep(&db, &live).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(cards = n, "approval cards expired"),
            Err(e) => tracing::warn!(error = %e, "cannot expire approval cards"),
        }
    }
}
