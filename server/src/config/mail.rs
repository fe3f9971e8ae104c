//! E-mail that leaves Maxy: the SMTP server and the sender's address.
//!
//! - `MAXY_SMTP_URL`: `smtp://host:port` (plain, for a local catcher or a
//!   relay on the same machine; `?tls=required` for STARTTLS) or
//!   `smtps://user:password@host:465` (TLS from the start). Unset: nothing
//!   is e-mailed, and the builder says « envoi par e-mail non configuré »
//!   beside the link to copy.
//! - `MAXY_MAIL_FROM`: the sender, `Reciprok <equipe@reciprok.fr>` by default.
//! - `MAXY_SMTP_TIMEOUT_SECS`: how long one delivery attempt may take (10 s).
use super::{ConfigError, Env};
use std::time::Duration;

pub const DEFAULT_MAIL_FROM: &str = "Reciprok <equipe@reciprok.fr>";

#[derive(Clone)]
pub struct MailSettings {
    /// `None`: e-mail is not configured.
    pub smtp_url: Option<String>,
    pub from: String,
    pub timeout: Duration,
}

impl std::fmt::Debug for MailSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MailSettings")
            .field("smtp_url", &self.smtp_url.as_deref().map(super::redact_url))
            .field("from", &self.from)
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl MailSettings {
    pub fn from_source(env: &Env) -> Result<Self, ConfigError> {
        let smtp_url = match env.raw("MAXY_SMTP_URL")? {
            Some(_) => Some(env.url("MAXY_SMTP_URL", "", &["smtp", "smtps"])?),
            None => None,
        };
        let from = env.string("MAXY_MAIL_FROM", DEFAULT_MAIL_FROM)?;
        if from.parse::<lettre::message::Mailbox>().is_err() {
            return Err(ConfigError::Invalid {
                var: "MAXY_MAIL_FROM".into(),
                expected: "an address like equipe@reciprok.fr or Reciprok <equipe@reciprok.fr>"
                    .into(),
                got: from,
            });
        }
        Ok(MailSettings {
            smtp_url,
            from,
            timeout: Duration::from_secs(env.number("MAXY_SMTP_TIMEOUT_SECS", 10, 1..=300)?),
        })
    }

    /// Unconfigured: nothing is e-mailed.
    pub fn disabled() -> Self {
        MailSettings {
            smtp_url: None,
            from: DEFAULT_MAIL_FROM.into(),
            timeout: Duration::from_secs(10),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unset_means_no_mail_and_bad_values_name_their_variable() {
        let none = MailSettings::from_source(&Env::from_pairs([])).expect("defaults");
        assert!(none.smtp_url.is_none());
        assert_eq!(none.from, DEFAULT_MAIL_FROM);
        let set = MailSettings::from_source(&Env::from_pairs([
            ("MAXY_SMTP_URL", "smtp://127.0.0.1:1025"),
            ("MAXY_MAIL_FROM", "maxy@example.org"),
        ]))
        .expect("valid");
        assert_eq!(set.smtp_url.as_deref(), Some("smtp://127.0.0.1:1025"));
        let bad_url = MailSettings::from_source(&Env::from_pairs([("MAXY_SMTP_URL", "http://x")]));
        assert!(bad_url.unwrap_err().to_string().contains("MAXY_SMTP_URL"));
        let bad_from = MailSettings::from_source(&Env::from_pairs([("MAXY_MAIL_FROM", "nobody")]));
        assert!(bad_from.unwrap_err().to_string().contains("MAXY_MAIL_FROM"));
    }
}
