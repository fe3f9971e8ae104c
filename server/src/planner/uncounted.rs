//! What a count question asks that the count cannot filter on: « combien
//! de lieux avec terrasse dans le 8e ? » counts by area, head count,
//! layout and pool; « avec terrasse » is left in the search's description
//! (`Criteria::semantic_query`), which ranks venues and counts none. The
//! answer says so instead of giving every venue of the 8th as if they all
//! had a terrace.
use crate::geo::fold;
use crate::search::criteria::events;

/// Words of a count question that ask for nothing to count by: the
/// question itself, linking words, « lieux », « au total ».
#[rustfmt::skip]
const FRAME: &[&str] = &[
    "combien", "y", "a", "t", "il", "ya", "de", "d", "des", "du", "le", "la", "les", "l",
    "un", "une", "en", "au", "aux", "dans", "sur", "pour", "avec", "et", "ou", "ont", "sont",
    "est", "qui", "que", "lieux", "lieu", "actifs", "actif", "active", "actives", "total",
    "tout", "tous", "toutes", "base", "catalogue", "reseau", "disponibles", "disponible",
    "existe", "existent", "avons", "avez", "as", "on", "nous", "vous", "j", "je", "ai",
    "possible", "possibles", "how", "many", "venues", "venue", "are", "there",
    "in", "with", "for", "of", "the", "stp", "svp", "merci", "pool",
    // The event, when no layout is said: any layout holds it.
    "evenement", "evenements", "event", "seminaire", "seminaires", "soiree", "soirees",
    "fete", "fetes", "mariage", "mariages", "anniversaire", "gala", "lancement", "seminar",
    "party",
];

/// The words of `semantic` (the text left once the counted criteria were
/// read) that ask for something the count cannot filter on, as written
/// (« terrasse », « parking et accessibles PMR »); `None` when none does.
/// `counted`: folded words another filter already counts by (the tags).
pub fn asked(semantic: &str, counted: &[String]) -> Option<String> {
    let counts = |w: &str| {
        let f = fold(w);
        // « d'ambiance », « l'accueil » (folded « d ambiance »): the word
        // after the elision decides.
        let f = f.rsplit(' ').next().unwrap_or_default();
        !f.is_empty()
            && !FRAME.contains(&f)
            && !super::pools::is_pool_word(f)
            && !is_event_word(f)
            && !counted.iter().any(|c| c == f)
    };
    let asked: Vec<(usize, &str)> = semantic
        .split_inclusive(|c: char| !c.is_alphanumeric() && c != '\'' && c != '’')
        .scan(0, |at, piece| {
            let start = *at;
            *at += piece.len();
            let word = piece.trim_end_matches(|c: char| !c.is_alphanumeric());
            Some((start, word))
        })
        .filter(|(_, w)| counts(w))
        .collect();
    let (first, _) = asked.first()?;
    let (start, word) = asked.last()?;
    Some(semantic[*first..start + word.len()].to_string())
}

/// A word of the event tables (« conférence », « dîner », « cocktail »):
/// its layout, when it implies one, is already counted.
fn is_event_word(folded: &str) -> bool {
    events::words().any(|phrase| phrase.split(' ').any(|w| w == folded))
}

#[cfg(test)]
mod tests {
    use super::asked;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn any_text_gives_a_piece_of_itself(text in "\\PC{0,80}") {
            if let Some(piece) = asked(&text, &[]) {
                prop_assert!(text.contains(&piece), "{piece:?} not in {text:?}");
                prop_assert!(!piece.trim().is_empty());
            }
        }
    }
    use crate::search::criteria::extract;

    fn left(text: &str) -> Option<String> {
        asked(&extract(text).semantic_query, &[])
    }

    #[test]
    fn what_the_count_filters_on_leaves_nothing_asked() {
        for text in [
            "Combien de lieux dans le 8e ?",
            "combien de lieux ?",
            "combien de lieux au total dans la base ?",
            "Combien de lieux à Boulogne pour 50 personnes en théâtre ?",
            "Combien de lieux dans le 75 sauf le 17e, pas de péniche ?",
            "Combien de lieux pour un séminaire de 40 personnes dans le 9e ?",
            "combien y a-t-il de lieux dans le 8e pour un dîner de 100 personnes ?",
            "combien de lieux actifs en Île-de-France ?",
            "Combien de lieux pour une conférence de 80 personnes ?",
            "combien de châteaux ?",
        ] {
            assert_eq!(left(text), None, "{text}");
        }
    }

    #[test]
    fn what_it_cannot_filter_on_is_named_as_written() {
        assert_eq!(
            left("Combien de lieux avec terrasse dans le 8e ?").as_deref(),
            Some("terrasse")
        );
        assert_eq!(
            left("Combien de lieux avec parking et accessibles PMR dans le 92 ?").as_deref(),
            Some("parking et accessibles PMR")
        );
        assert_eq!(
            left("Combien de lieux festifs près de la gare de Lyon ?").as_deref(),
            Some("festifs")
        );
    }
}
