//! Column lists and row encoders of the directory and team tables, in
//! foreign-key order.

use anyhow::Context as _;
use indicatif::ProgressBar;
use sqlx::PgConnection;

use super::copy::copy_in;
use crate::model::{AttrValue, Dataset, BASE};

/// Directory tables: pools to knowledge.
pub async fn directory(
    conn: &mut PgConnection,
    d: &Dataset,
    bar: &ProgressBar,
) -> anyhow::Result<()> {
    copy_in(
        conn,
        "pools",
        "id, slug, name, description, created_at, updated_at",
        &d.pools,
        bar,
        |r, p| {
            r.num(p.id)
                .text(p.slug)
                .text(p.name)
                .text(p.description)
                .stamp(BASE.plus_days(-1000))
                .stamp(BASE.plus_days(-1000));
        },
    )
    .await?;
    copy_in(
        conn,
        "tags",
        "id, name, created_at",
        &d.tags,
        bar,
        |r, t| {
            r.num(t.id).text(t.name).stamp(BASE.plus_days(-1000));
        },
    )
    .await?;
    copy_in(
        conn,
        "attribute_types",
        "id, key, label, value_type, created_at",
        &d.attribute_types,
        bar,
        |r, a| {
            r.num(a.id)
                .text(a.key)
                .text(a.label)
                .text(a.value_type)
                .stamp(BASE.plus_days(-1000));
        },
    )
    .await?;
    copy_in(
        conn,
        "members",
        "id, code, name, pool_id, status, address, postal_code, city, lat, lng, description, contact_email, \
         contact_phone, website, capacity_max, price_per_person_min_eur, price_per_person_max_eur, \
         venue_hire_from_eur, price_notes, created_at, updated_at",
        &d.members,
        bar,
        |r, m| {
            r.num(m.id).text(&m.code).text(&m.name).num(m.pool_id).text(m.status).text(&m.address);
            r.text(m.postal_code).text(m.city).num(m.lat).num(m.lng).text(&m.description);
            r.text(&m.contact_email).text(&m.contact_phone).text(&m.website).num(m.capacity_max);
            r.opt_num(m.price_per_person_min_eur).opt_num(m.price_per_person_max_eur).opt_num(m.venue_hire_from_eur);
            r.opt_text(m.price_notes.as_deref()).stamp(m.created_at).stamp(m.updated_at);
        },
    )
    .await?;
    // Rooms and the rows hanging off members inherit the member's dates.
    let created = |member_id: i64| d.members[(member_id - 1) as usize].created_at;
    copy_in(
        conn,
        "rooms",
        "id, member_id, name, description, area_m2, position, created_at, updated_at",
        &d.rooms,
        bar,
        |r, x| {
            let at = created(x.member_id);
            r.num(x.id)
                .num(x.member_id)
                .text(&x.name)
                .text(&x.description)
                .num(x.area_m2)
                .num(x.position)
                .stamp(at)
                .stamp(at);
        },
    )
    .await?;
    copy_in(
        conn,
        "room_capacities",
        "room_id, member_id, configuration, max_capacity",
        &d.capacities,
        bar,
        |r, c| {
            r.num(c.room_id)
                .num(c.member_id)
                .text(c.configuration.key())
                .num(c.max_capacity);
        },
    )
    .await?;
    copy_in(
        conn,
        "member_tags",
        "member_id, tag_id, created_at",
        &d.member_tags,
        bar,
        |r, t| {
            r.num(t.member_id).num(t.tag_id).stamp(created(t.member_id));
        },
    )
    .await?;
    copy_in(
        conn,
        "member_attributes",
        "member_id, attribute_type_id, value, created_at, updated_at",
        &d.member_attributes,
        bar,
        |r, a| {
            let json = match &a.value {
                AttrValue::Bool(b) => b.to_string(),
                AttrValue::Int(i) => i.to_string(),
                AttrValue::Text(t) => serde_json::Value::from(*t).to_string(),
            };
            let at = created(a.member_id);
            r.num(a.member_id)
                .num(a.attribute_type_id)
                .text(&json)
                .stamp(at)
                .stamp(at);
        },
    )
    .await?;
    Ok(())
}

/// Users first: knowledge entries reference them.
pub async fn team(conn: &mut PgConnection, d: &Dataset, bar: &ProgressBar) -> anyhow::Result<()> {
    let hashes = d
        .users
        .iter()
        .map(|u| crate::team::demo_password_hash(u.email))
        .collect::<anyhow::Result<Vec<String>>>()?;
    let users: Vec<_> = d.users.iter().zip(&hashes).collect();
    copy_in(
        conn,
        "users",
        "id, email, display_name, role, profiles, password_hash, created_at, updated_at",
        &users,
        bar,
        |r, (u, hash)| {
            r.num(u.id)
                .text(u.email)
                .text(u.display_name)
                .text(u.role)
                .text_array(&u.profiles)
                .text(hash)
                .stamp(u.created_at)
                .stamp(u.created_at);
        },
    )
    .await?;
    copy_in(
        conn,
        "knowledge_entries",
        "id, member_id, title, content, source, created_by, created_at, updated_at",
        &d.knowledge,
        bar,
        |r, k| {
            r.num(k.id)
                .num(k.member_id)
                .text(k.title)
                .text(&k.content)
                .text(k.source)
                .opt_num(k.created_by);
            r.stamp(k.created_at).stamp(k.created_at);
        },
    )
    .await?;
    copy_in(
        conn,
        "team_favorites",
        "user_id, member_id, note, created_at",
        &d.favorites,
        bar,
        |r, f| {
            r.num(f.user_id)
                .num(f.member_id)
                .opt_text(f.note)
                .stamp(f.created_at);
        },
    )
    .await
    .context("team favourites")
}
