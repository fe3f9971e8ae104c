//! Settings of the memory search (seed 003).
use super::{ConfigError, Env};

pub const SIMILARITY_FLOOR_VAR: &str = "MAXY_MEMORY_SIMILARITY_FLOOR";

#[derive(Clone, Debug, Default, PartialEq)]
pub struct MemorySettings {
    /// `MAXY_MEMORY_SIMILARITY_FLOOR`: replaces the keep floor tuned for
    /// the memory model (`memory::floor::for_model`). Unset: the tuned
    /// value, or the documented default for a model never tuned.
    pub similarity_floor: Option<f64>,
}

impl MemorySettings {
    pub fn from_source(env: &Env) -> Result<Self, ConfigError> {
        Ok(MemorySettings {
            similarity_floor: similarity_floor(env)?,
        })
    }
}

/// A cosine similarity the vector path keeps hits at or above: a number
/// from 0 to 1 (a negative floor or one above 1 would keep everything or
/// nothing, so it is refused rather than clamped).
fn similarity_floor(env: &Env) -> Result<Option<f64>, ConfigError> {
    let Some(raw) = env.raw(SIMILARITY_FLOOR_VAR)? else {
        return Ok(None);
    };
    match raw.parse::<f64>() {
        Ok(f) if f.is_finite() && (0.0..=1.0).contains(&f) => Ok(Some(f)),
        _ => Err(ConfigError::Invalid {
            var: SIMILARITY_FLOOR_VAR.into(),
            expected: "a cosine similarity from 0 to 1, such as 0.83".into(),
            got: raw.into(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(value: &str) -> Result<Option<f64>, ConfigError> {
        similarity_floor(&Env::from_pairs([(SIMILARITY_FLOOR_VAR, value)]))
    }

    #[test]
    fn unset_means_the_calibrated_floor() {
        assert_eq!(similarity_floor(&Env::from_pairs([])), Ok(None));
    }

    #[test]
    fn a_number_from_0_to_1_is_taken() {
        assert_eq!(parse("0.83"), Ok(Some(0.83)));
        assert_eq!(parse(" 0 "), Ok(Some(0.0)));
        assert_eq!(parse("1"), Ok(Some(1.0)));
    }

    #[test]
    fn anything_else_is_refused_naming_the_variable() {
        for bad in ["-0.1", "1.01", "83", "NaN", "inf", "0,83", "high"] {
            match parse(bad) {
                Err(ConfigError::Invalid { var, got, .. }) => {
                    assert_eq!(var, SIMILARITY_FLOOR_VAR);
                    assert_eq!(got, bad);
                }
                other => panic!("{bad:?} gave {other:?}"),
            }
        }
        assert_eq!(
            parse("   "),
            Err(ConfigError::Empty {
                var: SIMILARITY_FLOOR_VAR.into()
            })
        );
    }
}
