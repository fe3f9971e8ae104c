//! The journal's page query: the console's filters (who, what, when,
//! words) turned into one SQL statement, newest first, 50 rows a page.
//!
//! Built with `QueryBuilder` so that only the filters set appear in the
//! statement: PostgreSQL plans each shape on its own (the `(at DESC)`
//! index for the whole journal, the actor's `(actor_id, at DESC)` index
//! for one member, `(action, at DESC)` for one family), where a catch-all
//! `$n IS NULL OR …` statement would get one generic plan for all.
use super::labels;
use app::admin::{AuditKind, JournalFilters, FAMILIES, JOURNAL_PAGE_SIZE, PERIODS};
use app::errors::AppError;
use chrono::{DateTime, NaiveDate, Utc};
use sqlx::{PgPool, Postgres, QueryBuilder};

/// The `actor_kind`s a view shows.
pub(crate) fn actor_kinds(kind: AuditKind) -> &'static [&'static str] {
    match kind {
        AuditKind::All => &["user", "anonymous", "magic_link", "system"],
        AuditKind::Team => &["user"],
        AuditKind::Outsiders => &["anonymous", "magic_link"],
        AuditKind::System => &["system"],
    }
}

/// The filters checked: every value is one the form offers.
#[derive(Debug, Default, PartialEq)]
pub struct Checked {
    pub actor_kinds: &'static [&'static str],
    pub member: Option<i64>,
    /// The family's areas (`auth`…); empty: all actions.
    pub areas: Vec<&'static str>,
    pub period: Option<&'static str>,
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
    pub text: Option<String>,
    pub page: u32,
}

fn bad(message: &str) -> AppError {
    AppError::BadRequest(message.to_string())
}

fn day(text: &str, which: &str) -> Result<Option<NaiveDate>, AppError> {
    match text.trim() {
        "" => Ok(None),
        t => NaiveDate::parse_from_str(t, "%Y-%m-%d")
            .map(Some)
            .map_err(|_| bad(&format!("La date {which} n'est pas une date valide."))),
    }
}

/// Checks `filters` against what the form offers; a value it does not
/// offer is refused in French, never silently dropped.
pub fn check(filters: &JournalFilters) -> Result<Checked, AppError> {
    let kind = AuditKind::parse(&filters.journal)?;
    let member = match filters.member.trim() {
        "" => None,
        m => Some(
            m.parse::<i64>()
                .map_err(|_| bad("Ce membre n'existe pas : choisissez dans la liste."))?,
        ),
    };
    let areas = match filters.family.trim() {
        "" => Vec::new(),
        f => FAMILIES
            .iter()
            .find(|(key, _, _)| *key == f)
            .map(|(_, _, areas)| areas.to_vec())
            .ok_or_else(|| bad("Ce type d'action n'existe pas : choisissez dans la liste."))?,
    };
    let period = match filters.period.trim() {
        "" => None,
        p => Some(
            PERIODS
                .iter()
                .find(|(key, _)| *key == p)
                .map(|(key, _)| *key)
                .ok_or_else(|| bad("Cette période n'existe pas : choisissez dans la liste."))?,
        ),
    };
    let (from, to) = (day(&filters.from, "de début")?, day(&filters.to, "de fin")?);
    if let (Some(from), Some(to)) = (from, to) {
        if from > to {
            return Err(bad("La date de début doit précéder la date de fin."));
        }
    }
    let text = Some(filters.text.trim())
        .filter(|t| !t.is_empty())
        .map(|t| t.chars().take(100).collect());
    Ok(Checked {
        actor_kinds: actor_kinds(kind),
        member,
        areas,
        period,
        from,
        to,
        text,
        page: filters.page.max(1),
    })
}

/// `%text%` for ILIKE, its wildcards taken literally.
fn pattern(text: &str) -> String {
    let escaped = text
        .replace('\\', "\\\\")
        .replace('%', "\\%")
        .replace('_', "\\_");
    format!("%{escaped}%")
}

