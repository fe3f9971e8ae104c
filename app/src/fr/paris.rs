//! Dates and times on Paris' clock. Rows store UTC; people read Paris
//! wall-clock time. One zone needs no time-zone database: the EU rule (in
//! force since 1996) puts Paris at UTC+2 from the last Sunday of March to
//! the last Sunday of October, both at 01:00 UTC, and at UTC+1 otherwise.
use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveDateTime, Utc, Weekday};

fn last_sunday(year: i32, month: u32) -> Option<NaiveDate> {
    let first_of_next = NaiveDate::from_ymd_opt(year, month + 1, 1)?;
    let mut d = first_of_next.pred_opt()?;
    while d.weekday() != Weekday::Sun {
        d = d.pred_opt()?;
    }
    Some(d)
}

/// Paris' offset from UTC at `t`, in hours (1 in winter, 2 in summer).
pub fn paris_offset_hours(t: DateTime<Utc>) -> i64 {
    let at_one = |month| {
        last_sunday(t.year(), month)
            .and_then(|d| d.and_hms_opt(1, 0, 0))
            .map(|d| d.and_utc())
    };
    match (at_one(3), at_one(10)) {
        (Some(starts), Some(ends)) if starts <= t && t < ends => 2,
        _ => 1,
    }
}

/// The wall-clock time in Paris at `t`.
pub fn to_paris(t: DateTime<Utc>) -> NaiveDateTime {
    (t + Duration::hours(paris_offset_hours(t))).naive_utc()
}

/// The instant a Paris wall-clock time names (a form's date and time).
/// In the autumn's repeated hour the first (summer) instant is taken; in
/// the spring's skipped hour, the time as if winter still held.
pub fn paris_to_utc(local: NaiveDateTime) -> DateTime<Utc> {
    [2, 1]
        .into_iter()
        .map(|hours| (local - Duration::hours(hours)).and_utc())
        .find(|t| to_paris(*t) == local)
        .unwrap_or_else(|| (local - Duration::hours(1)).and_utc())
}

/// « 06/12/2026 14:05 », Paris time.
pub fn paris_datetime(t: DateTime<Utc>) -> String {
    to_paris(t).format("%d/%m/%Y %H:%M").to_string()
}

/// « 06/12/2026 », the day in Paris.
pub fn paris_date(t: DateTime<Utc>) -> String {
    to_paris(t).format("%d/%m/%Y").to_string()
}

/// « 14:05 », Paris time.
pub fn paris_time(t: DateTime<Utc>) -> String {
    to_paris(t).format("%H:%M").to_string()
}

/// « 06/12/2026 » of a calendar day (an event date: no time, no zone).
pub fn date(d: NaiveDate) -> String {
    d.format("%d/%m/%Y").to_string()
}

/// « 06/12 » of a calendar day.
pub fn day_month(d: NaiveDate) -> String {
    d.format("%d/%m").to_string()
}

const WEEKDAYS: [&str; 7] = [
    "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche",
];
/// The months in lower case, January first.
pub const MONTHS: [&str; 12] = [
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
];

/// « samedi 6 décembre 2026 » (« 1er » on the first of the month).
pub fn long_date(d: NaiveDate) -> String {
    let weekday = WEEKDAYS[d.weekday().num_days_from_monday() as usize];
    let month = MONTHS[d.month0() as usize];
    let day = match d.day() {
        1 => "1er".to_string(),
        n => n.to_string(),
    };
    format!("{weekday} {day} {month} {}", d.year())
}

