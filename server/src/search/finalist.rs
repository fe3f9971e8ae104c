//! What stage 3 ranks: the finalists of stages 1 and 2 with what we know
//! of each, and where their similarity came from. Shared by the scorer, the
//! sentences it writes (`reasons`) and the language-model ranker, so none of
//! them imports another for its types.
use crate::db::venue_search::{Candidate, Signals};

/// Everything known about one finalist.
pub struct Finalist<'a> {
    pub candidate: &'a Candidate,
    /// Cosine similarity to the query (vector), or a full-text rank.
    pub similarity: Option<f64>,
    pub signals: Signals,
}

/// Where the similarity came from decides how raw values are read.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Similarity {
    /// Cosine similarity from the embedding model.
    Vector,
    /// `ts_rank` values: only their order means something.
    FullText,
    None,
}
