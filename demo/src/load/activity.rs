//! Column lists and row encoders of the activity tables (requests to
//! training sessions), in foreign-key order.

use indicatif::ProgressBar;
use sqlx::PgConnection;

use super::copy::copy_in;
use crate::model::{Area, Dataset};

/// Requests, e-mails, catalogues, picks, checks, signals, training.
pub async fn load(conn: &mut PgConnection, d: &Dataset, bar: &ProgressBar) -> anyhow::Result<()> {
    copy_in(
        conn,
        "requests",
        "id, reference, pool_id, source, organizer_name, organizer_email, organizer_phone, organizer_company, \
         description, complementary_info, event_type, participants, budget_eur, budget_note, configurations, area, \
         postal_codes, center_lat, center_lng, radius_km, event_start_date, event_end_date, date_flexible, date_notes, \
         team_memo, search_hints, status, assigned_user_id, won_member_id, closed_reason, created_at, updated_at",
        &d.requests,
        bar,
        |r, q| {
            r.num(q.id).text(&q.reference).num(q.pool_id).text(q.source).text(&q.organizer_name).text(&q.organizer_email);
            r.opt_text(q.organizer_phone.as_deref()).text(&q.organizer_company).text(&q.description);
            r.opt_text(q.complementary_info.as_deref()).text(q.event_type).num(q.participants).opt_num(q.budget_eur);
            r.opt_text(q.budget_note.as_deref()).text_array(&q.configurations.iter().map(|c| c.key()).collect::<Vec<_>>());
            r.text(&q.area_label);
            match &q.area {
                Area::PostalCodes(codes) => r.text_array(codes).null().null().null(),
                Area::Radius { lat, lng, km } => r.text_array::<&str>(&[]).num(lat).num(lng).num(km),
            };
            r.date(q.event_start_day).opt_date(q.event_end_day);
            r.boolean(q.date_flexible).opt_text(q.date_notes).opt_text(q.team_memo.as_deref()).opt_text(q.search_hints);
            r.text(q.status).opt_num(q.assigned_user_id).opt_num(q.won_member_id).opt_text(q.closed_reason);
            r.stamp(q.created_at).stamp(q.updated_at);
        },
    )
    .await?;
    copy_in(conn, "request_emails", "id, request_id, direction, from_address, to_addresses, subject, body, message_id, received_at, created_at", &d.request_emails, bar, |r, e| {
        r.num(e.id).num(e.request_id).text(e.direction).text(&e.from_address).text_array(&e.to_addresses);
        r.text(&e.subject).text(&e.body).text(&e.message_id).stamp(e.received_at).stamp(e.received_at);
    })
    .await?;
    copy_in(
        conn,
        "catalogues",
        "id, request_id, kind, status, created_by, sent_at, created_at, updated_at",
        &d.catalogues,
        bar,
        |r, c| {
            r.num(c.id)
                .num(c.request_id)
                .text(c.kind)
                .text(c.status)
                .opt_num(c.created_by)
                .opt_stamp(c.sent_at);
            r.stamp(c.created_at)
                .stamp(c.sent_at.unwrap_or(c.created_at));
        },
    )
    .await?;
    copy_in(
        conn,
        "catalogue_picks",
        "id, catalogue_id, member_id, tier, position, explanation, room_id, added_by, added_by_user_id, created_at, updated_at",
        &d.picks,
        bar,
        |r, p| {
            r.num(p.id).num(p.catalogue_id).num(p.member_id).text(p.tier).num(p.position).text(&p.explanation);
            r.num(p.room_id).text(p.added_by).opt_num(p.added_by_user_id).stamp(p.created_at).stamp(p.created_at);
        },
    )
    .await?;
    copy_in(
        conn,
        "availability_checks",
        "id, request_id, member_id, status, answer, created_by, sent_at, answered_at, expires_at, created_at, updated_at",
        &d.availability_checks,
        bar,
        |r, c| {
            r.num(c.id).num(c.request_id).num(c.member_id).text(c.status).opt_text(c.answer);
            r.opt_num(c.created_by).stamp(c.sent_at).opt_stamp(c.answered_at).stamp(c.expires_at);
            r.stamp(c.sent_at).stamp(c.answered_at.unwrap_or(c.sent_at));
        },
    )
    .await?;
    copy_in(
        conn,
        "response_signals",
        "id, member_id, kind, response_hours, request_id, availability_check_id, created_at",
        &d.signals,
        bar,
        |r, s| {
            r.num(s.id)
                .num(s.member_id)
                .text(s.kind)
                .opt_num(s.response_hours)
                .opt_num(s.request_id);
            r.opt_num(s.availability_check_id).stamp(s.created_at);
        },
    )
    .await?;
    copy_in(
        conn,
        "training_sessions",
        "id, request_id, member_id, catalogue_id, user_id, source, verdict, reason, category, event_type, directives, created_at, updated_at",
        &d.training,
        bar,
        |r, t| {
            r.num(t.id).opt_num(t.request_id).opt_num(t.member_id).opt_num(t.catalogue_id).opt_num(t.user_id);
            r.text(t.source).text(t.verdict).text(&t.reason).text(t.category).opt_text(t.event_type);
            match &t.directives {
                Some(d) => r.text(&directives_json(d)),
                None => r.null(),
            };
            r.stamp(t.created_at).stamp(t.created_at);
        },
    )
    .await?;
    Ok(())
}

/// `{"trigger": …, "prefer": […], "avoid": […]}`, empty lists left out.
pub fn directives_json(d: &crate::model::Directives) -> String {
    let mut object = serde_json::Map::new();
    object.insert("trigger".into(), d.trigger.into());
    if !d.prefer.is_empty() {
        object.insert("prefer".into(), d.prefer.clone().into());
    }
    if !d.avoid.is_empty() {
        object.insert("avoid".into(), d.avoid.clone().into());
    }
    serde_json::Value::Object(object).to_string()
}
