//! `/c/:token`: the catalogue an organizer received. Read-only but for the
//! organizer's own answers: favourites (one toggle per venue) and one
//! comment. Both are plain forms posting to `/api/links/…` server functions,
//! so they work without JavaScript (the browser comes back to this page);
//! with JavaScript the page updates in place.
use super::link_views::{EventSummary, LinkError, LinkFrame};
use super::{failure, FormError};
use crate::links::{
    load_organizer_catalogue, CataloguePick, OrganizerCatalogue, SaveOrganizerComment,
    SetOrganizerFavorite, MAX_COMMENT_CHARS,
};
use crate::raw_text::textarea_value;
use crate::room_configurations::phrase_of;
use leptos::prelude::*;
use leptos_meta::{Meta, Title};
use leptos_router::hooks::use_params_map;

/// The page's two forms, shared by every pick.
#[derive(Clone, Copy)]
struct Answers {
    favorite: ServerAction<SetOrganizerFavorite>,
    comment: ServerAction<SaveOrganizerComment>,
}

#[component]
pub fn OrganizerCataloguePage() -> impl IntoView {
    let params = use_params_map();
    let token = move || params.read().get("token").unwrap_or_default();
    let answers = Answers {
        favorite: ServerAction::new(),
        comment: ServerAction::new(),
    };
    let catalogue = Resource::new(
        move || {
            (
                token(),
                answers.favorite.version().get(),
                answers.comment.version().get(),
            )
        },
        |(t, _, _)| load_organizer_catalogue(t),
    );
    let (favorite, comment) = (failure(answers.favorite), failure(answers.comment));
    let failed = Signal::derive(move || favorite.get().or_else(|| comment.get()));
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
        <p class="mt-4 text-sm text-slate-600">
            "Marquez vos lieux préférés et laissez-nous un commentaire : l'équipe Reciprok les verra."
        </p>
        <PickList title="Fortement recommandés" picks=recommended token=token.clone() answers />
        <PickList title="Compatibles" picks=compatible token=token.clone() answers />
        <CommentForm comment=catalogue.comment token answers />
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
        view! {
            <p class="mt-1 text-sm text-slate-700" data-testid="pick-room">
                "Salle « " {r.name} " »" {capacity}
            </p>
        }
    });
    let favorite = pick.favorite;
    let card = if favorite {
        "rounded-xl border border-amber-300 bg-amber-50 p-4"
    } else {
        "rounded-xl border border-slate-200 bg-white p-4"
    };
    view! {
        <li class=card data-testid="catalogue-pick" data-favorite=favorite.to_string()>
            <div class="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                <p class="font-medium text-slate-900">{pick.name}</p>
                <span class="text-xs text-slate-500">{pick.code}</span>
            </div>
            <p class="text-sm text-slate-500" data-testid="pick-address">{place}</p>
            {room}
            {pick.explanation.map(|e| view! { <p class="mt-2 text-sm text-slate-700">{e}</p> })}
            <ActionForm action=answers.favorite attr:class="mt-3">
                <input type="hidden" name="token" value=token />
                <input type="hidden" name="pick_id" value=pick.id.to_string() />
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
        </li>
    }
}

#[component]
fn CommentForm(comment: Option<String>, token: String, answers: Answers) -> impl IntoView {
    let saved = comment.is_some();
    view! {
        <section class="mt-8 rounded-xl border border-slate-200 bg-white p-5 text-sm">
            <h2 class="mb-2 text-lg font-medium">"Votre commentaire"</h2>
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
