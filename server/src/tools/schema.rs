//! The JSON Schema of each tool's arguments, generated from the types of
//! [`super::args`]: one self-contained object schema per tool (subschemas
//! inlined, no `$ref`, no `$schema`), the doc comments as descriptions,
//! and the ranges the tools check written into the schema too, so a model
//! reads the limits before it hits them.
use super::args;
use super::Mode;
use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::{json, Value};

/// Picks a chat catalogue proposal may hold (4 + 4, or fewer, then a
/// second proposal).
pub const CHAT_MAX_PICKS: u64 = 16;
/// Picks of the training workspace (seed 000: « 25 picks »).
pub const TRAINING_MAX_PICKS: u64 = 25;

/// The schema of `T` as a model provider takes it.
pub fn of<T: JsonSchema>() -> Value {
    let generator = SchemaSettings::draft2020_12()
        .with(|s| {
            s.inline_subschemas = true;
            s.meta_schema = None;
        })
        .into_generator();
    let mut value = generator.into_root_schema_for::<T>().to_value();
    if let Some(object) = value.as_object_mut() {
        // The Rust type's name tells the model nothing.
        object.remove("title");
        object.remove("$schema");
    }
    value
}

/// The schema of a tool's arguments, by tool name; `None` for no such tool.
pub fn for_tool(name: &str, mode: Mode) -> Option<Value> {
    let mut schema = match name {
        "get_request" => of::<args::GetRequest>(),
        "get_request_catalogues" => of::<args::GetRequestCatalogues>(),
        "list_requests" => {
            let mut s = of::<args::ListRequests>();
            constrain(&mut s, "limit", json!({"minimum": 1, "maximum": 20}));
            let mut statuses: Vec<Value> =
                app::requests::STATUSES.iter().map(|s| json!(s)).collect();
            statuses.push(Value::Null);
            constrain(&mut s, "status", json!({ "enum": statuses }));
            s
        }
        "list_request_emails" => {
            let mut s = of::<args::ListRequestEmails>();
            constrain(&mut s, "limit", json!({"minimum": 1, "maximum": 20}));
            s
        }
        "find_similar_requests" => of::<args::FindSimilarRequests>(),
        "search_members" => {
            let mut s = of::<args::SearchMembers>();
            constrain(&mut s, "participants", json!({"minimum": 1}));
            constrain(&mut s, "postal_codes", json!({"items": postal_code()}));
            s
        }
        "get_member" => {
            let mut s = of::<args::GetMember>();
            constrain(&mut s, "code", member_code());
            s
        }
        "get_member_full" => {
            let mut s = of::<args::GetMember>();
            constrain(&mut s, "code", member_code());
            if let Some(o) = s.as_object_mut() {
                o.insert(
                    "description".into(),
                    json!("One venue by its code (e.g. `#102`), with everything known about it."),
                );
            }
            s
        }
        "get_member_signals" => {
            let mut s = of::<args::GetMemberSignals>();
            constrain(
                &mut s,
                "codes",
                json!({"minItems": 1, "maxItems": 16, "items": member_code()}),
            );
            s
        }
        "count_members" => {
            let mut s = of::<args::CountMembers>();
            constrain(&mut s, "postal_codes", json!({"items": postal_code()}));
            for field in ["departments", "excluded_departments"] {
                constrain(
                    &mut s,
                    field,
                    json!({"maxItems": 10, "items": {"pattern": "^[0-9]{2}$"}}),
                );
            }
            constrain(
                &mut s,
                "excluded_postal_codes",
                json!({"items": postal_code()}),
            );
            constrain(&mut s, "min_capacity", json!({"minimum": 1}));
            for field in ["tags", "excluded_tags"] {
                constrain(
                    &mut s,
                    field,
                    json!({"maxItems": super::input::MAX_TAGS, "items": {"maxLength": 40}}),
                );
            }
            s
        }
        "search_training" => {
            let mut s = of::<args::SearchTraining>();
            constrain(&mut s, "limit", json!({"minimum": 1, "maximum": 10}));
            s
        }
        "search_knowledge" => {
            let mut s = of::<args::SearchKnowledge>();
            constrain(&mut s, "limit", json!({"minimum": 1, "maximum": 10}));
            constrain(&mut s, "query", json!({"minLength": 1}));
            s
        }
        "get_search_preferences" => of::<args::GetSearchPreferences>(),
        "user_data_semantic_search" => {
            let mut s = of::<args::UserDataSemanticSearch>();
            constrain(&mut s, "limit", json!({"minimum": 1, "maximum": 10}));
            constrain(&mut s, "query", json!({"minLength": 1, "maxLength": 500}));
            s
        }
        "save_memory" => {
            let mut s = of::<args::SaveMemory>();
            constrain(&mut s, "title", json!({"maxLength": 200}));
            constrain(
                &mut s,
                "content",
                json!({"minLength": 1, "maxLength": 4000}),
            );
            s
        }
        "create_reminder" => {
            let mut s = of::<args::CreateReminder>();
            constrain(&mut s, "title", json!({"minLength": 1, "maxLength": 200}));
            constrain(&mut s, "description", json!({"maxLength": 4000}));
            constrain(
                &mut s,
                "recurrence",
                json!({"enum": ["none", "daily", "weekly", "monthly", null]}),
            );
            s
        }
        "add_members_to_catalog" => {
            let mut s = of::<args::AddMembersToCatalog>();
            let max = match mode {
                Mode::Chat => CHAT_MAX_PICKS,
                Mode::Training => TRAINING_MAX_PICKS,
            };
            constrain(&mut s, "picks", json!({"minItems": 1, "maxItems": max}));
            s
        }
        "update_request" => of::<args::UpdateRequest>(),
        "request_availability_check" => of::<args::RequestAvailabilityCheck>(),
        "create_training_session" => of::<args::CreateTrainingSession>(),
        "add_knowledge_entry" => of::<args::AddKnowledgeEntry>(),
        "seek_guidance" => of::<args::SeekGuidance>(),
        "start_playbook" => of::<args::StartPlaybook>(),
        "abandon_playbook" => of::<args::AbandonPlaybook>(),
        _ => return None,
    };
    if let Some(o) = schema.as_object_mut() {
        // Providers want an object schema even for a tool without arguments.
        o.entry("type").or_insert_with(|| json!("object"));
    }
    Some(schema)
}

