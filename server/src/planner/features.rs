//! What a count question asks the venues to have, as the tags their
//! sheets carry: « combien de lieux avec terrasse dans le 8e ? » counts
//! the venues of the 8th tagged `terrasse`. A feature said with a
//! negation (« sans parking », « pas de terrasse ») is not one asked for;
//! kinds ruled out are the criteria's (`excluded_kinds`). The words are
//! the search's (`search::criteria::tag_words`).
use super::words::words;
use crate::search::criteria::tag_words::PHRASES;

/// Words that, just before a feature, rule it out.
const NEGATIONS: &[&str] = &["sans", "pas", "ni", "aucun", "aucune", "hors", "sauf"];

/// The tags `text` asks for and those it rules out (« sans parking »),
/// each once in the order said, and the folded words that said them (so
/// that nothing else claims them).
pub struct Features {
    pub wanted: Vec<&'static str>,
    pub refused: Vec<&'static str>,
    pub words: Vec<String>,
}

pub fn asked(text: &str) -> Features {
    let w = words(text);
    let phrases: Vec<(Vec<&str>, &'static str)> = PHRASES
        .iter()
        .map(|(phrase, tag)| (phrase.split(' ').collect(), *tag))
        .collect();
    let (mut wanted, mut refused, mut used) = (Vec::new(), Vec::new(), Vec::new());
    let mut i = 0;
    while i < w.len() {
        let rest = &w[i..];
        let longest = phrases
            .iter()
            .filter(|(parts, _)| {
                rest.len() >= parts.len() && rest.iter().zip(parts).all(|(a, b)| a == b)
            })
            .map(|(parts, tag)| (*tag, parts.len()))
            .max_by_key(|&(_, n)| n);
        let Some((tag, n)) = longest else {
            i += 1;
            continue;
        };
        // « sans parking », « pas de terrasse », « ni jardin ».
        let before = &w[i.saturating_sub(2)..i];
        let list = if before.iter().any(|b| NEGATIONS.contains(&b.as_str())) {
            &mut refused
        } else {
            &mut wanted
        };
        if !list.contains(&tag) {
            list.push(tag);
        }
        used.extend(w[i..i + n].iter().cloned());
        i += n;
    }
    Features {
        wanted,
        refused,
        words: used,
    }
}

#[cfg(test)]
mod tests {
    use super::asked;

    #[test]
    fn features_become_the_tags_sheets_carry() {
        let wanted = |text: &str| asked(text).wanted;
        assert_eq!(
            wanted("Combien de lieux avec terrasse dans le 8e ?"),
            ["terrasse"]
        );
        assert_eq!(
            wanted("combien de lieux avec parking et accessibles PMR dans le 92 ?"),
            ["parking", "accessible-pmr"]
        );
        assert_eq!(
            wanted("combien de lieux avec un toit terrasse ?"),
            ["rooftop"]
        );
        assert_eq!(
            wanted("combien de lieux avec vue sur la Seine ?"),
            ["vue-seine"]
        );
        assert!(wanted("combien de lieux dans le 8e ?").is_empty());
    }

    #[test]
    fn a_feature_ruled_out_is_refused_not_asked_for() {
        let f = asked("combien de lieux sans parking ?");
        assert!(f.wanted.is_empty());
        assert_eq!(f.refused, ["parking"]);
        assert_eq!(
            asked("combien de lieux pas de terrasse ?").refused,
            ["terrasse"]
        );
        let f = asked("combien de lieux avec jardin mais sans parking ?");
        assert_eq!((f.wanted, f.refused), (vec!["jardin"], vec!["parking"]));
    }
}
