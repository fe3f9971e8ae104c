//! Delivery over SMTP (`lettre`): one attempt, and whether another may
//! succeed, with the reason in French for the team.
use crate::config::MailSettings;
use crate::outbound::Failure;
use lettre::message::{header::ContentType, Mailbox, MultiPart, SinglePart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

/// The configured SMTP server and sender.
#[derive(Clone)]
pub struct SmtpSender {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

/// One message to deliver.
pub struct Envelope<'a> {
    pub to: &'a str,
    pub to_name: Option<&'a str>,
    pub subject: &'a str,
    pub text: &'a str,
    pub html: &'a str,
}

impl SmtpSender {
    /// `None` when e-mail is not configured; an error when the settings do
    /// not make a transport (checked at start-up).
    pub fn from_settings(settings: &MailSettings) -> anyhow::Result<Option<Self>> {
        let Some(url) = &settings.smtp_url else {
            return Ok(None);
        };
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| {
                anyhow::anyhow!(
                    "MAXY_SMTP_URL ({}) is not usable: {e}",
                    crate::config::redact_url(url)
                )
            })?
            .timeout(Some(settings.timeout))
            .build();
        let from = settings
            .from
            .parse::<Mailbox>()
            .map_err(|e| anyhow::anyhow!("MAXY_MAIL_FROM is not an address: {e}"))?;
        Ok(Some(SmtpSender { transport, from }))
    }

    /// One delivery attempt.
    pub async fn send(&self, mail: &Envelope<'_>) -> Result<(), Failure<String>> {
        let to = Mailbox::new(
            mail.to_name.map(str::to_string),
            mail.to.parse().map_err(|_| {
                Failure::Final(format!("adresse du destinataire invalide ({})", mail.to))
            })?,
        );
        let message = Message::builder()
            .from(self.from.clone())
            .reply_to(self.from.clone())
            .to(to)
            .subject(mail.subject)
            .multipart(
                MultiPart::alternative()
                    .singlepart(
                        SinglePart::builder()
                            .header(ContentType::TEXT_PLAIN)
                            .body(mail.text.to_string()),
                    )
                    .singlepart(
                        SinglePart::builder()
                            .header(ContentType::TEXT_HTML)
                            .body(mail.html.to_string()),
                    ),
            )
            .map_err(|e| Failure::Final(format!("message impossible à composer : {e}")))?;
        match self.transport.send(message).await {
            Ok(_) => Ok(()),
            Err(e) => Err(classify(&e)),
        }
    }
}

/// A refusal (5xx) is final; anything else (no answer, 4xx, a dropped
/// connection) may pass on another attempt.
fn classify(e: &lettre::transport::smtp::Error) -> Failure<String> {
    // The cause in the log (English, for operators); the team reads French.
    tracing::warn!(error = %e, source = ?std::error::Error::source(e), "SMTP delivery failed");
    if e.is_permanent() {
        let code = e
            .status()
            .map(|c| format!(" (code {c})"))
            .unwrap_or_default();
        return Failure::Final(format!("le serveur d'envoi a refusé le message{code}"));
    }
    let reason = if e.is_timeout() {
        "le serveur d'envoi n'a pas répondu à temps".to_string()
    } else if e.is_transient() {
        let code = e
            .status()
            .map(|c| format!(" (code {c})"))
            .unwrap_or_default();
        format!("le serveur d'envoi a demandé de réessayer plus tard{code}")
    } else {
        "le serveur d'envoi est injoignable".to_string()
    };
    Failure::Retry {
        reason,
        retry_after: None,
    }
}
