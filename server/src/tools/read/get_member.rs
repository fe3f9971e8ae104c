//! `get_member`: a venue's short sheet by code — where it is, its rooms
//! with their capacity per layout, its description. The venue wrote its
//! name, city, room names and texts: all wrapped.
use super::answer;
use crate::db::members::{self, MemberRow, RoomRow};
use crate::tools::args::GetMember;
use crate::tools::input;
use crate::tools::output::{External, Kind};
use crate::tools::{ToolContext, ToolError, ToolOutcome};
use serde_json::{json, Value};

pub async fn run(ctx: &ToolContext, args: GetMember) -> Result<ToolOutcome, ToolError> {
    let (member, rooms) = load(ctx, &args.code).await?;
    let summary = format!("Lieu {} : {}", member.code, member.name);
    Ok(answer(
        json!({"member": sheet(&member, &rooms, false)}),
        summary,
    ))
}

/// The venue and its rooms, or NotFound for a code that names nothing.
pub(super) async fn load(
    ctx: &ToolContext,
    code: &str,
) -> Result<(MemberRow, Vec<RoomRow>), ToolError> {
    let code = input::member_code(code)?;
    let failed = |e| input::unavailable("get_member", e);
    let member = members::by_code(&ctx.db, &code)
        .await
        .map_err(failed)?
        .ok_or_else(|| ToolError::NotFound(format!("lieu {code}")))?;
    let rooms = members::rooms(&ctx.db, member.id).await.map_err(failed)?;
    Ok((member, rooms))
}

/// The short sheet; `full` adds the rooms' own texts and sizes.
pub(super) fn sheet(m: &MemberRow, rooms: &[RoomRow], full: bool) -> Value {
    let rooms: Vec<_> = rooms
        .iter()
        .map(|r| {
            let mut room = json!({
                "id": r.id,
                "name": External::new(Kind::VenueName, r.name.as_str()),
                "capacities": r.capacities,
            });
            if full {
                room["area_m2"] = json!(r.area_m2);
                room["description"] =
                    json!(External::optional(Kind::VenueText, Some(&r.description)));
            }
            room
        })
        .collect();
    json!({
        "code": m.code,
        "name": External::new(Kind::VenueName, m.name.as_str()),
        "status": m.status,
        "city": External::optional(Kind::Place, m.city.as_deref()),
        "postal_code": m.postal_code,
        "pool": m.pool,
        "rooms": rooms,
        "description": External::bounded(Kind::VenueText, &m.description, 3000),
    })
}
