//! Relative dates in memory questions (seed 003: « cette semaine » must find
//! « lundi 9 juin »). An embedding cannot know what « jeudi » means today,
//! so the search reads the question's time expression into a window of
//! days, and a memory or reminder counts as *in the window* when its due
//! date, or a date its text names (« jeudi 10 décembre », « le 8/12 »),
//! falls inside. The ranking then lifts those rows ([`super::ranking`]).
//!
//! Days are Paris days: a reminder due at 23:30 UTC on the 9th is due on
//! the 10th for the team. [`paris_date`] applies the EU summer-time rule
//! (in force since 1996) rather than pulling in a time-zone database for
//! one zone.
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc, Weekday};

/// Days the question is about, both ends included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    pub first: NaiveDate,
    pub last: NaiveDate,
}

impl Window {
    fn new(first: NaiveDate, last: NaiveDate) -> Self {
        Window { first, last }
    }

    fn day(d: NaiveDate) -> Self {
        Window::new(d, d)
    }

    pub fn contains(&self, d: NaiveDate) -> bool {
        self.first <= d && d <= self.last
    }
}

/// The Paris calendar day of an instant.
pub fn paris_date(t: DateTime<Utc>) -> NaiveDate {
    app::fr::to_paris(t).date()
}

/// The window a question's time expression names, seen from `today`;
/// `None` when it names none. The first expression found wins.
pub fn window_in(question: &str, today: NaiveDate) -> Option<Window> {
    let words = words(question);
    let at = |i: usize| words.get(i).map(String::as_str).unwrap_or("");
    for i in 0..words.len() {
        let w = at(i);
        let next = at(i + 1);
        let found = match w {
            "aujourd'hui" | "aujourdhui" | "today" | "tonight" => Some(Window::day(today)),
            "ce" | "cet" | "cette" if matches!(next, "soir" | "matin" | "apres-midi") => {
                Some(Window::day(today))
            }
            "demain" | "tomorrow" if at(i.wrapping_sub(1)) != "apres" => {
                Some(Window::day(today + Duration::days(1)))
            }
            "apres-demain" => Some(Window::day(today + Duration::days(2))),
            "apres" if next == "demain" => Some(Window::day(today + Duration::days(2))),
            "hier" | "yesterday" => Some(Window::day(today - Duration::days(1))),
            "semaine" | "week" => week(today, at(i.wrapping_sub(1)), next),
            "week-end" | "weekend" => Some(weekend(today, next == "prochain")),
            "mois" | "month" => month(today, at(i.wrapping_sub(1)), next),
            "mois-ci" => Some(Window::new(today, last_of_month(today))),
            "fin" if next == "du" && at(i + 2) == "mois" || next == "de" && at(i + 2) == "mois" => {
                let last = last_of_month(today);
                Some(Window::new(
                    (last - Duration::days(6)).max(today),
                    last.max(today),
                ))
            }
            "dans" | "in" => in_n(today, next, at(i + 2)),
            _ => weekday(w).map(|day| {
                let d = next_weekday(today, day);
                let until = matches!(at(i.wrapping_sub(1)), "d'ici" | "avant")
                    || at(i.wrapping_sub(2)) == "d'ici";
                if until {
                    Window::new(today, d)
                } else if next == "prochain" && week_monday(d) == week_monday(today) {
                    // « jeudi prochain » said on a Monday: this Thursday
                    // for some, next week's for others. Both, honestly.
                    Window::new(d, d + Duration::days(7))
                } else {
                    Window::day(d)
                }
            }),
        };
        if found.is_some() {
            return found;
        }
        if let Some(d) = date_at(&words, i, today) {
            return Some(Window::day(d));
        }
    }
    None
}

/// True when `text` names a calendar date inside `window` (« 10 décembre »,
/// « jeudi 10 », « 8/12 », « 08/12/2026 »).
pub fn mentions_date_in(text: &str, window: &Window, today: NaiveDate) -> bool {
    let words = words(text);
    (0..words.len()).any(|i| date_at(&words, i, today).is_some_and(|d| window.contains(d)))
}

