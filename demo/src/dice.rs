//! Seeded randomness helpers shared by the generators.
//!
//! Every concept draws from its own ChaCha stream (`stream(seed, concept, index)`),
//! so venue #k is the same whether 300 or 70,000 members are generated, and
//! adding a draw to one concept never shifts the values of another.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The generator every demo function takes.
pub type Dice = ChaCha8Rng;

/// Stream families: one per concept, so their sequences stay independent.
#[derive(Clone, Copy)]
pub enum Concept {
    Member = 1,
    Team = 2,
    Request = 3,
    Training = 4,
    Signal = 5,
}

/// A generator for item `index` of `concept`, derived from the user's seed.
pub fn stream(seed: u64, concept: Concept, index: u64) -> Dice {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // 2^40 items per concept is far beyond any demo size.
    rng.set_stream(((concept as u64) << 40) | index);
    rng
}

/// One element of a non-empty constant table.
pub fn pick<'a, T>(rng: &mut Dice, items: &'a [T]) -> &'a T {
    &items[rng.random_range(0..items.len())]
}

/// A copy of one element of a non-empty constant table.
pub fn one<T: Copy>(rng: &mut Dice, items: &[T]) -> T {
    *pick(rng, items)
}

/// One element chosen with integer weights (the table must not be all zeros).
pub fn weighted<'a, T>(rng: &mut Dice, items: &'a [(T, u32)]) -> &'a T {
    let total: u32 = items.iter().map(|(_, w)| w).sum();
    let mut ticket = rng.random_range(0..total.max(1));
    for (item, weight) in items {
        if ticket < *weight {
            return item;
        }
        ticket -= weight;
    }
    &items[items.len() - 1].0
}

/// True with probability `p` (0.0..=1.0).
pub fn chance(rng: &mut Dice, p: f64) -> bool {
    rng.random_bool(p.clamp(0.0, 1.0))
}

/// Integer in `low..=high`.
pub fn between(rng: &mut Dice, low: i64, high: i64) -> i64 {
    rng.random_range(low..=high.max(low))
}

/// Up to `count` distinct elements of `items`, in the table's order (stable).
pub fn sample<'a, T>(rng: &mut Dice, items: &'a [T], count: usize) -> Vec<&'a T> {
    let mut chosen: Vec<usize> = Vec::with_capacity(count);
    let wanted = count.min(items.len());
    while chosen.len() < wanted {
        let index = rng.random_range(0..items.len());
        if !chosen.contains(&index) {
            chosen.push(index);
        }
    }
    chosen.sort_unstable();
    chosen.into_iter().map(|i| &items[i]).collect()
}

/// Uniform float in `[low, high)`.
pub fn uniform(rng: &mut Dice, low: f64, high: f64) -> f64 {
    low + (high - low) * rng.random::<f64>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_reproducible_and_independent() {
        let a: Vec<u32> = (0..4)
            .map(|_| stream(7, Concept::Member, 3).random())
            .collect();
        let b: Vec<u32> = (0..4)
            .map(|_| stream(7, Concept::Member, 3).random())
            .collect();
        assert_eq!(a, b);
        let x: u64 = stream(7, Concept::Member, 3).random();
        let y: u64 = stream(7, Concept::Member, 4).random();
        let z: u64 = stream(7, Concept::Request, 3).random();
        assert_ne!(x, y);
        assert_ne!(x, z);
    }

    #[test]
    fn sample_is_distinct_and_ordered() {
        let mut rng = stream(1, Concept::Team, 0);
        let items = [1, 2, 3, 4, 5, 6];
        let got = sample(&mut rng, &items, 4);
        assert_eq!(got.len(), 4);
        assert!(got.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(sample(&mut rng, &items, 10).len(), 6);
    }
}
