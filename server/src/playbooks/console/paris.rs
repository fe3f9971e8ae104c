//! Times as the team reads them: Paris wall-clock time (« 12/11/2026
//! 14:05 »), from the one rule in `app::fr`.
use chrono::{DateTime, NaiveDate, Utc};

/// « 12/11/2026 14:05 », Paris time.
pub fn time(t: DateTime<Utc>) -> String {
    app::fr::paris_datetime(t)
}

/// « 12/11 » of a day.
pub fn day_month(d: NaiveDate) -> String {
    app::fr::day_month(d)
}