/// Lower-case, unaccented words (the gazetteer's folding,
/// [`app::geo::fold_char_into`]); apostrophes and hyphens kept inside
/// words, where the gazetteer turns them into spaces.
fn words(text: &str) -> Vec<String> {
    let mut folded = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '’' => folded.push('\''),
            c => app::geo::fold_char_into(c, &mut folded),
        }
    }
    folded
        .split(|c: char| !(c.is_alphanumeric() || matches!(c, '\'' | '-' | '/' | '.')))
        .map(|w| {
            w.trim_matches(|c| matches!(c, '\'' | '-' | '.'))
                .to_string()
        })
        .filter(|w| !w.is_empty())
        .collect()
}

fn week(today: NaiveDate, before: &str, after: &str) -> Option<Window> {
    let monday = week_monday(today);
    let sunday = monday + Duration::days(6);
    match (before, after) {
        (_, "prochaine") | ("prochaine", _) | ("next", _) => Some(Window::new(
            monday + Duration::days(7),
            sunday + Duration::days(7),
        )),
        (_, "derniere") | ("derniere", _) | ("last", _) => Some(Window::new(
            monday - Duration::days(7),
            sunday - Duration::days(7),
        )),
        ("cette" | "this", _) => Some(Window::new(today, sunday)),
        _ => None,
    }
}

fn weekend(today: NaiveDate, next: bool) -> Window {
    let saturday = week_monday(today) + Duration::days(5);
    let saturday = if next {
        saturday + Duration::days(7)
    } else {
        saturday
    };
    Window::new(saturday.max(today), saturday + Duration::days(1))
}

fn month(today: NaiveDate, before: &str, after: &str) -> Option<Window> {
    let first_next = last_of_month(today) + Duration::days(1);
    match (before, after) {
        (_, "prochain") | ("next", _) => Some(Window::new(first_next, last_of_month(first_next))),
        ("ce" | "this", _) => Some(Window::new(today, last_of_month(today))),
        _ => None,
    }
}

/// « dans 3 jours », « dans quinze jours », « dans 2 semaines »: the day,
/// give or take a little (people round).
fn in_n(today: NaiveDate, number: &str, unit: &str) -> Option<Window> {
    let n: i64 = match number {
        "un" | "une" => 1,
        "deux" => 2,
        "trois" => 3,
        "quatre" => 4,
        "cinq" => 5,
        "six" => 6,
        "huit" => 8,
        "dix" => 10,
        "quinze" => 15,
        n => n.parse().ok().filter(|n| (1..=365).contains(n))?,
    };
    let (days, slack) = match unit {
        // A fifth either side, at most a week: « dans 365 jours » is
        // around a day a year away, not a five-month window.
        "jour" | "jours" | "day" | "days" => (n, (n / 5).clamp(1, 7)),
        "semaine" | "semaines" | "week" | "weeks" => (n * 7, 2),
        "mois" | "month" | "months" => (n * 30, 5),
        _ => return None,
    };
    let day = today + Duration::days(days);
    Some(Window::new(
        day - Duration::days(slack),
        day + Duration::days(slack),
    ))
}

fn weekday(word: &str) -> Option<Weekday> {
    Some(match word {
        "lundi" | "monday" => Weekday::Mon,
        "mardi" | "tuesday" => Weekday::Tue,
        "mercredi" | "wednesday" => Weekday::Wed,
        "jeudi" | "thursday" => Weekday::Thu,
        "vendredi" | "friday" => Weekday::Fri,
        "samedi" | "saturday" => Weekday::Sat,
        "dimanche" | "sunday" => Weekday::Sun,
        _ => return None,
    })
}

