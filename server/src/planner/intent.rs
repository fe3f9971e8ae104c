//! What the user asks, read from the words of the last message: a small
//! fixed vocabulary per intent (French first, a few English synonyms), typos
//! forgiven by [`words::spells`]. The most specific intent wins: qualifying
//! a request before reading its e-mails, counting before finding.
use super::codes::member_codes;
use super::words::{self, any, phrase};
use crate::search::criteria;

mod playbook_intent;
mod write_intent;

pub use playbook_intent::PlaybookAsk;

/// The planner's workflows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Intent {
    /// Qualify a request and propose its catalogue (seed 000's workflow).
    Qualify,
    /// Search venues with the user's words.
    Find,
    /// Describe venues named by code (`#102`); `full`: the whole sheet.
    Member { codes: Vec<String>, full: bool },
    /// Count venues matching the criteria of the text.
    Count,
    /// Summarise a request's e-mails.
    Emails,
    /// What the team taught (training sessions and directives).
    Training,
    /// Count or list requests (« combien de demandes en qualification ? »).
    Requests,
    /// One request's facts (« combien de participants pour D-2025-00043 ? »).
    RequestFacts,
    /// What a request's catalogues hold (« quels lieux dans le catalogue ? »).
    Catalogue,
    /// Past requests like this one.
    Similar,
    /// A write the team asks for: it becomes a card, nothing else.
    Write(Write),
    /// Removing venues or deleting: no tool does it from the chat.
    Remove,
    /// « combien… » about something the planner cannot count: said
    /// plainly, never answered with a count of something else.
    UnclearCount,
    /// Opening, abandoning or choosing a playbook (« parcours »).
    Playbook(PlaybookAsk),
    /// Anything else: what the offline mode can do.
    Help,
}

/// The writes the planner turns into cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Write {
    /// Add to the request's team memo.
    Memo,
    /// Change the request's status.
    Status,
    /// A reminder for the caller.
    Reminder,
    /// A durable fact in the caller's memory.
    Memory,
    /// Ask a venue whether it is free for the request's dates.
    Availability,
    /// Add venues named by code to the request's draft catalogue.
    AddVenues,
}

#[rustfmt::skip]
const QUALIFY: &[&str] = &["qualifie", "qualifier", "qualify", "qualification"];
#[rustfmt::skip]
const CATALOGUE: &[&str] = &["catalogue", "catalogues", "catalog", "selection", "shortlist"];
#[rustfmt::skip]
const MAKE: &[&str] = &[
    "propose", "proposer", "proposes", "prepare", "preparer", "prepares", "fais", "faire",
    "fait", "cree", "creer", "construis", "construire", "genere",
    "generer", "elabore", "build", "draft", "suggest", "make", "create", "prepare",
];
#[rustfmt::skip]
const EMAILS: &[&str] = &["mail", "mails", "email", "emails", "courriel", "courriels"];
#[rustfmt::skip]
const TRAINING_STRONG: &[&str] = &[
    "appris", "apprend", "apprendre", "consigne", "consignes", "directive", "directives",
    "lecon", "lecons", "learn", "learned", "learnt", "lessons", "entrainement", "verdicts",
];
#[rustfmt::skip]
const TRAINING_WEAK: &[&str] = &["training", "trainings"];
#[rustfmt::skip]
const COUNT: &[&str] = &["combien", "count", "denombre", "denombrer"];
#[rustfmt::skip]
const FIND: &[&str] = &[
    "trouve", "trouver", "trouves", "cherche", "chercher", "recherche", "rechercher", "find",
    "search", "look", "propose", "proposer", "suggere", "suggerer", "recommande",
    "recommander", "lieu", "lieux", "salle", "salles", "endroit", "endroits", "venue",
    "venues", "rooftop", "rooftops", "peniche", "peniches", "room", "rooms", "places",
];
#[rustfmt::skip]
const FULL: &[&str] = &["complete", "complet", "detaillee", "detaille", "full", "entiere"];

