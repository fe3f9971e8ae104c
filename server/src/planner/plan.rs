//! The planner's rules around every workflow: a failed tool ends the turn
//! with its error in French; at most [`MAX_ROUNDS`] tool rounds per
//! message; never the same call twice; only tools the request offers; and
//! one write tool per workflow: `add_members_to_catalog` from the qualify
//! workflow, and the one write a write intent names (`writes::tool`).
//! Whatever third-party text says, no other write can come out of here:
//! the calls are fixed by the intent of the user's own message.
use super::intent::Intent;
use super::step::Next;
use super::turn::Turn;
use super::{catalogue, count, emails, find, help, member, qualify, training};
use super::{playbooks, request_facts, requests, similar, writes};

/// Tool rounds per user message.
pub const MAX_ROUNDS: usize = 8;

/// The read tools the planner uses.
const READ: &[&str] = &[
    "list_requests",
    "get_request",
    "get_request_catalogues",
    "list_request_emails",
    "find_similar_requests",
    "search_members",
    "get_member",
    "get_member_full",
    "get_member_signals",
    "count_members",
    "search_training",
];

/// The one write the planner may propose, in the qualify workflow.
const CATALOGUE_WRITE: &str = "add_members_to_catalog";

pub fn next(turn: &Turn) -> Next {
    if let Some((tool, error)) = turn.error() {
        // A playbook's refusal ends with a hint for models (names of tools
        // and playbooks): the team reads what comes before it.
        let error = crate::playbooks::runtime::for_people(error);
        if error.contains("ouvrez d'abord ce parcours") {
            return Next::Say(format!(
                "Je ne peux pas encore le faire : {error} Dites « ouvre le parcours … » pour le suivre."
            ));
        }
        if error.contains("parcours") && !playbooks::TOOLS.contains(&tool) {
            // An open playbook's order: said as it is, nothing retried.
            return Next::Say(format!(
                "Je ne peux pas encore le faire : {error} Le parcours affiché en haut de la \
                 conversation dit la prochaine étape."
            ));
        }
        if tool == CATALOGUE_WRITE {
            // A refused card or invalid picks: proposing it again unasked
            // would be a loop the team has to reject twice.
            return Next::Say(catalogue_failed(error));
        }
        if tool == "get_request" && error.contains("introuvable") {
            return Next::Say(unknown_request(turn));
        }
        return Next::Say(format!(
            "{} a échoué : {}. Je m'arrête là ; corrigez la demande ou réessayez.",
            crate::agent::labels::label(tool).trim_end_matches('…'),
            super::answer::short(error.trim_end_matches('.'), 300)
        ));
    }
    if turn.rounds >= MAX_ROUNDS {
        return Next::Say(format!(
            "Je m'arrête après {MAX_ROUNDS} appels d'outils sans avoir abouti. Reformulez \
             la demande ou précisez-la."
        ));
    }
    // A reference the conversation does not know is read by reference
    // first: every workflow then works on the request it names, whatever
    // its id (`turn::resolve`).
    if let Some(asked) = turn
        .target
        .as_ref()
        .and_then(|t| t.unverified_reference.as_ref())
    {
        if about_one_request(&turn.intent) && turn.json("get_request").is_none() {
            return guard(
                turn,
                Next::call("get_request", serde_json::json!({ "reference": asked })),
            );
        }
    }
    let next = match &turn.intent {
        Intent::Qualify => qualify::next(turn),
        Intent::Find => find::next(turn),
        Intent::Member { codes, full } => member::next(turn, codes, *full),
        Intent::Count => count::next(turn),
        Intent::Emails => emails::next(turn),
        Intent::Training => training::next(turn),
        Intent::Requests => requests::next(turn),
        Intent::RequestFacts => request_facts::next(turn),
        Intent::Catalogue => catalogue::next(turn),
        Intent::Similar => similar::next(turn),
        Intent::Write(write) => writes::next(turn, *write),
        Intent::Remove => Next::Say(writes::remove(turn)),
        Intent::Playbook(ask) => playbooks::next(turn, *ask),
        // A question in a conversation opened from a request is about it.
        Intent::Help | Intent::UnclearCount
            if turn.target.is_some() && request_facts::asks_a_fact(&turn.text) =>
        {
            request_facts::next(turn)
        }
        Intent::UnclearCount => Next::Say(
            "Je ne sais pas ce qu'il faut compter. Je peux compter les demandes (« combien de \
             demandes en qualification ? »), les lieux (« combien de lieux dans le 8e pour 80 \
             personnes ? ») ou donner les participants d'une demande (« combien de participants \
             pour la demande D-2025-00043 ? »)."
                .to_string(),
        ),
        Intent::Help => Next::Say(help::text()),
    };
    guard(turn, next)
}

