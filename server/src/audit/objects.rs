//! What a journal row is about, in words and with a link: « demande
//! D-2026-00042 » → `/demandes/42`, a conversation by its title → `/chat/7`,
//! an approval card → its conversation, a playbook by its French title → its
//! console page, an account by its holder's name → the accounts page.
//!
//! One query per type present on the page (at most 50 rows), by id; an
//! object since deleted reads as its noun alone, never as a number.
use super::labels;
use crate::playbooks::store;
use app::admin::JournalObject;
use sqlx::PgPool;
use std::collections::HashMap;

pub(super) type Key = (String, i64);

fn quoted(title: &str) -> String {
    format!("« {} »", title.trim())
}

fn object(label: String, href: Option<String>) -> JournalObject {
    JournalObject { label, href }
}

/// `(id, label, href)` rows of one type's query, by key.
async fn resolve(
    db: &PgPool,
    kind: &str,
    ids: &[i64],
    out: &mut HashMap<Key, JournalObject>,
) -> sqlx::Result<()> {
    let sql = match kind {
        "request" => {
            "SELECT id, 'demande ' || reference, '/demandes/' || id FROM requests WHERE id = ANY($1)"
        }
        "catalogue" => {
            "SELECT c.id,
                    CASE c.kind WHEN 'training' THEN 'catalogue d''entraînement de la demande '
                                ELSE 'catalogue de la demande ' END || r.reference,
                    '/demandes/' || r.id || '/catalogue'
               FROM catalogues c JOIN requests r ON r.id = c.request_id WHERE c.id = ANY($1)"
        }
        "availability_check" => {
            "SELECT a.id, 'disponibilité de ' || m.name || ' (demande ' || r.reference || ')',
                    '/demandes/' || r.id
               FROM availability_checks a JOIN requests r ON r.id = a.request_id
               JOIN members m ON m.id = a.member_id WHERE a.id = ANY($1)"
        }
        "ai_conversation" => {
            "SELECT id, CASE WHEN btrim(title) = '' THEN 'conversation sans titre'
                             ELSE 'conversation « ' || btrim(title) || ' »' END,
                    '/chat/' || id
               FROM ai_conversations WHERE id = ANY($1)"
        }
        "ai_pending_approval" => {
            "SELECT p.id, CASE WHEN btrim(c.title) = '' THEN 'proposition de l''assistant'
                               ELSE 'proposition dans « ' || btrim(c.title) || ' »' END,
                    '/chat/' || c.id
               FROM ai_pending_approvals p JOIN ai_conversations c ON c.id = p.conversation_id
              WHERE p.id = ANY($1)"
        }
        "magic_link" => {
            "SELECT l.id,
                    CASE l.purpose WHEN 'catalogue' THEN 'lien du catalogue de la demande '
                                   ELSE 'lien de disponibilité de la demande ' END || r.reference,
                    '/demandes/' || r.id
               FROM magic_links l
               LEFT JOIN catalogues c ON l.purpose = 'catalogue' AND c.id = l.subject_id
               LEFT JOIN availability_checks a ON l.purpose = 'availability' AND a.id = l.subject_id
               JOIN requests r ON r.id = coalesce(c.request_id, a.request_id)
              WHERE l.id = ANY($1)"
        }
        "user" => {
            "SELECT id, 'compte de ' || display_name, '/console/comptes#compte-' || id
               FROM users WHERE id = ANY($1)"
        }
        _ => return Ok(()),
    };
    let rows: Vec<(i64, String, String)> = sqlx::query_as(sql).bind(ids).fetch_all(db).await?;
    for (id, label, href) in rows {
        out.insert((kind.to_string(), id), object(label, Some(href)));
    }
    Ok(())
}

/// Playbooks and their runs, by the playbook's French title.
async fn playbooks(
    db: &PgPool,
    wanted: &HashMap<String, Vec<i64>>,
    out: &mut HashMap<Key, JournalObject>,
) -> sqlx::Result<()> {
    let (direct, runs) = (wanted.get("playbook"), wanted.get("playbook_run"));
    if direct.is_none() && runs.is_none() {
        return Ok(());
    }
    let all = store::list(db).await?;
    let by_id: HashMap<i64, &store::StoredPlaybook> = all.iter().map(|p| (p.id, p)).collect();
    for id in direct.into_iter().flatten() {
        if let Some(p) = by_id.get(id) {
            out.insert(
                ("playbook".into(), *id),
                object(
                    format!("playbook {}", quoted(&p.definition.title())),
                    Some(app::playbook_console::playbook_url(&p.name, "")),
                ),
            );
        }
    }
    if let Some(ids) = runs {
        let rows: Vec<(i64, i64, i64)> = sqlx::query_as(
            "SELECT id, playbook_id, conversation_id FROM playbook_runs WHERE id = ANY($1)",
        )
        .bind(ids)
        .fetch_all(db)
        .await?;
        for (id, playbook, conversation) in rows {
            let title = by_id
                .get(&playbook)
                .map(|p| format!("parcours {}", quoted(&p.definition.title())))
                .unwrap_or_else(|| "parcours".into());
            out.insert(
                ("playbook_run".into(), id),
                object(title, Some(format!("/chat/{conversation}"))),
            );
        }
    }
    Ok(())
}

/// The objects of `keys`, in words; those that no longer exist read as
/// their noun, and a suggested playbook links to the motifs page.
pub async fn describe(
    db: &PgPool,
    keys: &[(String, Option<i64>)],
) -> sqlx::Result<HashMap<Key, JournalObject>> {
    let mut wanted: HashMap<String, Vec<i64>> = HashMap::new();
    for (kind, id) in keys {
        if let Some(id) = id {
            let ids = wanted.entry(kind.clone()).or_default();
            if !ids.contains(id) {
                ids.push(*id);
            }
        }
    }
    let mut out = HashMap::new();
    for (kind, ids) in &wanted {
        resolve(db, kind, ids, &mut out).await?;
    }
    playbooks(db, &wanted, &mut out).await?;
    for id in wanted.get("suggested_playbook").into_iter().flatten() {
        out.insert(
            ("suggested_playbook".into(), *id),
            object("playbook suggéré".into(), Some("/console/motifs".into())),
        );
    }
    Ok(out)
}

/// The object of one row: described if found, else its noun alone.
pub fn of(described: &HashMap<Key, JournalObject>, kind: &str, id: Option<i64>) -> JournalObject {
    id.and_then(|id| described.get(&(kind.to_string(), id)).cloned())
        .unwrap_or_else(|| object(labels::object(kind, None), None))
}
