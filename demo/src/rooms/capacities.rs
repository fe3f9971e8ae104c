//! Capacity per configuration and surface of a room, from its standing
//! (cocktail) figure: every layout is a share of it, so they stay coherent.

use super::Category;
use crate::dice::{self, Dice};
use crate::model::Configuration;

/// Capacities of a room from its standing figure, in `Configuration::ALL` order.
pub fn capacities(rng: &mut Dice, category: Category, standing: i32) -> Vec<(Configuration, i32)> {
    let s = f64::from(standing);
    let cocktail = standing;
    let theatre = (s * dice::uniform(rng, 0.65, 0.85)).round() as i32;
    let banquet = (s * dice::uniform(rng, 0.5, 0.7)).round() as i32;
    let cabaret = (f64::from(banquet) * dice::uniform(rng, 0.65, 0.8)).round() as i32;
    let ecole = (f64::from(theatre) * dice::uniform(rng, 0.5, 0.65)).round() as i32;
    // Tables in U or boardroom style stop scaling past a few dozen seats.
    let u_share = if category == Category::Meeting {
        (0.3, 0.4)
    } else {
        (0.15, 0.22)
    };
    let u = ((s * dice::uniform(rng, u_share.0, u_share.1)).round() as i32).min(60);
    let reunion = ((f64::from(u) * dice::uniform(rng, 0.95, 1.3)).round() as i32).min(80);
    let ceiling = ecole.min(cabaret);
    let (u, reunion) = (u.min(ceiling), reunion.min(ceiling));
    let full = [reunion, u, theatre, cabaret, ecole, banquet, cocktail];
    let odds: [f64; 7] = match category {
        Category::Salon => [0.6, 0.6, 0.8, 0.6, 0.45, 0.85, 0.95],
        Category::Meeting => [1.0, 0.9, 0.75, 0.3, 0.65, 0.15, 0.35],
        Category::Dining => [0.45, 0.4, 0.4, 0.6, 0.1, 1.0, 0.9],
        Category::Outdoor
        | Category::Garden
        | Category::Park
        | Category::Deck
        | Category::Rooftop => [0.0, 0.0, 0.3, 0.45, 0.0, 0.7, 1.0],
        Category::Hall | Category::Loft => [0.3, 0.3, 0.8, 0.6, 0.35, 0.7, 1.0],
        Category::Auditorium => [0.0, 0.0, 1.0, 0.0, 0.3, 0.0, 0.2],
        Category::Cellar => [0.2, 0.0, 0.3, 0.45, 0.0, 0.7, 1.0],
    };
    let primary = odds.iter().position(|p| *p >= 1.0).unwrap_or(6);
    let mut result = Vec::new();
    for (i, config) in Configuration::ALL.iter().enumerate() {
        let wanted = i == primary || dice::chance(rng, odds[i]);
        // Below 6 guests a layout is not worth announcing, except the room's main one.
        if wanted && (full[i] >= 6 || (i == primary && full[i] >= 4)) {
            result.push((*config, full[i]));
        }
    }
    if result.is_empty() {
        result.push((Configuration::ALL[primary], full[primary].max(4)));
    }
    result
}

pub fn area(rng: &mut Dice, category: Category, standing: i32) -> i32 {
    let per_guest = match category {
        Category::Park => dice::uniform(rng, 8.0, 20.0),
        Category::Garden | Category::Outdoor | Category::Rooftop | Category::Deck => {
            dice::uniform(rng, 1.0, 1.6)
        }
        _ => dice::uniform(rng, 0.8, 1.3),
    };
    ((f64::from(standing) * per_guest).round() as i32).max(10)
}
