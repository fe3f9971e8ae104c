//! The memory search's ranking and its honesty: one pure function from the
//! evidence gathered for each candidate to an order and a [`Confidence`],
//! used by the search and by the calibration that tunes it
//! (docs/memory-calibration.md), so what is measured is what runs.
//!
//! Evidence per candidate:
//! - **cosine** of the question and the row (the memory model's vectors);
//! - **words**: the full-text rank, divided by the best rank among the
//!   candidates (0 when the row shares no word with the question);
//! - **date**: the row is due, or names a day, inside the question's time
//!   window ([`super::dates`]).
//!
//! `fused = cosine + words_weight × words + date_weight × date`. Rows below
//! `keep_floor` are not shown unless they share a word with the question
//! (nothing shown: the search falls back to recency). The
//! best row is « correspond » only when it clears `match_floor` **and**
//! leads the next one by `match_margin`: a model whose cosines crowd into a
//! narrow band cannot be trusted on a floor alone, but a clear lead over the
//! user's other memories is evidence. Everything else shown is « peut-être ».
use super::Confidence;

/// What the search knows about one candidate row.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Evidence {
    /// Cosine similarity with the question; `None` without a query vector
    /// (embedding outage) or for a row found by other means whose vector
    /// was not compared.
    pub cosine: Option<f64>,
    /// Full-text rank over the best among the candidates, in [0, 1].
    pub words: f64,
    /// Due, or naming a day, inside the question's time window.
    pub in_window: bool,
}

/// The tuned weights and bars of one embedding model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tuning {
    pub words_weight: f64,
    pub date_weight: f64,
    /// Shown at all (as « peut-être » at least).
    pub keep_floor: f64,
    /// « correspond »: the best row's fused score at least this…
    pub match_floor: f64,
    /// …and at least this much above the next row's.
    pub match_margin: f64,
}

/// One candidate kept, in the order shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ranked {
    /// Index into the evidence given.
    pub index: usize,
    pub fused: f64,
    pub confidence: Confidence,
}

impl Tuning {
    pub fn fused(&self, e: &Evidence) -> f64 {
        e.cosine.unwrap_or(0.0)
            + self.words_weight * e.words
            + if e.in_window { self.date_weight } else { 0.0 }
    }

    /// The candidates worth showing, best first, each with its confidence.
    /// A row without a cosine (no query vector during an outage, or a row
    /// written while the embedding service was down) is shown on its words
    /// or its date alone, as « peut-être »: there is nothing to measure a
    /// match against.
    pub fn rank(&self, evidence: &[Evidence]) -> Vec<Ranked> {
        let mut scored: Vec<(usize, f64)> = evidence
            .iter()
            .enumerate()
            .map(|(i, e)| (i, self.fused(e)))
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let runner_up = scored.get(1).map(|s| s.1);
        // Rows sharing a word with the question are shown whatever their
        // cosine (after the rows kept on it, their fused score being lower):
        // a name or a code the model maps far from the question is still
        // the person's own word.
        let shown = |i: usize, fused: f64| match evidence[i].cosine {
            Some(_) => fused >= self.keep_floor || evidence[i].words > 0.0,
            None => evidence[i].words > 0.0 || evidence[i].in_window,
        };
        scored
            .iter()
            .enumerate()
            .filter(|(_, &(i, fused))| shown(i, fused))
            .map(|(position, &(index, fused))| {
                let leads = runner_up.is_none_or(|next| fused - next >= self.match_margin);
                let measured = evidence[index].cosine.is_some();
                let matches = measured && position == 0 && fused >= self.match_floor && leads;
                Ranked {
                    index,
                    fused,
                    confidence: if matches {
                        Confidence::Matches
                    } else {
                        Confidence::Maybe
                    },
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: Tuning = Tuning {
        words_weight: 0.05,
        date_weight: 0.1,
        keep_floor: 0.80,
        match_floor: 0.85,
        match_margin: 0.02,
    };

    fn e(cosine: f64, words: f64, in_window: bool) -> Evidence {
        Evidence {
            cosine: Some(cosine),
            words,
            in_window,
        }
    }

    #[test]
    fn a_clear_leader_matches_the_rest_may() {
        let r = T.rank(&[
            e(0.83, 0.0, false),
            e(0.88, 0.0, false),
            e(0.70, 0.0, false),
        ]);
        assert_eq!(r.len(), 2, "0.70 is below the keep floor");
        assert_eq!((r[0].index, r[0].confidence), (1, Confidence::Matches));
        assert_eq!((r[1].index, r[1].confidence), (0, Confidence::Maybe));
    }

    #[test]
    fn a_narrow_lead_is_only_a_maybe() {
        let r = T.rank(&[e(0.87, 0.0, false), e(0.88, 0.0, false)]);
        assert!(r.iter().all(|r| r.confidence == Confidence::Maybe));
    }

    #[test]
    fn shared_words_and_the_date_window_lift_a_row() {
        let r = T.rank(&[e(0.84, 0.0, false), e(0.80, 1.0, true)]);
        assert_eq!(r[0].index, 1);
        assert!((r[0].fused - 0.95).abs() < 1e-9);
    }

    #[test]
    fn nothing_above_the_keep_floor_shows_nothing() {
        assert!(T.rank(&[e(0.5, 0.0, false), e(0.6, 0.0, false)]).is_empty());
        assert!(T.rank(&[]).is_empty());
    }

    #[test]
    fn literal_matches_show_below_the_floor_as_maybes() {
        let r = T.rank(&[
            e(0.5, 1.0, false),
            e(0.6, 0.3, false),
            e(0.7, 0.0, false),
            e(0.9, 0.0, false),
        ]);
        let order: Vec<_> = r.iter().map(|r| (r.index, r.confidence)).collect();
        assert_eq!(
            order,
            [
                (3, Confidence::Matches),
                (1, Confidence::Maybe),
                (0, Confidence::Maybe)
            ],
            "kept rows first, then rows sharing words; 0.70 shares none"
        );
    }

    #[test]
    fn without_a_query_vector_only_words_and_dates_show_and_never_match() {
        let blind = |words, in_window| Evidence {
            cosine: None,
            words,
            in_window,
        };
        let r = T.rank(&[blind(0.0, false), blind(0.4, false), blind(1.0, false)]);
        let order: Vec<_> = r.iter().map(|r| (r.index, r.confidence)).collect();
        assert_eq!(
            order,
            [(2, Confidence::Maybe), (1, Confidence::Maybe)],
            "best words first, the row sharing none left out"
        );
    }

    #[test]
    fn a_single_candidate_needs_only_the_floor() {
        let r = T.rank(&[e(0.86, 0.0, false)]);
        assert_eq!(r[0].confidence, Confidence::Matches);
    }
}
