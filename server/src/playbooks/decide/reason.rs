//! The French line that says, for each candidate, what the decision made
//! of it: the simulator prints it and the console's decision log shows it,
//! so an admin can read why a playbook did or did not open.
use super::{millionths, Band, Candidate, Guidance, Judged, Outcome};
use std::cmp::Reverse;

const INELIGIBLE: &str = "non admissible pour ce profil";
const BELOW_SUGGEST: &str = "sous le seuil de suggestion";
const ON_TRIAL: &str = "mais ce playbook est en observation";

/// Every candidate judged, by descending score, ineligible ones last.
pub(super) fn judge(
    guidance: &Guidance,
    candidates: &[Candidate],
    outcome: &Outcome,
    mode: Band,
) -> Vec<Judged> {
    let mut order: Vec<usize> = (0..candidates.len()).collect();
    order.sort_by_key(|&i| {
        (
            !candidates[i].eligible,
            Reverse(millionths(candidates[i].score)),
        )
    });
    order
        .into_iter()
        .map(|i| {
            let c = &candidates[i];
            let (band, reason) = if c.eligible {
                eligible(guidance, candidates, outcome, mode, i)
            } else if c.deterministic_trigger {
                (
                    guidance.band(c.score),
                    format!("{INELIGIBLE} : son déclencheur déterministe est ignoré"),
                )
            } else {
                (guidance.band(c.score), INELIGIBLE.to_string())
            };
            Judged {
                name: c.name.clone(),
                score: c.score,
                band,
                eligible: c.eligible,
                reason,
            }
        })
        .collect()
}

fn eligible(
    guidance: &Guidance,
    candidates: &[Candidate],
    outcome: &Outcome,
    mode: Band,
    i: usize,
) -> (Band, String) {
    let c = &candidates[i];
    let band = guidance.band(c.score);
    match outcome {
        // Unreachable for an eligible candidate; kept total.
        Outcome::NoneEligible => (band, BELOW_SUGGEST.to_string()),
        Outcome::Trigger(first) => trigger(candidates, *first, i, band),
        Outcome::Scored {
            ranked,
            uncapped,
            by_margin,
            chosen,
        } => {
            let best = &candidates[ranked[0]];
            let reason = if chosen.contains(&i) {
                chosen_reason(guidance, c, *uncapped, *by_margin, mode)
            } else if band == Band::Observe {
                BELOW_SUGGEST.to_string()
            } else if *by_margin && band == Band::Enforce {
                format!(
                    "au-dessus du seuil imposé, mais à plus de la marge de {} du meilleur : non suggéré",
                    decimal(guidance.margin)
                )
            } else if *by_margin {
                "non suggéré : plusieurs candidats au-dessus du seuil imposé, à moins de la marge"
                    .to_string()
            } else {
                format!("non retenu : « {} » a le meilleur score", best.name)
            };
            (band, reason)
        }
    }
}

/// Rule 2: eligible triggers are ENFORCE; the first one decides. `band` is
/// the band of the candidate's score.
fn trigger(candidates: &[Candidate], first: usize, i: usize, band: Band) -> (Band, String) {
    let c = &candidates[i];
    let opener = &candidates[first].name;
    let reason = if i == first && c.observe_only {
        format!("déclencheur déterministe, {ON_TRIAL} : rien ne s'ouvre")
    } else if i == first {
        "déclencheur déterministe : ouvert".to_string()
    } else if c.deterministic_trigger {
        format!("déclencheur déterministe, mais celui de « {opener} » le précède et décide")
    } else {
        format!("non retenu : le déclencheur déterministe de « {opener} » décide")
    };
    let band = if c.deterministic_trigger {
        Band::Enforce
    } else {
        band
    };
    (band, reason)
}

/// A candidate that would have opened or been suggested: what became of it.
fn chosen_reason(
    guidance: &Guidance,
    c: &Candidate,
    uncapped: Band,
    by_margin: bool,
    mode: Band,
) -> String {
    let why = if by_margin {
        format!(
            "au-dessus du seuil imposé mais à moins de la marge de {}",
            decimal(guidance.margin)
        )
    } else if uncapped == Band::Enforce {
        "au-dessus du seuil imposé".to_string()
    } else {
        "au-dessus du seuil de suggestion".to_string()
    };
    if c.observe_only {
        let what = if uncapped == Band::Enforce {
            "rien ne s'ouvre"
        } else {
            "non suggéré"
        };
        return format!("{why}, {ON_TRIAL} : {what}");
    }
    let verb = if uncapped == Band::Enforce {
        "ouvert"
    } else {
        "suggéré"
    };
    match (mode, guidance.max_mode) {
        (Band::Enforce, _) => format!("{why} : ouvert"),
        (Band::Suggest, Band::Suggest) if uncapped == Band::Enforce => {
            format!("{why} : suggéré, car la station est plafonnée à suggérer")
        }
        (Band::Suggest, _) => format!("{why} : suggéré"),
        (Band::Observe, _) => {
            format!("{why} : aurait été {verb}, mais la station est plafonnée à observer")
        }
    }
}

/// A threshold as the admin typed it (0.05, not 0.05000000000000000277).
/// As the team writes decimals: « 0,05 ».
fn decimal(x: f64) -> String {
    format!("{}", millionths(x) as f64 / 1_000_000.0).replace('.', ",")
}
