//! One French sentence per pick, from the facts that weighed most.
use super::criteria::tag_words::quoted;
use super::finalist::Finalist;
use super::preferences::{budget_fit, Wants};
use app::room_configurations::phrase_of;

/// « sa fiche n'indique pas « rooftop » ni « parking » »: features asked
/// for that the venue's sheet does not carry.
fn lacks(missing: &[&str]) -> String {
    format!("sa fiche n'indique pas {}", quoted(missing).join(" ni "))
}

/// A finalist's distance as its card shows it: in km, to the 10 m. The
/// reasons format this same value, so a card and its reason never give
/// two distances (« à 900 m » above « à 910 m »).
pub(crate) fn shown_km(m: f64) -> f64 {
    (m / 10.0).round() / 100.0
}

/// « 910 m », « 2,4 km » from metres, as the card says it.
pub(crate) fn at(m: f64) -> String {
    app::fr::distance_km(shown_km(m))
}

/// Why a finalist that neither the model nor the training turned down
/// explicitly was left out of both tiers: its weakest fact, in French.
pub fn left_out(f: &Finalist<'_>, wants: &Wants) -> String {
    let c = f.candidate;
    let missing = wants.missing_tags(&f.signals);
    let load = wants
        .people
        .map(|p| f64::from(p) / f64::from(c.capacity.max(1)));
    let why = match load {
        // What was asked for in words comes first.
        _ if wants.unsuited_for_the_meal(&c.configuration) => no_room_for_the_meal(wants.people),
        _ if !missing.is_empty() => lacks(&missing),
        Some(l) if l > 0.95 => format!(
            "jauge tendue ({} places {} pour {} personnes)",
            c.capacity,
            phrase_of(&c.configuration),
            wants.people.unwrap_or_default()
        ),
        Some(l) if l < 0.35 => format!(
            "salle trop grande pour le groupe ({} places {})",
            c.capacity,
            phrase_of(&c.configuration)
        ),
        _ if budget_fit(wants.budget_per_person, &f.signals).is_some_and(|b| b < 0.5) => {
            "au-dessus du budget".to_string()
        }
        _ if c.distance_m.is_some_and(|m| m > 5000.0) => format!(
            "plus loin que les lieux retenus (à {})",
            at(c.distance_m.unwrap_or_default())
        ),
        _ if f.similarity.is_some() => {
            "moins proche de votre description que les lieux retenus".to_string()
        }
        _ => {
            let mut facts = vec![format!(
                "{} {}",
                app::fr::plural(c.capacity, "place", "places"),
                phrase_of(&c.configuration)
            )];
            if let Some(m) = c.distance_m {
                facts.push(format!("à {}", at(m)));
            }
            format!("classé après les lieux retenus ({})", facts.join(", "))
        }
    };
    let mut text = why;
    if let Some(first) = text.get(..1) {
        text = first.to_uppercase() + &text[1..];
    }
    text.push('.');
    text
}

/// How a reason names a room: « salle « Verrière » », but « « Salon
/// Monceau » », « « Grand Auditorium » », « « Caves voûtées » » and
/// « « Terrasse » » alone, whose names already say what kind of space they
/// are (« salle « Salle Trocadéro » » said it twice, « salle « Terrasse » »
/// called a terrace a room).
pub(crate) fn room_label(name: &str) -> String {
    #[rustfmt::skip]
    const KINDS: [&str; 34] = [
        // Rooms by another name.
        "salle", "salles", "salon", "salons", "auditorium", "amphithéâtre", "espace",
        "atelier", "ateliers", "studio", "galerie", "bibliothèque", "chapelle", "orangerie",
        "halle", "loft", "showroom", "plateau", "cave", "caves", "écuries", "bar", "comptoir",
        "cuisine", "cale",
        // Spaces that are no room.
        "terrasse", "terrasses", "jardin", "jardins", "parc", "patio", "cour", "rooftop", "pont",
    ];
    const LEADS: [&str; 7] = ["grand", "grande", "petit", "petite", "le", "la", "les"];
    let lower = name.to_lowercase();
    let mut words = lower
        .split(|c: char| c.is_whitespace() || c == '-' || c == '\'' || c == '’')
        .filter(|w| !w.is_empty());
    let first = words.next().unwrap_or_default();
    let kind = if LEADS.contains(&first) {
        words.next().unwrap_or_default()
    } else {
        first
    };
    if KINDS.contains(&kind) {
        format!("« {name} »")
    } else {
        format!("salle « {name} »")
    }
}

/// « sa fiche n'indique pas de salle pour un repas de 80 personnes »: its
/// rooms that hold the group are all theatre or classroom.
fn no_room_for_the_meal(people: Option<u32>) -> String {
    match people {
        Some(p) => format!("sa fiche n'indique pas de salle pour un repas de {p} personnes"),
        None => "sa fiche n'indique pas de salle pour un repas".to_string(),
    }
}

