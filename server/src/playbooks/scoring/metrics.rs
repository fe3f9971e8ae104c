//! How well a mapping's scores fall in the station's bands, on one half of
//! the labelled set: per band, how many (action, candidate) pairs land in
//! it and how many of those are right; per action, what the decision would
//! do with its best candidate.
use super::calibration::{features, Mapping, Sample};
use super::cases::Half;
use std::fmt::Write;

/// The default station thresholds (seed 004).
pub const ENFORCE: f64 = 0.85;
pub const SUGGEST: f64 = 0.5;

/// One labelled action's raw cosines with every candidate.
#[derive(Clone, Debug, PartialEq)]
pub struct Evidence {
    pub half: Half,
    /// The right candidate's index; `None`: no candidate is right.
    pub right: Option<usize>,
    pub cosines: Vec<f64>,
}

/// The samples [`super::calibration::fit`] learns from: every pair of `half`.
pub fn samples(evidence: &[Evidence], half: Half) -> Vec<Sample> {
    evidence
        .iter()
        .filter(|e| e.half == half)
        .flat_map(|e| {
            features(&e.cosines)
                .into_iter()
                .enumerate()
                .map(move |(i, features)| Sample {
                    features,
                    right: e.right == Some(i),
                })
        })
        .collect()
}

/// Pairs that land in one band and how many of them are right.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Band {
    pub pairs: usize,
    pub right: usize,
}

impl Band {
    /// Right among the pairs in the band (1 when the band is empty: it
    /// proposed nothing wrong).
    pub fn precision(&self) -> f64 {
        ratio(self.right, self.pairs, 1.0)
    }
}

/// One half measured with one mapping.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Report {
    pub actions: usize,
    /// Actions that have a right candidate.
    pub with_right: usize,
    /// `≥ ENFORCE`, `[SUGGEST, ENFORCE)`, `< SUGGEST`.
    pub enforce: Band,
    pub suggest: Band,
    pub observe: Band,
    /// Actions whose best candidate is the right one.
    pub top1: usize,
    /// Actions whose best candidate is `≥ ENFORCE` and right / and wrong
    /// (a wrong one includes any for an action that has no right one).
    pub opened_right: usize,
    pub opened_wrong: usize,
    /// Actions without a right candidate whose best stays `< SUGGEST`.
    pub none_quiet: usize,
    pub none_actions: usize,
}

impl Report {
    /// Right pairs `≥ ENFORCE` among all right pairs.
    pub fn enforce_recall(&self) -> f64 {
        ratio(self.enforce.right, self.with_right, 0.0)
    }
    /// Right pairs `≥ SUGGEST` among all right pairs.
    pub fn suggest_recall(&self) -> f64 {
        ratio(
            self.enforce.right + self.suggest.right,
            self.with_right,
            0.0,
        )
    }
    /// Right among all pairs `≥ SUGGEST`.
    pub fn suggest_or_more_precision(&self) -> f64 {
        ratio(
            self.enforce.right + self.suggest.right,
            self.enforce.pairs + self.suggest.pairs,
            1.0,
        )
    }
    /// Wrong pairs `< SUGGEST` among all wrong pairs.
    pub fn wrong_below_suggest(&self) -> f64 {
        let wrong = |b: &Band| b.pairs - b.right;
        let all = wrong(&self.enforce) + wrong(&self.suggest) + wrong(&self.observe);
        ratio(wrong(&self.observe), all, 1.0)
    }
    pub fn top1_accuracy(&self) -> f64 {
        ratio(self.top1, self.with_right, 0.0)
    }

