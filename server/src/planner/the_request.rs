//! The request a workflow works on, read and checked once for all of them:
//! a reference the user typed that the conversation does not know is read
//! by its number, and refused when the request read carries another one.
use super::results::text;
use super::step::Next;
use super::turn::Turn;
use serde_json::{json, Value};

/// The request's id and its `get_request` answer; else the step that comes
/// first: `which` (the question to ask when no request is named), the
/// read, or the refusal of a reference that does not match.
pub fn read<'t>(turn: &'t Turn, which: &str) -> Result<(i64, &'t Value), Next> {
    let Some(target) = &turn.target else {
        return Err(Next::Say(which.to_string()));
    };
    let Some(request) = turn
        .json("get_request")
        .map(|v| v.get("request").unwrap_or(v))
    else {
        return Err(Next::call(
            "get_request",
            json!({ "request_id": target.id }),
        ));
    };
    if let Some(asked) = &target.unverified_reference {
        if !text(request, "reference").is_some_and(|r| r.eq_ignore_ascii_case(asked)) {
            return Err(Next::Say(format!(
                "Je ne retrouve pas la demande {asked}. Vérifiez la référence sur la page \
                 Demandes ; rien n'a été lu ni proposé."
            )));
        }
    }
    Ok((target.id, request))
}
