//! The offline extractor: explicit statements in the team member's own
//! words (« retiens que … », « n'oublie pas … », « note que … »,
//! « souviens-toi … », « rappelle-moi … », English « remember that … »,
//! « remind me to … »). What follows the phrase, up to the end of the
//! sentence, is the fact. « rappelle-moi » / « remind me » with a date
//! we recognise (« demain », « lundi », « le 12/03 », « 2026-03-12 »…)
//! becomes a reminder; without one, a memory. Nothing else is guessed:
//! an extractor that invents facts would be worse than none.
use chrono::{DateTime, Datelike, Duration, NaiveDate, NaiveTime, TimeZone, Utc};

/// A fact found in a message.
#[derive(Clone, Debug, PartialEq)]
pub enum Fact {
    Memory { content: String },
    Reminder { title: String, due: DateTime<Utc> },
}

/// The phrases that introduce a fact (ASCII, matched case-insensitively),
/// longest first so « n'oublie pas que » wins over « n'oublie pas ».
/// `true`: a reminder phrase.
const TRIGGERS: &[(&str, bool)] = &[
    ("souvenez-vous que ", false),
    ("souviens-toi que ", false),
    ("souviens toi que ", false),
    ("n'oublie pas que ", false),
    ("n'oubliez pas que ", false),
    ("rappelle-moi que ", false),
    ("rappelez-moi que ", false),
    ("rappelle-moi de ", true),
    ("rappelle-moi d'", true),
    ("rappelez-moi de ", true),
    ("rappelle moi de ", true),
    ("rappelle-moi ", true),
    ("rappelez-moi ", true),
    ("n'oublie pas de ", false),
    ("n'oublie pas ", false),
    ("n'oubliez pas ", false),
    ("retiens bien que ", false),
    ("retenez que ", false),
    ("retiens que ", false),
    ("note bien que ", false),
    ("notez que ", false),
    ("note que ", false),
    ("souviens-toi ", false),
    ("remember that ", false),
    ("remind me that ", false),
    ("remind me to ", true),
    ("remind me ", true),
];

/// Shortest fact kept (characters): « ok » is not a fact.
const MIN_CHARS: usize = 3;

/// The facts stated in `text` (a user's message), with dates relative
/// to `now`.
pub fn extract(text: &str, now: DateTime<Utc>) -> Vec<Fact> {
    let text = text.replace(['’', 'ʼ', '`'], "'");
    let mut facts = Vec::new();
    let mut from = 0;
    while let Some((start, trigger, reminder)) = find_trigger(&text, from) {
        let body_start = start + trigger.len();
        let (body, end) = sentence(&text, body_start);
        from = end.max(body_start);
        let body = clean(body);
        if body.chars().count() < MIN_CHARS {
            continue;
        }
        let body = clip(&body, crate::memory::MAX_CONTENT_CHARS);
        let fact = match (reminder, due_date(&body, now)) {
            (true, Some(due)) => Fact::Reminder {
                title: clip(&body, crate::memory::MAX_TITLE_CHARS),
                due,
            },
            _ => Fact::Memory { content: body },
        };
        if !facts.contains(&fact) {
            facts.push(fact);
        }
    }
    facts
}

/// The first trigger at or after byte `from`, at a word start.
fn find_trigger(text: &str, from: usize) -> Option<(usize, &'static str, bool)> {
    let bytes = text.as_bytes();
    for (i, _) in text.char_indices().filter(|(i, _)| *i >= from) {
        let at_word_start = text[..i]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        if !at_word_start {
            continue;
        }
        for &(trigger, reminder) in TRIGGERS {
            let t = trigger.as_bytes();
            if bytes.len() - i >= t.len() && bytes[i..i + t.len()].eq_ignore_ascii_case(t) {
                return Some((i, trigger, reminder));
            }
        }
    }
    None
}

