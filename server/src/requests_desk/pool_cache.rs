//! The pools of the list's filter form, kept in the process.
//!
//! Every `/demandes` page shows them, and they change only when the CLI
//! seeds or imports venues (no server route writes them): one query a
//! minute instead of one per page. A pool added meanwhile shows within
//! [`POOLS_TTL`]; each server process refreshes its own copy.
use app::venue_search::PoolOption;
use sqlx::PgPool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a fetched list is served before it is read again.
pub const POOLS_TTL: Duration = Duration::from_secs(60);

#[derive(Default)]
pub struct PoolCache {
    fetched: Mutex<Option<(Instant, Arc<Vec<PoolOption>>)>>,
}

impl PoolCache {
    /// The pools, read from `db` when the copy is missing or older than
    /// [`POOLS_TTL`]. Concurrent misses may each read once: harmless, and no
    /// request waits on another's query.
    pub async fn get(&self, db: &PgPool) -> sqlx::Result<Arc<Vec<PoolOption>>> {
        self.get_at(db, Instant::now()).await
    }

    async fn get_at(&self, db: &PgPool, now: Instant) -> sqlx::Result<Arc<Vec<PoolOption>>> {
        if let Some(pools) = self.fresh(now) {
            return Ok(pools);
        }
        let rows = crate::db::venue_search::pools(db).await?;
        let pools = Arc::new(
            rows.into_iter()
                .map(|p| PoolOption {
                    slug: p.slug,
                    name: p.name,
                })
                .collect::<Vec<_>>(),
        );
        let mut fetched = self.fetched.lock().unwrap_or_else(|e| e.into_inner());
        *fetched = Some((now, pools.clone()));
        Ok(pools)
    }

    fn fresh(&self, now: Instant) -> Option<Arc<Vec<PoolOption>>> {
        let fetched = self.fetched.lock().unwrap_or_else(|e| e.into_inner());
        fetched
            .as_ref()
            .filter(|(at, _)| now.saturating_duration_since(*at) < POOLS_TTL)
            .map(|(_, pools)| pools.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_copy_is_served_for_the_ttl_then_read_again() {
        let cache = PoolCache::default();
        let start = Instant::now();
        assert!(cache.fresh(start).is_none(), "nothing read yet");
        let pools = Arc::new(vec![PoolOption {
            slug: "hotels".into(),
            name: "Hôtels".into(),
        }]);
        *cache.fetched.lock().unwrap_or_else(|e| e.into_inner()) = Some((start, pools));
        let served = cache.fresh(start + POOLS_TTL - Duration::from_secs(1));
        assert_eq!(served.map(|p| p[0].slug.clone()).as_deref(), Some("hotels"));
        assert!(
            cache.fresh(start + POOLS_TTL).is_none(),
            "stale after the TTL"
        );
    }
}