#[rustfmt::skip]
const REQUESTS_PLURAL: &[&str] = &["demandes", "dossiers", "requests"];
#[rustfmt::skip]
const LIST: &[&str] = &[
    "liste", "lister", "listes", "quelles", "quels", "montre", "affiche", "donne", "list",
    "show", "voir", "mes", "nouvelles", "recentes", "derniers", "dernieres",
];
#[rustfmt::skip]
const FACT: &[&str] = &[
    "participants", "personnes", "pax", "invites", "budget", "date", "dates", "quand",
    "zone", "ou", "statut", "status", "type", "description", "memo", "resume", "resumer",
    "infos", "informations", "details", "detail", "configuration", "configurations",
    "jauge", "combien", "quel", "quelle", "postal", "secteur", "consignes",
];
/// Facts of a venue only its full sheet gives (attributes, tags, knowledge).
#[rustfmt::skip]
const SHEET_ONLY: &[&str] = &[
    "parking", "pmr", "handicape", "accessible", "chambres", "hebergement", "dj", "musique",
    "traiteur", "restauration", "exterieur", "terrasse", "jardin", "wifi", "tags", "acces",
];
#[rustfmt::skip]
const SIMILAR: &[&str] = &["similaire", "similaires", "ressemblent", "comparable", "comparables", "similar", "semblables"];
#[rustfmt::skip]
const VENUE_NOUNS: &[&str] = &["lieu", "lieux", "salle", "salles", "venue", "venues", "endroits", "etablissements"];

/// The intent of `text`.
pub fn recognise(text: &str) -> Intent {
    let w = words::words(text);
    // « ouvre le parcours de qualification » opens a playbook; it does
    // not qualify.
    if let Some(ask) = playbook_intent::recognise(&w) {
        return Intent::Playbook(ask);
    }
    if let Some(intent) = write_intent::recognise(&w) {
        return intent;
    }
    let finds = any(&w, FIND, &[]);
    let counts = any(&w, COUNT, &[])
        || phrase(&w, "how many")
        || phrase(&w, "nombre de")
        || phrase(&w, "nb de")
        || w.first().is_some_and(|x| x == "cb");
    // « combien de demandes en qualification ? » is a count, never a
    // qualification: requests in the plural come first.
    // Exact words: « séminaire » is two letters from « similaire ».
    if w.iter().any(|x| SIMILAR.contains(&x.as_str())) || phrase(&w, "deja eu") {
        return Intent::Similar;
    }
    let plural = w.iter().any(|x| REQUESTS_PLURAL.contains(&x.as_str()));
    let status = super::statuses::status_named(&w).is_some() || phrase(&w, "en qualif");
    if (plural && (counts || status || any(&w, LIST, &[]) || w.len() <= 4))
        || (counts && phrase(&w, "de demande"))
    {
        return Intent::Requests;
    }
    let catalogue = any(&w, CATALOGUE, &[]);
    if asks_to_qualify(&w) || (catalogue && any(&w, MAKE, &[])) {
        return Intent::Qualify;
    }
    // Reading a catalogue proposes nothing: « le catalogue de la demande ? »,
    // « combien de lieux dans le catalogue ? », « qu'a-t-on proposé ? ».
    if catalogue || already_proposed(&w) {
        return Intent::Catalogue;
    }
    if any(&w, EMAILS, &[]) || phrase(&w, "e mail") || phrase(&w, "e mails") {
        return Intent::Emails;
    }
    if any(&w, TRAINING_STRONG, &[])
        || phrase(&w, "qu a t on appris")
        || (any(&w, TRAINING_WEAK, &[]) && !finds)
    {
        return Intent::Training;
    }
    let venues = any(&w, VENUE_NOUNS, &[]);
    let about_one_request = super::target::names_a_request(&w);
    if about_one_request && !venues && !finds && any(&w, FACT, &[]) {
        return Intent::RequestFacts;
    }
    let codes = member_codes(&w);
    if counts {
        // « le #121, il a combien de salles ? » is about that venue.
        if !codes.is_empty() {
            return Intent::Member { codes, full: false };
        }
        if venues || asks_for_venues_only(text) || super::pools::named(&w).is_some() {
            return Intent::Count;
        }
        if any(
            &w,
            &["participants", "personnes", "pax", "invites", "budget"],
            &[],
        ) {
            return Intent::RequestFacts;
        }
        return Intent::UnclearCount;
    }
    let sheet = any(&w, &["fiche", "sheet", "profil", "profile"], &[]);
    // A venue named by code is looked up unless the words search around it.
    if !codes.is_empty() && (sheet || !finds || w.len() <= 4 || !asks_for_venues(text)) {
        // A question on what only the full sheet has (« a-t-il un parking ? »).
        let full =
            sheet && any(&w, FULL, &[]) || phrase(&w, "tout sur") || any(&w, SHEET_ONLY, &[]);
        return Intent::Member { codes, full };
    }
    if finds || asks_for_venues(text) {
        return Intent::Find;
    }
    Intent::Help
}