/// The first `day` strictly after `today`.
fn next_weekday(today: NaiveDate, day: Weekday) -> NaiveDate {
    let ahead =
        (7 + day.num_days_from_monday() as i64 - today.weekday().num_days_from_monday() as i64) % 7;
    today + Duration::days(if ahead == 0 { 7 } else { ahead })
}

fn week_monday(d: NaiveDate) -> NaiveDate {
    d - Duration::days(d.weekday().num_days_from_monday() as i64)
}

fn last_of_month(d: NaiveDate) -> NaiveDate {
    let (y, m) = if d.month() == 12 {
        (d.year() + 1, 1)
    } else {
        (d.year(), d.month() + 1)
    };
    NaiveDate::from_ymd_opt(y, m, 1)
        .and_then(|d| d.pred_opt())
        .unwrap_or(d)
}

fn month_number(word: &str) -> Option<u32> {
    let word = word.trim_end_matches('.');
    Some(match word {
        "janvier" | "janv" | "jan" | "january" => 1,
        "fevrier" | "fevr" | "fev" | "february" | "feb" => 2,
        "mars" | "march" | "mar" => 3,
        "avril" | "avr" | "april" | "apr" => 4,
        "mai" | "may" => 5,
        "juin" | "june" | "jun" => 6,
        "juillet" | "juil" | "july" | "jul" => 7,
        "aout" | "august" | "aug" => 8,
        "septembre" | "sept" | "sep" | "september" => 9,
        "octobre" | "oct" | "october" => 10,
        "novembre" | "nov" | "november" => 11,
        "decembre" | "dec" | "december" => 12,
        _ => return None,
    })
}

/// A date starting at word `i`: « 10 décembre [2026] », « 1er décembre »,
/// « 10/12[/2026] », « 10.12 ». A date without a year is the occurrence
/// nearest to `today`.
fn date_at(words: &[String], i: usize, today: NaiveDate) -> Option<NaiveDate> {
    let w = words[i].as_str();
    if let Some(d) = numeric_date(w, today) {
        return Some(d);
    }
    let day: u32 = w.strip_suffix("er").unwrap_or(w).parse().ok()?;
    let month = month_number(words.get(i + 1)?)?;
    let year = words
        .get(i + 2)
        .and_then(|y| y.parse::<i32>().ok())
        .filter(|y| (2000..=2100).contains(y));
    dated(day, month, year, today)
}

fn numeric_date(w: &str, today: NaiveDate) -> Option<NaiveDate> {
    let sep = if w.contains('/') { '/' } else { '.' };
    // « 13.12 » is a date, « 1.5 » (a budget, a ratio) is not.
    if sep == '.' && !w.split('.').take(2).all(|p| p.len() == 2) {
        return None;
    }
    let mut parts = w.split(sep);
    let day: u32 = parts.next()?.parse().ok()?;
    let month: u32 = parts.next()?.parse().ok()?;
    let year = match parts.next() {
        None => None,
        Some(y) => {
            let y: i32 = y.parse().ok()?;
            Some(if y < 100 { 2000 + y } else { y })
        }
    };
    if parts.next().is_some() || !(1..=12).contains(&month) {
        return None;
    }
    dated(day, month, year, today)
}

fn dated(day: u32, month: u32, year: Option<i32>, today: NaiveDate) -> Option<NaiveDate> {
    match year {
        Some(y) => NaiveDate::from_ymd_opt(y, month, day),
        None => [today.year() - 1, today.year(), today.year() + 1]
            .into_iter()
            .filter_map(|y| NaiveDate::from_ymd_opt(y, month, day))
            .min_by_key(|d| (*d - today).num_days().abs()),
    }
}

