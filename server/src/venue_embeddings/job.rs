//! The `venue.embed` job: re-embeds venues whose text changed (enqueued by
//! the triggers of migration 0010), up to 48 per provider call.
use super::embed::{embed_members, job_outcome, BatchError, BatchReport};
use crate::db::jobs::FailMode;
use crate::embeddings::EmbeddingProvider;
use crate::jobs::{Job, JobHandler, Outcome};
use sqlx::PgPool;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The job kind: re-embed one venue, payload `{"member_id": 42}`, key
/// `venue.embed:42` (the triggers of migration 0010 write the same).
pub const KIND: &str = "venue.embed";

/// Venues per batch: one provider call, one upsert, one commit.
pub const BATCH_SIZE: i64 = 48;

pub struct VenueEmbed {
    db: PgPool,
    provider: Arc<dyn EmbeddingProvider>,
}

impl VenueEmbed {
    pub fn new(db: PgPool, provider: Arc<dyn EmbeddingProvider>) -> Self {
        VenueEmbed { db, provider }
    }
}

/// The payload of a `venue.embed` job.
pub fn payload(member_id: i64) -> serde_json::Value {
    serde_json::json!({ "member_id": member_id })
}

/// The dedupe key of a `venue.embed` job (the triggers build the same).
pub fn dedupe_key(member_id: i64) -> String {
    format!("{KIND}:{member_id}")
}

fn member_id_of(job: &Job) -> Option<i64> {
    job.payload.get("member_id")?.as_i64()
}

/// Runs the jobs of `jobs` (any number per member) through one batch.
pub async fn run_batch(
    db: &PgPool,
    provider: &dyn EmbeddingProvider,
    jobs: &[Job],
) -> (Vec<(i64, Outcome)>, Result<BatchReport, BatchError>) {
    let mut outcomes = Vec::with_capacity(jobs.len());
    let mut by_member: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for job in jobs {
        match member_id_of(job) {
            Some(member_id) => by_member.entry(member_id).or_default().push(job.id),
            None => outcomes.push((
                job.id,
                Outcome::failed(
                    FailMode::Permanent,
                    format!("payload has no integer member_id: {}", job.payload),
                ),
            )),
        }
    }
    let member_ids: Vec<i64> = by_member.keys().copied().collect();
    let result = embed_members(db, provider, &member_ids).await;
    for (member_id, job_ids) in by_member {
        let outcome = job_outcome(&result, member_id);
        outcomes.extend(job_ids.into_iter().map(|id| (id, outcome.clone())));
    }
    (outcomes, result)
}

#[async_trait::async_trait]
impl JobHandler for VenueEmbed {
    fn kind(&self) -> &'static str {
        KIND
    }

    fn batch_size(&self) -> i64 {
        BATCH_SIZE
    }

    async fn run(&self, jobs: Vec<Job>) -> Vec<(i64, Outcome)> {
        let (outcomes, result) = run_batch(&self.db, self.provider.as_ref(), &jobs).await;
        if let Ok(report) = &result {
            tracing::debug!(
                embedded = report.embedded.len(),
                unchanged = report.unchanged.len(),
                missing = report.missing.len(),
                rejected = report.rejected.len(),
                embedding_ms = report.embedding_time.as_millis() as u64,
                "venue.embed batch"
            );
        }
        outcomes
    }
}