/// Lower-case, without the accents French puts on vowels and c, so that
/// « echec » finds « Échec ».
fn folded(text: &str) -> String {
    text.to_lowercase()
        .chars()
        .map(|c| match c {
            'à' | 'â' | 'ä' => 'a',
            'é' | 'è' | 'ê' | 'ë' => 'e',
            'î' | 'ï' => 'i',
            'ô' | 'ö' => 'o',
            'ù' | 'û' | 'ü' => 'u',
            'ç' => 'c',
            c => c,
        })
        .collect()
}

/// A stored row of the page, with its actor's name.
#[derive(sqlx::FromRow)]
pub struct Row {
    pub at: DateTime<Utc>,
    pub actor: Option<String>,
    pub actor_kind: String,
    pub action: String,
    pub object_type: Option<String>,
    pub object_id: Option<i64>,
    pub summarised: Option<i64>,
}

/// The action keys and object types the log holds (a few dozen), read by
/// skipping along the indexes from one value to the next rather than
/// scanning the rows: what a family or the search words stand for.
pub struct Vocabulary {
    pub actions: Vec<String>,
    pub object_types: Vec<String>,
}

pub async fn vocabulary(db: &PgPool) -> sqlx::Result<Vocabulary> {
    let actions = sqlx::query_scalar(
        "WITH RECURSIVE k(v) AS (
             SELECT min(action) FROM audit_log
             UNION ALL
             SELECT (SELECT min(action) FROM audit_log WHERE action > k.v) FROM k WHERE k.v IS NOT NULL)
         SELECT v FROM k WHERE v IS NOT NULL",
    )
    .fetch_all(db)
    .await?;
    let object_types = sqlx::query_scalar(
        "WITH RECURSIVE k(v) AS (
             SELECT min(object_type) FROM audit_log WHERE object_type IS NOT NULL
             UNION ALL
             SELECT (SELECT min(object_type) FROM audit_log WHERE object_type > k.v) FROM k WHERE k.v IS NOT NULL)
         SELECT v FROM k WHERE v IS NOT NULL",
    )
    .fetch_all(db)
    .await?;
    Ok(Vocabulary {
        actions,
        object_types,
    })
}

