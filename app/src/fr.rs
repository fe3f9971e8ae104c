//! The team's French, in one place: numbers and distances as fr-FR writes
//! them, dates and times on Paris' clock (stored in UTC), agreement of
//! counted words, and the French label of every stored key (event types,
//! statuses, tiers, layouts, roles…). Pages and server code call these
//! rather than formatting by hand, so « 2 635 » never sits beside « 2635 ».
//!
//! Audit actions keep their labels beside the log, in the server's
//! `audit::labels` (the server writes them; a test there checks every key).
//!
//! Thousands are grouped with a narrow no-break space (U+202F) and a unit
//! follows a no-break space (U+00A0), as the browsers' own fr-FR formatting
//! does.

mod labels;
mod numbers;
mod paris;
mod text;

pub use labels::*;
pub use numbers::*;
pub use paris::*;
pub use text::*;

#[cfg(test)]
mod wording_keys;
