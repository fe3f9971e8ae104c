//! What a refusal teaches (issue 25): after « Refuser » with « Trop loin du
//! 14e… je veux rester à Montparnasse », then « Qualifie cette demande en
//! restant autour de Montparnasse », Maxy proposed the same 8 venues, one
//! 11.8 km away. Now the team's words are read as constraints, with the
//! criteria extractor the search uses:
//! - the venues of a refused proposal are not proposed again in this
//!   conversation, unless the message names them (« reprends #233 »);
//! - a zone or a distance stated in the message (first) or in a refusal's
//!   reason (the latest first) replaces the request's zone in the search.
use super::turn::Turn;
use crate::search::criteria::{self, format_km, of};
use serde_json::{json, Map, Value};

/// Around a place named without a distance (« en restant autour de
/// Montparnasse »): staying close is what was asked, so the search takes a
/// hard radius rather than ranking nearest first over the whole zone.
pub const STAY_RADIUS_KM: f64 = 3.0;

/// A zone the team stated.
#[derive(Clone, Debug, PartialEq)]
pub enum Zone {
    Near {
        label: String,
        lat: f64,
        lng: f64,
        radius_km: f64,
    },
    PostalCodes(Vec<String>),
}

impl Zone {
    /// « autour de Montparnasse (3 km) », « 75014 ».
    pub fn label(&self) -> String {
        match self {
            Zone::Near {
                label, radius_km, ..
            } => format!("à {} km autour {}", format_km(*radius_km), of(label)),
            Zone::PostalCodes(codes) => codes.join(", "),
        }
    }

    /// The zone as `search_members` takes it, in place of any other.
    pub fn apply(&self, input: &mut Map<String, Value>) {
        input.remove("near");
        input.remove("postal_codes");
        match self {
            Zone::Near {
                lat,
                lng,
                radius_km,
                ..
            } => {
                input.insert(
                    "near".into(),
                    json!({ "lat": lat, "lng": lng, "radius_km": radius_km }),
                );
            }
            Zone::PostalCodes(codes) => {
                input.insert("postal_codes".into(), json!(codes));
            }
        }
    }
}

/// Where a stated zone comes from, for the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Message,
    Refusal,
}

/// The constraints of this turn.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Constraints {
    /// Venues refused earlier in the conversation, not to propose again.
    pub refused: Vec<String>,
    pub zone: Option<(Zone, Source)>,
}

/// The zone `text` states, if any: a place (with its radius, else
/// [`STAY_RADIUS_KM`]), else postal codes.
pub fn zone_in(text: &str) -> Option<Zone> {
    let c = criteria::extract(text);
    if let Some(near) = c.near {
        return Some(Zone::Near {
            label: near.label,
            lat: near.lat,
            lng: near.lng,
            radius_km: near.radius_km.unwrap_or(STAY_RADIUS_KM),
        });
    }
    (!c.postal_codes.is_empty()).then_some(Zone::PostalCodes(c.postal_codes))
}

pub fn read(turn: &Turn) -> Constraints {
    let named = criteria::extract(&turn.text).member_codes;
    let mut refused: Vec<String> = Vec::new();
    for r in &turn.refusals {
        for code in &r.codes {
            if !refused.contains(code) && !named.contains(code) {
                refused.push(code.clone());
            }
        }
    }
    let zone = zone_in(&turn.text)
        .map(|z| (z, Source::Message))
        .or_else(|| {
            turn.refusals
                .iter()
                .rev()
                .find_map(|r| zone_in(&r.reason))
                .map(|z| (z, Source::Refusal))
        });
    Constraints { refused, zone }
}

impl Constraints {
    pub fn is_empty(&self) -> bool {
        self.refused.is_empty() && self.zone.is_none()
    }

    /// What the answer says it applied, in French.
    pub fn said(&self) -> Vec<String> {
        let mut out = Vec::new();
        if let Some((zone, source)) = &self.zone {
            out.push(format!(
                "zone {} ({})",
                zone.label(),
                match source {
                    Source::Message => "d'après votre message",
                    Source::Refusal => "d'après la raison de votre refus",
                }
            ));
        }
        if !self.refused.is_empty() {
            out.push(format!(
                "{} refusé{} plus tôt dans cette conversation non reproposé{} ({})",
                if self.refused.len() == 1 {
                    "1 lieu".to_string()
                } else {
                    format!("{} lieux", self.refused.len())
                },
                if self.refused.len() > 1 { "s" } else { "" },
                if self.refused.len() > 1 { "s" } else { "" },
                self.refused.join(", ")
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zones_as_the_team_writes_them() {
        let near = |text: &str| match zone_in(text) {
            Some(Zone::Near {
                label, radius_km, ..
            }) => (label, radius_km),
            other => panic!("{text} → {other:?}"),
        };
        assert_eq!(near("8 km autour de Paris 5e"), ("Paris 5e".into(), 8.0));
        assert_eq!(near("17 km autour de Bougival"), ("Bougival".into(), 17.0));
        // A place without a distance: staying close, a hard radius.
        for text in [
            "Trop loin du 14e… je veux rester à Montparnasse",
            "Qualifie cette demande en restant autour de Montparnasse",
        ] {
            let (label, radius) = near(text);
            assert!(label.contains("Montparnasse"), "{label}");
            assert_eq!(radius, STAY_RADIUS_KM);
        }
        assert_eq!(zone_in("Qualifie cette demande"), None);
    }
}
