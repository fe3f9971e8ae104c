//! Dates of reminders as people and the model write them: a due date
//! (`YYYY-MM-DD`, optionally a time, or RFC 3339), a recurrence word
//! (none / daily / weekly / monthly → an iCalendar rule), the two snoozes
//! of the page, and « this week ». Dates and times are Paris', as the team
//! lives them (stored in UTC): a bare date means 09:00 in Paris, early
//! enough to be seen on the day.
use app::fr::{paris_to_utc, to_paris};
use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveTime, Utc};

/// The time of day (Paris) a bare date stands for.
const DEFAULT_HOUR: u32 = 9;

/// Why a date or recurrence was refused (French, for the page and the model).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Invalid(pub String);

/// A due date from a date (`YYYY-MM-DD` or RFC 3339) and an optional Paris
/// time (`HH:MM`); `None` when both are blank.
pub fn parse_due(date: &str, time: &str) -> Result<Option<DateTime<Utc>>, Invalid> {
    let (date, time) = (date.trim(), time.trim());
    if date.is_empty() {
        if time.is_empty() {
            return Ok(None);
        }
        return Err(Invalid("une heure sans date d'échéance".into()));
    }
    if let Ok(at) = DateTime::parse_from_rfc3339(date) {
        let at = at.with_timezone(&Utc);
        return within_bounds(at).map(Some);
    }
    let day = NaiveDate::parse_from_str(date, "%Y-%m-%d").map_err(|_| {
        Invalid(format!(
            "date d'échéance invalide « {} » : attendu AAAA-MM-JJ ou RFC 3339",
            crate::tools::output::truncate(date, 40)
        ))
    })?;
    let time = if time.is_empty() {
        NaiveTime::from_hms_opt(DEFAULT_HOUR, 0, 0).unwrap_or_default()
    } else {
        NaiveTime::parse_from_str(time, "%H:%M")
            .or_else(|_| NaiveTime::parse_from_str(time, "%H:%M:%S"))
            .map_err(|_| Invalid("heure invalide : attendu HH:MM".into()))?
    };
    within_bounds(paris_to_utc(day.and_time(time))).map(Some)
}

/// Refuses dates no reminder means (a typo in the year).
fn within_bounds(at: DateTime<Utc>) -> Result<DateTime<Utc>, Invalid> {
    if (2000..=2100).contains(&at.year()) {
        Ok(at)
    } else {
        Err(Invalid(format!(
            "date d'échéance hors limites ({}) : entre 2000 et 2100",
            at.year()
        )))
    }
}

/// The recurrence words, their rule and their French label.
const RULES: &[(&str, &str, &str)] = &[
    ("daily", "FREQ=DAILY", "Chaque jour"),
    ("weekly", "FREQ=WEEKLY", "Chaque semaine"),
    ("monthly", "FREQ=MONTHLY", "Chaque mois"),
];

/// `none` / blank → one-off; `daily`, `weekly`, `monthly` → their rule.
pub fn recurrence(word: &str) -> Result<Option<String>, Invalid> {
    let word = word.trim().to_lowercase();
    if word.is_empty() || word == "none" {
        return Ok(None);
    }
    RULES
        .iter()
        .find(|(w, _, _)| *w == word)
        .map(|(_, rule, _)| Some((*rule).to_string()))
        .ok_or_else(|| {
            Invalid(format!(
                "récurrence inconnue « {} » : none, daily, weekly ou monthly",
                crate::tools::output::truncate(&word, 20)
            ))
        })
}

/// The word of a stored rule (`FREQ=WEEKLY…` → `weekly`), for re-checks.
pub fn word_of(rule: Option<&str>) -> &'static str {
    let Some(rule) = rule else { return "none" };
    RULES
        .iter()
        .find(|(_, r, _)| rule.starts_with(r))
        .map_or("none", |(w, _, _)| w)
}

/// « Chaque semaine »… for a stored rule.
pub fn label_of(rule: &str) -> String {
    RULES
        .iter()
        .find(|(_, r, _)| rule.starts_with(r))
        .map_or_else(|| "Récurrent".to_string(), |(_, _, l)| (*l).to_string())
}

