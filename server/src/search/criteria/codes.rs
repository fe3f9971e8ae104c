//! Explicit venues: "#102 et #157". Seed 001: when the user names venues,
//! the pipeline is skipped and they are served directly.

use super::scan::Scan;
use super::tokens::Kind;
use super::Criteria;

/// Takes every "#<digits>" (or "# <digits>") as a member code.
pub fn extract(scan: &mut Scan, found: &mut Criteria) {
    for i in 0..scan.len() {
        if !scan.is(i, "#") || scan.digit_count(i + 1).is_none_or(|n| n > 9) {
            continue;
        }
        // A glued letter makes it something else ("#2e", "#1A").
        if scan.glued(i + 2) && scan.kind(i + 2) == Some(Kind::Word) {
            continue;
        }
        let Some(digits) = scan.word(i + 1) else {
            continue;
        };
        let code = format!("#{digits}");
        scan.consume(i..i + 2);
        if !found.member_codes.contains(&code) {
            found.member_codes.push(code);
        }
    }
}
