//! `/entrainement`: what the team taught, newest first — verdict, venue,
//! event type, reason, directive, author, date, whether search by meaning
//! finds it yet — with a filter by event type (a GET form), the guideline
//! form, and deletion of one's own lessons (admins: any) after a
//! confirmation that needs no JavaScript.
use super::GuidelineForm;
use crate::pages::{failure, FormError, PageHeader};
use crate::training::{list_training, AddGuideline, DeleteTraining, TrainingSessionView};
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

#[component]
pub fn TrainingPage() -> impl IntoView {
    let query = use_query_map();
    let filter = Memo::new(move |_| {
        query
            .read()
            .get("type")
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
    });
    let guideline = ServerAction::<AddGuideline>::new();
    let delete = ServerAction::<DeleteTraining>::new();
    provide_context(guideline);
    let sessions = Resource::new(
        move || {
            (
                filter.get(),
                guideline.version().get(),
                delete.version().get(),
            )
        },
        |(f, _, _)| list_training(f),
    );
    view! {
        <PageHeader title="Entraînement" subtitle="Ce que l'équipe apprend à Maxy : verdicts sur des lieux et consignes générales, appliqués aux prochaines recherches." />
        <div class="grid gap-8 lg:grid-cols-[1fr_22rem]">
            <section>
                <form method="get" action="/entrainement" class="mb-4 flex items-end gap-2 text-sm" data-testid="training-filter">
                    <label class="block">
                        "Type d'événement"
                        <input type="text" name="type" value=move || filter.get().unwrap_or_default() maxlength="60"
                            class="mt-1 block rounded-md border border-slate-300 px-2 py-1" />
                    </label>
                    <button type="submit" class="rounded-md border border-slate-300 px-3 py-1.5 hover:bg-slate-50">"Filtrer"</button>
                </form>
                <div class="mb-3"><FormError error=failure(delete) testid="training-delete-error" /></div>
                <Suspense fallback=|| view! { <p class="text-sm text-slate-500">"Chargement…"</p> }>
                    {move || sessions.get().map(|result| match result {
                        Ok(list) if list.is_empty() => view! {
                            <p class="text-sm text-slate-500" data-testid="training-empty">"Aucune leçon pour l'instant."</p>
                        }.into_any(),
                        Ok(list) => view! {
                            <ul class="space-y-3" data-testid="training-sessions">
                                {list.into_iter().map(|s| view! { <SessionItem session=s delete /> }).collect_view()}
                            </ul>
                        }.into_any(),
                        Err(e) => view! { <p role="alert" class="text-sm text-red-700">{e.to_string()}</p> }.into_any(),
                    })}
                </Suspense>
            </section>
            <aside>
                <h2 class="mb-3 text-lg font-medium">"Nouvelle consigne"</h2>
                <GuidelineForm request_id=None />
            </aside>
        </div>
    }
}

fn verdict_class(verdict: &str) -> &'static str {
    match verdict {
        "rejected" => "bg-red-50 text-red-700",
        "demoted" => "bg-amber-50 text-amber-800",
        "approved" => "bg-emerald-50 text-emerald-800",
        _ => "bg-indigo-50 text-indigo-800",
    }
}

#[component]
fn SessionItem(
    session: TrainingSessionView,
    delete: ServerAction<DeleteTraining>,
) -> impl IntoView {
    let s = session;
    let badge = format!(
        "rounded px-2 py-0.5 text-xs font-medium {}",
        verdict_class(&s.verdict)
    );
    let directive = s.trigger.clone().map(|t| {
        let mut text = format!("Quand « {t} »");
        if !s.prefer.is_empty() {
            text.push_str(&format!(" : préférer {}", s.prefer.join(", ")));
        }
        if !s.avoid.is_empty() {
            text.push_str(&format!(" ; éviter {}", s.avoid.join(", ")));
        }
        text
    });
    // Who taught it and when; a lesson not yet searchable by its meaning
    // says so (it is found by its words meanwhile). An imported lesson has
    // no author: it shows none rather than « inconnu ».
    let mut meta: Vec<String> = s.author.clone().into_iter().collect();
    meta.push(format!("le {}", s.created_on));
    if !s.embedded {
        meta.push("pas encore prise en compte dans les recherches par le sens".into());
    }
    let meta = meta.join(" · ");
    view! {
        <li class="rounded-xl border border-slate-200 bg-white p-4 text-sm" data-testid="training-session">
            <div class="flex flex-wrap items-center gap-2">
                <span class=badge data-testid="training-verdict">{s.verdict_label.clone()}</span>
                {s.event_type.as_deref().map(crate::fr::event_type).map(|t| view! { <span class="rounded bg-slate-100 px-2 py-0.5 text-xs" data-testid="training-event">{t}</span> })}
                <span class="text-xs text-slate-500">{s.category_label.clone()}</span>
                {s.venue.clone().map(|v| view! { <span class="font-medium">{v}</span> })}
                {s.request_reference.clone().map(|r| view! { <span class="text-xs text-slate-500">"(" {r} ")"</span> })}
            </div>
            {(!s.reason.is_empty()).then(|| view! { <p class="mt-2 text-slate-700">{s.reason.clone()}</p> })}
            {directive.map(|d| view! { <p class="mt-1 text-slate-700" data-testid="training-directive">{d}</p> })}
            <p class="mt-2 text-xs text-slate-400">{meta}</p>
            {s.can_delete.then(|| view! {
                <details class="mt-2 text-xs">
                    <summary class="cursor-pointer text-red-700" data-testid="training-delete">"Supprimer"</summary>
                    <ActionForm action=delete attr:class="mt-1 flex items-center gap-2">
                        <input type="hidden" name="id" value=s.id.to_string() />
                        <span>"Supprimer définitivement cette leçon ?"</span>
                        <button type="submit" class="rounded-md bg-red-600 px-2 py-1 font-medium text-white hover:bg-red-700" data-testid="training-delete-confirm">
                            "Confirmer"
                        </button>
                    </ActionForm>
                </details>
            })}
        </li>
    }
}
