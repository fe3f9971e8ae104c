//! The builder's outreach panel: the catalogue's sending state, what its
//! organizer answered, and the venues' availability answers with their delay.
use crate::db::{
    app_error, availability_checks, catalogue_feedback, catalogue_outreach, write_targets,
};
use app::errors::AppError;
use app::outreach::{CatalogueOutreachState, CheckState, OutreachPick, OutreachView};
use chrono::{DateTime, Utc};
use sqlx::PgPool;

pub async fn load(
    db: &PgPool,
    request_id: i64,
    catalogue_id: Option<i64>,
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
            expires_on: c.expires_at.format("%d/%m/%Y").to_string(),
        })
        .collect();
    Ok(OutreachView {
        request_id,
        catalogue,
        checks,
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
    let (picks, links, comment) = tokio::try_join!(
        catalogue_outreach::picks(db, catalogue_id),
        catalogue_outreach::live_links(db, catalogue_id),
        catalogue_feedback::comment(db, catalogue_id),
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
            .map(|p| OutreachPick {
                pick_id: p.id,
                member_id: p.member_id,
                code: p.code,
                name: p.name,
                tier: p.tier,
                organizer_favorite: p.organizer_favorite,
            })
            .collect(),
    })
}

fn when(at: DateTime<Utc>) -> String {
    at.format("%d/%m/%Y à %H:%M").to_string()
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
    use super::delay;
    use chrono::Duration;

    #[test]
    fn delays_read_in_the_largest_useful_units() {
        assert_eq!(delay(Duration::seconds(30)), "0 min");
        assert_eq!(delay(Duration::minutes(45)), "45 min");
        assert_eq!(delay(Duration::minutes(200)), "3 h 20");
        assert_eq!(delay(Duration::hours(52)), "2 j 4 h");
        assert_eq!(delay(Duration::minutes(-5)), "0 min");
    }
}
