//! Times as the team reads them: Paris wall-clock time (« 12/11/2026
//! 14:05 »). The EU summer-time rule (in force since 1996: from the last
//! Sunday of March to the last Sunday of October, both at 01:00 UTC) rather
//! than a time-zone database for one zone, as the memory's dates do.
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc, Weekday};

fn last_sunday(year: i32, month: u32) -> Option<NaiveDate> {
    let first_of_next = NaiveDate::from_ymd_opt(year, month + 1, 1)?;
    let mut d = first_of_next.pred_opt()?;
    while d.weekday() != Weekday::Sun {
        d = d.pred_opt()?;
    }
    Some(d)
}

/// Paris' offset from UTC at `t`, in hours.
fn offset_hours(t: DateTime<Utc>) -> i64 {
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

/// « 12/11/2026 14:05 », Paris time.
pub fn time(t: DateTime<Utc>) -> String {
    (t + Duration::hours(offset_hours(t)))
        .format("%d/%m/%Y %H:%M")
        .to_string()
}

/// « 12/11 » of a day.
pub fn day_month(d: NaiveDate) -> String {
    d.format("%d/%m").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(s: &str) -> DateTime<Utc> {
        s.parse().unwrap()
    }

    #[test]
    fn winter_is_one_hour_ahead_and_summer_two() {
        assert_eq!(time(utc("2026-01-15T13:05:00Z")), "15/01/2026 14:05");
        assert_eq!(time(utc("2026-07-01T22:30:00Z")), "02/07/2026 00:30");
    }

    #[test]
    fn the_clocks_change_at_one_utc_on_the_last_sundays() {
        // 29 March 2026 and 25 October 2026 are the last Sundays.
        assert_eq!(time(utc("2026-03-29T00:59:00Z")), "29/03/2026 01:59");
        assert_eq!(time(utc("2026-03-29T01:00:00Z")), "29/03/2026 03:00");
        assert_eq!(time(utc("2026-10-25T00:59:00Z")), "25/10/2026 02:59");
        assert_eq!(time(utc("2026-10-25T01:00:00Z")), "25/10/2026 02:00");
    }
}
