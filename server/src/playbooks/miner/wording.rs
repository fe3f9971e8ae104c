//! How a pattern reads: the French sentence the console shows, the name of
//! the playbook drafted from it, and that draft's YAML. Tools are named by
//! their French label, never by their key (the key appears only in the
//! YAML's `steps`, where the server reads it).
use super::Pattern;

/// A tool as a noun (« Demande de disponibilité ») and the word its drafts'
/// names use (`disponibilite`).
struct ToolWords {
    label: &'static str,
    slug: &'static str,
}

const fn words(label: &'static str, slug: &'static str) -> ToolWords {
    ToolWords { label, slug }
}

fn tool_words(tool: &str) -> Option<ToolWords> {
    Some(match tool {
        "list_requests" => words("Liste des demandes", "demandes"),
        "get_request" => words("Lecture de la demande", "demande"),
        "get_request_catalogues" => words("Catalogues de la demande", "catalogues"),
        "list_request_emails" => words("E-mails de la demande", "emails"),
        "find_similar_requests" => words("Demandes similaires", "demandes-similaires"),
        "search_members" => words("Recherche de lieux", "recherche"),
        "get_member" => words("Fiche du lieu", "fiche"),
        "get_member_full" => words("Fiche complète du lieu", "fiche-complete"),
        "get_member_signals" => words("Signaux des lieux", "signaux"),
        "count_members" => words("Comptage des lieux", "comptage"),
        "search_training" => words("Leçons de l'équipe", "lecons"),
        "search_knowledge" => words("Recherche dans les connaissances", "connaissances"),
        "get_search_preferences" => words("Préférences de recherche", "preferences"),
        "user_data_semantic_search" => words("Recherche dans la mémoire", "memoire"),
        "add_members_to_catalog" => words("Ajout au catalogue", "ajout-catalogue"),
        "update_request" => words("Modification de la demande", "modification-demande"),
        "request_availability_check" => words("Demande de disponibilité", "disponibilite"),
        "create_training_session" => words("Nouvelle leçon", "lecon"),
        "add_knowledge_entry" => words("Nouvelle connaissance", "connaissance"),
        "save_memory" => words("Nouveau souvenir", "souvenir"),
        "create_reminder" => words("Nouveau rappel", "rappel"),
        "seek_guidance" => words("Recherche du parcours adapté", "guidage"),
        "start_playbook" => words("Ouverture d'un parcours", "ouverture"),
        "abandon_playbook" => words("Abandon du parcours", "abandon"),
        _ => return None,
    })
}

/// The French label of a tool. A tool this table does not know (a newer
/// server's) reads as its progress label without the ellipsis, which is
/// never its key either.
pub fn tool_label(tool: &str) -> String {
    match tool_words(tool) {
        Some(w) => w.label.to_string(),
        None => crate::agent::labels::label(tool)
            .trim_end_matches('…')
            .to_string(),
    }
}

/// The word of a tool in a draft's name: the table's, else the key in
/// kebab case (names allow only `a-z`, `0-9` and inner dashes).
fn tool_slug(tool: &str) -> String {
    if let Some(w) = tool_words(tool) {
        return w.slug.to_string();
    }
    let dashed: String = tool
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .collect();
    let parts: Vec<&str> = dashed.split('-').filter(|p| !p.is_empty()).collect();
    if parts.is_empty() {
        "outil".to_string()
    } else {
        parts.join("-")
    }
}

/// « 14 fois cette semaine, « Demande de disponibilité » a été appelé hors
/// parcours après « Signaux des lieux » ».
pub fn sentence(pattern: &Pattern) -> String {
    let mut s = format!(
        "{} fois cette semaine, « {} » a été appelé hors parcours",
        pattern.count,
        tool_label(&pattern.tool)
    );
    if let Some(after) = &pattern.after {
        s.push_str(&format!(" après « {} »", tool_label(after)));
    }
    s
}

/// The draft's playbook name: `motif-signaux-puis-disponibilite`.
pub fn draft_name(pattern: &Pattern) -> String {
    match &pattern.after {
        Some(after) => format!(
            "motif-{}-puis-{}",
            tool_slug(after),
            tool_slug(&pattern.tool)
        ),
        None => format!("motif-{}", tool_slug(&pattern.tool)),
    }
}

/// What a tool achieves, in the words of its skill's objective (its label
/// when it has none).
fn objective(tool: &str) -> String {
    match crate::playbooks::skills::objective(tool) {
        Some(o) => o.to_string(),
        None => lower_first(&tool_label(tool)),
    }
}