    /// The report as the command prints it (and the doc quotes it).
    pub fn render(&self) -> String {
        let pct = |x: f64| format!("{:.1} %", 100.0 * x);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "  {} actions ({} with a right candidate, {} without)",
            self.actions, self.with_right, self.none_actions
        );
        let _ = writeln!(out, "  band            pairs  right  precision");
        for (name, band) in [
            ("≥ 0.85 enforce ", &self.enforce),
            ("0.5–0.85 suggest", &self.suggest),
            ("< 0.5 observe  ", &self.observe),
        ] {
            let _ = writeln!(
                out,
                "  {name}  {:>5}  {:>5}  {:>9}",
                band.pairs,
                band.right,
                pct(band.precision())
            );
        }
        let _ = writeln!(
            out,
            "  right candidates ≥ 0.85: {} (recall), ≥ 0.5: {}; precision of ≥ 0.5: {}",
            pct(self.enforce_recall()),
            pct(self.suggest_recall()),
            pct(self.suggest_or_more_precision())
        );
        let _ = writeln!(
            out,
            "  wrong candidates < 0.5: {}; best candidate right: {}",
            pct(self.wrong_below_suggest()),
            pct(self.top1_accuracy())
        );
        let _ = writeln!(
            out,
            "  per action: opens the right one {}, opens a wrong one {}, no-candidate actions left below 0.5: {}/{}",
            self.opened_right, self.opened_wrong, self.none_quiet, self.none_actions
        );
        out
    }
}

/// `half` of `evidence` scored by `mapping`.
pub fn measure(evidence: &[Evidence], half: Half, mapping: &Mapping) -> Report {
    let mut r = Report::default();
    for e in evidence.iter().filter(|e| e.half == half) {
        let scores = mapping.scores(&e.cosines);
        r.actions += 1;
        match e.right {
            Some(_) => r.with_right += 1,
            None => r.none_actions += 1,
        }
        for (i, s) in scores.iter().enumerate() {
            let band = if *s >= ENFORCE {
                &mut r.enforce
            } else if *s >= SUGGEST {
                &mut r.suggest
            } else {
                &mut r.observe
            };
            band.pairs += 1;
            band.right += usize::from(e.right == Some(i));
        }
        let best = scores.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1));
        let Some((at, &top)) = best else { continue };
        let is_right = e.right == Some(at);
        r.top1 += usize::from(is_right);
        if top >= ENFORCE {
            if is_right {
                r.opened_right += 1;
            } else {
                r.opened_wrong += 1;
            }
        }
        if e.right.is_none() && top < SUGGEST {
            r.none_quiet += 1;
        }
    }
    r
}

fn ratio(part: usize, whole: usize, empty: f64) -> f64 {
    if whole == 0 {
        empty
    } else {
        part as f64 / whole as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_fall_in_bands_and_actions_are_counted() {
        let m = Mapping {
            bias: 0.0,
            cosine: 1.0,
            lead: 0.0,
        };
        // σ(x) ≥ 0.85 for x ≥ 1.74, ≥ 0.5 for x ≥ 0.
        let evidence = [
            Evidence {
                half: Half::HeldOut,
                right: Some(0),
                cosines: vec![2.0, 0.5, -1.0],
            },
            Evidence {
                half: Half::HeldOut,
                right: None,
                cosines: vec![-2.0, -1.0],
            },
            Evidence {
                half: Half::Tuning,
                right: Some(1),
                cosines: vec![5.0, 5.0],
            },
        ];
        let r = measure(&evidence, Half::HeldOut, &m);
        assert_eq!((r.actions, r.with_right, r.none_actions), (2, 1, 1));
        assert_eq!(r.enforce, Band { pairs: 1, right: 1 });
        assert_eq!(r.suggest, Band { pairs: 1, right: 0 });
        assert_eq!(r.observe, Band { pairs: 3, right: 0 });
        assert_eq!((r.top1, r.opened_right, r.opened_wrong), (1, 1, 0));
        assert_eq!(r.none_quiet, 1);
        assert!((r.wrong_below_suggest() - 0.75).abs() < 1e-12);
        assert_eq!(samples(&evidence, Half::Tuning).len(), 2);
        assert!(r.render().contains("opens the right one 1"));
    }
}
