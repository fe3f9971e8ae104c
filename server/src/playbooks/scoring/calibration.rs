//! The offline scorer's mapping from raw cosines to [0,1].
//!
//! The local model (multilingual e5-small) puts every French sentence
//! between 0.78 and 0.90 of every other: a raw cosine says little alone.
//! What tells the right candidate is how high its cosine is *and* how far
//! it leads the best other candidate for the same action. The mapping is a
//! logistic (Platt) on those two features:
//!
//! `score = σ(bias + w_cosine · cosine + w_lead · lead)`, with
//! `lead = cosine − the best cosine of the other candidates`.
//!
//! Both weights are kept ≥ 0, so a higher cosine or a larger lead never
//! lowers a score, and σ keeps it in (0,1). [`fit`] finds the constants by
//! Newton's method on the log-loss of every (action, candidate) pair of the
//! tuning half of the labelled set (1 for the right candidate, 0 for every
//! other), with a small ridge so a separable set still gives finite
//! weights. `maxy calibrate playbooks` reruns it and prints them.

/// What one candidate's raw cosine says within its action's candidates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features {
    pub cosine: f64,
    /// `cosine` minus the best cosine of the other candidates (negative when
    /// another is closer); [`LEAD_ALONE`] for a lone candidate.
    pub lead: f64,
}

/// The lead of a lone candidate: nothing to lead, nothing trailing either,
/// so it is scored on its cosine alone.
pub const LEAD_ALONE: f64 = 0.0;

/// The constants of the logistic.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mapping {
    pub bias: f64,
    pub cosine: f64,
    pub lead: f64,
}

/// Fitted on 2026-12-06 by `maxy calibrate playbooks` (Newton on the
/// log-loss, ridge [`RIDGE`]; 61 actions × 24 candidates) on the tuning half of `server/data/playbook_actions.yaml`
/// against the shipped playbooks and skills, with multilingual-e5-small
/// (actions as queries, candidates as passages). Refit when the set, the
/// candidates' texts or the model change; docs/playbook-scoring.md has the
/// held-out report of this fit.
pub const FITTED: Mapping = Mapping {
    bias: -2.5049,
    cosine: 34.1821,
    lead: 81.0143,
};

/// The ridge of [`fit`] (on the weights, not on the bias).
pub const RIDGE: f64 = 1e-3;

impl Mapping {
    /// The score of a candidate with these features, in [0,1]. Negative
    /// weights (a hand-edited constant) count as 0, so the mapping stays
    /// monotonic whatever they are.
    pub fn apply(&self, f: Features) -> f64 {
        let z = self.bias + self.cosine.max(0.0) * f.cosine + self.lead.max(0.0) * f.lead;
        let p = sigmoid(z);
        if p.is_nan() {
            0.0
        } else {
            p.clamp(0.0, 1.0)
        }
    }

    /// Scores for an action's raw cosines, in their order.
    pub fn scores(&self, cosines: &[f64]) -> Vec<f64> {
        features(cosines)
            .into_iter()
            .map(|f| self.apply(f))
            .collect()
    }
}

/// Each cosine's features within its action's candidates.
pub fn features(cosines: &[f64]) -> Vec<Features> {
    // The best and second best, so each lead is one subtraction.
    let mut best = (f64::NEG_INFINITY, usize::MAX);
    let mut second = f64::NEG_INFINITY;
    for (i, &c) in cosines.iter().enumerate() {
        if c > best.0 {
            second = best.0;
            best = (c, i);
        } else if c > second {
            second = c;
        }
    }
    cosines
        .iter()
        .enumerate()
        .map(|(i, &cosine)| {
            let other = if i == best.1 { second } else { best.0 };
            let lead = if other.is_finite() {
                cosine - other
            } else {
                LEAD_ALONE
            };
            Features { cosine, lead }
        })
        .collect()
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// One labelled pair: a candidate's features and whether it is right.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub features: Features,
    pub right: bool,
}

