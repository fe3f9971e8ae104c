//! Event types and the French wording of requests: descriptions as an
//! organizer would write them, organizers, memos, hints, statuses.

use crate::dice::{self, Dice};
use crate::french::slug;
use crate::model::{Configuration, Stamp, BASE};
use crate::tags::TAGS;
use Configuration::*;

pub struct EventType {
    /// `requests.event_type` (free, lower-case).
    pub key: &'static str,
    /// How the team names it in training notes ("lancement produit").
    pub label: &'static str,
    /// "this event" in French, with the right demonstrative ("cet afterwork").
    pub this: &'static str,
    /// Fewest participants such an event plausibly has.
    pub min: i32,
    /// Layouts it uses, most typical first.
    pub configs: &'static [Configuration],
    /// Relative frequency per pool (`POOLS` order).
    pub pools: [u32; 5],
    /// Description templates: {n} participants, {cfg} layouts, {wish} wishes.
    /// A template names no other part of the programme with a layout of
    /// its own (« suivie d'un cocktail »): the request reader keeps every
    /// layout a text asks for, and the request stores only `{cfg}`.
    pub templates: &'static [&'static str],
}

#[rustfmt::skip]
pub const EVENTS: &[EventType] = &[
    EventType { key: "seminaire", label: "séminaire", this: "ce séminaire", min: 8, configs: &[U, Reunion, Theatre, Ecole], pools: [5, 0, 2, 8, 4], templates: &[
        "Séminaire de direction {n} personnes {cfg} avec déjeuner{wish}.",
        "Séminaire annuel de {n} collaborateurs {cfg}, ateliers l'après-midi{wish}.",
        "Journée de séminaire pour {n} personnes {cfg}, pauses et déjeuner sur place{wish}."] },
    EventType { key: "comite", label: "comité de direction", this: "ce comité de direction", min: 6, configs: &[Reunion, U], pools: [3, 1, 1, 4, 3], templates: &[
        "Comité de direction de {n} personnes {cfg}, discrétion indispensable{wish}."] },
    EventType { key: "formation", label: "formation", this: "cette formation", min: 6, configs: &[Ecole, U, Theatre], pools: [2, 0, 1, 6, 1], templates: &[
        "Formation de {n} personnes {cfg} sur deux jours, vidéoprojecteur et paperboards{wish}."] },
    EventType { key: "conference", label: "conférence", this: "cette conférence", min: 30, configs: &[Theatre], pools: [3, 0, 2, 5, 1], templates: &[
        "Conférence pour {n} personnes {cfg}, régie son et vidéo indispensable{wish}.",
        "Keynote client de {n} invités {cfg}, suivie de questions du public{wish}."] },
    EventType { key: "assemblee", label: "assemblée générale", this: "cette assemblée générale", min: 40, configs: &[Theatre, Ecole], pools: [2, 0, 1, 4, 1], templates: &[
        "Assemblée générale de {n} participants {cfg}, avec vote électronique{wish}."] },
    EventType { key: "soiree", label: "soirée d'entreprise", this: "cette soirée d'entreprise", min: 30, configs: &[Cocktail, Banquet], pools: [2, 3, 6, 1, 2], templates: &[
        "Soirée d'entreprise pour {n} personnes {cfg}, ambiance festive{wish}.",
        "Soirée de fin d'année, {n} invités {cfg}, DJ et bar{wish}."] },
    EventType { key: "lancement", label: "lancement produit", this: "ce lancement produit", min: 40, configs: &[Cocktail], pools: [2, 1, 6, 1, 1], templates: &[
        "Soirée de lancement produit pour {n} personnes {cfg}, ambiance festive{wish}.",
        "Lancement de notre nouvelle collection devant {n} invités {cfg}{wish}."] },
    EventType { key: "afterwork", label: "afterwork", this: "cet afterwork", min: 15, configs: &[Cocktail], pools: [1, 4, 5, 0, 0], templates: &[
        "Afterwork d'équipe, {n} personnes {cfg}{wish}."] },
    EventType { key: "diner", label: "dîner", this: "ce dîner", min: 10, configs: &[Banquet, Cabaret], pools: [3, 6, 2, 0, 3], templates: &[
        "Dîner de fin d'année pour {n} personnes {cfg}, ambiance chaleureuse{wish}.",
        "Dîner clients de {n} couverts {cfg}{wish}."] },
    EventType { key: "gala", label: "dîner de gala", this: "ce dîner de gala", min: 60, configs: &[Banquet], pools: [3, 2, 2, 0, 4], templates: &[
        "Dîner de gala de {n} couverts {cfg}, cadre prestigieux souhaité{wish}."] },
    EventType { key: "dejeuner", label: "déjeuner d'affaires", this: "ce déjeuner d'affaires", min: 6, configs: &[Banquet, Reunion], pools: [2, 6, 1, 1, 1], templates: &[
        "Déjeuner d'affaires de {n} personnes {cfg}, salon privatif souhaité{wish}."] },
    EventType { key: "cocktail", label: "cocktail", this: "ce cocktail", min: 30, configs: &[Cocktail, Banquet], pools: [2, 3, 3, 1, 1], templates: &[
        "Cocktail de networking pour {n} invités{wish}."] },
    EventType { key: "team-building", label: "team building", this: "ce team building", min: 12, configs: &[Cabaret, Ecole, Cocktail], pools: [1, 1, 3, 2, 4], templates: &[
        "Journée team building pour {n} personnes {cfg} : ateliers le matin, activité ludique l'après-midi{wish}."] },
    EventType { key: "mariage", label: "mariage", this: "ce mariage", min: 40, configs: &[Banquet, Cocktail], pools: [1, 1, 1, 0, 5], templates: &[
        "Mariage de {n} invités {cfg}, puis soirée dansante{wish}."] },
];