/// The page's statement (also used to `EXPLAIN` it).
pub fn statement(c: &Checked, vocabulary: &Vocabulary) -> QueryBuilder<'static, Postgres> {
    let mut q: QueryBuilder<Postgres> = QueryBuilder::new(
        "SELECT a.at, u.display_name AS actor, a.actor_kind, a.action, a.object_type, a.object_id,
                CASE WHEN a.summary_of IS NOT NULL THEN (a.details->>'summarised')::bigint END AS summarised
           FROM audit_log a LEFT JOIN users u ON u.id = a.actor_id
          WHERE a.actor_kind = ANY(",
    );
    q.push_bind(
        c.actor_kinds
            .iter()
            .map(|k| k.to_string())
            .collect::<Vec<_>>(),
    );
    q.push(")");
    if let Some(member) = c.member {
        q.push(" AND a.actor_id = ").push_bind(member);
    }
    if !c.areas.is_empty() {
        // The family's keys as the log holds them: `action = ANY(…)` can
        // walk the (action, at) index, where a prefix match could not.
        let keys: Vec<String> = vocabulary
            .actions
            .iter()
            .filter(|key| {
                key.split_once('.')
                    .is_some_and(|(area, _)| c.areas.contains(&area))
            })
            .cloned()
            .collect();
        q.push(" AND a.action = ANY(").push_bind(keys).push(")");
    }
    match c.period {
        Some("aujourdhui") => {
            q.push(" AND a.at >= date_trunc('day', now() AT TIME ZONE 'Europe/Paris') AT TIME ZONE 'Europe/Paris'");
        }
        Some("7j") => {
            q.push(" AND a.at >= now() - interval '7 days'");
        }
        Some("30j") => {
            q.push(" AND a.at >= now() - interval '30 days'");
        }
        _ => {}
    }
    if let Some(from) = c.from {
        q.push(" AND a.at >= (")
            .push_bind(from)
            .push("::date)::timestamp AT TIME ZONE 'Europe/Paris'");
    }
    if let Some(to) = c.to {
        q.push(" AND a.at < (")
            .push_bind(to)
            .push("::date + 1)::timestamp AT TIME ZONE 'Europe/Paris'");
    }
    if let Some(text) = &c.text {
        let like = pattern(text);
        let wanted = folded(text);
        let actions: Vec<String> = vocabulary
            .actions
            .iter()
            .filter(|key| folded(labels::action(key)).contains(&wanted))
            .cloned()
            .collect();
        let objects: Vec<String> = vocabulary
            .object_types
            .iter()
            .filter(|kind| folded(&labels::object(kind, None)).contains(&wanted))
            .cloned()
            .collect();
        q.push(" AND (u.display_name ILIKE ")
            .push_bind(like.clone())
            .push(" OR u.email ILIKE ")
            .push_bind(like.clone())
            .push(" OR a.action = ANY(")
            .push_bind(actions)
            .push(") OR a.object_type = ANY(")
            .push_bind(objects)
            .push(") OR (a.object_type = 'request' AND a.object_id IN (SELECT id FROM requests WHERE reference ILIKE ")
            .push_bind(like.clone())
            .push(")) OR a.details::text ILIKE ")
            .push_bind(like)
            .push(")");
    }
    q.push(" ORDER BY a.at DESC, a.id DESC LIMIT ")
        .push_bind(i64::from(JOURNAL_PAGE_SIZE) + 1)
        .push(" OFFSET ")
        .push_bind(i64::from(c.page - 1) * i64::from(JOURNAL_PAGE_SIZE));
    q
}

/// The page's rows, and whether another page follows.
pub async fn page(db: &PgPool, c: &Checked) -> Result<(Vec<Row>, bool), AppError> {
    let vocabulary = if c.areas.is_empty() && c.text.is_none() {
        Vocabulary {
            actions: Vec::new(),
            object_types: Vec::new(),
        }
    } else {
        vocabulary(db).await.map_err(crate::db::app_error)?
    };
    let mut rows: Vec<Row> = statement(c, &vocabulary)
        .build_query_as()
        .fetch_all(db)
        .await
        .map_err(crate::db::app_error)?;
    let has_next = rows.len() > JOURNAL_PAGE_SIZE as usize;
    rows.truncate(JOURNAL_PAGE_SIZE as usize);
    Ok((rows, has_next))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_family_is_its_areas() {
        let c = check(&JournalFilters {
            family: "playbooks".into(),
            ..Default::default()
        })
        .unwrap();
        assert_eq!(c.areas, ["playbook", "playbooks"]);
    }

    #[test]
    fn unknown_values_are_refused_in_french() {
        for filters in [
            JournalFilters {
                family: "tout".into(),
                ..Default::default()
            },
            JournalFilters {
                period: "hier".into(),
                ..Default::default()
            },
            JournalFilters {
                member: "camille".into(),
                ..Default::default()
            },
            JournalFilters {
                from: "06/12/2026".into(),
                ..Default::default()
            },
            JournalFilters {
                from: "2026-12-06".into(),
                to: "2026-12-01".into(),
                ..Default::default()
            },
        ] {
            let error = check(&filters).unwrap_err();
            assert_eq!(error.status_code(), 400, "{filters:?}");
        }
    }

    #[test]
    fn words_are_found_without_accents_and_wildcards_are_literal() {
        assert_eq!(folded("Échec"), "echec");
        assert_eq!(pattern("50%_a"), "%50\\%\\_a%");
    }
}
