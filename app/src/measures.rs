//! « Mesures » (admins): what the assistant costs and how well it serves,
//! day by day, as charts drawn on the server ([`charts`], SVG inside the
//! page, readable with JavaScript off) with the numbers behind each one
//! and a link to the rows they count.
//!
//! The server reads the database ([`MeasuresReader`]); this module turns
//! its numbers into the page's charts and words.
#[cfg(feature = "ssr")]
mod chart_views;
#[cfg(feature = "ssr")]
pub mod charts;
mod views;

pub use views::*;

use crate::errors::AppError;
use leptos::prelude::*;

/// Reads the numbers (implemented by the server).
#[cfg(feature = "ssr")]
#[async_trait::async_trait]
pub trait MeasuresReader: Send + Sync {
    /// The last `days` days (Paris calendar days, today included).
    async fn measures(&self, days: u32) -> Result<MeasuresData, AppError>;
    /// The rows behind a chart: `day` alone, or the period's last `days`.
    async fn rows(&self, query: RowsQuery) -> Result<RowsTable, AppError>;
}

/// The periods the page offers, in days; the first is the default.
pub const PERIODS: [u32; 3] = [30, 7, 90];

/// A period the page offers (anything else reads as the default).
pub fn period(days: u32) -> u32 {
    if PERIODS.contains(&days) {
        days
    } else {
        PERIODS[0]
    }
}

/// The page's charts for the last `days` days (admins only).
#[server(endpoint = "admin/measures")]
pub async fn read_measures(days: u32) -> Result<MeasuresView, AppError> {
    crate::auth::access::require_admin()?;
    let data = crate::services::service::<dyn MeasuresReader>()?
        .measures(period(days))
        .await?;
    Ok(chart_views::page(&data))
}

/// The rows behind a chart (admins only).
#[server(endpoint = "admin/measure-rows")]
pub async fn read_measure_rows(query: RowsQuery) -> Result<RowsTable, AppError> {
    crate::auth::access::require_admin()?;
    let query = query.checked()?;
    crate::services::service::<dyn MeasuresReader>()?
        .rows(query)
        .await
}
