//! `maxy bench playbooks`: decisions per second of the decision function
//! over candidate sets of the sizes a station sees (3, 10 and 50 playbooks
//! and skills), and the simulator's explicit form end to end (JSON text in,
//! JSON text out). Pure CPU: no database, no model.
//!
//! The sets are deterministic and shaped like calibrated scores: most
//! candidates far below the suggest threshold, a few near the top (so the
//! margin rule, the SUGGEST band and ENFORCE all happen), a fifth
//! ineligible, one set in twenty with a deterministic trigger and a few
//! candidates on trial (`observe_only`). Figures: docs/benchmarks.md.
use crate::playbooks::decide::{decide, Band, Candidate, Guidance};
use crate::playbooks::simulate;
use rand::{Rng, SeedableRng};
use serde_json::json;
use std::hint::black_box;
use std::time::Instant;

pub struct Options {
    /// Passes over the sets of each size.
    pub rounds: usize,
}

const SIZES: [usize; 3] = [3, 10, 50];
/// Distinct sets per size (decisions cycle through them).
const SETS: usize = 1_000;
const GUIDANCE: Guidance = Guidance {
    enforce: 0.85,
    suggest: 0.5,
    margin: 0.05,
    max_mode: Band::Enforce,
};

pub fn run(opts: &Options) -> anyhow::Result<()> {
    println!(
        "{SETS} candidate sets per size, {} rounds; guidance enforce 0.85, suggest 0.5, margin 0.05, max_mode enforce",
        opts.rounds
    );
    println!(
        "{:>10}  {:>14}  {:>12}  {:>16}  {:>14}  modes E/S/O",
        "candidates", "decisions/s", "µs/decision", "simulations/s", "µs/simulation"
    );
    for size in SIZES {
        let sets = sets(size, size as u64);
        let modes = modes(&sets);

        let started = Instant::now();
        for _ in 0..opts.rounds {
            for set in &sets {
                black_box(decide(black_box(&GUIDANCE), black_box(set)));
            }
        }
        let decisions = (opts.rounds * sets.len()) as f64;
        let decide_s = started.elapsed().as_secs_f64();

        let texts: Vec<String> = sets.iter().map(|s| explicit_text(s)).collect();
        // The round trip is ~10× dearer: a tenth of the rounds is enough.
        let sim_rounds = opts.rounds.div_ceil(10);
        let started = Instant::now();
        for _ in 0..sim_rounds {
            for text in &texts {
                let input = simulate::parse(black_box(text))?;
                let output = simulate::explicit(&input)?;
                black_box(output.to_string());
            }
        }
        let simulations = (sim_rounds * texts.len()) as f64;
        let simulate_s = started.elapsed().as_secs_f64();

        println!(
            "{size:>10}  {:>14.0}  {:>12.2}  {:>16.0}  {:>14.2}  {}/{}/{}",
            decisions / decide_s,
            decide_s * 1e6 / decisions,
            simulations / simulate_s,
            simulate_s * 1e6 / simulations,
            modes[0],
            modes[1],
            modes[2],
        );
    }
    Ok(())
}

/// How many sets end in ENFORCE, SUGGEST and OBSERVE: the measurement
/// covers every path of the decision.
fn modes(sets: &[Vec<Candidate>]) -> [usize; 3] {
    let mut counts = [0; 3];
    for set in sets {
        let slot = match decide(&GUIDANCE, set).mode {
            Band::Enforce => 0,
            Band::Suggest => 1,
            Band::Observe => 2,
        };
        counts[slot] += 1;
    }
    counts
}

fn sets(size: usize, seed: u64) -> Vec<Vec<Candidate>> {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    (0..SETS)
        .map(|set| {
            let trigger_at = (set % 20 == 0).then(|| rng.random_range(0..size));
            (0..size)
                .map(|i| {
                    // Calibrated scores: a long tail near zero, a few contenders.
                    let score = if rng.random_bool(0.2) {
                        rng.random_range(0.45..1.0)
                    } else {
                        rng.random_range(0.0..0.45)
                    };
                    Candidate {
                        name: format!("candidat-{i}"),
                        eligible: rng.random_bool(0.8),
                        deterministic_trigger: trigger_at == Some(i),
                        score: (score * 100.0_f64).round() / 100.0,
                        observe_only: rng.random_bool(0.05),
                    }
                })
                .collect()
        })
        .collect()
}

fn explicit_text(set: &[Candidate]) -> String {
    let candidates: Vec<serde_json::Value> = set
        .iter()
        .map(|c| {
            json!({"name": c.name, "eligible": c.eligible,
                   "deterministic_trigger": c.deterministic_trigger,
                   "score": c.score, "observe_only": c.observe_only})
        })
        .collect();
    json!({
        "guidance": {"enforce": GUIDANCE.enforce, "suggest": GUIDANCE.suggest,
                     "margin": GUIDANCE.margin, "max_mode": GUIDANCE.max_mode.as_str()},
        "candidates": candidates,
    })
    .to_string()
}
