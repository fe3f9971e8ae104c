//! « Combien de demandes sont en attente ? », « mes demandes en
//! qualification », « les demandes Hôtels de janvier »: the filters read
//! from the words, then `list_requests` (the « Demandes » page's own
//! query), and the answer states the counts it returned with the filters
//! it used, and where to see the list.
use super::answer::{date, number, plural};
use super::results::{count, items, text};
use super::statuses::status_named;
use super::step::Next;
use super::turn::Turn;
use super::words::{any, phrase, words};
use super::{pools, when};
use serde_json::{json, Map, Value};

/// Listed in the answer (the tool lists up to 20).
const SHOWN: u64 = 8;

/// What the words ask for.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Filters {
    pub status: Option<&'static str>,
    /// « en attente », « ouvertes »: new and qualifying.
    pub open: bool,
    pub pool: Option<(&'static str, &'static str)>,
    pub period: Option<(String, String, String)>,
    pub mine: bool,
}

pub fn read(text: &str) -> Filters {
    let w = words(text);
    let status = status_named(&w);
    let open = status.is_none()
        && (phrase(&w, "en attente")
            || phrase(&w, "en cours")
            || any(&w, &["ouvertes", "ouverte", "pending", "open"], &[])
            || phrase(&w, "a traiter")
            // « à qualifier », as the home page's queue says it: new and
            // qualifying (exact: « qualifiées » is one letter away).
            || w.iter().any(|x| x == "qualifier"));
    Filters {
        status,
        open,
        pool: pools::named(&w),
        period: when::period(&w, when::today())
            .map(|(a, b, said)| (a.to_string(), b.to_string(), said)),
        mine: w
            .iter()
            .any(|x| matches!(x.as_str(), "mes" | "mine" | "my"))
            || phrase(&w, "m ont ete")
            || phrase(&w, "assignees a moi"),
    }
}

pub fn next(turn: &Turn) -> Next {
    let filters = read(&turn.text);
    match turn.json("list_requests") {
        None => Next::call("list_requests", input(&filters)),
        Some(v) => Next::Say(answer(v, &filters)),
    }
}

pub fn input(f: &Filters) -> Value {
    let mut input = Map::new();
    if let Some(s) = status_filter(f) {
        input.insert("status".into(), json!(s));
    }
    if let Some((slug, _)) = f.pool {
        input.insert("pool".into(), json!(slug));
    }
    if let Some((from, to, _)) = &f.period {
        input.insert("from".into(), json!(from));
        input.insert("to".into(), json!(to));
    }
    if f.mine {
        input.insert("mine".into(), json!(true));
    }
    input.insert("limit".into(), json!(SHOWN));
    Value::Object(input)
}

/// « 8 demandes en qualification », feminine plural of the status.
fn status_words(status: &str, n: u64) -> String {
    let s = if n == 1 { "" } else { "s" };
    match status {
        "new" => format!("nouvelle{s}"),
        "qualifying" => "en qualification".into(),
        "catalogue_sent" => "catalogue envoyé".into(),
        "won" => format!("gagnée{s}"),
        "lost" => format!("perdue{s}"),
        "cancelled" => format!("annulée{s}"),
        other => other.into(),
    }
}

fn demandes(n: u64) -> String {
    format!(
        "{} {}",
        number(n),
        if n == 1 { "demande" } else { "demandes" }
    )
}

/// The filters in words: « dans le pool Hôtels, qui vous sont assignées ».
fn scope(f: &Filters) -> String {
    let mut parts = Vec::new();
    if let Some((_, name)) = f.pool {
        parts.push(format!("dans le pool {name}"));
    }
    if let Some((_, _, said)) = &f.period {
        parts.push(format!("dont l'événement a lieu {said}"));
    }
    if f.mine {
        parts.push("qui vous sont assignées".to_string());
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" {}", parts.join(", "))
    }
}

/// The status the list is filtered on: one status, or every open one.
fn status_filter(f: &Filters) -> Option<&'static str> {
    f.status.or(f.open.then_some(app::requests::OPEN))
}

