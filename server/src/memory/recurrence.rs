//! Recurrence rules of reminders: the small subset of iCalendar RRULE the
//! product needs (`FREQ=DAILY|WEEKLY|MONTHLY`, `INTERVAL=n`, `BYDAY=MO,TH`
//! for weekly rules). Anything else is refused rather than half-understood:
//! a rule we would misread is a reminder that fires on the wrong day.
use super::MemoryError;
use chrono::{DateTime, Datelike, Days, Months, Utc, Weekday};

/// Longest interval accepted (a yearly reminder is `FREQ=MONTHLY;INTERVAL=12`).
const MAX_INTERVAL: u32 = 366;
/// Occurrences skipped at most when catching up on an overdue task.
const MAX_CATCH_UP: usize = 10_000;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Freq {
    Daily,
    Weekly,
    Monthly,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    pub freq: Freq,
    pub interval: u32,
    /// Weekly rules only; sorted Monday first, no duplicates.
    pub by_day: Vec<Weekday>,
}

fn invalid(why: impl Into<String>) -> MemoryError {
    MemoryError::InvalidRecurrence(why.into())
}

const DAYS: [(&str, Weekday); 7] = [
    ("MO", Weekday::Mon),
    ("TU", Weekday::Tue),
    ("WE", Weekday::Wed),
    ("TH", Weekday::Thu),
    ("FR", Weekday::Fri),
    ("SA", Weekday::Sat),
    ("SU", Weekday::Sun),
];

