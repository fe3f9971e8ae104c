//! The writes (and removals) a message asks for, recognised before any
//! reading intent: « ajoute #233 au catalogue de la demande » is an
//! addition, not a qualification; « supprime les lieux du catalogue » is
//! never an addition.
use super::{Intent, Write};
use crate::planner::codes::member_codes;
use crate::planner::statuses::status_named;
use crate::planner::target::names_a_request;
use crate::planner::words::{any, phrase};

#[rustfmt::skip]
const REMOVE: &[&str] = &[
    "supprime", "supprimer", "supprimes", "retire", "retirer", "retires", "enleve", "enlever",
    "efface", "effacer", "vide", "vider", "delete", "remove", "ote", "oter",
];
#[rustfmt::skip]
const ADD: &[&str] = &[
    "ajoute", "ajouter", "ajoutes", "rajoute", "rajouter", "mets", "mettre", "met", "add",
    "inclus", "inclure", "integre", "integrer", "note", "noter", "ecris", "ecrire",
    "inscris", "complete", "completer",
];
#[rustfmt::skip]
const AVAILABLE: &[&str] = &[
    "dispo", "dispos", "disponible", "disponibles", "disponibilite", "disponibilites",
    "libre", "libres", "availability", "available",
];
#[rustfmt::skip]
const REMEMBER: &[&str] = &["retiens", "retenir", "memorise", "memoriser", "remember"];

/// The write (or the removal) the words ask for, before any reading intent:
/// « ajoute #233 au catalogue de la demande » is an addition, not a
/// qualification; « supprime les lieux du catalogue » is never an addition.
pub fn recognise(w: &[String]) -> Option<Intent> {
    let codes = member_codes(w);
    let catalogue = any(w, &["catalogue", "catalogues", "selection"], &[]);
    let venues = any(w, &["lieu", "lieux", "salle", "salles"], &[]);
    let negated_proposal = phrase(w, "ne propose plus")
        || phrase(w, "ne proposes plus")
        || phrase(w, "ne plus proposer");
    if (any(w, REMOVE, &[]) && (catalogue || venues || !codes.is_empty())) || negated_proposal {
        return Some(Intent::Remove);
    }
    if any(w, &["memo"], &[]) && (any(w, ADD, &[]) || w.first().is_some_and(|x| x == "memo")) {
        return Some(Intent::Write(Write::Memo));
    }
    if (phrase(w, "rappelle moi") || phrase(w, "rappelle nous")) && !recalls(w)
        || phrase(w, "remind me")
        || (any(w, &["rappel", "reminder"], &[])
            && any(
                w,
                &[
                    "cree",
                    "creer",
                    "ajoute",
                    "ajouter",
                    "programme",
                    "mets",
                    "planifie",
                    "set",
                    "add",
                    "fais",
                ],
                &[],
            ))
    {
        return Some(Intent::Write(Write::Reminder));
    }
    if any(w, REMEMBER, &[]) || phrase(w, "souviens toi") || phrase(w, "garde en memoire") {
        return Some(Intent::Write(Write::Memory));
    }
    if !codes.is_empty() && any(w, AVAILABLE, &[]) {
        return Some(Intent::Write(Write::Availability));
    }
    let status_verb = any(w, &["passe", "passer", "bascule", "basculer"], &[])
        || phrase(w, "passer la demande")
        || phrase(w, "mets la demande")
        || any(w, &["marque", "marquer", "statut", "status"], &[])
        || phrase(w, "annule la demande");
    if status_verb && (status_named(w).is_some() || phrase(w, "annule la demande")) {
        return Some(Intent::Write(Write::Status));
    }
    if !codes.is_empty() && any(w, ADD, &[]) && (catalogue || names_a_request(w)) {
        return Some(Intent::Write(Write::AddVenues));
    }
    None
}

/// « rappelle-moi les consignes… », « rappelle-moi ce qu'on a appris »:
/// a question about what is known, not a reminder to set.
fn recalls(w: &[String]) -> bool {
    let after = w
        .iter()
        .position(|x| x == "moi" || x == "nous")
        .and_then(|i| w.get(i + 1));
    after.is_some_and(|x| {
        matches!(
            x.as_str(),
            "le" | "la"
                | "les"
                | "l"
                | "ce"
                | "ou"
                | "quel"
                | "quelle"
                | "quels"
                | "quelles"
                | "comment"
                | "combien"
                | "pourquoi"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::planner::words::words;

    fn intent(t: &str) -> Option<Intent> {
        recognise(&words(t))
    }

    #[test]
    fn writes_by_their_words() {
        assert_eq!(
            intent("Ajoute au mémo de la demande D-2025-00043 : appeler avant midi"),
            Some(Intent::Write(Write::Memo))
        );
        assert_eq!(
            intent("rappelle-moi de relancer le traiteur demain"),
            Some(Intent::Write(Write::Reminder))
        );
        assert_eq!(
            intent("retiens que le Pavillon ferme en août"),
            Some(Intent::Write(Write::Memory))
        );
        assert_eq!(
            intent("vérifie la dispo de #233"),
            Some(Intent::Write(Write::Availability))
        );
        assert_eq!(
            intent("passe la demande en qualification"),
            Some(Intent::Write(Write::Status))
        );
        assert_eq!(
            intent("marque la demande comme gagnée"),
            Some(Intent::Write(Write::Status))
        );
        assert_eq!(
            intent("ajoute #233 au catalogue"),
            Some(Intent::Write(Write::AddVenues))
        );
        assert_eq!(
            intent("Supprime tous les lieux du catalogue"),
            Some(Intent::Remove)
        );
        assert_eq!(intent("retire #233 du catalogue"), Some(Intent::Remove));
        assert_eq!(intent("ne propose plus #233"), Some(Intent::Remove));
        assert_eq!(intent("trouve un lieu pour 50"), None);
        assert_eq!(intent("rappelle-moi les consignes pour les mariages"), None);
        assert_eq!(
            intent("passe la D-2025-00036 en qualification"),
            Some(Intent::Write(Write::Status))
        );
        assert_eq!(intent("qualifie cette demande"), None);
    }
}