fn lower_first(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A YAML double-quoted scalar: JSON's string escapes are a subset of
/// YAML's, so a JSON string is a valid YAML one, whatever it contains.
fn quoted(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

/// A complete playbook definition drafted from the pattern: its name, a
/// French goal and intent from the tools' objectives, the two steps in the
/// order they were seen, no exclusive skill (a suggestion takes nothing
/// away from the assistant), and a comment saying where it comes from.
pub fn draft_yaml(pattern: &Pattern) -> String {
    let steps: Vec<&str> = match &pattern.after {
        Some(after) => vec![after.as_str(), pattern.tool.as_str()],
        None => vec![pattern.tool.as_str()],
    };
    let goal = match &pattern.after {
        Some(after) => format!(
            "{} puis {} : {}, puis {}",
            tool_label(after),
            lower_first(&tool_label(&pattern.tool)),
            objective(after),
            objective(&pattern.tool)
        ),
        None => format!(
            "{} : {}",
            tool_label(&pattern.tool),
            objective(&pattern.tool)
        ),
    };
    let intent = objective(&pattern.tool);
    let title = match &pattern.after {
        Some(after) => format!(
            "{} puis {}",
            tool_label(after),
            lower_first(&tool_label(&pattern.tool))
        ),
        None => tool_label(&pattern.tool),
    };
    let mut yaml = String::new();
    yaml.push_str("# Suggéré par l'observation des appels faits hors parcours :\n");
    yaml.push_str(&format!("# {}", sentence(pattern)));
    yaml.push_str(&format!(" (station « {} »).\n", pattern.station));
    yaml.push_str(&format!("name: {}\n", draft_name(pattern)));
    yaml.push_str(&format!("title: {}\n", quoted(&title)));
    yaml.push_str(&format!("goal: {}\n", quoted(&goal)));
    yaml.push_str("activation:\n");
    yaml.push_str(&format!("  intent: {}\n", quoted(&intent)));
    yaml.push_str("  exclusive_skills: []\n");
    yaml.push_str("steps:\n");
    for step in steps {
        yaml.push_str(&format!("  - skill: {step}\n"));
    }
    yaml
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(count: i64, tool: &str, after: Option<&str>) -> Pattern {
        Pattern {
            key: super::super::pattern_key(tool, after),
            tool: tool.into(),
            after: after.map(Into::into),
            station: "chat".into(),
            count,
        }
    }

    #[test]
    fn the_sentence_names_tools_by_their_labels() {
        let p = pattern(14, "request_availability_check", Some("get_member_signals"));
        assert_eq!(
            sentence(&p),
            "14 fois cette semaine, « Demande de disponibilité » a été appelé hors parcours après « Signaux des lieux »"
        );
    }

    #[test]
    fn once_reads_1_fois_and_a_first_call_has_no_after() {
        let p = pattern(1, "search_members", None);
        assert_eq!(
            sentence(&p),
            "1 fois cette semaine, « Recherche de lieux » a été appelé hors parcours"
        );
    }

    #[test]
    fn an_unknown_tool_never_shows_its_key() {
        let p = pattern(6, "brand_new_tool", Some("get_request"));
        let s = sentence(&p);
        assert!(!s.contains("brand_new_tool"), "{s}");
        assert_eq!(draft_name(&p), "motif-demande-puis-brand-new-tool");
    }

    #[test]
    fn the_draft_is_named_after_its_tools() {
        let p = pattern(14, "request_availability_check", Some("get_member_signals"));
        assert_eq!(draft_name(&p), "motif-signaux-puis-disponibilite");
        let yaml = draft_yaml(&p);
        assert!(yaml.starts_with("# Suggéré"), "{yaml}");
        assert!(yaml.contains("name: motif-signaux-puis-disponibilite\n"));
        assert!(
            yaml.contains("  - skill: get_member_signals\n  - skill: request_availability_check\n")
        );
        assert!(!yaml.contains("Proposition"), "{yaml}");
    }

    #[test]
    fn the_draft_is_a_valid_definition() {
        let p = pattern(14, "request_availability_check", Some("get_member_signals"));
        let d = crate::playbooks::definition::parse(&draft_yaml(&p)).unwrap();
        assert_eq!(d.name, "motif-signaux-puis-disponibilite");
        let steps: Vec<&str> = d.steps.iter().map(|s| s.skill.as_str()).collect();
        assert_eq!(steps, ["get_member_signals", "request_availability_check"]);
        assert!(d.activation.exclusive_skills.is_empty());
        assert!(d.activation.intent.is_some());
        assert!(!d.is_deterministic_trigger());
    }

    #[test]
    fn every_name_is_a_valid_slug() {
        for tool in ["x", "A__b", "__", "get_member", "é_à"] {
            let name = draft_name(&pattern(5, tool, Some("get_request")));
            let ok = !name.starts_with('-')
                && !name.ends_with('-')
                && !name.contains("--")
                && name
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
            assert!(ok, "{name}");
        }
    }
}
