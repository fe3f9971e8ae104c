//! Playbooks, offline: « ouvre le parcours de qualification »,
//! « abandonne le parcours », « quel parcours pour cette demande ? ». The
//! guidance tools decide; the planner only asks and says what came back.
use super::intent::PlaybookAsk as Ask;
use super::step::Next;
use super::turn::Turn;
use super::words;
use serde_json::{json, Value};

/// The tools of this workflow (the planner's guard admits only these).
pub const TOOLS: [&str; 3] = crate::tools::GUIDANCE;

pub fn next(turn: &Turn, ask: Ask) -> Next {
    match ask {
        Ask::Abandon => match turn.json("abandon_playbook") {
            None if turn.step("abandon_playbook").is_none() => {
                Next::call("abandon_playbook", json!({ "reason": reason(&turn.text) }))
            }
            _ => Next::Say("Le parcours est abandonné ; je reste à votre disposition.".into()),
        },
        Ask::Advice => match turn.json("seek_guidance") {
            None => Next::call("seek_guidance", json!({ "action": turn.text })),
            Some(found) => Next::Say(advice(found)),
        },
        Ask::Open => {
            if let Some(started) = turn.json("start_playbook") {
                return Next::Say(opened(started));
            }
            let Some(found) = turn.json("seek_guidance") else {
                return Next::call("seek_guidance", json!({ "action": turn.text }));
            };
            match choose(&turn.text, found) {
                Some(name) => Next::call("start_playbook", json!({ "name": name })),
                None => Next::Say(
                    "Aucun parcours ne peut s'ouvrir ici pour votre profil. Les parcours sont \
                     décrits dans la console des administrateurs."
                        .into(),
                ),
            }
        }
    }
}

/// The reason given after « parce que » / « car », or a plain one.
fn reason(text: &str) -> String {
    let lower = text.to_lowercase();
    for marker in ["parce que", "car ", "raison :"] {
        if let Some(at) = lower.find(marker) {
            let said = text[at + marker.len()..].trim();
            if !said.is_empty() {
                return said.chars().take(300).collect();
            }
        }
    }
    "à la demande de l'équipe".into()
}

/// The playbook the words name best among those `seek_guidance` found
/// (their titles and goals), else the best-scored one.
fn choose(text: &str, found: &Value) -> Option<String> {
    let asked = words::words(text);
    let playbooks = found["playbooks"].as_array()?;
    let overlap = |p: &Value| {
        let described = format!(
            "{} {}",
            p["title"].as_str().unwrap_or(""),
            p["goal"].as_str().unwrap_or("")
        );
        let theirs = words::words(&described);
        asked
            .iter()
            .filter(|w| w.len() > 3 && *w != "parcours" && *w != "playbook")
            .filter(|w| theirs.contains(w))
            .count()
    };
    let best = playbooks
        .iter()
        .enumerate()
        .max_by_key(|(i, p)| (overlap(p), std::cmp::Reverse(*i)))?;
    best.1["name"].as_str().map(str::to_string)
}

fn band(band: &str) -> &'static str {
    match band {
        "ENFORCE" => "s'impose",
        "SUGGEST" => "suggéré",
        _ => "observé",
    }
}

/// What `seek_guidance` found, in the team's words: the playbooks the
/// scores put forward, else those the person may open.
fn advice(found: &Value) -> String {
    let list: &[Value] = found["playbooks"].as_array().map_or(&[], Vec::as_slice);
    let title = |p: &Value| format!("« {} »", p["title"].as_str().unwrap_or("?"));
    let fitting: Vec<String> = list
        .iter()
        .filter(|p| matches!(p["band"].as_str(), Some("ENFORCE" | "SUGGEST")))
        .take(3)
        .map(|p| {
            format!(
                "{} ({}, score {})",
                title(p),
                band(p["band"].as_str().unwrap_or("")),
                format!("{:.2}", p["score"].as_f64().unwrap_or(0.0)).replace('.', ",")
            )
        })
        .collect();
    let opened = found["open_playbook"]["title"]
        .as_str()
        .filter(|_| found["opened"].is_string());
    if let Some(t) = opened {
        return format!(
            "Le parcours « {t} » s'impose et vient de s'ouvrir : ses étapes s'affichent en haut \
             de la conversation."
        );
    }
    if !fitting.is_empty() {
        return format!(
            "Parcours qui conviennent : {}. Dites « ouvre le parcours … » pour en suivre un.",
            fitting.join(" ; ")
        );
    }
    let open: Vec<String> = list.iter().map(title).collect();
    if open.is_empty() {
        return "Aucun parcours ne s'applique ici.".into();
    }
    format!(
        "Aucun parcours ne ressort de ce que vous décrivez. Parcours que vous pouvez ouvrir ici : \
         {}. Dites « ouvre le parcours … » pour en suivre un, ou décrivez ce que vous voulez faire.",
        open.join(", ")
    )
}

fn opened(started: &Value) -> String {
    let title = started["title"].as_str().unwrap_or("demandé");
    let goal = started["goal"].as_str().unwrap_or("");
    let mut said = format!("Parcours « {title} » ouvert");
    if let Some(old) = started["replaced"].as_str() {
        said.push_str(&format!(", à la place de « {old} »"));
    }
    if goal.is_empty() {
        said.push('.');
    } else {
        said.push_str(&format!(". Objectif : {goal}."));
    }
    said.push_str(" Ses étapes s'affichent en haut de la conversation.");
    said
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_named_playbook_wins_over_the_best_score() {
        let found = json!({"playbooks": [
            {"name": "a", "title": "Groupe de plus de 200 personnes", "goal": "", "score": 0.9},
            {"name": "b", "title": "Qualification d'une demande", "goal": "", "score": 0.6},
        ]});
        assert_eq!(
            choose("ouvre le parcours de qualification", &found).as_deref(),
            Some("b")
        );
        assert_eq!(choose("ouvre un parcours", &found).as_deref(), Some("a"));
        assert_eq!(choose("ouvre", &json!({"playbooks": []})), None);
    }

    #[test]
    fn a_reason_is_read_after_parce_que() {
        assert_eq!(
            reason("abandonne le parcours parce que le client a annulé"),
            "le client a annulé"
        );
        assert_eq!(reason("abandonne le parcours"), "à la demande de l'équipe");
    }
}