/// The sentence from byte `start`: up to a line break, `!`, `?`, or a
/// `.` followed by a space or the end (« 1.5 » stays whole). Returns the
/// sentence and the byte where it ends.
fn sentence(text: &str, start: usize) -> (&str, usize) {
    let rest = &text[start..];
    let mut chars = rest.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let ends = match c {
            '\n' | '\r' | '!' | '?' => true,
            '.' => chars.peek().is_none_or(|(_, n)| n.is_whitespace()),
            _ => false,
        };
        if ends {
            return (&rest[..i], start + i + c.len_utf8());
        }
    }
    (rest, text.len())
}

/// Trimmed of spaces, quotes and a trailing comma; first letter upper-case.
fn clean(body: &str) -> String {
    let body = body
        .trim()
        .trim_matches(|c: char| c.is_whitespace() || matches!(c, '"' | '«' | '»' | ',' | ':' | ';'))
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let mut chars = body.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((cut, _)) => text[..cut].trim_end().to_string(),
        None => text.to_string(),
    }
}

const WEEKDAYS: &[(&str, u32)] = &[
    ("lundi", 0),
    ("mardi", 1),
    ("mercredi", 2),
    ("jeudi", 3),
    ("vendredi", 4),
    ("samedi", 5),
    ("dimanche", 6),
    ("monday", 0),
    ("tuesday", 1),
    ("wednesday", 2),
    ("thursday", 3),
    ("friday", 4),
    ("saturday", 5),
    ("sunday", 6),
];

/// A date we recognise in `text`, at 08:00 UTC; `None` otherwise.
pub fn due_date(text: &str, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
    let lower = text.to_lowercase();
    let today = now.date_naive();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || matches!(c, '/' | '-' | 'è')))
        .filter(|w| !w.is_empty())
        .collect();
    let day = words.iter().enumerate().find_map(|(i, w)| {
        let next = words.get(i + 1).copied().unwrap_or_default();
        match *w {
            "après-demain" => Some(today + Duration::days(2)),
            "demain" | "tomorrow" => Some(today + Duration::days(1)),
            "semaine" if next == "prochaine" => Some(next_weekday(today, 0)),
            "next" if next == "week" => Some(next_weekday(today, 0)),
            "dans" | "in" => {
                let n: i64 = next.parse().ok()?;
                let unit = words.get(i + 2).copied().unwrap_or_default();
                let per = match unit {
                    "jour" | "jours" | "day" | "days" => 1,
                    "semaine" | "semaines" | "week" | "weeks" => 7,
                    _ => return None,
                };
                (1..=365)
                    .contains(&(n * per))
                    .then(|| today + Duration::days(n * per))
            }
            w => WEEKDAYS
                .iter()
                .find(|(name, _)| *name == w)
                .map(|(_, d)| next_weekday(today, *d))
                .or_else(|| numeric_date(w, today)),
        }
    })?;
    let time = NaiveTime::from_hms_opt(8, 0, 0)?;
    Some(Utc.from_utc_datetime(&day.and_time(time)))
}

/// The next `weekday` (0 = Monday) strictly after `today`.
fn next_weekday(today: NaiveDate, weekday: u32) -> NaiveDate {
    let current = today.weekday().num_days_from_monday();
    let ahead = (i64::from(weekday) - i64::from(current)).rem_euclid(7);
    today + Duration::days(if ahead == 0 { 7 } else { ahead })
}

