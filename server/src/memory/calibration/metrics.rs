//! Precision, recall and F1 of a similarity floor over labelled pairs, the
//! score distributions of related and unrelated pairs, top-1 accuracy, and
//! the rule that suggests a floor. Pure functions over a score matrix, so
//! they are tested on hand-made numbers.
use std::fmt::Write as _;

/// The suggestion keeps at least this share of related pairs above the floor.
pub const MIN_RECALL: f64 = 0.9;

/// The floors examined: 0.70 to 0.95 by 0.01.
pub fn floors() -> impl Iterator<Item = f64> {
    (70..=95).map(|i| f64::from(i) / 100.0)
}

/// Scores and labels of every (query, memory) pair.
#[derive(Clone, Debug)]
pub struct Calibration {
    /// `scores[q][m]`: cosine similarity of query `q` and memory `m`.
    pub scores: Vec<Vec<f64>>,
    /// `related[q][m]`: the label.
    pub related: Vec<Vec<bool>>,
    /// Names of the queries and memories in the report (their set ids).
    pub query_ids: Vec<String>,
    pub memory_ids: Vec<String>,
}

/// What one floor gives.
#[derive(Clone, Debug, PartialEq)]
pub struct ThresholdRow {
    pub floor: f64,
    /// Related pairs at or above the floor.
    pub true_positives: usize,
    /// Unrelated pairs at or above the floor.
    pub false_positives: usize,
    /// Related pairs below the floor.
    pub false_negatives: usize,
    /// 1 when nothing passes (no wrong answer).
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    /// Labelled queries with at least one related memory at or above the floor.
    pub queries_found: usize,
    /// Labelled queries with a related memory among their [`TOP_K`]
    /// best-scoring memories and at or above the floor (what the search,
    /// which returns a few hits, would show).
    pub queries_found_top_k: usize,
    /// Queries labelled with nothing for which nothing passes the floor
    /// (the search then rightly falls back to full text and recency).
    pub negatives_silent: usize,
}

/// Hits a search shows (the assistant's tool and the memory page ask for 5).
pub const TOP_K: usize = 5;

/// Summary of a set of scores.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    pub count: usize,
    pub min: f64,
    pub p10: f64,
    pub p25: f64,
    pub median: f64,
    pub p75: f64,
    pub p90: f64,
    pub max: f64,
    pub mean: f64,
}

impl Distribution {
    /// `None` for no scores.
    pub fn of(scores: &[f64]) -> Option<Self> {
        if scores.is_empty() {
            return None;
        }
        let mut s = scores.to_vec();
        s.sort_by(f64::total_cmp);
        // Nearest rank: the smallest value with at least p of the scores at or below it.
        let pct = |p: f64| {
            let rank = (p * s.len() as f64).ceil() as usize;
            s[rank.clamp(1, s.len()) - 1]
        };
        Some(Distribution {
            count: s.len(),
            min: s[0],
            p10: pct(0.10),
            p25: pct(0.25),
            median: pct(0.50),
            p75: pct(0.75),
            p90: pct(0.90),
            max: s[s.len() - 1],
            mean: s.iter().sum::<f64>() / s.len() as f64,
        })
    }
}

impl Calibration {
    /// Queries and memories are named by their position until
    /// [`Calibration::named`] gives them their ids.
    pub fn new(scores: Vec<Vec<f64>>, related: Vec<Vec<bool>>) -> Self {
        let number = |n: usize| (1..=n).map(|i| i.to_string()).collect();
        let memories = scores.first().map_or(0, Vec::len);
        Calibration {
            query_ids: number(scores.len()),
            memory_ids: number(memories),
            scores,
            related,
        }
    }

    pub fn named(mut self, query_ids: Vec<String>, memory_ids: Vec<String>) -> Self {
        self.query_ids = query_ids;
        self.memory_ids = memory_ids;
        self
    }

