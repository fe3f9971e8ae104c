//! `/c/:token`: the catalogue an organizer received. Read-only but for the
//! organizer's own answers: favourites (one toggle per venue), a comment on
//! each venue and one on the whole selection. All are plain forms posting
//! to `/api/links/…` server functions, so they work without JavaScript: the
//! server brings the browser back to this page at the card (or section)
//! the form was on (`#lieu-<pick>`, `#commentaire`); with JavaScript the
//! page updates in place. The page says who the organizer deals with and
//! what happens next; it shows no internal code.
use super::link_views::{EventSummary, LinkError, LinkFrame};
use super::{failure, FormError};
use crate::links::{
    load_organizer_catalogue, CataloguePick, OrganizerCatalogue, SaveOrganizerComment,
    SaveOrganizerPickComment, SetOrganizerFavorite, TeamContact, COMMENT_ANCHOR, MAX_COMMENT_CHARS,
};
use crate::raw_text::textarea_value;
use crate::room_configurations::phrase_of;
use leptos::prelude::*;
use leptos_meta::{Meta, Title};
use leptos_router::hooks::use_params_map;

/// The page's forms, shared by every pick.
#[derive(Clone, Copy)]
struct Answers {
    favorite: ServerAction<SetOrganizerFavorite>,
    comment: ServerAction<SaveOrganizerComment>,
    pick_comment: ServerAction<SaveOrganizerPickComment>,
}

#[component]
pub fn OrganizerCataloguePage() -> impl IntoView {
    let params = use_params_map();
    let token = move || params.read().get("token").unwrap_or_default();
    let answers = Answers {
        favorite: ServerAction::new(),
        comment: ServerAction::new(),
        pick_comment: ServerAction::new(),
    };
    let catalogue = Resource::new(
        move || {
            (
                token(),
                answers.favorite.version().get(),
                answers.comment.version().get(),
                answers.pick_comment.version().get(),
            )
        },
        |(t, _, _, _)| load_organizer_catalogue(t),
    );
    let (favorite, comment, pick_comment) = (
        failure(answers.favorite),
        failure(answers.comment),
        failure(answers.pick_comment),
    );
    let failed = Signal::derive(move || {
        favorite
            .get()
            .or_else(|| comment.get())
            .or_else(|| pick_comment.get())
    });
    view! {
        <Title text="Votre sélection de lieux" />
        // The URL holds the token: never send it to other sites.
        <Meta name="referrer" content="same-origin" />
        <LinkFrame>
            <Transition fallback=|| view! { <p class="text-sm text-slate-500">"Chargement…"</p> }>
                {move || catalogue.get().map(|result| match result {
                    Ok(c) => view! { <CatalogueView catalogue=c token=token() answers /> }.into_any(),
                    Err(e) => view! { <LinkError error=e /> }.into_any(),
                })}
            </Transition>
            // A refused answer (with JavaScript, or back from a plain post).
            <div class="mt-4"><FormError error=failed testid="link-form-error" /></div>
        </LinkFrame>
    }
}

#[component]
fn CatalogueView(catalogue: OrganizerCatalogue, token: String, answers: Answers) -> impl IntoView {
    let (recommended, compatible): (Vec<_>, Vec<_>) = catalogue
        .picks
        .into_iter()
        .partition(|p| p.tier == "recommended");
    view! {
        <h1 class="mb-4 text-2xl font-semibold tracking-tight">"Votre sélection de lieux"</h1>
        <EventSummary
            reference=catalogue.request_reference
            summary=catalogue.event_summary
            participants=catalogue.participants
            dates=catalogue.event_dates
            configurations=catalogue.configurations
        />
        <NextStep contact=catalogue.contact open_until=catalogue.open_until />
        <PickList title="Fortement recommandés" picks=recommended token=token.clone() answers />
        <PickList title="Compatibles" picks=compatible token=token.clone() answers />
        <CommentForm comment=catalogue.comment token answers />
    }
}

/// Who the organizer deals with, and what happens next.
#[component]
fn NextStep(contact: Option<TeamContact>, open_until: Option<String>) -> impl IntoView {
    let by = open_until
        .map(|d| format!(" avant le {d}"))
        .unwrap_or_default();
    let who = contact
        .as_ref()
        .map(|c| c.name.clone())
        .unwrap_or_else(|| "L'équipe Reciprok".to_string());
    view! {
        <section class="mt-4 rounded-xl border border-indigo-200 bg-indigo-50 p-5 text-sm text-slate-800" data-testid="next-step">
            <h2 class="text-base font-medium">"Prochaine étape"</h2>
            <p class="mt-1">
                "Marquez vos lieux préférés (☆) et laissez un mot sur un lieu ou sur l'ensemble" {by}
                ". " {who} " vérifie alors leurs disponibilités et revient vers vous pour organiser la suite."
            </p>
            {contact.map(|c| {
                let mailto = format!("mailto:{}", c.email);
                view! {
                    <p class="mt-3" data-testid="team-contact">
                        "Votre contact : " <span class="font-medium">{c.name}</span> " · "
                        <a class="text-indigo-700 underline" href=mailto>{c.email}</a>
                    </p>
                }
            })}
        </section>
    }
}

#[component]
fn PickList(
    title: &'static str,
    picks: Vec<CataloguePick>,
    token: String,
    answers: Answers,
) -> impl IntoView {
    (!picks.is_empty()).then(|| view! {
        <h2 class="mb-3 mt-8 text-lg font-medium">{title}</h2>
        <ul class="space-y-3">
            {picks.into_iter().map(|p| view! { <PickCard pick=p token=token.clone() answers /> }).collect_view()}
        </ul>
    })
}

