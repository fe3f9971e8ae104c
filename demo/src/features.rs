//! What a venue offers beyond its rooms (rooftop, garden, barge, vaulted
//! cellar…), chosen per kind and place, and the tags each one earns.
//!
//! Concept features can be worded *implicitly*: the description conveys the
//! concept without its usual keyword ("terrasse panoramique sur les toits"
//! for a rooftop). Such venues deliberately do not get the keyword tag
//! either, since tags are part of the text that gets embedded: they are the
//! cases where only semantic search finds them.

use super::dice::{self, Dice};
use super::geography::{Place, Ring};
use super::pools::Kind;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Feature {
    Rooftop,
    Terrace,
    Garden,
    OnWater,
    Waterside,
    Cellar,
    Industrial,
    SeineView,
    EiffelView,
    Fireplace,
    Pool,
    Park,
    Stage,
    DemoKitchen,
    Heritage,
    Spa,
    Accommodation,
    NaturalLight,
    Parking,
    Accessible,
}

impl Feature {
    /// Every feature, in declaration order.
    pub const ALL: [Feature; 20] = [
        Feature::Rooftop,
        Feature::Terrace,
        Feature::Garden,
        Feature::OnWater,
        Feature::Waterside,
        Feature::Cellar,
        Feature::Industrial,
        Feature::SeineView,
        Feature::EiffelView,
        Feature::Fireplace,
        Feature::Pool,
        Feature::Park,
        Feature::Stage,
        Feature::DemoKitchen,
        Feature::Heritage,
        Feature::Spa,
        Feature::Accommodation,
        Feature::NaturalLight,
        Feature::Parking,
        Feature::Accessible,
    ];
}

/// Whether the description uses the concept's usual keyword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wording {
    Explicit,
    Implicit,
}

/// Share of ordinary venues whose concept features are worded implicitly.
const IMPLICIT_SHARE: f64 = 0.2;

impl Feature {
    /// Features whose keyword can be avoided in the text.
    pub fn has_implicit_wording(self) -> bool {
        use Feature::*;
        matches!(
            self,
            Rooftop | Garden | OnWater | Cellar | Industrial | SeineView | EiffelView
        )
    }

    /// The word an implicitly worded venue never uses anywhere in its text
    /// (name, description, rooms, tags, knowledge). The two views have no
    /// such guarantee: a room may still look onto "la Seine".
    pub fn keyword(self) -> Option<&'static str> {
        use Feature::*;
        match self {
            Rooftop => Some("rooftop"),
            Garden => Some("jardin"),
            OnWater => Some("péniche"),
            Cellar => Some("sous-sol"),
            Industrial => Some("loft"),
            _ => None,
        }
    }

    /// Tag names earned by the feature (see `tags::TAGS`).
    pub fn tags(self, wording: Wording) -> &'static [&'static str] {
        use Feature::*;
        use Wording::*;
        match (self, wording) {
            (Rooftop, Explicit) => &["rooftop", "terrasse", "vue-panoramique"],
            (Rooftop, Implicit) => &["terrasse", "vue-panoramique"],
            (Terrace, _) => &["terrasse"],
            (Garden, Explicit) => &["jardin", "extérieur"],
            (Garden, Implicit) => &["extérieur"],
            (OnWater, Explicit) => &["péniche", "bord-de-l-eau", "insolite"],
            (OnWater, Implicit) => &["bord-de-l-eau", "insolite"],
            (Waterside, _) => &["bord-de-l-eau", "extérieur"],
            (Cellar, Explicit) => &["sous-sol", "cave-voûtée"],
            (Cellar, Implicit) => &["cave-voûtée"],
            (Industrial, Explicit) => &["loft", "industriel"],
            (Industrial, Implicit) => &["atelier"],
            (SeineView, Explicit) => &["vue-seine"],
            (SeineView, Implicit) => &["vue-panoramique"],
            (EiffelView, Explicit) => &["vue-tour-eiffel"],
            (EiffelView, Implicit) => &["vue-panoramique"],
            (Fireplace, _) => &["cheminée"],
            (Pool, _) => &["piscine"],
            (Park, _) => &["parc", "extérieur"],
            (Stage, _) => &["scène", "sonorisation"],
            (DemoKitchen, _) => &["cuisine-démo", "team-building"],
            (Heritage, _) => &["patrimoine"],
            (Spa, _) => &["spa"],
            (Accommodation, _) => &["hébergement"],
            (NaturalLight, _) => &["lumière-naturelle"],
            (Parking, _) => &["parking"],
            (Accessible, _) => &["accessible-pmr"],
        }
    }

    /// Whether guests can be outside (drives noise curfews and attributes).
    pub fn is_outdoor(self) -> bool {
        use Feature::*;
        matches!(self, Rooftop | Terrace | Garden | Park | Waterside)
    }
}