/// (tag, how an organizer asks for it), for the wishes of a description.
const WISHES: &[(&str, &str)] = &[
    ("rooftop", "avec un rooftop et vue sur Paris"),
    ("vue-panoramique", "avec une vue dégagée"),
    ("terrasse", "avec une terrasse si possible"),
    ("jardin", "idéalement avec un jardin"),
    ("extérieur", "avec un espace extérieur"),
    ("bord-de-l-eau", "pourquoi pas au bord de l'eau"),
    ("insolite", "dans un lieu qui sort de l'ordinaire"),
    ("loft", "dans un esprit loft industriel"),
    ("atelier", "dans un lieu brut et créatif"),
    ("patrimoine", "dans un cadre historique"),
    ("cave-voûtée", "dans une cave voûtée intimiste"),
    ("festif", "où l'on peut danser tard"),
    ("calme", "au calme"),
    ("lumière-naturelle", "avec de la lumière naturelle"),
    ("parc", "au vert, avec un parc"),
    ("hébergement", "avec hébergement sur place"),
    ("vue-tour-eiffel", "avec vue sur la tour Eiffel"),
    ("vue-seine", "avec vue sur la Seine"),
    ("cuisine-démo", "avec un atelier cuisine"),
    ("piscine", "avec piscine"),
    ("parking", "avec un parking"),
];

/// 0–2 wishes the anchor venue satisfies (tag ids are positions + 1 in `TAGS`).
pub fn wishes(rng: &mut Dice, anchor_tags: &[i64]) -> Vec<&'static str> {
    let has = |tag: &str| {
        anchor_tags
            .iter()
            .any(|id| usize::try_from(id - 1).ok().and_then(|i| TAGS.get(i)) == Some(&tag))
    };
    let possible: Vec<&'static str> = WISHES.iter().map(|(t, _)| *t).filter(|t| has(t)).collect();
    let count = dice::between(rng, 0, 2) as usize;
    dice::sample(rng, &possible, count)
        .into_iter()
        .copied()
        .collect()
}

pub fn description(
    rng: &mut Dice,
    event: &EventType,
    n: i32,
    configs: &[Configuration],
    wished: &[&str],
) -> String {
    let cfg = configs
        .iter()
        .map(|c| c.phrase())
        .collect::<Vec<_>>()
        .join(" ou ");
    let wish_texts: Vec<&str> = wished
        .iter()
        .filter_map(|w| WISHES.iter().find(|(t, _)| t == w).map(|(_, s)| *s))
        .collect();
    let wish = if wish_texts.is_empty() {
        String::new()
    } else {
        format!(", {}", wish_texts.join(" et "))
    };
    dice::pick(rng, event.templates)
        .replace("{n}", &n.to_string())
        .replace("{cfg}", &cfg)
        .replace("{wish}", &wish)
}