/// True for the workflows that work on one request (the conversation's or
/// the one the message names).
fn about_one_request(intent: &Intent) -> bool {
    matches!(
        intent,
        Intent::Qualify
            | Intent::Find
            | Intent::Emails
            | Intent::RequestFacts
            | Intent::Catalogue
            | Intent::Similar
            | Intent::Write(_)
            | Intent::Help
            | Intent::UnclearCount
    )
}

/// A request the message names that does not exist: said with the words
/// the person used, never with an internal id.
fn unknown_request(turn: &Turn) -> String {
    let named = turn
        .target
        .as_ref()
        .and_then(|t| t.unverified_reference.clone());
    match named {
        Some(reference) => format!(
            "Je ne trouve pas la demande {reference}. Vérifiez la référence ; toutes les \
             demandes sont sur /demandes."
        ),
        None => "Je ne trouve pas cette demande. Vérifiez son numéro ; toutes les demandes sont \
                 sur /demandes."
            .to_string(),
    }
}

/// A catalogue proposal that did not go through, for the team: what
/// happened, in their words (no « replace », no « arguments invalides »),
/// and the next step.
fn catalogue_failed(error: &str) -> String {
    let next = "Ouvrez le catalogue de la demande pour le modifier, ou dites-moi ce qu'il faut \
                changer (une zone « autour de … », des lieux à écarter) et je relance la \
                recherche.";
    if error.contains("déjà tous au brouillon") || error.contains("rien à remplacer") {
        return format!(
            "Les lieux que la recherche retient sont déjà au brouillon de cette demande : je \
             n'ai rien de nouveau à proposer. {next}"
        );
    }
    let why = error.trim().trim_start_matches("arguments invalides : ");
    let why = why.split(" Proposez").next().unwrap_or(why);
    format!(
        "La proposition de catalogue n'a pas abouti : {}. Je ne la repropose pas d'office. {next}",
        super::answer::short(why.trim_end_matches(['.', ' ']), 300)
    )
}

/// The call rules, checked on what a workflow decided.
fn guard(turn: &Turn, next: Next) -> Next {
    let Next::Call(calls) = &next else {
        return next;
    };
    for call in calls {
        let allowed = READ.contains(&call.name)
            || (call.name == CATALOGUE_WRITE && turn.intent == Intent::Qualify)
            || matches!(turn.intent, Intent::Write(w) if writes::tool(w) == call.name)
            || (matches!(turn.intent, Intent::Playbook(_))
                && playbooks::TOOLS.contains(&call.name));
        if !allowed {
            return Next::Say(format!(
                "Je ne peux pas appeler « {} » en mode hors-ligne.",
                call.name
            ));
        }
        if !turn.offers(call.name) {
            return Next::Say(format!(
                "L'outil « {} » n'est pas disponible dans cette conversation.",
                call.name
            ));
        }
        if turn.made(call.name, &call.input) {
            return Next::Say(format!(
                "Je m'arrête : l'outil « {} » a déjà été appelé avec les mêmes arguments \
                 sans donner de quoi répondre.",
                call.name
            ));
        }
    }
    next
}
