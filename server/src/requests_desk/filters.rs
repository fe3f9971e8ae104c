//! The list's filters, from the URL's raw text to checked values. Every
//! refusal says in French what to fix; nothing here reaches the database.
use app::errors::AppError;
use app::requests::{RequestsQuery, MAX_PAGE, MAX_QUERY_CHARS, STATUSES};
use chrono::{Datelike, NaiveDate};

/// Checked filters.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filters {
    pub status: Option<String>,
    pub pool: Option<String>,
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
    pub text: Option<String>,
    pub mine: bool,
    /// 1-based.
    pub page: u32,
}

fn invalid(text: String) -> AppError {
    AppError::Invalid(text)
}

/// `value` trimmed, `None` when empty.
fn given(value: &str) -> Option<&str> {
    Some(value.trim()).filter(|v| !v.is_empty())
}

/// A quoted echo of what was sent, cut short (a URL can carry anything).
fn echo(value: &str) -> String {
    super::format::cut(value, 40)
}

fn date(label: &str, value: &str) -> Result<Option<NaiveDate>, AppError> {
    let Some(value) = given(value) else {
        return Ok(None);
    };
    NaiveDate::parse_from_str(value, "%Y-%m-%d")
        .ok()
        .filter(|d| (1900..=2200).contains(&d.year()))
        .map(Some)
        .ok_or_else(|| {
            invalid(format!(
                "{label} invalide « {} » : attendu AAAA-MM-JJ (ex. 2026-03-12).",
                echo(value)
            ))
        })
}

/// The first and last day of `AAAA-MM`.
fn month(value: &str) -> Result<Option<(NaiveDate, NaiveDate)>, AppError> {
    let Some(value) = given(value) else {
        return Ok(None);
    };
    let bad = || {
        invalid(format!(
            "Mois invalide « {} » : attendu AAAA-MM (ex. 2026-03).",
            echo(value)
        ))
    };
    let first = NaiveDate::parse_from_str(&format!("{value}-01"), "%Y-%m-%d")
        .ok()
        .filter(|d| (1900..=2200).contains(&d.year()))
        .ok_or_else(bad)?;
    let next = first
        .checked_add_months(chrono::Months::new(1))
        .ok_or_else(bad)?;
    let last = next.pred_opt().ok_or_else(bad)?;
    Ok(Some((first, last)))
}

impl Filters {
    pub fn parse(q: &RequestsQuery) -> Result<Filters, AppError> {
        let status = match given(&q.status) {
            Some(s) if !app::requests::is_status_filter(s) => {
                return Err(invalid(format!(
                    "Statut inconnu « {} ». Statuts possibles : {}, {}.",
                    echo(s),
                    STATUSES.join(", "),
                    app::requests::OPEN
                )))
            }
            s => s.map(str::to_string),
        };
        let pool = match given(&q.pool) {
            Some(p)
                if p.len() > 60
                    || !p
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-') =>
            {
                return Err(invalid(format!("Pool inconnu « {} ».", echo(p))))
            }
            p => p.map(str::to_string),
        };
        let (mut from, mut to) = (date("Date de début", &q.from)?, date("Date de fin", &q.to)?);
        if let Some((first, last)) = month(&q.month)? {
            if from.is_some() || to.is_some() {
                return Err(invalid(
                    "Choisissez un mois ou une période (du… au…), pas les deux.".into(),
                ));
            }
            (from, to) = (Some(first), Some(last));
        }
        if let (Some(f), Some(t)) = (from, to) {
            if f > t {
                return Err(invalid(
                    "La date de début est après la date de fin.".to_string(),
                ));
            }
        }
        let text = match given(&q.q) {
            Some(t) if t.contains('\0') => {
                return Err(invalid(
                    "Le texte recherché contient un caractère invalide.".into(),
                ))
            }
            Some(t) if t.chars().count() > MAX_QUERY_CHARS => {
                return Err(invalid(format!(
                    "Texte recherché trop long ({} caractères, {MAX_QUERY_CHARS} au plus).",
                    t.chars().count()
                )))
            }
            t => t.map(str::to_string),
        };
        let page = match given(&q.page) {
            None => 1,
            Some(p) => match p.parse::<u32>() {
                Ok(n) if (1..=MAX_PAGE).contains(&n) => n,
                Ok(n) if n > MAX_PAGE => {
                    return Err(invalid(format!(
                        "Page {n} trop lointaine (au plus {MAX_PAGE}) : affinez les filtres."
                    )))
                }
                _ => return Err(invalid(format!("Numéro de page invalide « {} ».", echo(p)))),
            },
        };
        Ok(Filters {
            status,
            pool,
            from,
            to,
            text,
            mine: q.mine,
            page,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(f: impl FnOnce(&mut RequestsQuery)) -> Result<Filters, AppError> {
        let mut q = RequestsQuery::default();
        f(&mut q);
        Filters::parse(&q)
    }

    #[test]
    fn empty_filters_are_the_first_page_of_everything() {
        let f = parse(|_| {}).unwrap();
        assert_eq!(
            f,
            Filters {
                page: 1,
                ..Filters::default()
            }
        );
    }

    #[test]
    fn a_month_is_its_first_and_last_day() {
        let f = parse(|q| q.month = "2024-02".into()).unwrap();
        assert_eq!(f.from, NaiveDate::from_ymd_opt(2024, 2, 1));
        assert_eq!(f.to, NaiveDate::from_ymd_opt(2024, 2, 29));
        let f = parse(|q| q.month = "2026-12".into()).unwrap();
        assert_eq!(f.to, NaiveDate::from_ymd_opt(2026, 12, 31));
    }

    #[test]
    fn bad_values_are_refused_with_a_message() {
        type Edit = fn(&mut RequestsQuery);
        let cases: [(&str, Edit); 10] = [
            ("Statut inconnu", |q| q.status = "done".into()),
            ("Pool inconnu", |q| q.pool = "Hôtels; DROP".into()),
            ("Date de début invalide", |q| q.from = "12/03/2026".into()),
            ("Date de fin invalide", |q| q.to = "2026-02-30".into()),
            ("Mois invalide", |q| q.month = "2026-13".into()),
            ("pas les deux", |q| {
                q.month = "2026-03".into();
                q.from = "2026-03-01".into();
            }),
            ("après la date de fin", |q| {
                q.from = "2026-03-02".into();
                q.to = "2026-03-01".into();
            }),
            ("trop long", |q| q.q = "x".repeat(2000)),
            ("trop lointaine", |q| q.page = "100000".into()),
            ("page invalide", |q| q.page = "-1".into()),
        ];
        for (expected, f) in cases {
            match parse(f) {
                Err(AppError::Invalid(text)) => assert!(text.contains(expected), "{text}"),
                other => panic!("{expected}: {other:?}"),
            }
        }
    }
}
