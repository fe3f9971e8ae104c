//! Distances and travel times as French writes them: "5 km", "1,5 km",
//! "500 m", "10 minutes à pied", "1h30", "une demi-heure en voiture", "à
//! une heure". A travel time becomes a radius at a plain speed per mode:
//! walking 5 km/h, public transport 20 km/h, road 50 km/h; an unspecified
//! mode is walking up to 20 minutes ("à 10 minutes de la gare") and road
//! beyond ("à une heure de Paris").

use super::numbers;
use super::scan::Scan;

/// A distance read at some position.
pub struct Measured {
    reach: Reach,
    /// The travel mode said with it ("à pied"), if any.
    speed: Option<Speed>,
    /// Where the distance phrase ends (unit, mode and "max" included).
    pub end: usize,
}

impl Measured {
    /// The radius, and how a travel time became one (for the notes).
    /// `later` is a mode said after the place ("à 45 min de Paris en
    /// voiture").
    pub fn radius(&self, later: Option<Speed>) -> (f64, Option<String>) {
        match self.reach {
            Reach::Km(km) => (km, None),
            Reach::Minutes(minutes) => {
                let default = if minutes <= 20.0 {
                    Speed::Walk
                } else {
                    Speed::Drive
                };
                let speed = self.speed.or(later).unwrap_or(default);
                let km = (minutes / 60.0 * speed.km_per_hour() * 10.0).round() / 10.0;
                let note = format!(
                    "{} min {} ≈ {} km",
                    minutes.round(),
                    speed.phrase(),
                    super::format_km(km)
                );
                (km, Some(note))
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
pub enum Speed {
    Walk,
    Transit,
    Drive,
}

impl Speed {
    fn km_per_hour(self) -> f64 {
        match self {
            Speed::Walk => 5.0,
            Speed::Transit => 20.0,
            Speed::Drive => 50.0,
        }
    }

    fn phrase(self) -> &'static str {
        match self {
            Speed::Walk => "à pied",
            Speed::Transit => "en transports",
            Speed::Drive => "en voiture",
        }
    }
}

#[rustfmt::skip]
const MODES: &[(&str, Speed)] = &[
    ("a pied", Speed::Walk),
    ("en marchant", Speed::Walk),
    ("en metro", Speed::Transit),
    ("en rer", Speed::Transit),
    ("en bus", Speed::Transit),
    ("en tram", Speed::Transit),
    ("en transport", Speed::Transit),
    ("en transports", Speed::Transit),
    ("en transports en commun", Speed::Transit),
    ("en voiture", Speed::Drive),
    ("en train", Speed::Drive),
    ("en taxi", Speed::Drive),
    ("en vtc", Speed::Drive),
    ("en navette", Speed::Drive),
    ("en car", Speed::Drive),
];

/// "5 km", "10 minutes à pied", "1 h max" at `i`.
pub fn measure_at(scan: &Scan, i: usize) -> Option<Measured> {
    let (reach, taken) = measure(scan, i)?;
    let mut end = i + taken;
    let mut speed = None;
    for _ in 0..3 {
        if let Some((mode, n)) = mode_at(scan, end) {
            speed = Some(mode);
            end += n;
        } else if let Some((_, n)) = scan.longest(
            end,
            &["max", "maximum", "maxi", "au plus", "au maximum", "environ"],
        ) {
            end += n;
        }
    }
    Some(Measured { reach, speed, end })
}

/// "à pied", "en voiture"… at `p`: (speed, tokens taken).
pub fn mode_at(scan: &Scan, p: usize) -> Option<(Speed, usize)> {
    MODES
        .iter()
        .filter_map(|(phrase, speed)| scan.phrase(p, phrase).map(|n| (*speed, n)))
        .max_by_key(|&(_, n)| n)
}

enum Reach {
    Km(f64),
    Minutes(f64),
}

/// "5 km", "1,5 km", "500 m", "10 minutes", "1h30", "une heure", "une
/// demi-heure" at `i`: (reach, tokens taken).
fn measure(scan: &Scan, i: usize) -> Option<(Reach, usize)> {
    if let Some((_, n)) = scan.longest(i, &["une demi heure", "une demie heure", "une demi h"]) {
        return Some((Reach::Minutes(30.0), n));
    }
    if let Some((_, n)) = scan.longest(i, &["un quart d heure", "quart d heure"]) {
        return Some((Reach::Minutes(15.0), n));
    }
    let (value, taken) = numbers::decimal(scan, i).or_else(|| {
        let (v, n) = numbers::words(scan, i)?;
        Some((f64::from(v), n))
    })?;
    let u = i + taken;
    let unit = scan.word(u)?;
    match unit {
        "km" | "kms" | "kilometre" | "kilometres" => Some((Reach::Km(value), taken + 1)),
        // "75 m²" is an area.
        "m" | "metre" | "metres" if !(scan.glued(u + 1) && scan.is(u + 1, "2")) => {
            Some((Reach::Km(value / 1000.0), taken + 1))
        }
        "min" | "mins" | "mn" | "minute" | "minutes" => Some((Reach::Minutes(value), taken + 1)),
        "h" | "heure" | "heures" => {
            let mut minutes = value * 60.0;
            let mut n = taken + 1;
            if let Some(extra) = scan.number(i + n).filter(|m| *m < 60) {
                minutes += f64::from(extra);
                n += 1;
            } else if let Some(k) = scan
                .phrase(i + n, "et demie")
                .or_else(|| scan.phrase(i + n, "et demi"))
            {
                minutes += 30.0;
                n += k;
            }
            Some((Reach::Minutes(minutes), n))
        }
        _ => None,
    }
}
