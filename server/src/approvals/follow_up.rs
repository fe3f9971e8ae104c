//! What Maxy says after a card it proposed could not be applied: the card
//! already says why and offers « Réessayer »; the conversation also gets
//! Maxy's next step in its own words, so a failed approval never ends in
//! silence (issue 25).
use super::DecisionOutcome;

/// Maxy's message after `outcome`, when it failed.
pub fn after(outcome: &DecisionOutcome) -> Option<String> {
    if outcome.status != "failed" {
        return None;
    }
    Some(match outcome.tool_name.as_str() {
        "add_members_to_catalog" => "Je n'ai pas pu appliquer cette proposition de catalogue : le \
             brouillon est resté tel quel. Si l'erreur était passagère, « Réessayer » relance la \
             même action. Sinon, modifiez le catalogue depuis la page de la demande, ou \
             demandez-moi « Qualifie cette demande » : je repartirai du brouillon actuel."
            .to_string(),
        _ => "Cette action n'a pas abouti et rien n'a été enregistré. Si l'erreur était \
              passagère, « Réessayer » la relance telle quelle ; sinon, dites-moi ce qu'il faut \
              changer et je vous proposerai une nouvelle carte."
            .to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(tool: &str, status: &str) -> DecisionOutcome {
        DecisionOutcome {
            approval_id: 1,
            conversation_id: 1,
            tool_call_id: "t".into(),
            tool_name: tool.into(),
            status: status.into(),
            detail: String::new(),
            for_model: String::new(),
        }
    }

    #[test]
    fn only_a_failure_gets_a_follow_up() {
        assert_eq!(after(&outcome("update_request", "executed")), None);
        assert_eq!(after(&outcome("update_request", "rejected")), None);
        let memo = after(&outcome("update_request", "failed")).unwrap();
        assert!(memo.contains("rien n'a été enregistré"), "{memo}");
        let catalogue = after(&outcome("add_members_to_catalog", "failed")).unwrap();
        assert!(
            catalogue.contains("brouillon est resté tel quel"),
            "{catalogue}"
        );
    }
}
