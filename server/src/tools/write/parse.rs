//! A model's tool input read into its argument type, with a French message
//! that names what to fix (the model reads it and corrects its call).
use crate::tools::ToolError;
use serde::de::DeserializeOwned;

/// `input` as a `T`; unknown fields are refused (every argument type denies
/// them), with the field named.
pub fn parse<T: DeserializeOwned>(input: &serde_json::Value) -> Result<T, ToolError> {
    if !input.is_object() {
        return Err(ToolError::InvalidArguments(
            "les arguments doivent être un objet JSON".into(),
        ));
    }
    serde_json::from_value(input.clone()).map_err(|e| ToolError::InvalidArguments(french(&e)))
}

/// serde's English message, reworded in French around the name it quotes.
fn french(e: &serde_json::Error) -> String {
    let message = e.to_string();
    let quoted = |prefix: &str| {
        let rest = message.split_once(prefix)?.1;
        Some(rest.split('`').next().unwrap_or_default().to_string())
    };
    let expected = message
        .split_once(", expected ")
        .map(|(_, e)| e.replace('`', ""))
        .unwrap_or_default();
    if let Some(field) = quoted("unknown field `") {
        format!("champ inconnu « {field} » : il n'existe pas dans le schéma de l'outil (champs permis : {expected})")
    } else if let Some(field) = quoted("missing field `") {
        format!("champ obligatoire manquant : « {field} »")
    } else if let Some(value) = quoted("unknown variant `") {
        format!("valeur inconnue « {value} » (valeurs permises : {expected})")
    } else if let Some(rest) = message.strip_prefix("invalid type: ") {
        format!("type invalide : {rest}")
    } else if let Some(rest) = message.strip_prefix("invalid value: ") {
        format!("valeur invalide : {rest}")
    } else {
        format!("arguments illisibles : {message}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::args::{AddKnowledgeEntry, AddMembersToCatalog};
    use serde_json::json;

    fn error_of<T: DeserializeOwned + std::fmt::Debug>(input: serde_json::Value) -> String {
        parse::<T>(&input).unwrap_err().to_string()
    }

    #[test]
    fn unknown_fields_are_named_in_french() {
        let text = error_of::<AddKnowledgeEntry>(
            json!({"member_code": "#1", "title": "", "content": "x", "confirmed": true}),
        );
        assert!(text.contains("champ inconnu « confirmed »"), "{text}");
        let nested = error_of::<AddMembersToCatalog>(json!({"request_id": 1, "picks": [
            {"member_code": "#1", "tier": "recommended", "reason": "r", "force": 1}]}));
        assert!(nested.contains("champ inconnu « force »"), "{nested}");
    }

    #[test]
    fn missing_fields_wrong_types_and_variants_are_explained() {
        let missing = error_of::<AddKnowledgeEntry>(json!({"member_code": "#1", "title": ""}));
        assert!(
            missing.contains("champ obligatoire manquant : « content »"),
            "{missing}"
        );
        let variant = error_of::<AddMembersToCatalog>(json!({"request_id": 1, "picks": [
            {"member_code": "#1", "tier": "best", "reason": "r"}]}));
        assert!(variant.contains("valeur inconnue « best »"), "{variant}");
        assert!(variant.contains("recommended"), "{variant}");
        let typed = error_of::<AddMembersToCatalog>(json!({"request_id": "1", "picks": []}));
        assert!(typed.contains("type invalide"), "{typed}");
        assert!(error_of::<AddKnowledgeEntry>(json!([1])).contains("objet JSON"));
    }
}
