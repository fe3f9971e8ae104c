//! `maxy user …` and `maxy link …`: account and link administration from the
//! command line (the first admin of a new install starts here).
use crate::audit::{self, Actor, Event};
use crate::auth::magic_links::{self, Purpose};
use crate::auth::{email, password, tokens::SigningKey};
use crate::cli::{LinkCommand, UserCommand};
use crate::config::Config;
use anyhow::{bail, Context};
use app::auth::Role;
use std::io::Read;

pub async fn user(config: &Config, command: UserCommand) -> anyhow::Result<()> {
    let db = crate::db::connect(&config.database).await?;
    crate::db::migrate(&config.database, &db).await?;
    match command {
        UserCommand::Create {
            email,
            name,
            role,
            profiles,
            password_stdin,
        } => {
            let role = Role::parse(&role)
                .with_context(|| format!("--role must be team or admin, not {role:?}"))?;
            let email = email::normalize(&email);
            if !email.contains('@') || email.is_empty() {
                bail!("--email must be an e-mail address");
            }
            if !email::is_storable(&email) {
                // Sign-in compares addresses exactly: only plain ASCII ones
                // lower-case the same way everywhere.
                bail!("--email must be a plain ASCII e-mail address without spaces, at most {} characters", email::MAX_CHARS);
            }
            if name.trim().is_empty() {
                bail!("--name must not be empty");
            }
            let (secret, generated) = read_or_generate(password_stdin)?;
            // The same service as the console's: it writes, ends the sessions
            // of an updated account (they signed in under the old password
            // and perhaps the old role) and audits, in one transaction.
            let saved = crate::accounts::save(
                &db,
                Actor::System,
                (email.clone(), name.trim().to_string()),
                role,
                &profiles,
                secret.clone(),
                true,
            )
            .await?;
            let (created, ended) = (saved.created, saved.sessions_ended);
            if created {
                println!("created {email} ({})", role.as_str());
            } else {
                println!(
                    "updated {email} ({}); {ended} session(s) ended",
                    role.as_str()
                );
            }
            if generated {
                println!("password: {secret}");
            }
        }
        UserCommand::ResetPassword {
            email,
            password_stdin,
        } => {
            let email = email::normalize(&email);
            let (secret, generated) = read_or_generate(password_stdin)?;
            let Some(id) = crate::accounts::id_of(&db, &email).await? else {
                bail!("no user has the e-mail {email}");
            };
            let ended =
                crate::accounts::reset_password(&db, Actor::System, id, secret.clone()).await?;
            println!("password reset for {email}; {ended} session(s) ended");
            if generated {
                println!("password: {secret}");
            }
        }
    }
    Ok(())
}

/// The password from standard input (one line), or a fresh random one.
fn read_or_generate(from_stdin: bool) -> anyhow::Result<(String, bool)> {
    if from_stdin {
        let mut input = String::new();
        std::io::stdin()
            .read_to_string(&mut input)
            .context("cannot read the password from standard input")?;
        let secret = input.trim_end_matches(['\n', '\r']).to_string();
        if secret.chars().count() < password::MIN_LENGTH {
            bail!(
                "the password must have at least {} characters",
                password::MIN_LENGTH
            );
        }
        return Ok((secret, false));
    }
    Ok((crate::accounts::generated_password()?, true))
}

pub async fn link(config: &Config, command: LinkCommand) -> anyhow::Result<()> {
    let db = crate::db::connect(&config.database).await?;
    crate::db::migrate(&config.database, &db).await?;
    let Some(secret) = &config.auth.secret_key else {
        bail!("MAXY_SECRET_KEY must be set: a link signed with a throw-away key would never open");
    };
    let key = SigningKey::new(secret.clone());
    let (purpose, subject) = match command {
        LinkCommand::Catalogue { catalogue_id } => (Purpose::Catalogue, catalogue_id),
        LinkCommand::Availability { check_id } => (Purpose::Availability, check_id),
        LinkCommand::Revoke { link_id } => {
            if !crate::db::magic_links::revoke(&db, link_id, None).await? {
                bail!("no active link has the id {link_id}");
            }
            audit::record(
                &db,
                Event::new(Actor::System, "magic_link.revoked").on("magic_link", link_id),
            )
            .await;
            println!("link {link_id} revoked");
            return Ok(());
        }
    };
    let exists = match purpose {
        Purpose::Catalogue => crate::db::links_view::catalogue(&db, subject)
            .await?
            .is_some(),
        Purpose::Availability => crate::db::links_view::availability(&db, subject)
            .await?
            .is_some(),
    };
    if !exists {
        bail!("no {} has the id {subject}", purpose.as_str());
    }
    let link = magic_links::issue(&db, &key, purpose, subject, config.auth.link_ttl, None).await?;
    audit::record(
        &db,
        Event::new(Actor::System, "magic_link.issued").on("magic_link", link.id),
    )
    .await;
    let base = config
        .auth
        .public_url
        .clone()
        .unwrap_or_else(|| "http://127.0.0.1:3000".into());
    println!(
        "link {} ({}): {base}{}",
        link.id,
        purpose.as_str(),
        link.path
    );
    Ok(())
}
