//! The five pools and the kinds of venue in each, with how common a kind
//! is, where it tends to be and how big it tends to be.

use super::dice::{self, Dice};
use super::geography::Setting;

pub struct PoolDef {
    pub slug: &'static str,
    pub name: &'static str,
    pub description: &'static str,
}

/// Pool ids are their position here plus one.
pub const POOLS: &[PoolDef] = &[
    PoolDef {
        slug: "hotels",
        name: "Hôtels",
        description: "Hôtels avec salons de réception et salles de séminaire, de la maison de charme au palace.",
    },
    PoolDef {
        slug: "restaurants",
        name: "Restaurants",
        description: "Brasseries, bistrots, tables gastronomiques et guinguettes privatisables.",
    },
    PoolDef {
        slug: "lieux-atypiques",
        name: "Lieux atypiques",
        description: "Péniches, rooftops, lofts, ateliers, galeries, caves et serres : des lieux qui marquent.",
    },
    PoolDef {
        slug: "salles-seminaires",
        name: "Salles de séminaire",
        description: "Centres d'affaires, centres de conférences, maisons de séminaire et tiers-lieux.",
    },
    PoolDef {
        slug: "chateaux",
        name: "Châteaux & domaines",
        description: "Châteaux, domaines, abbayes et hôtels particuliers, surtout hors de Paris.",
    },
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Hotel,
    BoutiqueHotel,
    Palace,
    Brasserie,
    Bistrot,
    Gastronomic,
    Guinguette,
    Barge,
    Rooftop,
    Loft,
    Gallery,
    Cellar,
    Greenhouse,
    BusinessCentre,
    ConferenceCentre,
    SeminarHouse,
    ThirdPlace,
    Chateau,
    Domaine,
    Abbey,
    Townhouse,
}

/// Relative frequency of each kind: hotels 22 %, restaurants 28 %,
/// atypical venues 20 %, seminar venues 20 %, châteaux 10 %.
pub const KIND_WEIGHTS: &[(Kind, u32)] = &[
    (Kind::Hotel, 12),
    (Kind::BoutiqueHotel, 8),
    (Kind::Palace, 2),
    (Kind::Brasserie, 9),
    (Kind::Bistrot, 10),
    (Kind::Gastronomic, 6),
    (Kind::Guinguette, 3),
    (Kind::Barge, 3),
    (Kind::Rooftop, 4),
    (Kind::Loft, 4),
    (Kind::Gallery, 4),
    (Kind::Cellar, 3),
    (Kind::Greenhouse, 2),
    (Kind::BusinessCentre, 7),
    (Kind::ConferenceCentre, 4),
    (Kind::SeminarHouse, 5),
    (Kind::ThirdPlace, 4),
    (Kind::Chateau, 4),
    (Kind::Domaine, 4),
    (Kind::Abbey, 1),
    (Kind::Townhouse, 1),
];

/// How big a venue is: the cocktail capacity of its largest room.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    /// 12–80 guests.
    Small,
    /// 60–300 guests.
    Medium,
    /// 200–1,500 guests.
    Large,
}

impl Kind {
    /// Index into [`POOLS`].
    pub fn pool(self) -> usize {
        use Kind::*;
        match self {
            Hotel | BoutiqueHotel | Palace => 0,
            Brasserie | Bistrot | Gastronomic | Guinguette => 1,
            Barge | Rooftop | Loft | Gallery | Cellar | Greenhouse => 2,
            BusinessCentre | ConferenceCentre | SeminarHouse | ThirdPlace => 3,
            Chateau | Domaine | Abbey | Townhouse => 4,
        }
    }

    pub fn setting(self) -> Setting {
        use Kind::*;
        match self {
            Barge | Guinguette => Setting::Waterfront,
            Chateau | Domaine | Abbey => Setting::Countryside,
            BusinessCentre | ConferenceCentre => Setting::Business,
            Rooftop | Loft | Gallery | ThirdPlace | Brasserie | Palace => Setting::Urban,
            _ => Setting::City,
        }
    }

    pub fn size(self, rng: &mut Dice) -> Size {
        use Kind::*;
        use Size::*;
        let (small, medium, large) = match self {
            Hotel => (30, 50, 20),
            BoutiqueHotel => (60, 35, 5),
            Palace => (0, 30, 70),
            Brasserie | Guinguette => (20, 60, 20),
            Bistrot => (70, 30, 0),
            Gastronomic => (60, 40, 0),
            Barge => (30, 60, 10),
            Rooftop | Loft | Greenhouse => (30, 50, 20),
            Gallery => (40, 50, 10),
            Cellar => (50, 45, 5),
            BusinessCentre => (40, 45, 15),
            ConferenceCentre => (0, 30, 70),
            SeminarHouse => (50, 50, 0),
            ThirdPlace => (40, 50, 10),
            Chateau | Domaine => (0, 50, 50),
            Abbey => (0, 60, 40),
            Townhouse => (20, 60, 20),
        };
        *dice::weighted(rng, &[(Small, small), (Medium, medium), (Large, large)])
    }

    /// Largest standing capacity such a venue plausibly announces.
    pub fn max_guests(self) -> i32 {
        use Kind::*;
        match self {
            Bistrot => 120,
            Gastronomic => 150,
            BoutiqueHotel | SeminarHouse => 250,
            Cellar => 300,
            Brasserie => 450,
            Barge | Guinguette => 500,
            Rooftop | Gallery | ThirdPlace | Townhouse => 600,
            BusinessCentre | Greenhouse | Abbey => 800,
            Hotel | Loft | Chateau => 1000,
            Domaine => 1200,
            Palace | ConferenceCentre => 1500,
        }
    }

    /// Most rooms such a venue has (a barge has no six salons).
    pub fn max_rooms(self) -> usize {
        use Kind::*;
        match self {
            Barge | Rooftop => 3,
            Cellar | Bistrot | Gastronomic | Guinguette => 4,
            _ => 6,
        }
    }

    /// Typical spend per guest (euros, excl. VAT) as a (low, high) range.
    pub fn price_band(self) -> (i32, i32) {
        use Kind::*;
        match self {
            Hotel | BoutiqueHotel => (65, 140),
            Palace => (150, 320),
            Brasserie | Bistrot | Guinguette => (35, 90),
            Gastronomic => (95, 250),
            Barge | Rooftop | Loft | Gallery | Cellar | Greenhouse => (45, 150),
            BusinessCentre | ConferenceCentre | SeminarHouse | ThirdPlace => (49, 115),
            Chateau | Domaine | Abbey | Townhouse => (90, 230),
        }
    }
}

pub fn choose_kind(rng: &mut Dice) -> Kind {
    *dice::weighted(rng, KIND_WEIGHTS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pool_has_kinds_and_slugs_are_valid() {
        for (index, pool) in POOLS.iter().enumerate() {
            assert!(
                KIND_WEIGHTS.iter().any(|(k, _)| k.pool() == index),
                "{}",
                pool.slug
            );
            assert!(pool
                .slug
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '-'));
        }
        let total: u32 = KIND_WEIGHTS.iter().map(|(_, w)| w).sum();
        assert_eq!(total, 100);
    }
}
