//! A venue's plan before any text is written: kind, place, size, style,
//! features, catering, equipment. Names, rooms, descriptions, tags and
//! attributes are all rendered from it, which keeps them consistent.

use super::dice::{self, Dice};
use super::features::{self, Feature, Wording};
use super::geography::{self, Place};
use super::pools::{Kind, Size};

/// The ambiance the description conveys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    ArtDeco,
    Haussmann,
    Contemporary,
    Bohemian,
    Classic,
    Rustic,
    Cosy,
    Festive,
    Calm,
}

impl Style {
    pub fn tag(self) -> Option<&'static str> {
        match self {
            Style::ArtDeco => Some("art-déco"),
            Style::Haussmann => Some("haussmannien"),
            Style::Contemporary => Some("contemporain"),
            Style::Bohemian => Some("bohème"),
            Style::Classic => Some("patrimoine"),
            Style::Festive => Some("festif"),
            Style::Calm => Some("calme"),
            Style::Rustic | Style::Cosy => None,
        }
    }
}

/// Who feeds the guests (attribute `catering`: in / out / both).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Catering {
    Internal,
    External,
    Both,
}

impl Catering {
    pub fn key(self) -> &'static str {
        match self {
            Catering::Internal => "in",
            Catering::External => "out",
            Catering::Both => "both",
        }
    }
}

pub const EQUIPMENT: &[&str] = &[
    "vidéoprojecteur",
    "écran LED",
    "sonorisation",
    "micros HF",
    "wifi très haut débit",
    "visioconférence",
    "paperboards",
    "piano à queue",
    "régie son et lumière",
    "vestiaire",
    "climatisation",
    "estrade",
    "pupitre",
    "éclairage scénique",
];

#[derive(Debug)]
pub struct Sketch {
    pub kind: Kind,
    pub place: &'static Place,
    pub quarter: &'static str,
    pub street: &'static str,
    /// Quay where a barge is moored (barges only).
    pub mooring: Option<&'static str>,
    pub size: Size,
    pub style: Style,
    pub features: Vec<(Feature, Wording)>,
    pub catering: Catering,
    pub equipment: Vec<&'static str>,
    pub dj_allowed: bool,
    /// Hotel rooms or bedrooms (venues with accommodation).
    pub bedrooms: u16,
    /// Size of the grounds (venues with a park).
    pub park_hectares: i32,
    /// A short, matter-of-fact listing rather than a rich description.
    pub plain: bool,
}

impl Sketch {
    pub fn has(&self, feature: Feature) -> bool {
        self.features.iter().any(|(f, _)| *f == feature)
    }
    pub fn wording(&self, feature: Feature) -> Option<Wording> {
        self.features
            .iter()
            .find(|(f, _)| *f == feature)
            .map(|(_, w)| *w)
    }
}

/// Plans an ordinary venue of `kind`.
pub fn plan(rng: &mut Dice, kind: Kind) -> Sketch {
    let place = geography::choose(rng, kind.setting());
    let plain = dice::chance(rng, 0.25);
    let features = features::choose(rng, kind, place, plain);
    let style = choose_style(rng, kind);
    let mooring = (kind == Kind::Barge && !place.moorings.is_empty())
        .then(|| *dice::pick(rng, place.moorings));
    let equipment_count = match kind.pool() {
        3 => dice::between(rng, 3, 5),
        _ => dice::between(rng, 1, 3),
    } as usize;
    let street = *dice::pick(rng, place.streets);
    Sketch {
        kind,
        place,
        quarter: dice::one(rng, place.quarters),
        // A boat's "street" is its quay.
        street: mooring.unwrap_or(street),
        mooring,
        size: kind.size(rng),
        style,
        catering: choose_catering(rng, kind),
        equipment: dice::sample(rng, EQUIPMENT, equipment_count)
            .into_iter()
            .copied()
            .collect(),
        dj_allowed: style == Style::Festive || dice::chance(rng, 0.25),
        bedrooms: match kind {
            Kind::Palace => dice::between(rng, 80, 220) as u16,
            Kind::Hotel => dice::between(rng, 25, 160) as u16,
            _ => dice::between(rng, 8, 45) as u16,
        },
        park_hectares: match (kind, place.ring) {
            (Kind::Chateau | Kind::Domaine | Kind::Abbey, geography::Ring::Outer) => {
                dice::between(rng, 3, 60) as i32
            }
            _ => dice::between(rng, 1, 4) as i32,
        },
        features,
        plain,
    }
}

fn choose_style(rng: &mut Dice, kind: Kind) -> Style {
    use Kind::*;
    use Style::*;
    let table: &[(Style, u32)] = match kind {
        Hotel | BoutiqueHotel => &[
            (Haussmann, 4),
            (Contemporary, 3),
            (Cosy, 3),
            (ArtDeco, 2),
            (Calm, 1),
        ],
        Palace | Townhouse => &[(Classic, 5), (Haussmann, 3), (ArtDeco, 2)],
        Brasserie => &[(ArtDeco, 5), (Festive, 2), (Haussmann, 2), (Cosy, 1)],
        Bistrot => &[(Cosy, 4), (Bohemian, 3), (Rustic, 2), (Festive, 2)],
        Gastronomic => &[(Contemporary, 4), (Cosy, 3), (Classic, 2)],
        Guinguette => &[(Bohemian, 4), (Festive, 4), (Rustic, 1)],
        Barge | Rooftop => &[(Festive, 4), (Contemporary, 3), (Bohemian, 2)],
        Loft | Gallery => &[(Contemporary, 4), (Bohemian, 2), (Festive, 2)],
        Cellar => &[(Rustic, 4), (Cosy, 3), (Festive, 2)],
        Greenhouse => &[(Bohemian, 4), (Calm, 2), (Contemporary, 2)],
        BusinessCentre | ConferenceCentre => &[(Contemporary, 6), (Calm, 2)],
        SeminarHouse => &[(Calm, 4), (Cosy, 3), (Haussmann, 2), (Rustic, 1)],
        ThirdPlace => &[(Bohemian, 3), (Contemporary, 3), (Festive, 1)],
        Chateau | Domaine | Abbey => &[(Classic, 5), (Rustic, 3), (Calm, 3)],
    };
    *dice::weighted(rng, table)
}

fn choose_catering(rng: &mut Dice, kind: Kind) -> Catering {
    use Catering::*;
    let table: &[(Catering, u32)] = match kind.pool() {
        0 | 1 => &[(Internal, 8), (Both, 2)],
        2 => &[(External, 6), (Both, 3), (Internal, 1)],
        3 => &[(Both, 5), (External, 3), (Internal, 2)],
        _ => &[(Both, 4), (Internal, 3), (External, 3)],
    };
    *dice::weighted(rng, table)
}
