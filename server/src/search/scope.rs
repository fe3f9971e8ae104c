//! Which pools a search covers. Seed 001 starts every search with a pool;
//! a search that names none covers every pool rather than the first one in
//! the list (issue 25: « trouve 4 lieux pour 60 personnes en théâtre dans
//! le 8e » searched the Châteaux alone and found 1 venue where other pools
//! had 6). Either way the results say which pools were searched.
use crate::db::venue_search::{self as q, PoolRow};
use app::venue_search::PoolScope;
use sqlx::PgPool;

/// The pools one search covers.
pub struct Scope {
    /// The pool asked for; `None`: every pool.
    pub pool: Option<PoolRow>,
    /// What the results say about it.
    pub shown: PoolScope,
}

impl Scope {
    /// The pool filter of the SQL: `None` searches every pool.
    pub fn pool_id(&self) -> Option<i64> {
        self.pool.as_ref().map(|p| p.id)
    }
}

/// `slug`: the pool asked for, `None` for every pool. `Ok(None)`: no
/// pool has that slug.
pub async fn resolve(db: &PgPool, slug: Option<&str>) -> sqlx::Result<Option<Scope>> {
    match slug {
        Some(slug) => Ok(q::pool_by_slug(db, slug).await?.map(|pool| Scope {
            shown: PoolScope {
                all: false,
                names: vec![pool.name.clone()],
            },
            pool: Some(pool),
        })),
        None => Ok(Some(Scope {
            pool: None,
            shown: PoolScope {
                all: true,
                names: q::pools(db).await?.into_iter().map(|p| p.name).collect(),
            },
        })),
    }
}
