//! The reason an organizer reads under a pick, generated from what the pick
//! shows: the pinned room with the configuration and capacity the builder
//! and the organizer page show for it ([`super::view::choice`]), the
//! request's group and the tier. A reason that named another room or
//! another layout than the pin is how « Terrasse · 216 places en cocktail »
//! came to sit above « 117 places en banquet ».
//!
//! Regenerated when the pin or the tier changes and when the search fills
//! the catalogue — unless a person wrote the reason
//! (`catalogue_picks.reason_edited`, kept by every write). The assistant's
//! own sentence is kept while it agrees with the pin, replaced when it does
//! not. Internal signals never enter it ([`super::internal_signals`]).
use super::view;
use crate::db::catalogues::{self, PickRow};
use app::catalogue_builder::RoomChoice;
use app::room_configurations::{phrase_of, Configuration};
use sqlx::PgConnection;

/// The sentence for a pick of `tier` (`recommended` or `compatible`) whose
/// pinned room holds the group as `room` says.
pub fn generate(room: &RoomChoice, participants: Option<i32>, tier: &str) -> String {
    let phrase = phrase_of(&room.configuration);
    let (cap, name) = (room.capacity, &room.name);
    let room = crate::search::reasons::room_label(name);
    let lead = if tier == "compatible" {
        format!("En alternative, {room}")
    } else {
        app::fr::capitalized(&room)
    };
    let Some(n) = participants.filter(|n| *n > 0) else {
        return format!("{lead} : jusqu'à {cap} personnes {phrase}.");
    };
    let fill = f64::from(n) / f64::from(cap.max(1));
    let remark = match tier {
        "compatible" if fill > 0.95 => ", une jauge juste",
        "compatible" if fill < 0.35 => ", une salle grande pour le groupe",
        "compatible" => "",
        _ if (0.5..=0.95).contains(&fill) => ", une jauge bien adaptée",
        _ => "",
    };
    format!("{lead} : {cap} places {phrase} pour {n} personnes{remark}.")
}

/// Whether `reason` says something else than the pin: another room of the
/// venue by name, a head count that is neither the room's capacity nor the
/// group, or a layout other than the pinned one.
pub fn contradicts(
    reason: &str,
    room: &RoomChoice,
    venue_rooms: &[&str],
    participants: Option<i32>,
) -> bool {
    let other_room = venue_rooms
        .iter()
        .any(|r| *r != room.name && reason.contains(&format!("« {r} »")));
    let words: Vec<&str> = reason.split_whitespace().collect();
    let other_count = words.windows(2).any(|w| {
        let counted = ["places", "personnes", "pers", "pax", "invités"]
            .iter()
            .any(|u| w[1].trim_end_matches([',', '.', ')', ';']) == *u);
        let digits: String = w[0].chars().filter(char::is_ascii_digit).collect();
        counted
            && !digits.is_empty()
            && digits
                .parse::<i32>()
                .is_ok_and(|n| n != room.capacity && Some(n) != participants)
    });
    let pinned = phrase_of(&room.configuration);
    let other_layout = Configuration::ALL.iter().any(|c| {
        c.phrase() != pinned
            && ["places", "personnes"]
                .iter()
                .any(|u| reason.contains(&format!("{u} {}", c.phrase())))
    });
    other_room || other_count || other_layout
}

/// Which picks [`refresh`] looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope<'a> {
    /// These venues: their pin or tier just changed, or the search just
    /// placed them.
    Only(&'a [i64]),
    /// Only reasons that disagree with their pin (after the assistant's
    /// write: its sentence stays when it is right).
    Contradicting,
}

