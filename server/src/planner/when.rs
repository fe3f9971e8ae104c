//! Days the team names in a message, read against today (UTC): a
//! reminder's due day (« demain », « lundi », « dans 3 jours », « le
//! 12/12 », « le 3 mars ») and the period of a request list (« ce mois-ci »,
//! « en janvier », « cette semaine », « en 2027 »).
use chrono::{Datelike, Duration, NaiveDate, Weekday};

const MONTHS: &[&str] = &[
    "janvier",
    "fevrier",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "aout",
    "septembre",
    "octobre",
    "novembre",
    "decembre",
];
const DAYS: &[(&str, Weekday)] = &[
    ("lundi", Weekday::Mon),
    ("mardi", Weekday::Tue),
    ("mercredi", Weekday::Wed),
    ("jeudi", Weekday::Thu),
    ("vendredi", Weekday::Fri),
    ("samedi", Weekday::Sat),
    ("dimanche", Weekday::Sun),
];

pub fn today() -> NaiveDate {
    chrono::Utc::now().date_naive()
}

/// The day `w` (folded words) names, from `today`, and the words it took.
pub fn day(w: &[String], today: NaiveDate) -> Option<(NaiveDate, Vec<usize>)> {
    for (i, word) in w.iter().enumerate() {
        let next = w.get(i + 1).map(String::as_str);
        match word.as_str() {
            "aujourd" | "aujourdhui" | "today" => return Some((today, vec![i])),
            "demain" | "tomorrow" => return Some((today + Duration::days(1), vec![i])),
            "apres" if next == Some("demain") => {
                return Some((today + Duration::days(2), vec![i, i + 1]))
            }
            "dans" => {
                let n: i64 = next?.parse().ok().filter(|n| (1..=365).contains(n))?;
                let unit = w.get(i + 2).map(String::as_str)?;
                let days = match unit {
                    "jour" | "jours" => n,
                    "semaine" | "semaines" => 7 * n,
                    "mois" => 30 * n,
                    _ => continue,
                };
                return Some((today + Duration::days(days), vec![i, i + 1, i + 2]));
            }
            "semaine" if next == Some("prochaine") => {
                let to_monday = 7 - i64::from(today.weekday().num_days_from_monday());
                return Some((today + Duration::days(to_monday), vec![i, i + 1]));
            }
            _ => {}
        }
        if let Some((_, weekday)) = DAYS.iter().find(|(name, _)| name == word) {
            let ahead = (7 + i64::from(weekday.num_days_from_monday())
                - i64::from(today.weekday().num_days_from_monday()))
                % 7;
            let ahead = if ahead == 0 { 7 } else { ahead };
            return Some((today + Duration::days(ahead), vec![i]));
        }
        // « le 12/12 », « le 12 12 2026 », « le 3 mars »
        let Ok(d) = word.parse::<u32>() else { continue };
        if !(1..=31).contains(&d)
            || i == 0
            || !matches!(w[i - 1].as_str(), "le" | "du" | "au" | "pour" | "avant")
        {
            continue;
        }
        let (month, used) = match next {
            Some(m) if m.parse::<u32>().is_ok_and(|m| (1..=12).contains(&m)) => {
                (m.parse::<u32>().ok()?, 2)
            }
            Some(m) if MONTHS.contains(&m) => (month_number(m)?, 2),
            _ => continue,
        };
        let year = w
            .get(i + used)
            .and_then(|y| y.parse::<i32>().ok())
            .filter(|y| (2000..=2100).contains(y));
        let mut taken: Vec<usize> = (i - 1..i + used).collect();
        let date = match year {
            Some(y) => {
                taken.push(i + used);
                NaiveDate::from_ymd_opt(y, month, d)?
            }
            None => {
                let this_year = NaiveDate::from_ymd_opt(today.year(), month, d)?;
                if this_year < today {
                    NaiveDate::from_ymd_opt(today.year() + 1, month, d)?
                } else {
                    this_year
                }
            }
        };
        return Some((date, taken));
    }
    None
}