#[component]
fn PickCard(pick: CataloguePick, token: String, answers: Answers) -> impl IntoView {
    let anchor = pick.anchor();
    let favorite_token = token.clone();
    let place = [
        pick.address.clone().unwrap_or_default(),
        format!("{} {}", pick.postal_code, pick.city)
            .trim()
            .to_string(),
    ]
    .into_iter()
    .filter(|s| !s.is_empty())
    .collect::<Vec<_>>()
    .join(", ");
    let room = pick.room.map(|r| {
        let capacity = match (r.capacity, r.configuration) {
            (Some(n), Some(c)) => format!(" · jusqu'à {n} personnes {}", phrase_of(&c)),
            _ => String::new(),
        };
        // « Salle principale » reads as is; « Véranda » needs its noun.
        let room = if r.name.to_lowercase().starts_with("salle") {
            r.name
        } else {
            format!("Salle « {} »", r.name)
        };
        view! {
            <p class="mt-1 text-sm text-slate-700" data-testid="pick-room">
                {room} {capacity}
            </p>
        }
    });
    let favorite = pick.favorite;
    let card = if favorite {
        "scroll-mt-4 rounded-xl border border-amber-300 bg-amber-50 p-4"
    } else {
        "scroll-mt-4 rounded-xl border border-slate-200 bg-white p-4"
    };
    let comment = pick.comment.clone();
    let (pick_id, name) = (pick.id, pick.name.clone());
    let explanation = pick.explanation.clone();
    view! {
        <li id=anchor class=card data-testid="catalogue-pick" data-favorite=favorite.to_string()>
            <p class="font-medium text-slate-900">{pick.name}</p>
            <p class="text-sm text-slate-500" data-testid="pick-address">{place}</p>
            {room}
            {explanation.map(|e| view! { <p class="mt-2 text-sm text-slate-700">{e}</p> })}
            <ActionForm action=answers.favorite attr:class="mt-3">
                <input type="hidden" name="token" value=favorite_token />
                <input type="hidden" name="pick_id" value=pick_id.to_string() />
                <input type="hidden" name="favorite" value=(!favorite).to_string() />
                <button
                    type="submit"
                    data-testid="favorite-toggle"
                    aria-pressed=favorite.to_string()
                    class="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100"
                >
                    {if favorite { "★ Favori (retirer)" } else { "☆ Ajouter à mes favoris" }}
                </button>
            </ActionForm>
            <PickComment pick_id name comment token answers />
        </li>
    }
}

/// The organizer's word on one venue: shown when there is one, and a small
/// form (folded until opened, or open when a word is there to edit).
#[component]
fn PickComment(
    pick_id: i64,
    name: String,
    comment: Option<String>,
    token: String,
    answers: Answers,
) -> impl IntoView {
    let saved = comment.is_some();
    let label = format!("Votre mot sur {name}");
    view! {
        {comment.clone().map(|c| view! {
            <p class="mt-3 whitespace-pre-line rounded-md bg-white/70 px-3 py-2 text-sm text-slate-700" data-testid="pick-comment-saved">
                "Votre mot : « " {c} " »"
            </p>
        })}
        <details class="mt-3 text-sm">
            <summary class="cursor-pointer text-indigo-700" data-testid="pick-comment-open">
                {if saved { "Modifier votre mot sur ce lieu" } else { "Laisser un mot sur ce lieu" }}
            </summary>
            <ActionForm action=answers.pick_comment attr:class="mt-2 space-y-2">
                <input type="hidden" name="token" value=token />
                <input type="hidden" name="pick_id" value=pick_id.to_string() />
                <label class="block">
                    <span class="sr-only">{label}</span>
                    <textarea
                        name="comment"
                        rows="3"
                        maxlength=MAX_COMMENT_CHARS
                        data-testid="pick-comment"
                        class="block w-full rounded-md border border-slate-300 px-3 py-2"
                    >{textarea_value(comment.unwrap_or_default())}</textarea>
                </label>
                <button type="submit" data-testid="pick-comment-save" class="rounded-md border border-slate-300 bg-white px-3 py-1.5 font-medium text-slate-700 hover:bg-slate-100">
                    "Enregistrer ce mot"
                </button>
            </ActionForm>
        </details>
    }
}

#[component]
fn CommentForm(comment: Option<String>, token: String, answers: Answers) -> impl IntoView {
    let saved = comment.is_some();
    view! {
        <section id=COMMENT_ANCHOR class="mt-8 scroll-mt-4 rounded-xl border border-slate-200 bg-white p-5 text-sm">
            <h2 class="mb-2 text-lg font-medium">"Votre commentaire sur l'ensemble"</h2>
            {saved.then(|| view! {
                <p class="mb-2 text-xs text-emerald-700" data-testid="comment-saved">"Commentaire enregistré : vous pouvez le modifier."</p>
            })}
            <ActionForm action=answers.comment attr:class="space-y-3">
                <input type="hidden" name="token" value=token />
                <label class="block">
                    <span class="sr-only">"Commentaire"</span>
                    <textarea
                        name="comment"
                        rows="4"
                        maxlength=MAX_COMMENT_CHARS
                        data-testid="organizer-comment"
                        class="block w-full rounded-md border border-slate-300 px-3 py-2"
                    >{textarea_value(comment.unwrap_or_default())}</textarea>
                </label>
                <button type="submit" class="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700">
                    "Enregistrer le commentaire"
                </button>
            </ActionForm>
        </section>
    }
}
