//! Accounts and roles: the one place that creates, changes, disables an
//! account, resets its password or ends its sessions, and audits it. The
//! command line (`maxy user …`, `crate::admin_commands`) and the console
//! (`app::admin::Accounts`, [`console`]) both call these functions.
//!
//! Two guards hold whoever asks: nobody disables or demotes themselves, and
//! the last active admin stays one (the admins' rows are locked while that
//! is checked, so two admins demoting each other at once cannot both win).
//! A disabled account cannot sign in, and its sessions end with the change.
pub mod console;

use crate::audit::{self, Actor, Event};
use crate::auth::{email, password};
use app::auth::Role;
use serde_json::json;
use sqlx::PgPool;

/// Why an account change was refused or failed; the first three carry a
/// French sentence a person can act on.
#[derive(Debug, thiserror::Error)]
pub enum AccountError {
    #[error("{0}")]
    Invalid(String),
    #[error("{0}")]
    Refused(String),
    #[error("ce compte n'existe pas")]
    NotFound,
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    #[error("cannot hash the password: {0}")]
    Hash(String),
}

/// A created or updated account.
pub struct Saved {
    pub id: i64,
    pub created: bool,
    /// Sessions ended (an update: they signed in under the old password).
    pub sessions_ended: u64,
}

/// A checked e-mail address (normalised) and display name.
pub fn checked_identity(raw_email: &str, name: &str) -> Result<(String, String), AccountError> {
    let address = email::normalize(raw_email);
    if address.is_empty() || !address.contains('@') || !email::is_storable(&address) {
        return Err(AccountError::Invalid(format!(
            "Saisissez une adresse e-mail simple (sans espace ni accent, {} caractères au plus).",
            email::MAX_CHARS
        )));
    }
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 120 {
        return Err(AccountError::Invalid(
            "Saisissez le nom de la personne (120 caractères au plus).".into(),
        ));
    }
    Ok((address, name.to_string()))
}

/// A password long enough to keep.
pub fn checked_password(secret: &str) -> Result<(), AccountError> {
    if secret.chars().count() < password::MIN_LENGTH {
        return Err(AccountError::Invalid(format!(
            "Le mot de passe doit compter au moins {} caractères.",
            password::MIN_LENGTH
        )));
    }
    Ok(())
}

/// A fresh random password (20 characters), for a new account or a reset.
pub fn generated_password() -> Result<String, AccountError> {
    let token =
        crate::auth::tokens::random_token().map_err(|e| AccountError::Hash(e.to_string()))?;
    Ok(token.chars().take(20).collect())
}

async fn hashed(secret: String) -> Result<String, AccountError> {
    password::hash_async(secret)
        .await
        .map_err(|e| AccountError::Hash(e.to_string()))
}

/// Creates the account of `email`, or (`replace`) updates an existing one's
/// name, role, profiles and password, re-enabling it and ending its sessions.
/// Without `replace`, an existing address is refused.
pub async fn save(
    db: &PgPool,
    by: Actor,
    (address, name): (String, String),
    role: Role,
    profiles: &[String],
    secret: String,
    replace: bool,
) -> Result<Saved, AccountError> {
    let hash = hashed(secret).await?;
    let mut tx = db.begin().await?;
    if !replace {
        let taken: bool =
            sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM users WHERE email = $1)")
                .bind(&address)
                .fetch_one(&mut *tx)
                .await?;
        if taken {
            return Err(AccountError::Refused(
                "Un compte existe déjà avec cette adresse e-mail.".into(),
            ));
        }
    }
    let (id, created) =
        crate::db::users::upsert(&mut *tx, &address, &name, role, profiles, &hash).await?;
    let sessions_ended = if created {
        0
    } else {
        crate::db::sessions::delete_all_for_user(&mut *tx, id).await?
    };
    let event = if created {
        Event::new(by, "user.created").details(json!({ "role": role.as_str() }))
    } else {
        Event::new(by, "user.updated").details(json!({ "sessions_ended": sessions_ended }))
    };
    audit::write(&mut *tx, event.on("user", id)).await?;
    tx.commit().await?;
    Ok(Saved {
        id,
        created,
        sessions_ended,
    })
}

/// Sets a new password for `id` and ends its sessions; how many ended.
pub async fn reset_password(
    db: &PgPool,
    by: Actor,
    id: i64,
    secret: String,
) -> Result<u64, AccountError> {
    let hash = hashed(secret).await?;
    let mut tx = db.begin().await?;
    let found = sqlx::query("UPDATE users SET password_hash = $2 WHERE id = $1")
        .bind(id)
        .bind(&hash)
        .execute(&mut *tx)
        .await?;
    if found.rows_affected() == 0 {
        return Err(AccountError::NotFound);
    }
    let ended = crate::db::sessions::delete_all_for_user(&mut *tx, id).await?;
    audit::write(
        &mut *tx,
        Event::new(by, "user.password_reset")
            .on("user", id)
            .details(json!({ "sessions_ended": ended })),
    )
    .await?;
    tx.commit().await?;
    Ok(ended)
}

