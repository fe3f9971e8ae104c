//! The one-sentence French explanation of a pick: why this venue for this
//! request (recommended), or what the catch is (compatible). Organizers
//! read it: no internal signal (team favourite, the team's history).

use crate::dice::{self, Dice};
use crate::index::Match;
use crate::model::{Dataset, Request};
use crate::requests::{Brief, Context};
use crate::tags::TAGS;

const PHRASES: &[(&str, &str)] = &[
    ("terrasse", "une terrasse aux beaux jours"),
    ("jardin", "un jardin pour le cocktail"),
    ("extérieur", "un espace extérieur"),
    ("rooftop", "un rooftop avec vue"),
    ("vue-panoramique", "une vue dégagée"),
    ("péniche", "le charme d'une péniche"),
    ("bord-de-l-eau", "le bord de l'eau"),
    ("insolite", "un cadre insolite"),
    ("cave-voûtée", "des voûtes de pierre"),
    ("sous-sol", "une salle en sous-sol pour faire la fête"),
    ("loft", "un esprit loft"),
    ("industriel", "un décor industriel"),
    ("atelier", "un esprit atelier"),
    ("lumière-naturelle", "beaucoup de lumière naturelle"),
    ("vue-seine", "la vue sur la Seine"),
    ("vue-tour-eiffel", "la vue sur la tour Eiffel"),
    ("cheminée", "une cheminée pour l'hiver"),
    ("piscine", "une piscine"),
    ("parc", "un grand parc"),
    ("scène", "une scène équipée"),
    ("cuisine-démo", "une cuisine pour les ateliers"),
    ("patrimoine", "un cadre historique"),
    ("spa", "un spa"),
    ("hébergement", "des chambres sur place"),
    ("art-déco", "un décor Art déco"),
    ("haussmannien", "des salons haussmanniens"),
    ("contemporain", "un cadre contemporain"),
    ("bohème", "une ambiance bohème"),
    ("traiteur-interne", "une cuisine maison"),
    ("festif", "une ambiance festive"),
    ("calme", "un cadre calme"),
    ("parking", "un parking sur place"),
];

fn km(d: f64) -> String {
    format!("{d:.1}").replace('.', ",")
}

/// A selling point of the venue, preferring what the request asked for.
fn selling_point(rng: &mut Dice, ctx: &Context, brief: &Brief, m: &Match) -> &'static str {
    let names: Vec<&str> = ctx
        .index
        .tags_of(m.member)
        .iter()
        .filter_map(|id| {
            usize::try_from(id - 1)
                .ok()
                .and_then(|i| TAGS.get(i))
                .copied()
        })
        .collect();
    if let Some(wish) = brief.wished.iter().find(|w| names.contains(w)) {
        if let Some((_, phrase)) = PHRASES.iter().find(|(t, _)| t == wish) {
            return phrase;
        }
    }
    let known: Vec<&'static str> = PHRASES
        .iter()
        .filter(|(t, _)| names.contains(t))
        .map(|(_, p)| *p)
        .collect();
    if known.is_empty() {
        "un emplacement pratique"
    } else {
        dice::one(rng, &known)
    }
}

pub fn recommended(
    rng: &mut Dice,
    data: &Dataset,
    ctx: &Context,
    request: &Request,
    brief: &Brief,
    m: &Match,
) -> String {
    let room = room_name(data, m.room_id);
    let point = selling_point(rng, ctx, brief, m);
    let (cap, cfg, d, n) = (
        app::fr::int(m.capacity),
        m.config.phrase(),
        km(m.distance_km),
        request.participants,
    );
    // Whether the team favours the venue is theirs to know, not the
    // organizer's: it weighs in the ranking, never in the sentence.
    match dice::between(rng, 0, 3) {
        3 => format!("« {room} » reçoit {cap} personnes {cfg}, avec {point}."),
        0 => format!("« {room} » accueille jusqu'à {cap} personnes {cfg}, à {d} km du lieu souhaité, avec {point}."),
        1 => format!("{} taillée pour {} personnes {cfg} et {point} : un choix sûr pour {}.", titled_room(room), app::fr::int(n), brief.event.this),
        _ => format!("Jauge idéale ({cap} personnes {cfg}) et {point}, à {d} km seulement."),
    }
}

pub fn compatible(
    rng: &mut Dice,
    data: &Dataset,
    ctx: &Context,
    request: &Request,
    brief: &Brief,
    m: &Match,
    radius: f64,
) -> String {
    let room = room_name(data, m.room_id);
    let point = selling_point(rng, ctx, brief, m);
    let catch = if f64::from(m.capacity) < f64::from(request.participants) * 1.15 {
        format!(
            "jauge un peu juste pour {} personnes",
            app::fr::int(request.participants)
        )
    } else if m.distance_km > radius * 0.6 {
        format!("un peu excentré ({} km)", km(m.distance_km))
    } else {
        dice::pick(
            rng,
            &[
                "une visite à prévoir avant de confirmer",
                "tarifs dans le haut de la fourchette",
                "disponibilité à confirmer rapidement",
                "décor plus classique que souhaité",
            ],
        )
        .to_string()
    };
    match dice::between(rng, 0, 1) {
        0 => format!(
            "Alternative solide : « {room} » ({} personnes {}), mais {catch}.",
            app::fr::int(m.capacity),
            m.config.phrase()
        ),
        _ => format!("Bonne option de repli avec {point} ; bémol : {catch}."),
    }
}

/// « Salle « Verrière » », or « « Salle principale » » when the name already
/// says salle (never « Salle « Salle principale » »).
fn titled_room(room: &str) -> String {
    if room.to_lowercase().starts_with("salle") {
        format!("« {room} »")
    } else {
        format!("Salle « {room} »")
    }
}

fn room_name(data: &Dataset, room_id: i64) -> &str {
    usize::try_from(room_id - 1)
        .ok()
        .and_then(|i| data.rooms.get(i))
        .map_or("salle principale", |r| r.name.as_str())
}