/// `2026-03-12`, `12/03/2026`, `12/03` (the next such day).
fn numeric_date(word: &str, today: NaiveDate) -> Option<NaiveDate> {
    if let Ok(d) = NaiveDate::parse_from_str(word, "%Y-%m-%d") {
        return Some(d);
    }
    if let Ok(d) = NaiveDate::parse_from_str(word, "%d/%m/%Y") {
        return Some(d);
    }
    let (d, m) = word.split_once('/')?;
    let (d, m): (u32, u32) = (d.parse().ok()?, m.parse().ok()?);
    let this_year = NaiveDate::from_ymd_opt(today.year(), m, d)?;
    if this_year >= today {
        Some(this_year)
    } else {
        NaiveDate::from_ymd_opt(today.year() + 1, m, d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> DateTime<Utc> {
        // Tuesday 1 December 2026.
        Utc.with_ymd_and_hms(2026, 12, 1, 15, 0, 0).unwrap()
    }

    fn memory(content: &str) -> Fact {
        Fact::Memory {
            content: content.into(),
        }
    }

    #[test]
    fn explicit_statements_become_memories() {
        let facts = extract(
            "Bonjour. Retiens que le Pavillon Royal ne prend plus de groupes le dimanche. \
             Et n’oublie pas que Mme Konan préfère les rooftops ! Merci",
            now(),
        );
        assert_eq!(
            facts,
            vec![
                memory("Le Pavillon Royal ne prend plus de groupes le dimanche"),
                memory("Mme Konan préfère les rooftops"),
            ]
        );
        assert_eq!(
            extract("note que le budget est de 1.5 k€ par tête", now()),
            vec![memory("Le budget est de 1.5 k€ par tête")]
        );
        assert_eq!(
            extract("Please remember that the client is vegan", now()),
            vec![memory("The client is vegan")]
        );
        assert_eq!(
            extract(
                "souviens-toi : paracétamol 1g matin et soir pour migraine",
                now()
            ),
            vec![memory("Paracétamol 1g matin et soir pour migraine")]
        );
    }

    #[test]
    fn reminders_need_a_date() {
        let tomorrow = Utc.with_ymd_and_hms(2026, 12, 2, 8, 0, 0).unwrap();
        assert_eq!(
            extract("Rappelle-moi de relancer le Loft Oberkampf demain", now()),
            vec![Fact::Reminder {
                title: "Relancer le Loft Oberkampf demain".into(),
                due: tomorrow,
            }]
        );
        let monday = Utc.with_ymd_and_hms(2026, 12, 7, 8, 0, 0).unwrap();
        assert!(matches!(
            &extract("remind me to call the barge on Monday", now())[..],
            [Fact::Reminder { due, .. }] if *due == monday
        ));
        let dated = Utc.with_ymd_and_hms(2027, 1, 15, 8, 0, 0).unwrap();
        assert!(matches!(
            &extract("rappelle-moi d'envoyer le devis le 15/01", now())[..],
            [Fact::Reminder { due, .. }] if *due == dated
        ));
        // No date: kept as a memory, not lost.
        assert_eq!(
            extract("rappelle-moi de vérifier l'accès PMR", now()),
            vec![memory("Vérifier l'accès PMR")]
        );
    }

    #[test]
    fn nothing_without_an_explicit_phrase() {
        for text in [
            "",
            "Trouve-moi un lieu pour 180 personnes",
            "les notes que tu as prises",
            "Retiens que ",
            "retiens que ok",
            "prétiens que rien",
        ] {
            assert_eq!(extract(text, now()), vec![], "{text}");
        }
    }

    proptest::proptest! {
        /// Any text: no panic, and every fact is non-empty and bounded.
        #[test]
        fn never_panics(text in "\\PC{0,300}", prefix in "(retiens que |rappelle-moi de |remind me |n'oublie pas |)") {
            let text = format!("{prefix}{text}");
            for fact in extract(&text, now()) {
                match fact {
                    Fact::Memory { content } => {
                        proptest::prop_assert!(content.chars().count() >= MIN_CHARS);
                        proptest::prop_assert!(content.chars().count() <= crate::memory::MAX_CONTENT_CHARS);
                    }
                    Fact::Reminder { title, .. } => {
                        proptest::prop_assert!(!title.trim().is_empty());
                        proptest::prop_assert!(title.chars().count() <= crate::memory::MAX_TITLE_CHARS);
                    }
                }
            }
        }

        #[test]
        fn any_bytes_as_text(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..400)) {
            let text = String::from_utf8_lossy(&bytes);
            let _ = extract(&text, now());
            let _ = due_date(&text, now());
        }
    }
}