/// The account `id` by e-mail (normalised), for the command line.
pub async fn id_of(db: &PgPool, address: &str) -> Result<Option<i64>, AccountError> {
    Ok(sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
        .bind(address)
        .fetch_optional(db)
        .await?)
}

/// What a guarded change does to an account.
#[derive(Clone, Copy)]
enum Loss {
    /// It loses the admin role.
    Demoted,
    /// It is disabled.
    Disabled,
}

/// Refuses a change that would leave no active admin, or that `by` makes
/// to their own role or access. Locks the active admins' rows until the
/// caller's transaction ends.
async fn keep_an_admin(
    tx: &mut sqlx::PgConnection,
    by: i64,
    id: i64,
    loss: Loss,
) -> Result<(), AccountError> {
    if by == id {
        return Err(AccountError::Refused(match loss {
            Loss::Demoted => "Vous ne pouvez pas retirer vous-même votre rôle d'administrateur : demandez-le à un autre administrateur.".into(),
            Loss::Disabled => "Vous ne pouvez pas désactiver votre propre compte : demandez-le à un autre administrateur.".into(),
        }));
    }
    let admins: Vec<i64> = sqlx::query_scalar(
        "SELECT id FROM users WHERE role = 'admin' AND disabled_at IS NULL ORDER BY id FOR UPDATE",
    )
    .fetch_all(&mut *tx)
    .await?;
    if admins == [id] {
        return Err(AccountError::Refused(match loss {
            Loss::Demoted => "C'est le dernier administrateur actif : nommez d'abord un autre administrateur.".into(),
            Loss::Disabled => "Impossible de désactiver le dernier administrateur actif : nommez d'abord un autre administrateur.".into(),
        }));
    }
    Ok(())
}

/// Changes the role of `id` (an admin acting: `by`).
pub async fn set_role(db: &PgPool, by: i64, id: i64, role: Role) -> Result<(), AccountError> {
    let mut tx = db.begin().await?;
    if role == Role::Team {
        keep_an_admin(&mut tx, by, id, Loss::Demoted).await?;
    }
    let before: Option<String> =
        sqlx::query_scalar("SELECT role FROM users WHERE id = $1 FOR UPDATE")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
    let Some(before) = before else {
        return Err(AccountError::NotFound);
    };
    if before == role.as_str() {
        return Ok(());
    }
    sqlx::query("UPDATE users SET role = $2 WHERE id = $1")
        .bind(id)
        .bind(role.as_str())
        .execute(&mut *tx)
        .await?;
    audit::write(
        &mut *tx,
        Event::new(Actor::User(by), "user.role_changed")
            .on("user", id)
            .details(json!({ "from": before, "to": role.as_str() })),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Disables (and signs out everywhere) or re-enables `id`.
pub async fn set_active(db: &PgPool, by: i64, id: i64, active: bool) -> Result<(), AccountError> {
    let mut tx = db.begin().await?;
    if !active {
        keep_an_admin(&mut tx, by, id, Loss::Disabled).await?;
    }
    let was_active: Option<bool> =
        sqlx::query_scalar("SELECT disabled_at IS NULL FROM users WHERE id = $1 FOR UPDATE")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
    let Some(was_active) = was_active else {
        return Err(AccountError::NotFound);
    };
    if was_active == active {
        return Ok(());
    }
    sqlx::query(
        "UPDATE users SET disabled_at = CASE WHEN $2 THEN NULL ELSE now() END WHERE id = $1",
    )
    .bind(id)
    .bind(active)
    .execute(&mut *tx)
    .await?;
    let (action, ended) = if active {
        ("user.enabled", 0)
    } else {
        (
            "user.disabled",
            crate::db::sessions::delete_all_for_user(&mut *tx, id).await?,
        )
    };
    audit::write(
        &mut *tx,
        Event::new(Actor::User(by), action)
            .on("user", id)
            .details(json!({ "sessions_ended": ended })),
    )
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Signs `id` out everywhere; how many sessions ended.
pub async fn end_sessions(db: &PgPool, by: Actor, id: i64) -> Result<u64, AccountError> {
    let mut tx = db.begin().await?;
    let exists: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM users WHERE id = $1)")
        .bind(id)
        .fetch_one(&mut *tx)
        .await?;
    if !exists {
        return Err(AccountError::NotFound);
    }
    let ended = crate::db::sessions::delete_all_for_user(&mut *tx, id).await?;
    audit::write(
        &mut *tx,
        Event::new(by, "user.sessions_ended")
            .on("user", id)
            .details(json!({ "sessions_ended": ended })),
    )
    .await?;
    tx.commit().await?;
    Ok(ended)
}
