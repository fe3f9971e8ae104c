//! Properties of the date reader: whatever a person types, it answers
//! without panicking, with a window no longer than a month; a date written
//! out in full is read back as exactly that day.
use super::*;
use proptest::prelude::*;

/// Words the reader looks for, and their neighbours, so random questions
/// reach every branch; plus numbers and numeric dates of every shape.
const WORDS: &[&str] = &[
    "aujourd'hui",
    "demain",
    "après-demain",
    "après",
    "hier",
    "ce",
    "cet",
    "cette",
    "soir",
    "matin",
    "semaine",
    "week-end",
    "weekend",
    "prochain",
    "prochaine",
    "dernière",
    "mois",
    "mois-ci",
    "fin",
    "du",
    "de",
    "dans",
    "in",
    "jours",
    "jour",
    "semaines",
    "month",
    "d'ici",
    "avant",
    "lundi",
    "mardi",
    "mercredi",
    "jeudi",
    "vendredi",
    "samedi",
    "dimanche",
    "janvier",
    "février",
    "décembre",
    "le",
    "la",
    "quinze",
    "huit",
    "un",
    "une",
    "0",
    "1",
    "29",
    "31",
    "32",
    "365",
    "366",
    "99999999999",
    "-5",
    "29/02",
    "31/04",
    "13.12",
    "1.5",
    "12/13",
    "08/12/2026",
    "1/1/-2147483648",
    "31/12/99",
    "29/02/2100",
    "/",
    ".",
    "//",
    "'",
    "-",
    "’",
    "Noël",
    "RDV",
];

fn question() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => prop::sample::select(WORDS).prop_map(str::to_string),
            1 => "\\PC{0,12}",
        ],
        0..12,
    )
    .prop_map(|words| words.join(" "))
}

fn a_day() -> impl Strategy<Value = NaiveDate> {
    // 1990 to 2100: far from chrono's limits, wider than any use.
    (0i64..40_000).prop_map(|n| NaiveDate::from_ymd_opt(1990, 1, 1).unwrap() + Duration::days(n))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn any_question_gives_no_window_or_one_of_at_most_a_month(q in question(), today in a_day()) {
        if let Some(w) = window_in(&q, today) {
            prop_assert!(w.first <= w.last, "{q:?} from {today}: {w:?}");
            prop_assert!((w.last - w.first).num_days() <= 31, "{q:?} from {today}: {w:?}");
        }
    }

    #[test]
    fn any_text_against_any_window_answers(text in question(), today in a_day(), len in 0i64..31) {
        let window = Window::new(today, today + Duration::days(len));
        let _ = mentions_date_in(&text, &window, today);
    }

    #[test]
    fn a_date_written_in_full_is_that_day(day in a_day(), today in a_day(), before in question()) {
        let text = format!("{before} le {}", day.format("%d/%m/%Y"));
        prop_assert!(mentions_date_in(&text, &Window::day(day), today), "{text:?}");
        let question = format!("rendez-vous le {} ?", day.format("%d/%m/%Y"));
        prop_assert_eq!(window_in(&question, today), Some(Window::day(day)), "{}", question);
    }
}
