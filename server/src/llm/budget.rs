//! The month's language-model spend against its cap (seed: « si on passe
//! 200 €/mois, repenser le routing »): month-to-date cost of every recorded
//! call (read through the [`CallLog`] port: in the server,
//! `llm_calls.cost_usd`; UTC calendar month) converted to euros, and a
//! level. The level decides two things: admins are warned from 80 % of the
//! cap, and bulk tasks move to the cheaper model once it is reached
//! ([`super::Router::for_task`]).
use super::call_log::{CallLog, CallLogError};
use super::pricing;
use crate::config::LlmSettings;
use app::errors::AppError;
use app::llm_budget::{self as dto, LlmBudget, LlmBudgetStatus};
use chrono::{DateTime, Datelike, TimeZone, Utc};
use std::sync::Arc;

/// Where the month stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BudgetLevel {
    Ok,
    /// At least 80 % of the cap.
    Warning,
    /// At least the cap.
    Exceeded,
}

impl BudgetLevel {
    /// The level of `spent` against `cap` (both in the same currency).
    pub fn of(spent: f64, cap: f64) -> Self {
        // Compared as 5 × spent ≥ 4 × cap rather than spent / cap ≥ 0.8,
        // so whole amounts land exactly on the threshold.
        if spent >= cap {
            Self::Exceeded
        } else if spent * 5.0 >= cap * 4.0 {
            Self::Warning
        } else {
            Self::Ok
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BudgetStatus {
    pub spent_eur: f64,
    pub cap_eur: f64,
    pub level: BudgetLevel,
}

impl BudgetStatus {
    pub fn new(spent_eur: f64, cap_eur: f64) -> Self {
        BudgetStatus {
            spent_eur,
            cap_eur,
            level: BudgetLevel::of(spent_eur, cap_eur),
        }
    }
}

/// The cap and the exchange rate, from `MAXY_LLM_MONTHLY_CAP_EUR` and
/// `MAXY_USD_TO_EUR`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BudgetSettings {
    pub cap_eur: f64,
    pub usd_to_eur: f64,
}

impl From<&LlmSettings> for BudgetSettings {
    fn from(settings: &LlmSettings) -> Self {
        BudgetSettings {
            cap_eur: settings.monthly_cap_eur,
            usd_to_eur: settings.usd_to_eur,
        }
    }
}

/// Midnight UTC on the first day of `now`'s month.
pub fn month_start(now: DateTime<Utc>) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(now.year(), now.month(), 1, 0, 0, 0)
        .single()
        .unwrap_or(now)
}

/// The spend of the UTC month `now` falls in, up to now.
pub async fn month_to_date(
    log: &dyn CallLog,
    settings: BudgetSettings,
    now: DateTime<Utc>,
) -> Result<BudgetStatus, CallLogError> {
    let usd = log.spent_usd_since(month_start(now)).await?;
    Ok(BudgetStatus::new(
        pricing::usd_to_eur(usd, settings.usd_to_eur),
        settings.cap_eur,
    ))
}

/// The admin console's view of the budget.
pub struct BudgetService {
    /// Where the spend is read (in the server, the pool).
    pub log: Arc<dyn CallLog>,
    pub settings: BudgetSettings,
}

#[async_trait::async_trait]
impl LlmBudget for BudgetService {
    async fn status(&self) -> Result<LlmBudgetStatus, AppError> {
        let status = month_to_date(self.log.as_ref(), self.settings, Utc::now())
            .await
            .map_err(|e| match e {
                CallLogError::Unavailable(e) => AppError::unavailable(e),
                CallLogError::Failed(e) => AppError::internal(e),
            })?;
        Ok(LlmBudgetStatus {
            spent_eur: status.spent_eur,
            cap_eur: status.cap_eur,
            level: match status.level {
                BudgetLevel::Ok => dto::BudgetLevel::Ok,
                BudgetLevel::Warning => dto::BudgetLevel::Warning,
                BudgetLevel::Exceeded => dto::BudgetLevel::Exceeded,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_start_at_80_and_100_percent() {
        assert_eq!(BudgetLevel::of(159.99, 200.0), BudgetLevel::Ok);
        assert_eq!(BudgetLevel::of(160.0, 200.0), BudgetLevel::Warning);
        assert_eq!(BudgetLevel::of(199.99, 200.0), BudgetLevel::Warning);
        assert_eq!(BudgetLevel::of(200.0, 200.0), BudgetLevel::Exceeded);
        assert_eq!(BudgetLevel::of(0.0, 200.0), BudgetLevel::Ok);
        // A cap that is not a round number.
        assert_eq!(BudgetLevel::of(0.8, 1.0), BudgetLevel::Warning);
        assert_eq!(BudgetLevel::of(0.79, 1.0), BudgetLevel::Ok);
    }

    #[test]
    fn the_month_starts_at_midnight_utc_on_the_first() {
        let at = |s: &str| {
            DateTime::parse_from_rfc3339(s)
                .map(|d| d.with_timezone(&Utc))
                .unwrap_or_default()
        };
        assert_eq!(
            month_start(at("2026-12-01T12:45:11Z")),
            at("2026-12-01T00:00:00Z")
        );
        assert_eq!(
            month_start(at("2026-03-31T23:59:59Z")),
            at("2026-03-01T00:00:00Z")
        );
        // Paris is already in April, UTC still in March.
        assert_eq!(
            month_start(at("2026-04-01T00:30:00+02:00")),
            at("2026-03-01T00:00:00Z")
        );
    }
}
