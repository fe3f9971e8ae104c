//! Queuing an e-mail in the transaction that issues its link: the row the
//! builder shows and the job that delivers it commit with the link, or not
//! at all.
use super::message::{self, AvailabilityMail, CatalogueMail, Event, Rendered, Sender};
use super::store::{self, NewSend, RequestFacts};
use super::{JOB_KIND, NOT_CONFIGURED};
use crate::config::MailSettings;
use chrono::{DateTime, Utc};
use sqlx::PgConnection;

/// Whether e-mail is set up, and the address links are built on.
#[derive(Clone, Debug, Default)]
pub struct Outbox {
    /// `MAXY_PUBLIC_URL`, without its trailing slash; `None`: not set up.
    site: Option<String>,
}

/// What became of one message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Queued {
    /// Queued for this address.
    Emailed { to: String, send_id: i64 },
    /// Not e-mailed; why, in French (the team passes the link on by hand).
    NotSent(String),
}

impl Queued {
    pub fn emailed_to(&self) -> Option<String> {
        match self {
            Queued::Emailed { to, .. } => Some(to.clone()),
            Queued::NotSent(_) => None,
        }
    }

    pub fn note(&self) -> Option<String> {
        match self {
            Queued::Emailed { .. } => None,
            Queued::NotSent(why) => Some(why.clone()),
        }
    }
}

/// What the message needs beyond its recipient.
pub struct MailContext<'a> {
    pub user_id: i64,
    /// The link's path (`/c/…`, `/v/…`): the message holds it in full.
    pub path: &'a str,
    /// The last day the link works.
    pub until: DateTime<Utc>,
}

impl Outbox {
    /// E-mail is sent when an SMTP server is configured and the site's
    /// public address is known (links in an e-mail must be absolute).
    pub fn new(settings: &MailSettings, public_url: Option<&str>) -> Self {
        let site = match (&settings.smtp_url, public_url) {
            (Some(_), Some(url)) => Some(url.trim_end_matches('/').to_string()),
            _ => None,
        };
        Outbox { site }
    }

    /// Nothing is e-mailed.
    pub fn disabled() -> Self {
        Outbox { site: None }
    }

    pub fn is_enabled(&self) -> bool {
        self.site.is_some()
    }

    /// The catalogue's e-mail to its organizer.
    pub async fn queue_catalogue(
        &self,
        conn: &mut PgConnection,
        catalogue_id: i64,
        venues: usize,
        ctx: &MailContext<'_>,
    ) -> sqlx::Result<Queued> {
        let Some(site) = &self.site else {
            return Ok(Queued::NotSent(NOT_CONFIGURED.into()));
        };
        let Some(facts) = store::catalogue_request(conn, catalogue_id).await? else {
            return Ok(Queued::NotSent("demande introuvable".into()));
        };
        let Some(to) = valid_address(facts.organizer_email.as_deref()) else {
            return Ok(Queued::NotSent(
                "pas d'adresse e-mail valide pour l'organisateur".into(),
            ));
        };
        let sender = sender(conn, ctx.user_id).await?;
        let url = format!("{site}{}", ctx.path);
        let until = paris_day(ctx.until);
        let rendered = message::catalogue(&CatalogueMail {
            organizer_name: facts.organizer_name.as_deref(),
            sender: &sender,
            event: &event(&facts),
            url: &url,
            valid_until: &until,
            venues,
        });
        let send = NewSend {
            request_id: facts.request_id,
            kind: "catalogue",
            catalogue_id: Some(catalogue_id),
            check_id: None,
            member_id: None,
            recipient: &to,
            recipient_name: facts.organizer_name.as_deref(),
            subject: "",
            body_text: "",
            body_html: "",
            created_by: ctx.user_id,
        };
        queue(conn, send, &rendered).await
    }

    /// An availability check's e-mail to its venue.
    pub async fn queue_availability(
        &self,
        conn: &mut PgConnection,
        request_id: i64,
        member_id: i64,
        check_id: i64,
        ctx: &MailContext<'_>,
    ) -> sqlx::Result<Queued> {
        let Some(site) = &self.site else {
            return Ok(Queued::NotSent(NOT_CONFIGURED.into()));
        };
        let (Some(facts), Some(venue)) = (
            store::request(conn, request_id).await?,
            store::venue(conn, member_id).await?,
        ) else {
            return Ok(Queued::NotSent("demande ou lieu introuvable".into()));
        };
        let Some(to) = valid_address(venue.contact_email.as_deref()) else {
            return Ok(Queued::NotSent(
                "pas d'adresse e-mail valide pour ce lieu".into(),
            ));
        };
        let sender = sender(conn, ctx.user_id).await?;
        let url = format!("{site}{}", ctx.path);
        let until = paris_day(ctx.until);
        let rendered = message::availability(&AvailabilityMail {
            venue_name: &venue.name,
            sender: &sender,
            event: &event(&facts),
            url: &url,
            answer_by: &until,
        });
        let send = NewSend {
            request_id,
            kind: "availability",
            catalogue_id: None,
            check_id: Some(check_id),
            member_id: Some(member_id),
            recipient: &to,
            recipient_name: Some(&venue.name),
            subject: "",
            body_text: "",
            body_html: "",
            created_by: ctx.user_id,
        };
        queue(conn, send, &rendered).await
    }
}

/// Writes the row and its job.
async fn queue(
    conn: &mut PgConnection,
    send: NewSend<'_>,
    rendered: &Rendered,
) -> sqlx::Result<Queued> {
    let send = NewSend {
        subject: &rendered.subject,
        body_text: &rendered.text,
        body_html: &rendered.html,
        ..send
    };
    let send_id = store::insert(conn, &send).await?;
    enqueue(conn, send_id).await?;
    Ok(Queued::Emailed {
        to: send.recipient.to_string(),
        send_id,
    })
}

/// The job that delivers `send_id` (one queued or running per send).
pub async fn enqueue(conn: &mut PgConnection, send_id: i64) -> sqlx::Result<()> {
    crate::jobs::enqueue(
        &mut *conn,
        JOB_KIND,
        &serde_json::json!({ "send_id": send_id }),
        Some(&dedupe_key(send_id)),
    )
    .await?;
    Ok(())
}

pub fn dedupe_key(send_id: i64) -> String {
    format!("{JOB_KIND}:{send_id}")
}

/// An address lettre (and the table's CHECK) accepts, lower-cased.
fn valid_address(address: Option<&str>) -> Option<String> {
    let address = address?.trim().to_lowercase();
    address
        .parse::<lettre::Address>()
        .ok()
        .map(|_| address)
        .filter(|a| !a.chars().any(char::is_whitespace))
}

async fn sender(conn: &mut PgConnection, user_id: i64) -> sqlx::Result<Sender> {
    let (name, email) = store::user(conn, user_id)
        .await?
        .unwrap_or_else(|| ("L'équipe Reciprok".into(), String::new()));
    Ok(Sender { name, email })
}

fn event(facts: &RequestFacts) -> Event {
    let day = |d: chrono::NaiveDate| d.format("%d/%m/%Y").to_string();
    let dates = match (facts.event_start_date, facts.event_end_date) {
        (Some(start), Some(end)) if end != start => {
            Some(format!("du {} au {}", day(start), day(end)))
        }
        (Some(start), _) => Some(day(start)),
        _ => None,
    };
    Event {
        reference: facts.reference.clone(),
        participants: facts.participants,
        dates,
        configurations: facts.configurations.clone(),
    }
}

fn paris_day(t: DateTime<Utc>) -> String {
    app::fr::paris_date(t)
}