/// Where « Reporter » moves a reminder due at `due` (seen at `now`):
/// `tomorrow` = one day after the later of the two (an overdue reminder
/// does not stay overdue); `monday` = the next Monday after today in
/// Paris, at the reminder's Paris time of day.
pub fn snooze_until(
    now: DateTime<Utc>,
    due: Option<DateTime<Utc>>,
    until: &str,
) -> Result<DateTime<Utc>, Invalid> {
    let base = due.map_or(now, |d| d.max(now));
    match until.trim() {
        "tomorrow" => Ok(base + Duration::days(1)),
        "monday" => {
            let time = due.map_or_else(
                || NaiveTime::from_hms_opt(DEFAULT_HOUR, 0, 0).unwrap_or_default(),
                |d| to_paris(d).time(),
            );
            Ok(paris_to_utc(next_monday(now).and_time(time)))
        }
        other => Err(Invalid(format!(
            "report inconnu « {} » : tomorrow ou monday",
            crate::tools::output::truncate(other, 20)
        ))),
    }
}

/// The Monday after today, in Paris (a week ahead on a Monday).
fn next_monday(now: DateTime<Utc>) -> NaiveDate {
    let today = to_paris(now).date();
    let ahead = 7 - i64::from(today.weekday().num_days_from_monday());
    today + Duration::days(ahead)
}

/// The end of the week of `now` in Paris (next Monday 00:00): « due this
/// week ».
pub fn end_of_week(now: DateTime<Utc>) -> DateTime<Utc> {
    paris_to_utc(next_monday(now).and_time(NaiveTime::MIN))
}

/// « 03/12/2026 09:00 », Paris time.
pub fn format(at: DateTime<Utc>) -> String {
    app::fr::paris_datetime(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s)
            .map(|d| d.with_timezone(&Utc))
            .unwrap()
    }

    #[test]
    fn due_dates() {
        assert_eq!(parse_due("", ""), Ok(None));
        assert_eq!(
            parse_due("2026-12-03", ""),
            Ok(Some(at("2026-12-03T08:00:00Z")))
        );
        assert_eq!(
            parse_due("2026-12-03", "14:30"),
            Ok(Some(at("2026-12-03T13:30:00Z"))),
            "14:30 in Paris"
        );
        assert_eq!(
            parse_due("2026-07-03", ""),
            Ok(Some(at("2026-07-03T07:00:00Z"))),
            "09:00 in Paris, summer"
        );
        assert_eq!(
            parse_due("2026-12-03T10:00:00+01:00", ""),
            Ok(Some(at("2026-12-03T09:00:00Z")))
        );
        assert!(parse_due("03/12/2026", "").is_err());
        assert!(parse_due("2026-02-30", "").is_err());
        assert!(parse_due("2026-12-03", "25:00").is_err());
        assert!(parse_due("", "10:00").is_err());
        assert!(parse_due("9999-01-01", "").is_err());
    }

    #[test]
    fn recurrences() {
        assert_eq!(recurrence("none"), Ok(None));
        assert_eq!(recurrence(""), Ok(None));
        assert_eq!(recurrence("Weekly"), Ok(Some("FREQ=WEEKLY".into())));
        assert!(recurrence("FREQ=SECONDLY").is_err());
        assert_eq!(word_of(Some("FREQ=MONTHLY")), "monthly");
        assert_eq!(word_of(None), "none");
        assert_eq!(label_of("FREQ=DAILY"), "Chaque jour");
    }

    #[test]
    fn snoozes_and_week() {
        // Tuesday 1 December 2026.
        let now = at("2026-12-01T10:00:00Z");
        let overdue = Some(at("2026-11-28T09:00:00Z"));
        assert_eq!(
            snooze_until(now, overdue, "tomorrow"),
            Ok(at("2026-12-02T10:00:00Z"))
        );
        let later = Some(at("2026-12-04T09:00:00Z"));
        assert_eq!(
            snooze_until(now, later, "tomorrow"),
            Ok(at("2026-12-05T09:00:00Z"))
        );
        assert_eq!(
            snooze_until(now, overdue, "monday"),
            Ok(at("2026-12-07T09:00:00Z"))
        );
        assert_eq!(
            snooze_until(now, None, "monday"),
            Ok(at("2026-12-07T08:00:00Z"))
        );
        // On a Monday, « lundi prochain » is a week later.
        let monday = at("2026-12-07T07:00:00Z");
        assert_eq!(
            snooze_until(monday, None, "monday"),
            Ok(at("2026-12-14T08:00:00Z"))
        );
        assert!(snooze_until(now, None, "never").is_err());
        assert_eq!(end_of_week(now), at("2026-12-06T23:00:00Z"));
        // Sunday 23:59 UTC is already Monday in Paris: next week's end.
        assert_eq!(
            end_of_week(at("2026-12-06T23:59:00Z")),
            at("2026-12-13T23:00:00Z")
        );
        assert_eq!(format(at("2026-12-03T08:00:00Z")), "03/12/2026 09:00");
    }
}
