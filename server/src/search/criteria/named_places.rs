//! The places a text names, gathered by the passes that read them (areas,
//! arrondissements, postal codes, communes, Paris as a whole) and turned
//! into the postal codes of the criteria at the end, in the order of the
//! text.
//!
//! A wide area narrows to what is named inside it: "à Paris, dans le 8e"
//! is the 8th, "rive gauche, Saint-Germain-des-Prés" is the 6th. Peers add
//! up: "Montmartre ou Pigalle" is both.

use super::negation::{self, Category};
use super::scan::Scan;
use super::Criteria;
use crate::geo;
use std::ops::Range;

/// One place named in the text.
struct Named {
    /// Token where it was read: the codes come out in the text's order.
    at: usize,
    codes: Vec<String>,
    /// An area named by its name ("Le Marais"), for the notes.
    area: Option<&'static str>,
    /// Narrowed by a place named inside it.
    wide: bool,
    /// A whole département ("dans le 93"): `codes` is empty, the search
    /// takes every postal code starting with its number.
    department: Option<&'static str>,
    /// Ruled out by a negation (« on évite le 17e »).
    excluded: bool,
}

impl Named {
    /// True when every postal code of `other` is inside this place.
    fn holds(&self, other: &Named) -> bool {
        match (self.department, other.department) {
            (Some(d), None) => {
                !other.codes.is_empty() && other.codes.iter().all(|c| c.starts_with(d))
            }
            (None, None) => {
                other.codes.len() < self.codes.len()
                    && other.codes.iter().all(|c| self.codes.contains(c))
            }
            _ => false,
        }
    }
}

/// True when the place from `start` to `end` is offered as an alternative
/// ("7e ou rive gauche", "rive gauche ou le 6e"): then a place inside it
/// does not narrow it.
pub fn offered_as_alternative(scan: &Scan, start: usize, end: usize) -> bool {
    const OR: &[&str] = &["ou", "voire", "ou bien", "sinon"];
    scan.longest_before(start, OR) > 0 || scan.longest(end, OR).is_some()
}

#[derive(Default)]
pub struct NamedPlaces {
    places: Vec<Named>,
    /// Paris postal codes no arrondissement has ("75999").
    unknown: Vec<String>,
}

impl NamedPlaces {
    /// Postal codes named as such: an arrondissement (both codes of the
    /// 16th), a postal code, a commune.
    pub fn codes<'c>(&mut self, at: usize, codes: impl IntoIterator<Item = &'c str>) {
        self.places.push(Named {
            at,
            codes: codes.into_iter().map(str::to_string).collect(),
            area: None,
            wide: false,
            department: None,
            excluded: false,
        });
    }

    /// How many places were read so far.
    pub fn len(&self) -> usize {
        self.places.len()
    }

    /// The places read since the first `read`, from the tokens `item`,
    /// become exclusions when a negation rules them out (« on évite le
    /// 17e »).
    pub fn rule_out_if_negated(&mut self, scan: &mut Scan, read: usize, item: Range<usize>) {
        if let Some(cue) = negation::ruled_out(scan, item.clone(), Category::Place) {
            for place in self.places.iter_mut().skip(read) {
                place.excluded = true;
            }
            negation::take(scan, cue, item, Category::Place);
        }
    }

    /// A whole département ("dans le 93"), narrowed by a place named
    /// inside it unless offered as an alternative.
    pub fn department(&mut self, at: usize, number: &'static str, wide: bool) {
        self.places.push(Named {
            at,
            codes: Vec::new(),
            area: None,
            wide,
            department: Some(number),
            excluded: false,
        });
    }

    /// An area with borders ("Le Marais", "Rive gauche").
    pub fn area(&mut self, at: usize, name: &'static str, codes: &[&str], wide: bool) {
        self.places.push(Named {
            at,
            codes: codes.iter().map(|c| c.to_string()).collect(),
            area: Some(name),
            wide,
            department: None,
            excluded: false,
        });
    }

    /// Paris, all twenty arrondissements: narrowed by any of them unless
    /// offered as an alternative (`wide` false).
    pub fn whole_paris(&mut self, at: usize, wide: bool) {
        let codes: Vec<&str> = geo::ARRONDISSEMENTS
            .iter()
            .flat_map(|a| a.postal_codes())
            .collect();
        self.places.push(Named {
            at,
            codes: codes.into_iter().map(str::to_string).collect(),
            area: None,
            wide,
            department: None,
            excluded: false,
        });
    }

    /// "Paris Centre": the 1st to the 4th, narrowed by any of them unless
    /// offered as an alternative (`wide` false).
    pub fn paris_centre(&mut self, at: usize, wide: bool) {
        let codes = (1..=4)
            .filter_map(geo::arrondissement)
            .flat_map(|a| a.postal_codes());
        self.places.push(Named {
            at,
            codes: codes.map(str::to_string).collect(),
            area: None,
            wide,
            department: None,
            excluded: false,
        });
    }

    /// A Paris postal code no arrondissement has.
    pub fn unknown(&mut self, code: String) {
        if !self.unknown.contains(&code) {
            self.unknown.push(code);
        }
    }

    /// Writes the postal codes (wide areas narrowed, in the text's order,
    /// each once) and the unknown codes, and notes what areas and unknown
    /// codes stand for.
    pub fn write(self, found: &mut Criteria, notes: &mut Vec<String>) {
        let NamedPlaces { places, unknown } = self;
        let (excluded, places): (Vec<Named>, Vec<Named>) =
            places.into_iter().partition(|p| p.excluded);
        for place in excluded {
            match place.department {
                Some(d) if !found.excluded_departments.iter().any(|x| x == d) => {
                    found.excluded_departments.push(d.to_string())
                }
                Some(_) => {}
                None => {
                    for code in place.codes {
                        if !found.excluded_postal_codes.contains(&code) {
                            found.excluded_postal_codes.push(code);
                        }
                    }
                }
            }
        }
        let narrowed = |place: &Named| place.wide && places.iter().any(|other| place.holds(other));
        let mut kept: Vec<&Named> = places.iter().filter(|p| !narrowed(p)).collect();
        kept.sort_by_key(|p| p.at);
        for place in kept {
            if let Some(d) = place.department {
                if !found.departments.iter().any(|x| x == d) {
                    found.departments.push(d.to_string());
                }
            }
            if let Some(name) = place.area {
                notes.push(format!("{name} : {}", spelled(&place.codes)));
            }
            for code in &place.codes {
                if !found.postal_codes.contains(code) {
                    found.postal_codes.push(code.clone());
                }
            }
        }
        for code in unknown {
            notes.push(format!(
                "code postal {code} inconnu : aucun arrondissement de Paris ne l'a"
            ));
            found.unknown_postal_codes.push(code);
        }
    }
}

/// "Paris 3e, 4e", "Courbevoie, Puteaux": what an area's codes cover.
fn spelled(codes: &[String]) -> String {
    let mut arrondissements: Vec<&str> = Vec::new();
    let mut others: Vec<&str> = Vec::new();
    for code in codes {
        if let Some(a) = geo::arrondissement_by_postal_code(code) {
            let short = a.name.trim_start_matches("Paris ");
            if !arrondissements.contains(&short) {
                arrondissements.push(short);
            }
        } else if let Some(c) = geo::commune_by_postal_code(code) {
            others.push(c.name);
        } else {
            others.push(code);
        }
    }
    let paris =
        (!arrondissements.is_empty()).then(|| format!("Paris {}", arrondissements.join(", ")));
    paris
        .into_iter()
        .chain(others.into_iter().map(str::to_string))
        .collect::<Vec<_>>()
        .join(", ")
}