/// What was already proposed, in the past tense: « qu'est-ce qu'on leur a
/// proposé ? », « les lieux envoyés ».
fn already_proposed(w: &[String]) -> bool {
    [
        "a propose",
        "avons propose",
        "ont ete proposes",
        "a envoye",
        "avons envoye",
        "lieux envoyes",
    ]
    .iter()
    .any(|p| phrase(w, p))
}

/// « Qualifie cette demande », « qualification de la demande », but not
/// a status: « en qualification », « passe en qualif ».
fn asks_to_qualify(w: &[String]) -> bool {
    w.iter().enumerate().any(|(i, x)| {
        let status = i > 0 && w[i - 1] == "en";
        !status && (QUALIFY.iter().any(|k| words::spells(x, k)) || x.starts_with("qualif"))
    })
}

/// True when the text carries search criteria (a head count, a layout, a
/// place): « 80 personnes en cocktail dans le 8e » is a search. Venue codes
/// alone are not (« demande #12 » would read as one).
pub fn asks_for_venues(text: &str) -> bool {
    let c = criteria::extract(words::cut(text, 2000));
    c.participants.is_some()
        || !c.configurations.is_empty()
        || !c.postal_codes.is_empty()
        || c.near.is_some()
        || c.broad_area
}

/// Venue criteria with no head count of a request's own: « combien dans le
/// 8e en cocktail ? ».
fn asks_for_venues_only(text: &str) -> bool {
    let c = criteria::extract(words::cut(text, 2000));
    !c.configurations.is_empty() || !c.postal_codes.is_empty() || c.near.is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qualify_in_its_spellings() {
        for text in [
            "Qualifie cette demande",
            "qualifei la demande stp",
            "Propose un catalogue",
            "Prépare un catalogue pour la demande #12",
            "can you qualify this request",
            "QUALIFICATION de la demande",
        ] {
            assert_eq!(recognise(text), Intent::Qualify, "{text}");
        }
    }

    #[test]
    fn the_other_intents() {
        assert_eq!(
            recognise("rooftop pour 80 personnes dans le 8e"),
            Intent::Find
        );
        assert_eq!(
            recognise("Trouve des lieux pour un séminaire"),
            Intent::Find
        );
        assert_eq!(
            recognise("trouve un lieu pour un training de 20"),
            Intent::Find
        );
        assert_eq!(recognise("Combien de lieux dans le 11e ?"), Intent::Count);
        assert_eq!(recognise("montre les e-mails"), Intent::Emails);
        assert_eq!(recognise("mails de la demande"), Intent::Emails);
        assert_eq!(recognise("Qu'a-t-on appris ?"), Intent::Training);
        assert_eq!(
            recognise("les consignes pour les soirées"),
            Intent::Training
        );
        assert_eq!(recognise("bonjour"), Intent::Help);
        assert_eq!(recognise("cherhce un lieu"), Intent::Find);
        assert_eq!(recognise("combein de lieux ?"), Intent::Count);
        assert_eq!(recognise("how many venues in 75011"), Intent::Count);
        assert_eq!(recognise("show the emials"), Intent::Emails);
        assert_eq!(recognise("what did we learn"), Intent::Training);
        // Ordinary words one letter away from a keyword stay themselves.
        assert_eq!(
            recognise("trouve un lieu pour le compte de Renault"),
            Intent::Find
        );
        assert_eq!(recognise("un rooftop à court terme pour 50"), Intent::Find);
        assert_eq!(
            recognise("montre le catalogue de la demande"),
            Intent::Catalogue
        );
        assert_eq!(
            recognise("combien de demandes sont en attente ?"),
            Intent::Requests
        );
        assert_eq!(
            recognise("combien de participants pour la demande D-2025-00043 ?"),
            Intent::RequestFacts
        );
        assert_eq!(recognise("combien ça coûte ?"), Intent::UnclearCount);
        assert_eq!(recognise(""), Intent::Help);
    }

    #[test]
    fn a_venue_by_code_and_its_full_sheet() {
        assert_eq!(
            recognise("#102"),
            Intent::Member {
                codes: vec!["#102".into()],
                full: false
            }
        );
        assert_eq!(
            recognise("Fiche complète du lieu #0157"),
            Intent::Member {
                codes: vec!["#157".into()],
                full: true
            }
        );
        assert_eq!(
            recognise("montre #102 et #103"),
            Intent::Member {
                codes: vec!["#102".into(), "#103".into()],
                full: false
            }
        );
    }

    #[test]
    fn a_request_number_is_no_venue_code() {
        assert_eq!(recognise("la demande #12"), Intent::Help);
    }
}
