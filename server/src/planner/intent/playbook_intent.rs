//! « ouvre le parcours de qualification », « abandonne le parcours »,
//! « quel parcours ? »: the words that ask about a playbook.
use crate::planner::words::any;

/// What the person asks about playbooks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaybookAsk {
    Open,
    Abandon,
    Advice,
}

#[rustfmt::skip]
const PLAYBOOK: &[&str] = &["parcours", "playbook", "playbooks", "procedure", "procedures"];
#[rustfmt::skip]
const OPEN: &[&str] = &[
    "ouvre", "ouvrir", "lance", "lancer", "demarre", "demarrer", "commence", "commencer",
    "start", "active", "activer", "suivre", "applique", "appliquer",
];
#[rustfmt::skip]
const ABANDON: &[&str] = &[
    "abandonne", "abandonner", "quitte", "quitter", "arrete", "arreter", "ferme", "fermer",
    "sors", "sortir", "stop", "stoppe", "annule",
];

/// `Some` when the words are about a playbook (« parcours »).
pub fn recognise(w: &[String]) -> Option<PlaybookAsk> {
    if !w.iter().any(|x| PLAYBOOK.contains(&x.as_str())) {
        return None;
    }
    Some(if any(w, ABANDON, &[]) {
        PlaybookAsk::Abandon
    } else if any(w, OPEN, &[]) {
        PlaybookAsk::Open
    } else {
        PlaybookAsk::Advice
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::words::words;

    #[test]
    fn the_three_asks_are_told_apart() {
        let ask = |text: &str| recognise(&words(text));
        assert_eq!(
            ask("Ouvre le parcours de qualification"),
            Some(PlaybookAsk::Open)
        );
        assert_eq!(
            ask("abandonne le parcours, on change"),
            Some(PlaybookAsk::Abandon)
        );
        assert_eq!(
            ask("Quel parcours pour cette demande ?"),
            Some(PlaybookAsk::Advice)
        );
        assert_eq!(ask("Qualifie cette demande"), None);
    }
}
