//! The builder's outreach panel: the catalogue's sending state, what its
//! organizer answered (favourites, comments on the catalogue and on each
//! venue), the venues' availability answers with their delay, and the
//! e-mails sent. Times read in Paris.
use crate::db::{
    app_error, availability_checks, catalogue_feedback, catalogue_outreach, write_targets,
};
use crate::link_views::pick_comments;
use crate::mail::store::{self as mail_store, SendRow};
use app::errors::AppError;
use app::fr::{paris_date, paris_time};
use app::outreach::{
    CatalogueOutreachState, CheckState, MailSendState, OutreachPick, OutreachView,
};
use chrono::{DateTime, Utc};
use sqlx::PgPool;

pub async fn load(
    db: &PgPool,
    request_id: i64,
    catalogue_id: Option<i64>,
    mail_configured: bool,
) -> Result<OutreachView, AppError> {
    write_targets::request(db, request_id)
        .await
        .map_err(app_error)?
        .ok_or(AppError::NotFound)?;
    let catalogue_id = match catalogue_id {
        Some(id) => Some(id),
        None => catalogue_outreach::current_of_request(db, request_id)
            .await
            .map_err(app_error)?,
    };
    let catalogue = match catalogue_id {
        Some(id) => Some(catalogue(db, request_id, id).await?),
        None => None,
    };
    let checks = availability_checks::latest_of_request(db, request_id)
        .await
        .map_err(app_error)?
        .into_iter()
        .map(|c| CheckState {
            check_id: c.id,
            member_id: c.member_id,
            code: c.code,
            name: c.name,
            status: c.status,
            conditions: c.conditions,
            answer: c.answer,
            sent_on: when(c.sent_at),
            delay: c.answered_at.map(|at| delay(at - c.sent_at)),
            expires_on: paris_date(c.expires_at),
        })
        .collect();
    let mails = mail_store::of_request(db, request_id)
        .await
        .map_err(app_error)?
        .into_iter()
        .map(mail_state)
        .collect();
    Ok(OutreachView {
        request_id,
        catalogue,
        checks,
        mail_configured,
        mails,
    })
}

/// A catalogue of another request is "not found" here: the panel shows one
/// request's outreach.
async fn catalogue(
    db: &PgPool,
    request_id: i64,
    catalogue_id: i64,
) -> Result<CatalogueOutreachState, AppError> {
    let state = catalogue_outreach::state(db, catalogue_id)
        .await
        .map_err(app_error)?
        .filter(|c| c.request_id == request_id)
        .ok_or(AppError::NotFound)?;
    let (picks, links, comment, pick_comments) = tokio::try_join!(
        catalogue_outreach::picks(db, catalogue_id),
        catalogue_outreach::live_links(db, catalogue_id),
        catalogue_feedback::comment(db, catalogue_id),
        pick_comments::of_catalogue(db, catalogue_id),
    )
    .map_err(app_error)?;
    Ok(CatalogueOutreachState {
        catalogue_id,
        kind: state.kind,
        status: state.status,
        sent_on: state.sent_at.map(when),
        live_links: links.len(),
        link_uses: links.iter().map(|l| i64::from(l.use_count)).sum(),
        organizer_comment_on: comment.as_ref().map(|c| when(c.updated_at)),
        organizer_comment: comment.map(|c| c.comment),
        picks: picks
            .into_iter()
            .map(|p| {
                let comment = pick_comments.iter().find(|c| c.pick_id == p.id);
                OutreachPick {
                    pick_id: p.id,
                    member_id: p.member_id,
                    code: p.code,
                    name: p.name,
                    tier: p.tier,
                    organizer_favorite: p.organizer_favorite,
                    organizer_comment: comment.map(|c| c.comment.clone()),
                    organizer_comment_on: comment.map(|c| when(c.updated_at)),
                }
            })
            .collect(),
    })
}

/// « 06/12/2026 à 14:05 », Paris time.
fn when(at: DateTime<Utc>) -> String {
    format!("{} à {}", paris_date(at), paris_time(at))
}

/// A send as the team reads it.
fn mail_state(row: SendRow) -> MailSendState {
    let what = match row.kind.as_str() {
        "catalogue" => "Catalogue",
        _ => "Disponibilité",
    };
    let status_label = match (row.status.as_str(), row.sent_at) {
        ("sent", Some(at)) => format!("Envoyé le {}", when(at)),
        ("failed", _) => "Échec de l'envoi".to_string(),
        _ => "En file d'envoi".to_string(),
    };
    let next_try = match (row.status.as_str(), row.retry_at) {
        ("failed", Some(at)) => Some(format!("nouvel essai automatique à {}", paris_time(at))),
        _ => None,
    };
    MailSendState {
        send_id: row.id,
        what: what.to_string(),
        recipient: row.recipient,
        recipient_name: row.recipient_name,
        subject: row.subject,
        queued_on: when(row.created_at),
        queued_by: row.created_by_name,
        can_retry: row.status == "failed",
        status: row.status,
        status_label,
        attempts: row.attempts,
        last_error: row.last_error,
        next_try,
    }
}

/// « 45 min », « 3 h 20 », « 2 j 4 h »: how long the venue took.
pub fn delay(d: chrono::Duration) -> String {
    let minutes = d.num_minutes().max(0);
    let (days, hours, mins) = (minutes / 1440, (minutes % 1440) / 60, minutes % 60);
    match (days, hours) {
        (0, 0) => format!("{mins} min"),
        (0, _) => format!("{hours} h {mins:02}"),
        _ => format!("{days} j {hours} h"),
    }
}

#[cfg(test)]
mod tests {
    use super::{delay, when};
    use chrono::{Duration, TimeZone, Utc};

    #[test]
    fn times_read_on_paris_clock_winter_and_summer() {
        let winter = Utc.with_ymd_and_hms(2026, 12, 6, 13, 5, 0).unwrap();
        assert_eq!(when(winter), "06/12/2026 à 14:05");
        let summer = Utc.with_ymd_and_hms(2026, 7, 1, 22, 30, 0).unwrap();
        assert_eq!(when(summer), "02/07/2026 à 00:30");
    }

    #[test]
    fn delays_read_in_the_largest_useful_units() {
        assert_eq!(delay(Duration::seconds(30)), "0 min");
        assert_eq!(delay(Duration::minutes(45)), "45 min");
        assert_eq!(delay(Duration::minutes(200)), "3 h 20");
        assert_eq!(delay(Duration::hours(52)), "2 j 4 h");
        assert_eq!(delay(Duration::minutes(-5)), "0 min");
    }
}