impl Rule {
    pub fn parse(text: &str) -> Result<Rule, MemoryError> {
        let text = text.trim();
        let text = text
            .strip_prefix("RRULE:")
            .or_else(|| text.strip_prefix("rrule:"))
            .unwrap_or(text);
        let (mut freq, mut interval, mut by_day) = (None, None, None);
        for part in text.split(';').map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| invalid(format!("« {part} » n'a pas la forme CLÉ=VALEUR")))?;
            let (key, value) = (
                key.trim().to_ascii_uppercase(),
                value.trim().to_ascii_uppercase(),
            );
            let repeated = || invalid(format!("{key} est donné deux fois"));
            match key.as_str() {
                "FREQ" => {
                    let f = match value.as_str() {
                        "DAILY" => Freq::Daily,
                        "WEEKLY" => Freq::Weekly,
                        "MONTHLY" => Freq::Monthly,
                        _ => {
                            return Err(invalid(format!(
                                "fréquence « {value} » inconnue (DAILY, WEEKLY ou MONTHLY)"
                            )))
                        }
                    };
                    if freq.replace(f).is_some() {
                        return Err(repeated());
                    }
                }
                "INTERVAL" => {
                    let n: u32 = value
                        .parse()
                        .ok()
                        .filter(|n| (1..=MAX_INTERVAL).contains(n))
                        .ok_or_else(|| {
                            invalid(format!(
                                "INTERVAL doit être un entier de 1 à {MAX_INTERVAL}"
                            ))
                        })?;
                    if interval.replace(n).is_some() {
                        return Err(repeated());
                    }
                }
                "BYDAY" => {
                    let mut days = Vec::new();
                    for code in value.split(',').map(str::trim) {
                        let day = DAYS
                            .iter()
                            .find(|(c, _)| *c == code)
                            .map(|(_, d)| *d)
                            .ok_or_else(|| invalid(format!("jour « {code} » inconnu (MO à SU)")))?;
                        if !days.contains(&day) {
                            days.push(day);
                        }
                    }
                    days.sort_by_key(Weekday::num_days_from_monday);
                    if by_day.replace(days).is_some() {
                        return Err(repeated());
                    }
                }
                _ => return Err(invalid(format!("{key} n'est pas pris en charge"))),
            }
        }
        let freq = freq.ok_or_else(|| invalid("FREQ manque"))?;
        let by_day = by_day.unwrap_or_default();
        if !by_day.is_empty() && freq != Freq::Weekly {
            return Err(invalid("BYDAY ne s'emploie qu'avec FREQ=WEEKLY"));
        }
        Ok(Rule {
            freq,
            interval: interval.unwrap_or(1),
            by_day,
        })
    }

    /// The canonical text stored in `tasks.recurrence`.
    pub fn canonical(&self) -> String {
        let mut text = match self.freq {
            Freq::Daily => "FREQ=DAILY",
            Freq::Weekly => "FREQ=WEEKLY",
            Freq::Monthly => "FREQ=MONTHLY",
        }
        .to_string();
        if self.interval != 1 {
            text.push_str(&format!(";INTERVAL={}", self.interval));
        }
        if !self.by_day.is_empty() {
            let codes: Vec<&str> = self
                .by_day
                .iter()
                .filter_map(|d| DAYS.iter().find(|(_, w)| w == d).map(|(c, _)| *c))
                .collect();
            text.push_str(&format!(";BYDAY={}", codes.join(",")));
        }
        text
    }

    /// The occurrence right after `due` (same time of day, UTC).
    pub fn after(&self, due: DateTime<Utc>) -> Option<DateTime<Utc>> {
        match self.freq {
            Freq::Daily => due.checked_add_days(Days::new(u64::from(self.interval))),
            // Month ends clamp (31 January → 28 or 29 February).
            Freq::Monthly => due.checked_add_months(Months::new(self.interval)),
            Freq::Weekly if self.by_day.is_empty() => {
                due.checked_add_days(Days::new(7 * u64::from(self.interval)))
            }
            Freq::Weekly => {
                let today = due.weekday().num_days_from_monday();
                // A later listed day in the same week…
                if let Some(day) = self
                    .by_day
                    .iter()
                    .map(Weekday::num_days_from_monday)
                    .find(|&d| d > today)
                {
                    return due.checked_add_days(Days::new(u64::from(day - today)));
                }
                // …else the first listed day, `interval` weeks on (weeks start on Monday).
                let first = self.by_day.first()?.num_days_from_monday();
                let to_monday = 7 * u64::from(self.interval) - u64::from(today);
                due.checked_add_days(Days::new(to_monday + u64::from(first)))
            }
        }
    }

    /// The first occurrence after `due` that is later than `now`: completing
    /// a daily reminder three days late schedules tomorrow's, not three
    /// occurrences already past.
    pub fn next(&self, due: DateTime<Utc>, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let mut next = self.after(due)?;
        for _ in 0..MAX_CATCH_UP {
            if next > now {
                return Some(next);
            }
            next = self.after(next)?;
        }
        Some(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(y: i32, m: u32, d: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(y, m, d, 9, 30, 0)
            .single()
            .unwrap_or_default()
    }

    fn rule(text: &str) -> Rule {
        match Rule::parse(text) {
            Ok(r) => r,
            Err(e) => panic!("{text}: {e}"),
        }
    }

    #[test]
    fn supported_rules_parse_to_their_canonical_text() {
        assert_eq!(rule("FREQ=DAILY").canonical(), "FREQ=DAILY");
        assert_eq!(
            rule("freq=weekly; byday=th,mo,mo").canonical(),
            "FREQ=WEEKLY;BYDAY=MO,TH"
        );
        assert_eq!(
            rule("RRULE:FREQ=MONTHLY;INTERVAL=3").canonical(),
            "FREQ=MONTHLY;INTERVAL=3"
        );
        assert_eq!(rule("FREQ=WEEKLY;INTERVAL=1").canonical(), "FREQ=WEEKLY");
    }

    #[test]
    fn everything_else_is_refused() {
        for bad in [
            "",
            "FREQ=YEARLY",
            "FREQ=HOURLY",
            "FREQ=DAILY;BYDAY=MO",
            "FREQ=MONTHLY;BYDAY=MO",
            "FREQ=WEEKLY;BYDAY=XX",
            "FREQ=DAILY;INTERVAL=0",
            "FREQ=DAILY;INTERVAL=-1",
            "FREQ=DAILY;INTERVAL=abc",
            "FREQ=DAILY;INTERVAL=100000",
            "FREQ=DAILY;COUNT=3",
            "FREQ=DAILY;FREQ=WEEKLY",
            "INTERVAL=2",
            "tous les jours",
        ] {
            assert!(
                matches!(Rule::parse(bad), Err(MemoryError::InvalidRecurrence(_))),
                "{bad:?} accepted"
            );
        }
    }

    #[test]
    fn next_occurrences() {
        // 2026-12-03 is a Thursday.
        let thu = at(2026, 12, 3);
        assert_eq!(rule("FREQ=DAILY").after(thu), Some(at(2026, 12, 4)));
        assert_eq!(
            rule("FREQ=DAILY;INTERVAL=3").after(thu),
            Some(at(2026, 12, 6))
        );
        assert_eq!(rule("FREQ=WEEKLY").after(thu), Some(at(2026, 12, 10)));
        assert_eq!(
            rule("FREQ=WEEKLY;BYDAY=MO,FR").after(thu),
            Some(at(2026, 12, 4))
        );
        assert_eq!(
            rule("FREQ=WEEKLY;BYDAY=MO,TH").after(thu),
            Some(at(2026, 12, 7))
        );
        assert_eq!(
            rule("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO").after(thu),
            Some(at(2026, 12, 14))
        );
        assert_eq!(
            rule("FREQ=MONTHLY").after(at(2027, 1, 31)),
            Some(at(2027, 2, 28))
        );
        assert_eq!(
            rule("FREQ=MONTHLY;INTERVAL=12").after(thu),
            Some(at(2027, 12, 3))
        );
    }

    #[test]
    fn an_overdue_task_catches_up_to_the_future() {
        let due = at(2026, 12, 1);
        let now = at(2026, 12, 4);
        assert_eq!(rule("FREQ=DAILY").next(due, now), Some(at(2026, 12, 5)));
        assert_eq!(
            rule("FREQ=DAILY").next(due, at(2026, 11, 1)),
            Some(at(2026, 12, 2))
        );
    }
}
