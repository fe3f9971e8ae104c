//! The console's accounts service (`app::admin::Accounts`): a thin adapter
//! over [`super`]'s functions (which check and audit), with the answers as
//! French rows and the refusals as user-safe errors.
use super::AccountError;
use crate::audit::Actor;
use crate::playbooks::console::paris;
use app::admin::{AccountRow, Accounts};
use app::auth::Role;
use app::errors::AppError;
use chrono::{DateTime, Utc};
use sqlx::PgPool;

pub struct AccountsService {
    pub db: PgPool,
}

fn app_error(e: AccountError) -> AppError {
    match e {
        AccountError::Invalid(m) => AppError::Invalid(m),
        AccountError::Refused(m) => AppError::Conflict(m),
        AccountError::NotFound => AppError::NotFound,
        AccountError::Db(e) => crate::db::app_error(e),
        AccountError::Hash(e) => AppError::internal(e),
    }
}

fn role(text: &str) -> Result<Role, AppError> {
    Role::parse(text.trim())
        .ok_or_else(|| AppError::Invalid("Choisissez un rôle : Équipe ou Administrateur.".into()))
}

#[derive(sqlx::FromRow)]
struct Listed {
    id: i64,
    display_name: String,
    email: String,
    role: String,
    profiles: Vec<String>,
    active: bool,
    last_login_at: Option<DateTime<Utc>>,
    sessions: i64,
}

#[async_trait::async_trait]
impl Accounts for AccountsService {
    async fn list(&self, by: i64) -> Result<Vec<AccountRow>, AppError> {
        let rows: Vec<Listed> = sqlx::query_as(
            "SELECT u.id, u.display_name, u.email, u.role, u.profiles,
                    u.disabled_at IS NULL AS active, u.last_login_at,
                    (SELECT count(*) FROM user_sessions s
                      WHERE s.user_id = u.id AND s.expires_at > now()) AS sessions
               FROM users u
              ORDER BY u.disabled_at IS NOT NULL, lower(u.display_name), u.id",
        )
        .fetch_all(&self.db)
        .await
        .map_err(crate::db::app_error)?;
        Ok(rows
            .into_iter()
            .map(|r| AccountRow {
                is_me: r.id == by,
                id: r.id,
                name: r.display_name,
                email: r.email,
                role: Role::parse(&r.role).unwrap_or(Role::Team),
                profiles: r.profiles,
                active: r.active,
                last_sign_in: r.last_login_at.map(paris::time),
                sessions: r.sessions,
            })
            .collect())
    }

    async fn create(
        &self,
        by: i64,
        email: String,
        name: String,
        role_text: String,
        password: String,
    ) -> Result<Option<String>, AppError> {
        let identity = super::checked_identity(&email, &name).map_err(app_error)?;
        let role = role(&role_text)?;
        let (secret, generated) = if password.is_empty() {
            (super::generated_password().map_err(app_error)?, true)
        } else {
            super::checked_password(&password).map_err(app_error)?;
            (password, false)
        };
        super::save(
            &self.db,
            Actor::User(by),
            identity,
            role,
            &[],
            secret.clone(),
            false,
        )
        .await
        .map_err(app_error)?;
        Ok(generated.then_some(secret))
    }

    async fn set_role(&self, by: i64, id: i64, role_text: String) -> Result<(), AppError> {
        let role = role(&role_text)?;
        super::set_role(&self.db, by, id, role)
            .await
            .map_err(app_error)
    }

    async fn set_active(&self, by: i64, id: i64, active: bool) -> Result<(), AppError> {
        super::set_active(&self.db, by, id, active)
            .await
            .map_err(app_error)
    }

    async fn reset_password(&self, by: i64, id: i64) -> Result<String, AppError> {
        let secret = super::generated_password().map_err(app_error)?;
        super::reset_password(&self.db, Actor::User(by), id, secret.clone())
            .await
            .map_err(app_error)?;
        Ok(secret)
    }

    async fn end_sessions(&self, by: i64, id: i64) -> Result<u64, AppError> {
        super::end_sessions(&self.db, Actor::User(by), id)
            .await
            .map_err(app_error)
    }
}