/// Rewrites the reasons of the catalogue's picks in `scope` from their pin;
/// a reason a person wrote, a pick with no room pinned, or a pinned room
/// that no longer holds the group is left as it is.
pub async fn refresh(
    conn: &mut PgConnection,
    catalogue_id: i64,
    scope: Scope<'_>,
) -> sqlx::Result<()> {
    let Some(request) = catalogue_request(conn, catalogue_id).await? else {
        return Ok(());
    };
    let picks: Vec<PickRow> = catalogues::picks(&mut *conn, catalogue_id)
        .await?
        .into_iter()
        .filter(|p| !p.reason_edited && p.room_id.is_some())
        .filter(|p| match scope {
            Scope::Only(ids) => ids.contains(&p.member_id),
            Scope::Contradicting => true,
        })
        .collect();
    if picks.is_empty() {
        return Ok(());
    }
    let ids: Vec<i64> = picks.iter().map(|p| p.member_id).collect();
    let rooms = catalogues::rooms_of_members(&mut *conn, &ids).await?;
    let brief = view::brief(&request);
    for pick in picks {
        let Some(room_id) = pick.room_id else {
            continue;
        };
        let mine: Vec<_> = rooms
            .iter()
            .filter(|r| r.member_id == pick.member_id)
            .cloned()
            .collect();
        let Some(room) = view::choice(&brief, &mine, room_id) else {
            continue;
        };
        if scope == Scope::Contradicting {
            let names: Vec<&str> = mine.iter().map(|r| r.room_name.as_str()).collect();
            if !contradicts(&pick.explanation, &room, &names, request.participants) {
                continue;
            }
        }
        let text = generate(&room, request.participants, &pick.tier);
        if text != pick.explanation {
            catalogues::set_generated_reason(&mut *conn, catalogue_id, pick.member_id, &text)
                .await?;
        }
    }
    Ok(())
}

async fn catalogue_request(
    conn: &mut PgConnection,
    catalogue_id: i64,
) -> sqlx::Result<Option<catalogues::RequestInfo>> {
    let Some(catalogue) = catalogues::by_id(&mut *conn, catalogue_id).await? else {
        return Ok(None);
    };
    catalogues::request(&mut *conn, catalogue.request_id).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terrasse() -> RoomChoice {
        RoomChoice {
            id: 1,
            name: "Terrasse".into(),
            configuration: "cocktail".into(),
            capacity: 216,
        }
    }

    #[test]
    fn the_sentence_names_the_pinned_room_layout_and_capacity() {
        let r = generate(&terrasse(), Some(180), "recommended");
        assert_eq!(
            r,
            "« Terrasse » : 216 places en cocktail pour 180 personnes, une jauge bien adaptée."
        );
        let c = generate(&terrasse(), Some(60), "compatible");
        assert_eq!(
            c,
            "En alternative, « Terrasse » : 216 places en cocktail pour 60 personnes, une salle grande pour le groupe."
        );
        assert_eq!(
            generate(&terrasse(), None, "recommended"),
            "« Terrasse » : jusqu'à 216 personnes en cocktail."
        );
    }

    #[test]
    fn a_room_named_salon_is_not_called_salle_too() {
        let salon = RoomChoice {
            name: "Salon Opéra".into(),
            configuration: "banquet".into(),
            capacity: 117,
            ..terrasse()
        };
        assert_eq!(
            generate(&salon, Some(100), "recommended"),
            "« Salon Opéra » : 117 places en banquet pour 100 personnes, une jauge bien adaptée."
        );
        assert_eq!(
            generate(&salon, None, "compatible"),
            "En alternative, « Salon Opéra » : jusqu'à 117 personnes en banquet."
        );
    }

    #[test]
    fn a_reason_about_another_room_or_layout_contradicts_the_pin() {
        let rooms = ["Terrasse", "Salon Opéra"];
        let t = terrasse();
        assert!(contradicts(
            "Salle « Salon Opéra » : 117 places en banquet pour 100 personnes.",
            &t,
            &rooms,
            Some(100)
        ));
        assert!(contradicts("117 places en banquet.", &t, &rooms, Some(100)));
        assert!(contradicts("Jusqu'à 117 places.", &t, &rooms, Some(100)));
        assert!(!contradicts(
            "Salle « Terrasse » : 216 places en cocktail pour 100 personnes, avec un traiteur maison.",
            &t,
            &rooms,
            Some(100)
        ));
        assert!(!contradicts(
            "Un traiteur maison et une vue sur la Seine.",
            &t,
            &rooms,
            Some(100)
        ));
    }
}