/// "Salle « Verrière » : 120 places en cocktail pour 100 personnes, à 800 m,
/// proche de votre description et favori de l'équipe."
/// `semantic`: how close to the description (none when there was none).
pub fn sentence(
    f: &Finalist<'_>,
    wants: &Wants,
    semantic: Option<f64>,
    recommended: bool,
) -> String {
    let c = f.candidate;
    let missing = wants.missing_tags(&f.signals);
    let held: Vec<&String> = wants
        .tags
        .iter()
        .filter(|t| !missing.contains(&t.as_str()))
        .collect();
    let participants = wants.people;
    let mut facts: Vec<String> = Vec::new();
    let room_name = room_label(&c.room_name);
    let room = match participants {
        Some(p) => format!(
            "{room_name} : {} places {} pour {p} personnes",
            c.capacity,
            phrase_of(&c.configuration)
        ),
        None => format!(
            "{room_name} : jusqu'à {} personnes {}",
            c.capacity,
            phrase_of(&c.configuration)
        ),
    };
    facts.push(room);
    if let Some(m) = c.distance_m {
        facts.push(format!("à {}", at(m)));
    }
    if !held.is_empty() {
        facts.push(format!(
            "sa fiche indique {}",
            app::fr::join_and(&quoted(&held))
        ));
    }
    match semantic {
        Some(s) if s >= 0.6 => facts.push("très proche de votre description".into()),
        Some(s) if s >= 0.4 => facts.push("proche de votre description".into()),
        _ => {}
    }
    if budget_fit(wants.budget_per_person, &f.signals).is_some_and(|b| b >= 1.0) {
        facts.push("dans le budget".into());
    }
    if f.signals.favourite {
        facts.push("favori de l'équipe".into());
    }
    if f.signals.past_picks >= 2 {
        facts.push(format!("déjà proposé {} fois", f.signals.past_picks));
    }
    if let (Some(h), Some(rate)) = (f.signals.median_response_hours, f.signals.answer_rate) {
        if rate >= 0.8 && h <= 24.0 {
            facts.push(format!("répond en {} h en général", h.round()));
        }
    }
    let caveat = if recommended {
        None
    } else {
        match participants {
            Some(p) if f64::from(p) / f64::from(c.capacity.max(1)) > 0.95 => {
                Some("la jauge est tendue")
            }
            Some(p) if f64::from(p) / f64::from(c.capacity.max(1)) < 0.35 => {
                Some("la salle est grande pour le groupe")
            }
            _ if budget_fit(wants.budget_per_person, &f.signals).is_some_and(|b| b < 0.5) => {
                Some("au-dessus du budget")
            }
            _ if c.distance_m.is_some_and(|m| m > 5000.0) => Some("un peu excentré"),
            _ if semantic.is_some_and(|s| s < 0.4) => {
                Some("l'ambiance correspond moins à la description")
            }
            _ => None,
        }
    };
    // A feature asked for and not on the sheet is said in either tier: the
    // team checks before promising a rooftop.
    let lacking = (!missing.is_empty()).then(|| lacks(&missing));
    let no_meal_room = wants
        .unsuited_for_the_meal(&c.configuration)
        .then(|| no_room_for_the_meal(participants));
    let buts: Vec<String> = caveat
        .map(str::to_string)
        .into_iter()
        .chain(no_meal_room)
        .chain(lacking)
        .collect();
    if !buts.is_empty() {
        facts.push(format!("mais {}", buts.join(" et ")));
    }
    let mut text = facts.join(", ");
    if let Some(first) = text.get(..1) {
        text = first.to_uppercase() + &text[1..];
    }
    text.push('.');
    text
}

#[cfg(test)]
mod tests {
    use super::{at, room_label};

    #[test]
    fn a_distance_reads_to_the_ten_metres_then_the_hundred() {
        assert_eq!(at(905.0), "910\u{a0}m");
        assert_eq!(at(994.0), "990\u{a0}m");
        assert_eq!(at(2_437.0), "2,4\u{a0}km");
        assert_eq!(at(12_345.0), "12\u{a0}km");
    }

    #[test]
    fn a_room_whose_name_says_its_kind_is_not_called_salle_again() {
        assert_eq!(room_label("Salle Trocadéro"), "« Salle Trocadéro »");
        assert_eq!(room_label("Salon Monceau"), "« Salon Monceau »");
        assert_eq!(room_label("Grand Salon"), "« Grand Salon »");
        assert_eq!(room_label("Petite salle"), "« Petite salle »");
        assert_eq!(room_label("Auditorium"), "« Auditorium »");
        assert_eq!(room_label("Espace Seine"), "« Espace Seine »");
        assert_eq!(room_label("Caves voûtées"), "« Caves voûtées »");
        assert_eq!(room_label("Le Loft"), "« Le Loft »");
        assert_eq!(room_label("Pont-terrasse"), "« Pont-terrasse »");
    }

    #[test]
    fn a_space_that_is_no_room_is_not_called_salle() {
        assert_eq!(room_label("Terrasse"), "« Terrasse »");
        assert_eq!(room_label("Jardin d'hiver"), "« Jardin d'hiver »");
        assert_eq!(room_label("Rooftop"), "« Rooftop »");
    }

    #[test]
    fn other_rooms_are_called_salle() {
        assert_eq!(room_label("Verrière"), "salle « Verrière »");
        assert_eq!(room_label("Mezzanine"), "salle « Mezzanine »");
        // A word that only starts like a kind of room.
        assert_eq!(room_label("Salomé"), "salle « Salomé »");
        assert_eq!(room_label("Grand Palais"), "salle « Grand Palais »");
    }
}
