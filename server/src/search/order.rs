//! How the picks are ordered within each tier, and the sentence that says
//! it. The sentence is written from the order actually applied, so what a
//! person reads (« du plus proche au plus loin ») is what the list does:
//! a search « près de la gare de Lyon » says « classés par distance » and
//! is therefore sorted by distance here, after the ranking chose the tiers.
use app::venue_search::VenuePick;

/// The order the ranking left, before the team's defaults.
#[derive(Clone, Debug, PartialEq)]
pub enum Base {
    /// Venues asked for by code, in the order asked.
    Asked,
    /// Nearest first from this place (a « près de … » without radius).
    Distance(String),
    /// The deterministic score, best first.
    Score,
    /// The language model's order, best first.
    Model,
}

impl Base {
    /// From the stage-3 source (`direct`, `llm`, `deterministic`).
    pub fn of_ranking(source: &str) -> Base {
        match source {
            "direct" => Base::Asked,
            "llm" => Base::Model,
            _ => Base::Score,
        }
    }

    fn phrase(&self) -> String {
        match self {
            Base::Asked => "dans l'ordre des codes demandés".into(),
            Base::Distance(place) => format!("du plus proche au plus loin {}", of(place)),
            Base::Score => {
                "du plus adapté au moins adapté (ambiance, jauge, distance, historique)".into()
            }
            Base::Model => "dans l'ordre choisi par l'IA, du plus adapté au moins adapté".into(),
        }
    }
}

/// « de la gare », « du Louvre », « d'Orly »: the label as `criteria` writes it.
fn of(place: &str) -> String {
    crate::search::criteria::of(place)
}

/// Nearest first, venues without coordinates last; stable, so equal
/// distances keep the ranking's order.
pub fn by_distance(picks: &mut [VenuePick]) {
    picks.sort_by(|a, b| {
        let far = f64::INFINITY;
        a.distance_km
            .unwrap_or(far)
            .total_cmp(&b.distance_km.unwrap_or(far))
    });
}

/// « Ordre : dans chaque groupe, favoris de l'équipe d'abord, puis par
/// score décroissant (…). Distances depuis le centre de Paris 8e. »
pub fn sentence(
    base: &Base,
    favourites_first: bool,
    specialities_first: bool,
    distance_from: Option<&str>,
) -> String {
    let mut parts = Vec::new();
    if favourites_first {
        parts.push("favoris de l'équipe d'abord".to_string());
    }
    if specialities_first {
        parts.push("spécialités d'abord".to_string());
    }
    parts.push(base.phrase());
    let mut said = format!("Ordre : dans chaque groupe, {}.", parts.join(", puis "));
    if let Some(from) = distance_from {
        said.push_str(&format!(" Distances depuis {from}."));
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sentence_says_every_rule_applied_in_order() {
        assert_eq!(
            sentence(&Base::Distance("Gare de Lyon".into()), true, false, None),
            "Ordre : dans chaque groupe, favoris de l'équipe d'abord, puis du plus proche au plus loin de la gare de Lyon."
        );
        assert_eq!(
            sentence(&Base::of_ranking("deterministic"), false, false, None),
            "Ordre : dans chaque groupe, du plus adapté au moins adapté (ambiance, jauge, distance, historique)."
        );
        assert_eq!(
            sentence(&Base::Model, false, false, Some("le centre de Paris 8e")),
            "Ordre : dans chaque groupe, dans l'ordre choisi par l'IA, du plus adapté au moins adapté. \
             Distances depuis le centre de Paris 8e."
        );
    }
}