/// The features of one ordinary (generated) venue, in a stable order.
pub fn choose(rng: &mut Dice, kind: Kind, place: &Place, plain: bool) -> Vec<(Feature, Wording)> {
    use Feature::*;
    let eiffel = place.views.contains(&"la tour Eiffel");
    let seine = place.views.contains(&"la Seine");
    let parking_odds = match place.ring {
        Ring::Paris => 0.12,
        Ring::Inner => 0.5,
        Ring::Outer => 0.92,
    };
    // (feature, probability) — the kind's signature features come first at 1.0.
    let mut odds: Vec<(Feature, f64)> = match kind {
        Kind::Hotel => vec![
            (Accommodation, 1.0),
            (Terrace, 0.2),
            (Rooftop, 0.06),
            (Garden, 0.1),
            (Spa, 0.15),
        ],
        Kind::BoutiqueHotel => vec![
            (Accommodation, 1.0),
            (Garden, 0.2),
            (Fireplace, 0.25),
            (Cellar, 0.1),
        ],
        Kind::Palace => vec![
            (Accommodation, 1.0),
            (Spa, 0.8),
            (Heritage, 0.6),
            (Terrace, 0.3),
            (Rooftop, 0.15),
        ],
        Kind::Brasserie => vec![(Terrace, 0.5), (Heritage, 0.2)],
        Kind::Bistrot => vec![(Terrace, 0.4), (Cellar, 0.12)],
        Kind::Gastronomic => vec![(Cellar, 0.15), (Garden, 0.1), (DemoKitchen, 0.1)],
        Kind::Guinguette => vec![(Waterside, 1.0), (Garden, 0.6), (Terrace, 0.5)],
        Kind::Barge => vec![(OnWater, 1.0), (Terrace, 0.6)],
        Kind::Rooftop => vec![(Rooftop, 1.0)],
        Kind::Loft => vec![(Industrial, 1.0), (NaturalLight, 0.7), (DemoKitchen, 0.2)],
        Kind::Gallery => vec![(NaturalLight, 0.8), (Industrial, 0.3)],
        Kind::Cellar => vec![(Cellar, 1.0), (Heritage, 0.3)],
        Kind::Greenhouse => vec![(Garden, 1.0), (NaturalLight, 1.0)],
        Kind::BusinessCentre => vec![(NaturalLight, 0.5), (Terrace, 0.15), (Rooftop, 0.05)],
        Kind::ConferenceCentre => vec![(Stage, 0.9), (NaturalLight, 0.4)],
        Kind::SeminarHouse => vec![(Garden, 0.4), (NaturalLight, 0.5), (Fireplace, 0.2)],
        Kind::ThirdPlace => vec![(Industrial, 0.4), (Garden, 0.2), (DemoKitchen, 0.3)],
        Kind::Chateau | Kind::Domaine => vec![
            (Park, 1.0),
            (Heritage, 0.9),
            (Accommodation, 0.6),
            (Fireplace, 0.4),
            (Pool, 0.2),
        ],
        Kind::Abbey => vec![
            (Heritage, 1.0),
            (Park, 0.6),
            (Cellar, 0.3),
            (Accommodation, 0.4),
        ],
        Kind::Townhouse => vec![(Heritage, 1.0), (Garden, 0.3), (Fireplace, 0.5)],
    };
    if eiffel {
        odds.push((EiffelView, 0.3));
    }
    if seine {
        odds.push((SeineView, if kind == Kind::Barge { 0.7 } else { 0.25 }));
    }
    odds.push((Parking, parking_odds));
    odds.push((Accessible, 0.6));

    let mut chosen = Vec::new();
    for (feature, p) in odds {
        // Plain listings only state their signature features.
        if (plain && p < 1.0) || !dice::chance(rng, p) || chosen.iter().any(|(f, _)| *f == feature)
        {
            continue;
        }
        let wording = if feature.has_implicit_wording() && dice::chance(rng, IMPLICIT_SHARE) {
            Wording::Implicit
        } else {
            Wording::Explicit
        };
        chosen.push((feature, wording));
    }
    chosen.sort_by_key(|(f, _)| *f);
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{stream, Concept};
    use crate::geography;
    use crate::tags::TAGS;

    #[test]
    fn every_feature_tag_exists() {
        for f in Feature::ALL {
            for w in [Wording::Explicit, Wording::Implicit] {
                for tag in f.tags(w) {
                    assert!(TAGS.contains(tag), "{tag}");
                }
            }
        }
    }

    #[test]
    fn signature_features_are_always_there() {
        let mut rng = stream(1, Concept::Member, 9);
        let place = geography::choose(&mut rng, Kind::Barge.setting());
        for _ in 0..50 {
            let f = choose(&mut rng, Kind::Barge, place, true);
            assert!(f.iter().any(|(f, _)| *f == Feature::OnWater));
        }
    }
}