/// The logistic fitted on `samples` (Newton's method, weights projected to
/// ≥ 0 after each step so the mapping stays monotonic).
pub fn fit(samples: &[Sample]) -> Mapping {
    let mut w = [0.0_f64; 3];
    for _ in 0..100 {
        let mut grad = [0.0; 3];
        let mut hess = [[0.0; 3]; 3];
        for s in samples {
            let x = [1.0, s.features.cosine, s.features.lead];
            let p = sigmoid(w[0] + w[1] * x[1] + w[2] * x[2]);
            let y = f64::from(u8::from(s.right));
            for a in 0..3 {
                grad[a] += (p - y) * x[a];
                for b in 0..3 {
                    hess[a][b] += p * (1.0 - p) * x[a] * x[b];
                }
            }
        }
        for a in 1..3 {
            grad[a] += RIDGE * w[a];
            hess[a][a] += RIDGE;
        }
        hess[0][0] += 1e-9;
        let Some(step) = solve3(hess, grad) else {
            break;
        };
        let mut moved = 0.0_f64;
        for a in 0..3 {
            w[a] -= step[a];
            moved = moved.max(step[a].abs());
        }
        w[1] = w[1].max(0.0);
        w[2] = w[2].max(0.0);
        if moved < 1e-9 {
            break;
        }
    }
    Mapping {
        bias: w[0],
        cosine: w[1],
        lead: w[2],
    }
}

/// `x` with `m · x = v` (Gaussian elimination with partial pivoting), or
/// `None` when `m` is singular.
fn solve3(mut m: [[f64; 3]; 3], mut v: [f64; 3]) -> Option<[f64; 3]> {
    for col in 0..3 {
        let pivot = (col..3).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[pivot][col].abs() < 1e-15 {
            return None;
        }
        m.swap(col, pivot);
        v.swap(col, pivot);
        for row in col + 1..3 {
            let k = m[row][col] / m[col][col];
            let pivot_row = m[col];
            for (x, p) in m[row].iter_mut().zip(pivot_row).skip(col) {
                *x -= k * p;
            }
            v[row] -= k * v[col];
        }
    }
    let mut x = [0.0; 3];
    for row in (0..3).rev() {
        let rest: f64 = (row + 1..3).map(|c| m[row][c] * x[c]).sum();
        x[row] = (v[row] - rest) / m[row][row];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leads_are_over_the_best_other_candidate() {
        let f = features(&[0.80, 0.86, 0.83]);
        assert!((f[0].lead - (0.80 - 0.86)).abs() < 1e-12);
        assert!((f[1].lead - (0.86 - 0.83)).abs() < 1e-12);
        assert!((f[2].lead - (0.83 - 0.86)).abs() < 1e-12);
        assert_eq!(features(&[0.9])[0].lead, LEAD_ALONE);
        assert!(features(&[]).is_empty());
        // Two equal best: neither leads.
        let tie = features(&[0.85, 0.85]);
        assert_eq!((tie[0].lead, tie[1].lead), (0.0, 0.0));
    }

    #[test]
    fn the_fit_separates_what_is_separable() {
        // Right candidates lead by 0.04 at 0.88, wrong ones trail at 0.82.
        let mut samples = Vec::new();
        for i in 0..40 {
            let jitter = f64::from(i % 5) * 0.002;
            samples.push(Sample {
                features: Features {
                    cosine: 0.88 + jitter,
                    lead: 0.04 - jitter,
                },
                right: true,
            });
            for _ in 0..5 {
                samples.push(Sample {
                    features: Features {
                        cosine: 0.82 + jitter,
                        lead: -0.06 + jitter,
                    },
                    right: false,
                });
            }
        }
        let m = fit(&samples);
        let right = m.apply(Features {
            cosine: 0.88,
            lead: 0.04,
        });
        let wrong = m.apply(Features {
            cosine: 0.82,
            lead: -0.06,
        });
        assert!(right > 0.85 && wrong < 0.5, "{m:?}: {right} {wrong}");
        assert!(m.cosine >= 0.0 && m.lead >= 0.0);
    }

    #[test]
    fn the_fitted_constants_score_a_clear_lead_high_and_a_trailer_low() {
        // Cosines less their baselines: one stands 0.06 above its own.
        let scores = FITTED.scores(&[0.06, 0.0, -0.01, -0.02]);
        assert!(scores[0] >= 0.85, "{scores:?}");
        assert!(scores[1..].iter().all(|s| *s < 0.5), "{scores:?}");
    }
}