/// When `t` was or will be, seen from `now`, as the team says it:
/// « à l'instant », « il y a 5 min », « il y a 3 h », « dans 20 min »,
/// « hier à 14:05 », « aujourd'hui à 09:30 », « demain à 09:00 », else
/// « 06/12/2026 14:05 ». Pass `now` from the server: a page rendered there
/// and hydrated later must read the same.
pub fn relative(t: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let minutes = (now - t).num_minutes();
    match minutes {
        0 => return "à l'instant".to_string(),
        1..=59 => return format!("il y a {minutes}{}min", super::UNIT),
        -59..=-1 => return format!("dans {}{}min", -minutes, super::UNIT),
        60..=359 => return format!("il y a {}{}h", minutes / 60, super::UNIT),
        _ => {}
    }
    let days = (to_paris(t).date() - to_paris(now).date()).num_days();
    let at = paris_time(t);
    match days {
        -1 => format!("hier à {at}"),
        0 => format!("aujourd'hui à {at}"),
        1 => format!("demain à {at}"),
        _ => paris_datetime(t),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn utc(s: &str) -> DateTime<Utc> {
        s.parse().unwrap()
    }

    #[test]
    fn winter_is_one_hour_ahead_and_summer_two() {
        assert_eq!(
            paris_datetime(utc("2026-01-15T13:05:00Z")),
            "15/01/2026 14:05"
        );
        assert_eq!(
            paris_datetime(utc("2026-07-01T22:30:00Z")),
            "02/07/2026 00:30"
        );
        assert_eq!(paris_date(utc("2026-12-31T23:30:00Z")), "01/01/2027");
        assert_eq!(paris_time(utc("2026-12-06T13:05:00Z")), "14:05");
    }

    #[test]
    fn the_clocks_change_at_one_utc_on_the_last_sundays() {
        // 29 March 2026 and 25 October 2026 are the last Sundays.
        assert_eq!(
            paris_datetime(utc("2026-03-29T00:59:00Z")),
            "29/03/2026 01:59"
        );
        assert_eq!(
            paris_datetime(utc("2026-03-29T01:00:00Z")),
            "29/03/2026 03:00"
        );
        assert_eq!(
            paris_datetime(utc("2026-10-25T00:59:00Z")),
            "25/10/2026 02:59"
        );
        assert_eq!(
            paris_datetime(utc("2026-10-25T01:00:00Z")),
            "25/10/2026 02:00"
        );
        // 2027: 28 March and 31 October (a month ending on its last Sunday).
        assert_eq!(paris_offset_hours(utc("2027-03-28T00:59:59Z")), 1);
        assert_eq!(paris_offset_hours(utc("2027-03-28T01:00:00Z")), 2);
        assert_eq!(paris_offset_hours(utc("2027-10-31T00:59:59Z")), 2);
        assert_eq!(paris_offset_hours(utc("2027-10-31T01:00:00Z")), 1);
    }

    #[test]
    fn paris_wall_clock_times_name_their_instant() {
        let local = |s: &str| NaiveDateTime::parse_from_str(s, "%Y-%m-%d %H:%M").unwrap();
        assert_eq!(
            paris_to_utc(local("2026-12-03 09:00")),
            utc("2026-12-03T08:00:00Z")
        );
        assert_eq!(
            paris_to_utc(local("2026-07-03 09:00")),
            utc("2026-07-03T07:00:00Z")
        );
        // 25 October 2026: 02:30 happens twice; the first is summer time.
        assert_eq!(
            paris_to_utc(local("2026-10-25 02:30")),
            utc("2026-10-25T00:30:00Z")
        );
        // 29 March 2026: 02:30 never happens.
        assert_eq!(
            paris_to_utc(local("2026-03-29 02:30")),
            utc("2026-03-29T01:30:00Z")
        );
        for t in [
            "2026-03-29T00:59:00Z",
            "2026-03-29T01:00:00Z",
            "2026-10-25T02:00:00Z",
        ] {
            assert_eq!(paris_to_utc(to_paris(utc(t))), utc(t), "{t}");
        }
    }

    #[test]
    fn calendar_days_read_in_french() {
        let d = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
        assert_eq!(date(d(2026, 12, 6)), "06/12/2026");
        assert_eq!(day_month(d(2026, 12, 6)), "06/12");
        assert_eq!(long_date(d(2026, 12, 6)), "dimanche 6 décembre 2026");
        assert_eq!(long_date(d(2026, 8, 1)), "samedi 1er août 2026");
    }

    #[test]
    fn relative_times_count_from_now_on_paris_days() {
        let now = utc("2026-12-06T13:00:00Z"); // 14:00 in Paris
        let plain = |s: String| s.replace('\u{a0}', " ");
        assert_eq!(relative(utc("2026-12-06T12:59:40Z"), now), "à l'instant");
        assert_eq!(
            plain(relative(utc("2026-12-06T12:55:00Z"), now)),
            "il y a 5 min"
        );
        assert_eq!(
            plain(relative(utc("2026-12-06T13:20:00Z"), now)),
            "dans 20 min"
        );
        assert_eq!(
            plain(relative(utc("2026-12-06T10:00:00Z"), now)),
            "il y a 3 h"
        );
        assert_eq!(
            relative(utc("2026-12-06T05:30:00Z"), now),
            "aujourd'hui à 06:30"
        );
        assert_eq!(relative(utc("2026-12-05T22:30:00Z"), now), "hier à 23:30");
        assert_eq!(relative(utc("2026-12-06T23:30:00Z"), now), "demain à 00:30");
        assert_eq!(
            relative(utc("2026-12-01T08:00:00Z"), now),
            "01/12/2026 09:00"
        );
    }
}