    fn pairs(&self) -> impl Iterator<Item = (f64, bool)> + '_ {
        self.scores
            .iter()
            .zip(&self.related)
            .flat_map(|(s, r)| s.iter().copied().zip(r.iter().copied()))
    }

    pub fn related_pairs(&self) -> usize {
        self.pairs().filter(|(_, r)| *r).count()
    }

    pub fn unrelated_pairs(&self) -> usize {
        self.pairs().filter(|(_, r)| !*r).count()
    }

    /// Precision, recall and F1 at `floor` (a pair passes at `score >= floor`).
    pub fn at(&self, floor: f64) -> ThresholdRow {
        let (mut tp, mut fp, mut fn_) = (0, 0, 0);
        for (score, related) in self.pairs() {
            match (score >= floor, related) {
                (true, true) => tp += 1,
                (true, false) => fp += 1,
                (false, true) => fn_ += 1,
                (false, false) => {}
            }
        }
        let ratio = |a: usize, b: usize| if b == 0 { 1.0 } else { a as f64 / b as f64 };
        let precision = ratio(tp, tp + fp);
        let recall = ratio(tp, tp + fn_);
        let f1 = if precision + recall == 0.0 {
            0.0
        } else {
            2.0 * precision * recall / (precision + recall)
        };
        let mut queries_found = 0;
        let mut queries_found_top_k = 0;
        let mut negatives_silent = 0;
        for (scores, related) in self.scores.iter().zip(&self.related) {
            let mut order: Vec<usize> = (0..scores.len()).collect();
            order.sort_by(|a, b| scores[*b].total_cmp(&scores[*a]));
            queries_found_top_k += usize::from(
                order
                    .iter()
                    .take(TOP_K)
                    .any(|&m| related[m] && scores[m] >= floor),
            );
            let passing = |want: bool| {
                scores
                    .iter()
                    .zip(related)
                    .any(|(s, r)| *r == want && *s >= floor)
            };
            if related.iter().any(|r| *r) {
                queries_found += usize::from(passing(true));
            } else {
                negatives_silent += usize::from(!passing(false));
            }
        }
        ThresholdRow {
            floor,
            true_positives: tp,
            false_positives: fp,
            false_negatives: fn_,
            precision,
            recall,
            f1,
            queries_found,
            queries_found_top_k,
            negatives_silent,
        }
    }

    pub fn rows(&self) -> Vec<ThresholdRow> {
        floors().map(|f| self.at(f)).collect()
    }

    /// Share of labelled queries whose best-scoring memory is one they relate to.
    pub fn top1_accuracy(&self) -> f64 {
        let mut labelled = 0;
        let mut right = 0;
        for (scores, related) in self.scores.iter().zip(&self.related) {
            if !related.iter().any(|r| *r) {
                continue;
            }
            labelled += 1;
            let best = scores
                .iter()
                .enumerate()
                .max_by(|a, b| a.1.total_cmp(b.1))
                .map(|(i, _)| i);
            right += usize::from(best.is_some_and(|i| related[i]));
        }
        if labelled == 0 {
            0.0
        } else {
            right as f64 / labelled as f64
        }
    }

    /// One line per query: its best related score and rank, its best
    /// unrelated memory and score (what a floor must separate, query by query).
    pub fn per_query(&self) -> Vec<String> {
        self.scores
            .iter()
            .zip(&self.related)
            .enumerate()
            .map(|(q, (scores, related))| {
                let best = |want: bool| {
                    scores
                        .iter()
                        .enumerate()
                        .filter(|(m, _)| related[*m] == want)
                        .max_by(|a, b| a.1.total_cmp(b.1))
                        .map(|(m, s)| (m, *s))
                };
                let name = |i: usize, ids: &[String]| ids.get(i).cloned().unwrap_or_default();
                let query = name(q, &self.query_ids);
                let unrelated = match best(false) {
                    Some((m, s)) => {
                        format!("best unrelated {s:.3} ({})", name(m, &self.memory_ids))
                    }
                    None => "no unrelated memory".to_string(),
                };
                match best(true) {
                    Some((m, b)) => {
                        let rank = 1 + scores.iter().filter(|s| **s > b).count();
                        format!(
                            "{query}: best related {b:.3} ({}, rank {rank}), {unrelated}",
                            name(m, &self.memory_ids)
                        )
                    }
                    None => format!("{query}: relates to nothing, {unrelated}"),
                }
            })
            .collect()
    }

    pub fn labelled_queries(&self) -> usize {
        self.related.iter().filter(|r| r.iter().any(|x| *x)).count()
    }

    pub fn negative_queries(&self) -> usize {
        self.related.len() - self.labelled_queries()
    }

    /// (related, unrelated) score distributions.
    pub fn distributions(&self) -> (Option<Distribution>, Option<Distribution>) {
        let scores = |want: bool| {
            self.pairs()
                .filter(|(_, r)| *r == want)
                .map(|(s, _)| s)
                .collect::<Vec<f64>>()
        };
        (
            Distribution::of(&scores(true)),
            Distribution::of(&scores(false)),
        )
    }

    /// The rule: among the floors keeping recall at or above `min_recall`,
    /// the best F1 (a tie goes to the higher floor, the stricter one). A
    /// floor missing a few related pairs costs little, since the full-text
    /// and recency fallbacks and the fused exact-word hits catch them; a
    /// floor letting every pair through makes the vector path answer every
    /// query, relevant or not. When no floor reaches `min_recall`: the best
    /// F1 overall.
    pub fn suggest(&self, min_recall: f64) -> Option<ThresholdRow> {
        let rows = self.rows();
        let best = |rows: &mut dyn Iterator<Item = &ThresholdRow>| {
            rows.fold(None::<&ThresholdRow>, |best, row| match best {
                Some(b) if b.f1 > row.f1 => Some(b),
                _ => Some(row),
            })
            .cloned()
        };
        best(&mut rows.iter().filter(|r| r.recall >= min_recall)).or_else(|| best(&mut rows.iter()))
    }

    /// The printed report: the table per floor, the distributions, top-1,
    /// the suggestion.
    pub fn report(&self, min_recall: f64) -> String {
        let mut out = String::new();
        let labelled = self.labelled_queries();
        let negatives = self.negative_queries();
        let _ = writeln!(
            out,
            "floor  precision  recall     F1    TP    FP  FN  found /{labelled}  in top {TOP_K} /{labelled}  negatives silent /{negatives}"
        );
        for r in self.rows() {
            let _ = writeln!(
                out,
                "{:.2}   {:>9.3}  {:>6.3}  {:>5.3}  {:>4}  {:>4}  {:>2}  {:>9}  {:>12}  {:>19}",
                r.floor,
                r.precision,
                r.recall,
                r.f1,
                r.true_positives,
                r.false_positives,
                r.false_negatives,
                r.queries_found,
                r.queries_found_top_k,
                r.negatives_silent
            );
        }
        let (related, unrelated) = self.distributions();
        for (name, d) in [("related", related), ("unrelated", unrelated)] {
            if let Some(d) = d {
                let _ = writeln!(
                    out,
                    "{name:>9} pairs ({:>4}): min {:.3}  p10 {:.3}  p25 {:.3}  median {:.3}  p75 {:.3}  p90 {:.3}  max {:.3}  mean {:.3}",
                    d.count, d.min, d.p10, d.p25, d.median, d.p75, d.p90, d.max, d.mean
                );
            }
        }
        for line in self.per_query() {
            let _ = writeln!(out, "{line}");
        }
        let _ = writeln!(
            out,
            "top-1 accuracy: {:.3} ({labelled} labelled queries)",
            self.top1_accuracy()
        );
        match self.suggest(min_recall) {
            Some(r) => {
                let _ = writeln!(
                    out,
                    "suggested floor: {:.2} (best F1 with recall >= {min_recall}): precision {:.3}, recall {:.3}, F1 {:.3}",
                    r.floor, r.precision, r.recall, r.f1
                );
            }
            None => {
                let _ = writeln!(out, "no floor to suggest: the set has no pairs");
            }
        }
        out
    }
}