/// A period named in `w`: first and last day, and how to say it.
pub fn period(w: &[String], today: NaiveDate) -> Option<(NaiveDate, NaiveDate, String)> {
    let month_of = |y: i32, m: u32| {
        let first = NaiveDate::from_ymd_opt(y, m, 1)?;
        let next = if m == 12 {
            NaiveDate::from_ymd_opt(y + 1, 1, 1)?
        } else {
            NaiveDate::from_ymd_opt(y, m + 1, 1)?
        };
        Some((first, next - Duration::days(1)))
    };
    let has = |p: &str| super::words::phrase(w, p);
    if has("ce mois") || has("du mois") {
        let (a, b) = month_of(today.year(), today.month())?;
        return Some((a, b, "ce mois-ci".into()));
    }
    if has("mois prochain") {
        let (y, m) = if today.month() == 12 {
            (today.year() + 1, 1)
        } else {
            (today.year(), today.month() + 1)
        };
        let (a, b) = month_of(y, m)?;
        return Some((a, b, "le mois prochain".into()));
    }
    if has("cette semaine") {
        let monday = today - Duration::days(i64::from(today.weekday().num_days_from_monday()));
        return Some((monday, monday + Duration::days(6), "cette semaine".into()));
    }
    if has("semaine prochaine") {
        let monday = today - Duration::days(i64::from(today.weekday().num_days_from_monday()))
            + Duration::days(7);
        return Some((
            monday,
            monday + Duration::days(6),
            "la semaine prochaine".into(),
        ));
    }
    for (i, word) in w.iter().enumerate() {
        if let Some(m) = month_number(word) {
            if i == 0 || !matches!(w[i - 1].as_str(), "en" | "de" | "d" | "pour" | "mois") {
                continue;
            }
            let year = w
                .get(i + 1)
                .and_then(|y| y.parse::<i32>().ok())
                .filter(|y| (2000..=2100).contains(y))
                .unwrap_or(if m < today.month() {
                    today.year() + 1
                } else {
                    today.year()
                });
            let (a, b) = month_of(year, m)?;
            return Some((
                a,
                b,
                format!(
                    "en {} {year}",
                    MONTHS[m as usize - 1]
                        .replace("fevrier", "février")
                        .replace("aout", "août")
                        .replace("decembre", "décembre")
                ),
            ));
        }
        if let Ok(y) = word.parse::<i32>() {
            if (2000..=2100).contains(&y) && i > 0 && w[i - 1] == "en" {
                let a = NaiveDate::from_ymd_opt(y, 1, 1)?;
                let b = NaiveDate::from_ymd_opt(y, 12, 31)?;
                return Some((a, b, format!("en {y}")));
            }
        }
    }
    None
}

fn month_number(word: &str) -> Option<u32> {
    MONTHS
        .iter()
        .position(|m| *m == word)
        .and_then(|i| u32::try_from(i + 1).ok())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::words::words;

    fn friday() -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 12, 4).unwrap_or_default()
    }

    #[test]
    fn due_days() {
        let d = |t: &str| day(&words(t), friday()).map(|(d, _)| d.to_string());
        assert_eq!(
            d("rappelle-moi demain de relancer").as_deref(),
            Some("2026-12-05")
        );
        assert_eq!(d("lundi").as_deref(), Some("2026-12-07"));
        assert_eq!(d("vendredi").as_deref(), Some("2026-12-11"));
        assert_eq!(d("dans 3 jours").as_deref(), Some("2026-12-07"));
        assert_eq!(d("le 12/12").as_deref(), Some("2026-12-12"));
        assert_eq!(d("le 3 mars").as_deref(), Some("2027-03-03"));
        assert_eq!(d("le 3 mars 2027").as_deref(), Some("2027-03-03"));
        assert_eq!(d("la semaine prochaine").as_deref(), Some("2026-12-07"));
        assert_eq!(d("relancer le traiteur"), None);
    }

    #[test]
    fn periods() {
        let p = |t: &str| {
            period(&words(t), friday()).map(|(a, b, s)| (a.to_string(), b.to_string(), s))
        };
        assert_eq!(
            p("demandes de ce mois-ci").map(|x| x.0),
            Some("2026-12-01".into())
        );
        assert_eq!(
            p("demandes en janvier").map(|x| (x.0, x.2)),
            Some(("2027-01-01".into(), "en janvier 2027".into()))
        );
        assert_eq!(
            p("demandes en 2026").map(|x| x.1),
            Some("2026-12-31".into())
        );
        assert_eq!(p("toutes les demandes"), None);
    }
}
