//! What a call cost, from its usage and a small price table.
//!
//! Prices are list prices in USD per million tokens. Cache writes cost
//! 1.25× the input price (5-minute cache) and cache reads 0.1×, as Anthropic
//! bills them. An unknown model gets no estimate rather than a wrong one.
use super::Usage;

/// (model, input, output) in USD per million tokens.
const PRICES: &[(&str, f64, f64)] = &[
    ("claude-haiku-4-5", 1.0, 5.0),
    ("claude-sonnet-4-5", 3.0, 15.0),
    ("claude-sonnet-4", 3.0, 15.0),
    ("claude-opus-4-1", 15.0, 75.0),
];
const CACHE_WRITE_FACTOR: f64 = 1.25;
const CACHE_READ_FACTOR: f64 = 0.1;

/// The estimated cost in USD, `None` when the model is not in the table.
pub fn estimate_usd(model: &str, usage: &Usage) -> Option<f64> {
    let base = undated(model);
    let (_, input, output) = PRICES.iter().find(|(name, _, _)| *name == base)?;
    let tokens = |n: u32| f64::from(n) / 1_000_000.0;
    Some(
        tokens(usage.input_tokens) * input
            + tokens(usage.cache_write_tokens) * input * CACHE_WRITE_FACTOR
            + tokens(usage.cache_read_tokens) * input * CACHE_READ_FACTOR
            + tokens(usage.output_tokens) * output,
    )
}

/// `usd` in euros at `usd_to_eur` euros per dollar (`MAXY_USD_TO_EUR`):
/// prices are in USD, the monthly budget in EUR.
pub fn usd_to_eur(usd: f64, usd_to_eur: f64) -> f64 {
    usd * usd_to_eur
}

/// Answers name dated snapshots (`claude-haiku-4-5-20251001`); prices are per family.
fn undated(model: &str) -> &str {
    match model.rsplit_once('-') {
        Some((base, date)) if date.len() == 8 && date.bytes().all(|b| b.is_ascii_digit()) => base,
        _ => model,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn usage(input: u32, output: u32, write: u32, read: u32) -> Usage {
        Usage {
            input_tokens: input,
            output_tokens: output,
            cache_write_tokens: write,
            cache_read_tokens: read,
        }
    }

    #[test]
    fn known_models_are_priced_per_million_tokens() {
        let haiku = estimate_usd("claude-haiku-4-5", &usage(1_000_000, 1_000_000, 0, 0));
        assert_eq!(haiku, Some(6.0));
        let sonnet = estimate_usd("claude-sonnet-4-5-20250929", &usage(2_000, 500, 0, 0));
        assert!(
            (sonnet.unwrap_or_default() - 0.0135).abs() < 1e-12,
            "{sonnet:?}"
        );
    }

    #[test]
    fn cache_tokens_are_billed_apart() {
        let c = estimate_usd("claude-haiku-4-5", &usage(0, 0, 1_000_000, 1_000_000));
        assert!((c.unwrap_or_default() - 1.35).abs() < 1e-12, "{c:?}");
    }

    #[test]
    fn dollars_convert_to_euros_at_the_given_rate() {
        assert_eq!(usd_to_eur(100.0, 0.5), 50.0);
        assert!((usd_to_eur(10.0, 0.92) - 9.2).abs() < 1e-12);
        assert_eq!(usd_to_eur(0.0, 0.92), 0.0);
    }

    #[test]
    fn an_unknown_model_has_no_estimate() {
        assert_eq!(estimate_usd("gpt-4o", &usage(10, 10, 0, 0)), None);
        assert_eq!(
            estimate_usd("claude-sonnet-4-5-preview", &usage(1, 1, 0, 0)),
            None
        );
        assert_eq!(undated("claude-sonnet-4-20250514"), "claude-sonnet-4");
    }
}
