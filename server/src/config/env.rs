//! Typed access to environment variables, with errors that name the variable.
use std::collections::BTreeMap;
use std::fmt::Display;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// A bad configuration value: always says which variable and what was expected.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ConfigError {
    #[error("{var} is invalid: expected {expected}, got {got:?}")]
    Invalid {
        var: String,
        expected: String,
        got: String,
    },
    #[error("{var} is empty: unset it to use the default or give it a value")]
    Empty { var: String },
    #[error("{var} is not valid UTF-8")]
    NotUnicode { var: String },
    #[error("{var} is required because {because}")]
    Missing { var: String, because: String },
}

/// Where variables come from: the process environment, or a fixed map in tests.
pub struct Env {
    vars: BTreeMap<String, Result<String, ()>>,
}

impl Env {
    pub fn process() -> Self {
        let vars = std::env::vars_os()
            .filter_map(|(k, v)| {
                let key = k.into_string().ok()?;
                Some((key, v.into_string().map_err(|_| ())))
            })
            .collect();
        Env { vars }
    }

    pub fn from_pairs<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Self {
        let vars = pairs
            .into_iter()
            .map(|(k, v)| (k.to_string(), Ok(v.to_string())))
            .collect();
        Env { vars }
    }

    /// The raw value, `None` when unset; an empty value is an error, never a silent default.
    pub fn raw(&self, var: &str) -> Result<Option<&str>, ConfigError> {
        match self.vars.get(var) {
            None => Ok(None),
            Some(Err(())) => Err(ConfigError::NotUnicode { var: var.into() }),
            Some(Ok(v)) if v.trim().is_empty() => Err(ConfigError::Empty { var: var.into() }),
            Some(Ok(v)) => Ok(Some(v.trim())),
        }
    }

    pub fn string(&self, var: &str, default: &str) -> Result<String, ConfigError> {
        Ok(self.raw(var)?.unwrap_or(default).to_string())
    }

    pub fn optional_string(&self, var: &str) -> Result<Option<String>, ConfigError> {
        Ok(self.raw(var)?.map(str::to_string))
    }

    pub fn optional_parse<T: FromStr>(
        &self,
        var: &str,
        expected: &str,
    ) -> Result<Option<T>, ConfigError> {
        self.raw(var)?
            .map(|v| v.parse().map_err(|_| invalid(var, expected, v)))
            .transpose()
    }

    pub fn number<T>(
        &self,
        var: &str,
        default: T,
        range: RangeInclusive<T>,
    ) -> Result<T, ConfigError>
    where
        T: FromStr + PartialOrd + Display + Copy,
    {
        let Some(v) = self.raw(var)? else {
            return Ok(default);
        };
        let expected = format!("a whole number from {} to {}", range.start(), range.end());
        match v.parse::<T>() {
            Ok(n) if range.contains(&n) => Ok(n),
            _ => Err(invalid(var, &expected, v)),
        }
    }

    pub fn boolean(&self, var: &str, default: bool) -> Result<bool, ConfigError> {
        match self.raw(var)?.map(str::to_ascii_lowercase).as_deref() {
            None => Ok(default),
            Some("1" | "true" | "yes" | "on") => Ok(true),
            Some("0" | "false" | "no" | "off") => Ok(false),
            Some(other) => Err(invalid(var, "true or false", other)),
        }
    }

    /// A URL whose scheme is one of `schemes`. The value in errors has its password hidden.
    pub fn url(&self, var: &str, default: &str, schemes: &[&str]) -> Result<String, ConfigError> {
        let value = self.string(var, default)?;
        let scheme_ok = value
            .split_once("://")
            .is_some_and(|(scheme, rest)| schemes.contains(&scheme) && !rest.is_empty());
        if scheme_ok {
            Ok(value)
        } else {
            let expected = format!("a URL starting with {}://", schemes.join(":// or "));
            Err(invalid(var, &expected, &redact_url(&value)))
        }
    }
}

fn invalid(var: &str, expected: &str, got: &str) -> ConfigError {
    ConfigError::Invalid {
        var: var.into(),
        expected: expected.into(),
        got: got.into(),
    }
}

/// Hides the password of `scheme://user:password@host/...` so URLs can be logged.
pub fn redact_url(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let authority_end = rest.find('/').unwrap_or(rest.len());
    let (authority, path) = rest.split_at(authority_end);
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => {
            let user = userinfo.split(':').next().unwrap_or_default();
            let hidden = if userinfo.contains(':') { ":***" } else { "" };
            format!("{scheme}://{user}{hidden}@{host}{path}")
        }
        None => url.to_string(),
    }
}
