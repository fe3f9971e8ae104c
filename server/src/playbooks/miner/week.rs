//! The miner's weeks: Paris calendar weeks, Monday 00:00 to the next
//! Monday 00:00 (Europe/Paris, summer time included), because the team
//! reads « cette semaine » on its own calendar. A week is 167 hours when
//! summer time starts in it and 169 when it ends.
use crate::memory::dates::paris_date;
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};

/// A half-open span of time `[start, end)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
}

impl Window {
    /// The Paris date of the Monday that starts the window.
    pub fn first_day(&self) -> NaiveDate {
        paris_date(self.start)
    }
}

/// The Paris week that contains `at` (`at` itself included): from its
/// Monday 00:00 to the next Monday 00:00, Paris time.
pub fn week_ending(at: DateTime<Utc>) -> Window {
    let monday = monday_of(paris_date(at));
    Window {
        start: paris_midnight(monday),
        end: paris_midnight(monday + Duration::days(7)),
    }
}

/// The Monday of the week of `day`.
pub fn monday_of(day: NaiveDate) -> NaiveDate {
    day - Duration::days(i64::from(day.weekday().num_days_from_monday()))
}

/// The instant a Paris day starts. Midnight is never skipped nor repeated
/// in Paris (the clocks change at 02:00 and 03:00), so it is the one instant
/// among « midnight minus one or two hours, UTC » whose Paris date is `day`
/// while the second before is the day before.
pub fn paris_midnight(day: NaiveDate) -> DateTime<Utc> {
    let naive = day.and_time(chrono::NaiveTime::MIN).and_utc();
    let starts_day =
        |t: DateTime<Utc>| paris_date(t) == day && paris_date(t - Duration::seconds(1)) != day;
    [1, 2]
        .into_iter()
        .map(|hours| naive - Duration::hours(hours))
        .find(|t| starts_day(*t))
        .unwrap_or(naive - Duration::hours(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(s: &str) -> DateTime<Utc> {
        s.parse().unwrap()
    }

    #[test]
    fn a_winter_week_runs_from_monday_midnight_paris() {
        // Wednesday 15 January 2025.
        let w = week_ending(utc("2025-01-15T10:00:00Z"));
        assert_eq!(w.start, utc("2025-01-12T23:00:00Z"));
        assert_eq!(w.end, utc("2025-01-19T23:00:00Z"));
        assert_eq!(w.first_day(), NaiveDate::from_ymd_opt(2025, 1, 13).unwrap());
    }

    #[test]
    fn a_summer_week_starts_two_hours_before_utc_midnight() {
        let w = week_ending(utc("2025-07-02T12:00:00Z"));
        assert_eq!(w.start, utc("2025-06-29T22:00:00Z"));
        assert_eq!(w.end, utc("2025-07-06T22:00:00Z"));
    }

    #[test]
    fn the_week_summer_time_starts_in_is_167_hours() {
        // Summer time starts on Sunday 30 March 2025 at 01:00 UTC.
        let w = week_ending(utc("2025-03-27T12:00:00Z"));
        assert_eq!(w.start, utc("2025-03-23T23:00:00Z"));
        assert_eq!(w.end, utc("2025-03-30T22:00:00Z"));
        assert_eq!((w.end - w.start).num_hours(), 167);
        // Sunday 23:30 Paris (21:30 UTC) is still that week; 00:30 Paris
        // on Monday (22:30 UTC) is the next one.
        assert_eq!(week_ending(utc("2025-03-30T21:30:00Z")), w);
        assert_eq!(week_ending(utc("2025-03-30T22:30:00Z")).start, w.end);
    }

    #[test]
    fn the_week_summer_time_ends_in_is_169_hours() {
        // Summer time ends on Sunday 26 October 2025 at 01:00 UTC.
        let w = week_ending(utc("2025-10-22T08:00:00Z"));
        assert_eq!(w.start, utc("2025-10-19T22:00:00Z"));
        assert_eq!(w.end, utc("2025-10-26T23:00:00Z"));
        assert_eq!((w.end - w.start).num_hours(), 169);
        assert_eq!(week_ending(utc("2025-10-26T22:59:59Z")), w);
        assert_eq!(week_ending(utc("2025-10-26T23:00:00Z")).start, w.end);
    }

    #[test]
    fn the_edges_belong_to_the_week_they_start() {
        let w = week_ending(utc("2025-01-12T23:00:00Z"));
        assert_eq!(w.start, utc("2025-01-12T23:00:00Z"));
        let before = week_ending(utc("2025-01-12T22:59:59Z"));
        assert_eq!(before.end, w.start);
    }

    #[test]
    fn every_instant_lies_in_its_week() {
        let mut t = utc("2024-01-01T00:00:00Z");
        while t < utc("2026-01-01T00:00:00Z") {
            let w = week_ending(t);
            assert!(w.start <= t && t < w.end, "{t}: {w:?}");
            assert!(matches!((w.end - w.start).num_hours(), 167..=169));
            t += Duration::minutes(437);
        }
    }
}
