//! Magic links: signed, expiring, single-purpose, stored hashed, revocable.
//!
//! A token is `<random>.<hmac>`; the HMAC binds it to its purpose, so a
//! tampered token or one minted for another purpose is refused before any
//! database access. A token that passes is then looked up by its sha256 and
//! must be unexpired and unrevoked. Uses are counted in memory
//! ([`uses::LinkUses`]) and written once a second.
pub mod uses;

use super::tokens::{self, SigningKey};
use crate::db::magic_links::{self as rows, LiveLink};
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// Read one catalogue (organizers).
    Catalogue,
    /// Answer one availability check (venues).
    Availability,
}

impl Purpose {
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::Catalogue => "catalogue",
            Purpose::Availability => "availability",
        }
    }

    /// The page a link of this purpose opens.
    pub fn path_prefix(self) -> &'static str {
        match self {
            Purpose::Catalogue => "/c/",
            Purpose::Availability => "/v/",
        }
    }
}

/// A freshly issued link: the token is shown once and never stored.
pub struct IssuedLink {
    pub id: i64,
    pub token: String,
    pub path: String,
}

/// `db` may be a transaction: a link issued with the row it opens (an
/// availability check) commits or rolls back with it.
pub async fn issue(
    db: impl sqlx::PgExecutor<'_>,
    key: &SigningKey,
    purpose: Purpose,
    subject_id: i64,
    ttl: Duration,
    created_by: Option<i64>,
) -> anyhow::Result<IssuedLink> {
    let token = key.sign(purpose.as_str(), &tokens::random_token()?);
    let id = rows::insert(
        db,
        purpose.as_str(),
        subject_id,
        &tokens::hash(&token),
        ttl,
        created_by,
    )
    .await?;
    let path = format!("{}{token}", purpose.path_prefix());
    Ok(IssuedLink { id, token, path })
}

/// The link behind `token` if it is valid for `purpose` right now: a read
/// only, the caller counts the use ([`uses::LinkUses::record`]).
pub async fn verify(
    db: &sqlx::PgPool,
    key: &SigningKey,
    purpose: Purpose,
    token: &str,
) -> sqlx::Result<Option<LiveLink>> {
    if token.len() > 200 || !key.verify(purpose.as_str(), token) {
        return Ok(None);
    }
    rows::live(db, purpose.as_str(), &tokens::hash(token)).await
}
