//! `users`: team members and admins.
use app::auth::{Role, SessionUser};
use sqlx::PgExecutor;

/// A user row as sign-in needs it.
pub struct Credentials {
    pub user: SessionUser,
    pub password_hash: Option<String>,
    pub disabled: bool,
}

fn session_user(
    id: i64,
    email: String,
    display_name: String,
    role: &str,
    profiles: Vec<String>,
) -> SessionUser {
    // The CHECK constraint allows only 'team' and 'admin'; anything else gets the least rights.
    let role = Role::parse(role).unwrap_or(Role::Team);
    SessionUser {
        id,
        email,
        display_name,
        role,
        profiles,
    }
}

/// The account of `email`, which must already be normalised
/// (`auth::email::normalize`): the comparison is exact.
pub async fn credentials_by_email(
    db: impl PgExecutor<'_>,
    email: &str,
) -> sqlx::Result<Option<Credentials>> {
    let row = sqlx::query!(
        r#"SELECT id, email, display_name, role, profiles, password_hash, disabled_at IS NOT NULL AS "disabled!"
           FROM users WHERE email = $1"#,
        email
    )
    .fetch_optional(db)
    .await?;
    Ok(row.map(|r| Credentials {
        user: session_user(r.id, r.email, r.display_name, &r.role, r.profiles),
        password_hash: r.password_hash,
        disabled: r.disabled,
    }))
}

pub async fn record_sign_in(db: impl PgExecutor<'_>, user_id: i64) -> sqlx::Result<()> {
    sqlx::query!(
        "UPDATE users SET last_login_at = now() WHERE id = $1",
        user_id
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Creates a user, or updates name, role, profiles and password of an existing
/// one; `email` must already be normalised.
pub async fn upsert(
    db: impl PgExecutor<'_>,
    email: &str,
    display_name: &str,
    role: Role,
    profiles: &[String],
    password_hash: &str,
) -> sqlx::Result<(i64, bool)> {
    let row = sqlx::query!(
        r#"INSERT INTO users (email, display_name, role, profiles, password_hash)
           VALUES ($1, $2, $3, $4, $5)
           ON CONFLICT (email) DO UPDATE
              SET display_name = EXCLUDED.display_name, role = EXCLUDED.role,
                  profiles = EXCLUDED.profiles, password_hash = EXCLUDED.password_hash,
                  disabled_at = NULL
           RETURNING id, (xmax = 0) AS "created!""#,
        email,
        display_name,
        role.as_str(),
        profiles,
        password_hash
    )
    .fetch_one(db)
    .await?;
    Ok((row.id, row.created))
}

/// Sets the password of an existing user (`email` normalised); `None` when
/// there is no such user.
pub async fn set_password(
    db: impl PgExecutor<'_>,
    email: &str,
    password_hash: &str,
) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar!(
        "UPDATE users SET password_hash = $2 WHERE email = $1 RETURNING id",
        email,
        password_hash
    )
    .fetch_optional(db)
    .await
}

/// The name shown for the user (`None`: no such user).
pub async fn display_name(db: impl sqlx::PgExecutor<'_>, id: i64) -> sqlx::Result<Option<String>> {
    sqlx::query_scalar("SELECT display_name FROM users WHERE id = $1")
        .bind(id)
        .fetch_optional(db)
        .await
}
