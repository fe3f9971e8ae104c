//! The request statuses as the team names them (« en qualification »,
//! « gagnée »…), read from folded words.
use super::words::any;

/// The status a word names.
pub fn status_named(w: &[String]) -> Option<&'static str> {
    let has = |keys: &[&str]| any(w, keys, &[]);
    if has(&["nouvelle", "nouvelles", "new"]) {
        Some("new")
    } else if has(&["qualification", "qualifier", "qualifying"]) && !has(&["qualifie"]) {
        Some("qualifying")
    } else if has(&["envoye", "envoyes", "envoyee", "envoyees", "sent"]) {
        Some("catalogue_sent")
    } else if has(&[
        "gagnee", "gagnees", "gagne", "gagnes", "signee", "signees", "won",
    ]) {
        Some("won")
    } else if has(&["perdue", "perdues", "perdu", "perdus", "lost"]) {
        Some("lost")
    } else if has(&["annulee", "annulees", "cancelled", "canceled"]) {
        Some("cancelled")
    } else {
        None
    }
}