#[cfg(test)]
mod proptests;

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
    }

    /// Monday 7 December 2026.
    const TODAY: &str = "2026-12-07";

    fn window(q: &str) -> Option<(String, String)> {
        window_in(q, d(TODAY)).map(|w| (w.first.to_string(), w.last.to_string()))
    }

    fn pair(a: &str, b: &str) -> Option<(String, String)> {
        Some((a.to_string(), b.to_string()))
    }

    #[test]
    fn days_weeks_and_months_from_a_monday() {
        assert_eq!(
            window("qu'ai-je demain ?"),
            pair("2026-12-08", "2026-12-08")
        );
        assert_eq!(window("et après-demain"), pair("2026-12-09", "2026-12-09"));
        assert_eq!(window("Aujourd’hui ?"), pair("2026-12-07", "2026-12-07"));
        assert_eq!(
            window("des visites cette semaine ?"),
            pair("2026-12-07", "2026-12-13")
        );
        assert_eq!(
            window("la semaine prochaine"),
            pair("2026-12-14", "2026-12-20")
        );
        assert_eq!(window("ce week-end"), pair("2026-12-12", "2026-12-13"));
        assert_eq!(window("fin du mois"), pair("2026-12-25", "2026-12-31"));
        assert_eq!(window("le mois prochain"), pair("2027-01-01", "2027-01-31"));
        assert_eq!(window("ce mois-ci"), pair("2026-12-07", "2026-12-31"));
        assert_eq!(window("jeudi"), pair("2026-12-10", "2026-12-10"));
        assert_eq!(window("lundi prochain"), pair("2026-12-14", "2026-12-14"));
        assert_eq!(
            window("jeudi prochain"),
            pair("2026-12-10", "2026-12-17"),
            "ambiguous on a Monday: both Thursdays"
        );
        assert_eq!(window("d'ici vendredi"), pair("2026-12-07", "2026-12-11"));
        assert_eq!(window("dans 15 jours"), pair("2026-12-19", "2026-12-25"));
        // Found by the property test: a far day keeps a narrow window.
        assert_eq!(window("dans 365 jours"), pair("2027-11-30", "2027-12-14"));
        assert_eq!(
            window("dans deux semaines"),
            pair("2026-12-19", "2026-12-23")
        );
        assert_eq!(window("le 10 décembre"), pair("2026-12-10", "2026-12-10"));
        assert_eq!(window("quel traiteur pour Kalisto ?"), None);
        assert_eq!(window("une semaine de séminaire"), None);
    }

    #[test]
    fn dates_named_in_a_text() {
        let w = window_in("cette semaine", d(TODAY)).unwrap();
        let today = d(TODAY);
        assert!(mentions_date_in(
            "visite jeudi 10 décembre à 14 h",
            &w,
            today
        ));
        assert!(mentions_date_in("rappeler le 8/12", &w, today));
        assert!(mentions_date_in(
            "le 1er décembre… puis le 13.12",
            &w,
            today
        ));
        assert!(!mentions_date_in("visite le 21 décembre", &w, today));
        assert!(!mentions_date_in("120 personnes, 3 salles", &w, today));
        assert!(!mentions_date_in("devis 12/2026", &w, today));
        assert!(!mentions_date_in("budget 1.5 fois", &w, today));
        // A date without a year is the nearest occurrence: early January
        // seen from December is next year's.
        let jan = window_in("le mois prochain", today).unwrap();
        assert!(mentions_date_in("lancement le 14 janvier", &jan, today));
    }

    #[test]
    fn paris_days() {
        let t = |s: &str| DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc);
        assert_eq!(paris_date(t("2026-12-09T23:30:00Z")), d("2026-12-10"));
        assert_eq!(paris_date(t("2026-12-09T22:30:00Z")), d("2026-12-09"));
        assert_eq!(paris_date(t("2026-07-09T22:30:00Z")), d("2026-07-10"));
        assert_eq!(paris_date(t("2026-07-09T21:30:00Z")), d("2026-07-09"));
        // 2026: summer time from 29 March to 25 October.
        assert_eq!(paris_date(t("2026-03-29T00:30:00Z")), d("2026-03-29"));
        assert_eq!(paris_date(t("2026-10-24T22:30:00Z")), d("2026-10-25"));
    }
}
