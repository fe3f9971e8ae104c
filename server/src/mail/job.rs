//! The `mail.send` job: delivers one queued e-mail. An attempt that fails
//! for a reason that may pass (no answer, 4xx) is tried again at once by
//! the shared retry loop, then left to the queue's backoff (10 s, 20 s,
//! 40 s…, five attempts); a refusal (5xx) is final. Every outcome is
//! written on the send's row, which the builder shows.
use super::store;
use super::transport::{Envelope, SmtpSender};
use super::NOT_CONFIGURED;
use crate::jobs::{FailMode, Job, JobHandler, Outcome, Registry};
use crate::outbound::{Failure, RetryPolicy};
use sqlx::PgPool;
use std::time::Duration;

/// The job kind (its French label is in the audit labels).
pub const JOB_KIND: &str = "mail.send";

/// Within one job: a second try after about a second, then the queue.
const POLICY: RetryPolicy = RetryPolicy {
    max_attempts: 2,
    first_backoff: Duration::from_secs(1),
    max_retry_after: Duration::from_secs(0),
};

/// Adds the mail handler (`sender` `None`: e-mail not configured; a job
/// queued before then fails with that reason).
pub fn register_jobs(registry: Registry, db: &PgPool, sender: Option<SmtpSender>) -> Registry {
    registry.with(MailJob {
        db: db.clone(),
        sender,
    })
}

pub struct MailJob {
    db: PgPool,
    sender: Option<SmtpSender>,
}

#[async_trait::async_trait]
impl JobHandler for MailJob {
    fn kind(&self) -> &'static str {
        JOB_KIND
    }

    async fn run(&self, jobs: Vec<Job>) -> Vec<(i64, Outcome)> {
        let mut outcomes = Vec::with_capacity(jobs.len());
        for job in jobs {
            outcomes.push((job.id, self.deliver(&job).await));
        }
        outcomes
    }
}

impl MailJob {
    async fn deliver(&self, job: &Job) -> Outcome {
        let Some(send_id) = job.payload.get("send_id").and_then(|v| v.as_i64()) else {
            return Outcome::failed(FailMode::Permanent, "payload without send_id");
        };
        let pending = match store::pending(&self.db, send_id).await {
            Ok(Some(pending)) => pending,
            // Delivered already (a rerun), or the request is gone.
            Ok(None) => return Outcome::Done,
            Err(e) => return Outcome::failed(FailMode::Retry, e),
        };
        let result = match &self.sender {
            None => Err((NOT_CONFIGURED.to_string(), true)),
            Some(sender) => {
                let envelope = Envelope {
                    to: &pending.recipient,
                    to_name: pending.recipient_name.as_deref(),
                    subject: &pending.subject,
                    text: &pending.body_text,
                    html: &pending.body_html,
                };
                POLICY
                    .run(
                        "",
                        |reason| (reason.trim().to_string(), false),
                        || async {
                            sender.send(&envelope).await.map_err(|f| match f {
                                Failure::Final(reason) => Failure::Final((reason, true)),
                                Failure::Retry {
                                    reason,
                                    retry_after,
                                } => Failure::Retry {
                                    reason,
                                    retry_after,
                                },
                            })
                        },
                        |attempt, wait, reason| {
                            tracing::info!(
                                send_id,
                                attempt,
                                ?wait,
                                "e-mail not delivered, retrying: {reason}"
                            )
                        },
                    )
                    .await
            }
        };
        match result {
            Ok(()) => match store::mark_sent(&self.db, send_id).await {
                Ok(()) => {
                    tracing::info!(send_id, "e-mail delivered");
                    Outcome::Done
                }
                // Delivered but not recorded: a retry would send it twice,
                // so the job ends; the row stays « en file » (logged).
                Err(e) => {
                    tracing::error!(send_id, error = %e, "e-mail delivered but not recorded");
                    Outcome::Done
                }
            },
            Err((reason, refused)) => {
                let reason = french_reason(&reason);
                if let Err(e) = store::mark_failed(&self.db, send_id, &reason).await {
                    tracing::warn!(send_id, error = %e, "cannot record an e-mail failure");
                }
                let mode = if refused {
                    FailMode::Permanent
                } else {
                    FailMode::Retry
                };
                Outcome::failed(mode, format!("e-mail {send_id}: {reason}"))
            }
        }
    }
}

/// The retry loop appends « (after N attempts) »: the team reads French.
fn french_reason(reason: &str) -> String {
    match reason.rsplit_once(" (after ") {
        Some((head, tail)) => {
            let attempts = tail.trim_end_matches(" attempts)");
            format!("{head} ({attempts} essais)")
        }
        None => reason.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::french_reason;

    #[test]
    fn the_loop_s_count_reads_in_french() {
        assert_eq!(
            french_reason("le serveur d'envoi est injoignable (after 2 attempts)"),
            "le serveur d'envoi est injoignable (2 essais)"
        );
        assert_eq!(french_reason("refusé"), "refusé");
    }
}