/// The « Demandes » page with the same filters.
fn link(f: &Filters) -> String {
    let (from, to) = f
        .period
        .as_ref()
        .map(|(a, b, _)| (a.clone(), b.clone()))
        .unwrap_or_default();
    let query = app::requests::RequestsQuery {
        status: status_filter(f).unwrap_or_default().to_string(),
        pool: f.pool.map(|p| p.0).unwrap_or_default().to_string(),
        from,
        to,
        mine: f.mine,
        ..Default::default()
    }
    .to_query_string(1);
    if query.is_empty() {
        "/demandes".into()
    } else {
        format!("/demandes?{query}")
    }
}

pub fn answer(v: &Value, f: &Filters) -> String {
    let by_status = v.get("by_status").cloned().unwrap_or_default();
    let of = |s: &str| count(&by_status, s).unwrap_or(0);
    let total = count(v, "total").unwrap_or(0);
    let scope = scope(f);
    let mut out = if f.open {
        let (new, qualifying) = (of("new"), of("qualifying"));
        format!(
            "{} en attente{scope} : {} et {} en qualification (pas encore de catalogue envoyé).",
            demandes(new + qualifying),
            match new {
                0 => "aucune nouvelle".to_string(),
                n => plural(n as usize, "nouvelle", "nouvelles"),
            },
            number(qualifying),
        )
    } else if let Some(s) = f.status {
        if total == 0 {
            format!("Aucune demande {}{scope}.", status_words(s, 1))
        } else {
            format!("{} {}{scope}.", demandes(total), status_words(s, total))
        }
    } else {
        let parts: Vec<String> = [
            "new",
            "qualifying",
            "catalogue_sent",
            "won",
            "lost",
            "cancelled",
        ]
        .iter()
        .filter(|s| of(s) > 0)
        .map(|s| format!("{} {}", number(of(s)), status_words(s, of(s))))
        .collect();
        if parts.is_empty() {
            format!("Aucune demande{scope}.")
        } else {
            format!("{}{scope} : {}.", demandes(total), parts.join(", "))
        }
    };
    let listed: Vec<&Value> = items(v, "requests").iter().collect();
    if !listed.is_empty() {
        out.push_str("\n\nLes plus récentes :");
        for r in listed {
            out.push('\n');
            out.push_str(&line(r));
        }
    }
    out.push_str(&format!("\n\nLa liste complète : {}", link(f)));
    out
}

/// « - D-2025-00043 — séminaire, 60 personnes, le 12/03/2026 (en qualification) »
fn line(r: &Value) -> String {
    let mut facts = Vec::new();
    if let Some(kind) = text(r, "event_type") {
        facts.push(app::event_types::label(kind));
    }
    if let Some(n) = count(r, "participants") {
        facts.push(plural(n as usize, "personne", "personnes"));
    }
    if let Some(d) = text(r, "event_start_date") {
        facts.push(format!("le {}", date(d)));
    }
    let status = text(r, "status")
        .map(app::requests::status_label)
        .unwrap_or("");
    format!(
        "- {} — {} ({})",
        text(r, "reference").unwrap_or("?"),
        if facts.is_empty() {
            "sans détails".to_string()
        } else {
            facts.join(", ")
        },
        status.to_lowercase()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_from_the_words() {
        let f = read("combien de demandes sont en attente ?");
        assert!(f.open);
        assert_eq!(f.status, None);
        let f = read("mes demandes en qualification dans les hôtels");
        assert_eq!(f.status, Some("qualifying"));
        assert!(f.mine);
        assert_eq!(f.pool.map(|p| p.0), Some("hotels"));
        assert_eq!(read("demandes gagnées").status, Some("won"));
        let f = read("Quelles demandes sont à qualifier ?");
        assert!(f.open);
        assert_eq!(f.status, None);
        assert!(!read("les demandes qualifiées").open);
    }

    #[test]
    fn waiting_means_new_and_qualifying() {
        let v = json!({"total": 20, "by_status": {"new": 3, "qualifying": 8, "won": 9}, "requests": []});
        let a = answer(&v, &read("combien de demandes sont en attente ?"));
        assert!(
            a.starts_with("11 demandes en attente : 3 nouvelles et 8 en qualification"),
            "{a}"
        );
    }
}