const FIRST: &[&str] = &[
    "Claire",
    "Nicolas",
    "Isabelle",
    "Mathieu",
    "Aurélie",
    "Karim",
    "Sandrine",
    "Olivier",
    "Nadia",
    "Guillaume",
    "Émilie",
    "Vincent",
    "Hélène",
    "Youssef",
    "Céline",
    "Pierre",
];
const LAST: &[&str] = &[
    "Durand", "Leroy", "Roux", "Fournier", "Girard", "Bonnet", "Lambert", "Fontaine", "Rousseau",
    "Vincent", "Muller", "Lefèvre", "Faure", "André", "Mercier", "Blanc",
];
const COMPANIES: &[&str] = &[
    "Groupe Aurore",
    "Lumen Conseil",
    "Atelier Nova",
    "Banque Ducret",
    "Maison Vérane",
    "Studio Kilim",
    "Pharma Delorme",
    "Cabinet Ferrand Avocats",
    "Helios Énergie",
    "Éditions du Pont",
    "Okapi Technologies",
    "Agence Mistral",
    "Fondation Clairval",
    "Mutuelle Horizon",
    "Laboratoires Serdane",
    "Transports Berthelot",
];

/// (name, e-mail, company) of an organizer; e-mails use reserved domains.
pub fn organizer(rng: &mut Dice) -> (String, String, String) {
    let (first, last, company) = (
        *dice::pick(rng, FIRST),
        *dice::pick(rng, LAST),
        *dice::pick(rng, COMPANIES),
    );
    let email = format!("{}.{}@{}.example", slug(first), slug(last), slug(company));
    (format!("{first} {last}"), email, company.to_string())
}

pub fn complementary(rng: &mut Dice) -> Option<String> {
    dice::chance(rng, 0.4).then(|| {
        dice::pick(
            rng,
            &[
                "Le client souhaite recevoir une proposition avant la fin du mois.",
                "Prévoir un vestiaire et un espace d'accueil.",
                "Deux participants se déplacent en fauteuil roulant.",
                "Régime végétarien pour un tiers des invités.",
                "Possibilité de décaler d'une semaine si besoin.",
                "Le client veut visiter les deux lieux préférés avant de signer.",
            ],
        )
        .to_string()
    })
}

pub fn budget_note(rng: &mut Dice, per_person: i64) -> Option<String> {
    match dice::between(rng, 0, 2) {
        0 => Some(format!("{per_person} € HT par personne")),
        1 => Some(format!("environ {per_person} €/pers. tout compris")),
        _ => None,
    }
}

pub fn date_notes(rng: &mut Dice) -> Option<&'static str> {
    dice::chance(rng, 0.3).then(|| {
        *dice::pick(
            rng,
            &[
                "Flexible sur la semaine",
                "Idéalement un jeudi",
                "Hors vacances scolaires",
                "Soirée uniquement, à partir de 19 h",
            ],
        )
    })
}

pub fn memo(rng: &mut Dice, anchor_name: &str) -> Option<String> {
    match dice::between(rng, 0, 9) {
        0 | 1 => Some("Client récurrent, très exigeant sur la qualité du traiteur.".into()),
        2 => Some(format!(
            "A déjà organisé un événement chez {anchor_name} en 2025, très satisfait."
        )),
        3 => Some("Premier contact : envoyer un catalogue court et relancer sous 48 h.".into()),
        _ => None,
    }
}

pub fn hints(rng: &mut Dice) -> Option<&'static str> {
    dice::chance(rng, 0.2).then(|| {
        *dice::pick(
            rng,
            &[
                "Privilégier les favoris de l'équipe.",
                "Éviter les lieux en sous-sol.",
                "Plutôt rive gauche.",
                "Pas de bateau : le directeur général a le mal de mer.",
            ],
        )
    })
}

/// Status (and closing reason) from the request's age and event date.
pub fn status(
    rng: &mut Dice,
    created: Stamp,
    event_day: i64,
) -> (&'static str, Option<&'static str>) {
    if BASE.0 - created.0 < 3 * 86_400 {
        return (*dice::weighted(rng, &[("new", 6), ("qualifying", 4)]), None);
    }
    let table: &[(&str, u32)] = if event_day < BASE.day() {
        &[("won", 45), ("lost", 40), ("cancelled", 15)]
    } else {
        &[
            ("catalogue_sent", 55),
            ("won", 20),
            ("lost", 10),
            ("qualifying", 10),
            ("cancelled", 5),
        ]
    };
    let status = *dice::weighted(rng, table);
    let reason = match status {
        "lost" => Some(*dice::pick(
            rng,
            &[
                "Client parti chez un autre prestataire",
                "Budget insuffisant",
                "Événement reporté sine die",
                "Plus de nouvelles du client",
            ],
        )),
        "cancelled" => Some("Événement annulé par le client"),
        _ => None,
    };
    (status, reason)
}