fn member_code() -> Value {
    json!({"pattern": "^#[0-9]{1,9}$"})
}

fn postal_code() -> Value {
    json!({"type": "string", "pattern": "^[0-9]{5}$"})
}

/// Merges `extra` into the schema of `property` (a no-op when the type has
/// no such property: the tests on the tool list would show it).
fn constrain(schema: &mut Value, property: &str, extra: Value) {
    let Some(target) = schema
        .get_mut("properties")
        .and_then(|p| p.get_mut(property))
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    if let Value::Object(extra) = extra {
        for (k, v) in extra {
            match (target.get_mut(&k), v) {
                (Some(Value::Object(old)), Value::Object(new)) => old.extend(new),
                (_, v) => {
                    target.insert(k, v);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inlines_subschemas_and_keeps_doc_comments() {
        let s = of::<args::SearchMembers>();
        let text = s.to_string();
        assert!(!text.contains("$ref") && !text.contains("$defs"), "{text}");
        assert!(s.get("$schema").is_none());
        assert_eq!(s["type"], "object");
        assert_eq!(
            s["properties"]["near"]["properties"]["radius_km"]["type"],
            "number"
        );
        assert!(s["properties"]["text"]["description"]
            .as_str()
            .is_some_and(|d| d.contains("French")));
    }

    #[test]
    fn the_chat_never_offers_the_training_workspace_limit() {
        let chat = for_tool("add_members_to_catalog", Mode::Chat).unwrap_or_default();
        let training = for_tool("add_members_to_catalog", Mode::Training).unwrap_or_default();
        assert_eq!(chat["properties"]["picks"]["maxItems"], CHAT_MAX_PICKS);
        assert_eq!(
            training["properties"]["picks"]["maxItems"],
            TRAINING_MAX_PICKS
        );
        assert_eq!(
            chat["properties"]["picks"]["items"]["properties"]["tier"]["enum"],
            json!(["recommended", "compatible"])
        );
    }

    #[test]
    fn limits_are_written_into_the_schema() {
        let s = for_tool("list_request_emails", Mode::Chat).unwrap_or_default();
        assert_eq!(s["properties"]["limit"]["maximum"], 20);
        assert_eq!(s["properties"]["limit"]["minimum"], 1);
        let s = for_tool("get_member_signals", Mode::Chat).unwrap_or_default();
        assert_eq!(s["properties"]["codes"]["maxItems"], 16);
        assert_eq!(
            s["properties"]["codes"]["items"]["pattern"],
            "^#[0-9]{1,9}$"
        );
        assert_eq!(for_tool("no_such_tool", Mode::Chat), None);
    }
}
