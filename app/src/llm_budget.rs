//! The month's language-model spend against its cap, for the admins: the
//! console warns from 80 % of the cap, when bulk tasks are about to move to
//! the cheaper model, and says when they have.
use crate::errors::AppError;
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BudgetLevel {
    /// Under 80 % of the cap.
    Ok,
    /// From 80 % of the cap.
    Warning,
    /// The cap is reached: bulk tasks use the cheaper model (when one is
    /// configured).
    Exceeded,
}

/// Month-to-date spend (UTC calendar month), in euros.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LlmBudgetStatus {
    pub spent_eur: f64,
    pub cap_eur: f64,
    pub level: BudgetLevel,
}

impl LlmBudgetStatus {
    /// The share of the cap spent, in whole percent, rounded down (79.9 %
    /// is not yet 80 %).
    pub fn percent(&self) -> u32 {
        if self.cap_eur <= 0.0 {
            return 0;
        }
        // Saturating cast: a negative or huge ratio cannot wrap.
        (self.spent_eur / self.cap_eur * 100.0).floor() as u32
    }

    /// « Budget IA : 165 € sur 200 € ce mois-ci (83 %) », with what follows
    /// when the cap is reached; `None` while under the warning threshold.
    pub fn banner(&self) -> Option<String> {
        let head = format!(
            "Budget IA : {} € sur {} € ce mois-ci ({} %)",
            self.spent_eur.round() as i64,
            self.cap_eur.round() as i64,
            self.percent()
        );
        match self.level {
            BudgetLevel::Ok => None,
            BudgetLevel::Warning => Some(head),
            BudgetLevel::Exceeded => Some(format!(
                "{head} : plafond atteint, les tâches de masse passent au modèle économique s'il est configuré."
            )),
        }
    }
}

/// Reads the month's spend (implemented by the server).
#[cfg(feature = "ssr")]
#[async_trait::async_trait]
pub trait LlmBudget: Send + Sync {
    async fn status(&self) -> Result<LlmBudgetStatus, AppError>;
}

/// The month's language-model spend (admins only).
#[server(endpoint = "admin/llm-budget")]
pub async fn month_llm_budget() -> Result<LlmBudgetStatus, AppError> {
    crate::auth::access::require_admin()?;
    crate::services::service::<dyn LlmBudget>()?.status().await
}

/// The admins' warning: nothing under 80 % of the cap (nor when the spend
/// cannot be read: the console's other parts matter more than this line).
#[component]
pub fn LlmBudgetBanner() -> impl IntoView {
    let status = Resource::new(|| (), |_| month_llm_budget());
    view! {
        <Suspense fallback=|| ()>
            {move || {
                status.get().and_then(Result::ok).and_then(|s| {
                    let exceeded = s.level == BudgetLevel::Exceeded;
                    s.banner().map(|text| {
                        let class = if exceeded {
                            "mb-6 rounded-xl border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-800"
                        } else {
                            "mb-6 rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900"
                        };
                        view! { <p role="status" data-testid="llm-budget-banner" class=class>{text}</p> }
                    })
                })
            }}
        </Suspense>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(spent_eur: f64, level: BudgetLevel) -> LlmBudgetStatus {
        LlmBudgetStatus {
            spent_eur,
            cap_eur: 200.0,
            level,
        }
    }

    #[test]
    fn the_banner_says_spend_cap_and_share_in_french() {
        assert_eq!(
            status(165.2, BudgetLevel::Warning).banner().as_deref(),
            Some("Budget IA : 165 € sur 200 € ce mois-ci (82 %)")
        );
        assert_eq!(status(166.0, BudgetLevel::Warning).percent(), 83);
        let exceeded = status(212.0, BudgetLevel::Exceeded)
            .banner()
            .unwrap_or_default();
        assert!(
            exceeded.starts_with("Budget IA : 212 € sur 200 € ce mois-ci (106 %)"),
            "{exceeded}"
        );
        assert_eq!(status(150.0, BudgetLevel::Ok).banner(), None);
    }

    #[test]
    fn the_share_rounds_down_and_survives_a_zero_cap() {
        assert_eq!(status(159.9, BudgetLevel::Ok).percent(), 79);
        let zero = LlmBudgetStatus {
            spent_eur: 5.0,
            cap_eur: 0.0,
            level: BudgetLevel::Exceeded,
        };
        assert_eq!(zero.percent(), 0);
    }
}
