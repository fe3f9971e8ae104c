//! Search preferences in the pages: [`MyPreferencesPanel`] (the Lieux
//! page: my own defaults), [`RequestPreferencesPanel`] (a request's page:
//! the request's defaults, over mine) and [`AppliedDefaults`] (under a
//! search: which defaults applied, whose they are, and a link that clears
//! one for this search). The forms post to server functions (ActionForm)
//! and the clear links are plain links, so all of it works with JavaScript
//! off.
mod fields;

use crate::errors::AppError;
use crate::pages::{posted_to, FormError};
use crate::search_preferences::{
    my_search_preferences, request_search_preferences, AppliedDefault, PreferencesInput,
    RequestPreferences, SaveMySearchPreferences, SaveRequestSearchPreferences, SearchPreferences,
};
use fields::PreferencesFields;
use leptos::prelude::*;

/// The outcome of the form's last post (also when the page is the one a
/// plain post came back to: `posted`).
#[component]
fn Outcome(
    result: impl Fn() -> Option<Result<SearchPreferences, AppError>> + Send + Sync + 'static,
    testid: &'static str,
    #[prop(optional)] posted: bool,
) -> impl IntoView {
    move || {
        let result = result().map(|r| r.map(|_| ()));
        result.or_else(|| posted.then_some(Ok(()))).map(|result| match result {
            Ok(_) => view! {
                <p role="status" data-testid=format!("{testid}-saved") class="text-sm text-emerald-700">
                    "Préférences enregistrées : elles s'appliquent aux prochaines recherches."
                </p>
            }
            .into_any(),
            Err(e) => view! { <FormError error=Signal::stored(Some(e)) testid=format!("{testid}-error") /> }.into_any(),
        })
    }
}

/// One line per stored preference, for a summary.
fn summary(p: &SearchPreferences) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(z) = &p.zone {
        out.push(format!("Zone : {}", z.label));
    }
    match p.favorites_first {
        Some(true) => out.push("Favoris de l'équipe d'abord".into()),
        Some(false) => out.push("Pas de favoris d'abord".into()),
        None => {}
    }
    for s in &p.specialities {
        out.push(format!("Spécialités ({}) : {}", s.pool, s.tags.join(", ")));
    }
    out
}

/// « Mes préférences de recherche » on the Lieux page: a disclosure with
/// the form (open after a refused post).
#[component]
pub fn MyPreferencesPanel() -> impl IntoView {
    let save = ServerAction::<SaveMySearchPreferences>::new();
    let prefs = Resource::new(move || save.version().get(), |_| my_search_preferences());
    // Stays open once posted (its outcome is inside); closed on arrival.
    let posted = posted_to(save);
    let open = move || posted || save.value().with(Option::is_some);
    view! {
        <details class="mt-4 rounded-xl border border-slate-200 bg-white p-4 text-sm" data-testid="my-preferences" open=open>
            <summary class="cursor-pointer font-medium text-slate-700">
                "Mes préférences de recherche"
                <Suspense fallback=|| ()>
                    {move || prefs.get().and_then(Result::ok).map(|p| {
                        let lines = summary(&p);
                        view! {
                            <span class="ml-2 font-normal text-slate-500" data-testid="my-preferences-summary">
                                {if lines.is_empty() { "aucune".to_string() } else { lines.join(" · ") }}
                            </span>
                        }
                    })}
                </Suspense>
            </summary>
            <p class="mt-2 text-xs text-slate-500">
                "Appliquées à vos recherches quand le formulaire ne dit rien : un filtre saisi l'emporte, une demande peut avoir les siennes."
            </p>
            <Suspense fallback=|| view! { <p class="mt-2 text-slate-500">"Chargement…"</p> }>
                {move || prefs.get().map(|r| match r {
                    Ok(p) => view! {
                        <ActionForm action=save attr:class="mt-3 space-y-3" attr:data-testid="my-preferences-form">
                            <PreferencesFields values=PreferencesInput::from_preferences(&p, true) per_pool=true />
                            <button type="submit" data-testid="save-my-preferences"
                                class="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700">"Enregistrer mes préférences"</button>
                        </ActionForm>
                    }.into_any(),
                    Err(e) => view! { <p role="alert" class="mt-2 text-red-700">{e.to_string()}</p> }.into_any(),
                })}
            </Suspense>
            <Outcome result=move || save.value().get() testid="my-preferences" posted />
        </details>
    }
}

/// « Préférences de recherche » on a request's page: the request's own
/// (they win over each team member's), what it inherits, and the search.
#[component]
pub fn RequestPreferencesPanel(request_id: i64) -> impl IntoView {
    let save = ServerAction::<SaveRequestSearchPreferences>::new();
    let prefs = Resource::new(
        move || save.version().get(),
        move |_| request_search_preferences(request_id),
    );
    view! {
        <section class="rounded-xl border border-slate-200 bg-white p-5 text-sm" data-testid="request-preferences">
            <h2 class="mb-1 text-lg font-medium">"Préférences de recherche"</h2>
            <p class="mb-3 text-xs text-slate-500">
                "Défauts de la recherche pour cette demande ; ils l'emportent sur ceux de chacun. Un champ vide n'impose rien."
            </p>
            <Suspense fallback=|| view! { <p class="text-slate-500">"Chargement…"</p> }>
                {move || prefs.get().map(|r| match r {
                    Ok(r) => view! { <RequestPreferencesForm prefs=r save /> }.into_any(),
                    Err(e) => view! { <p role="alert" class="text-red-700">{e.to_string()}</p> }.into_any(),
                })}
            </Suspense>
            <Outcome result=move || save.value().get() testid="request-preferences" posted=posted_to(save) />
        </section>
    }
}

#[component]
fn RequestPreferencesForm(
    prefs: RequestPreferences,
    save: ServerAction<SaveRequestSearchPreferences>,
) -> impl IntoView {
    let inherited = summary(&prefs.mine);
    let stored = summary(&prefs.preferences);
    view! {
        <p class="mb-3 text-slate-700" data-testid="request-preferences-summary">
            {if stored.is_empty() {
                "Aucune préférence pour cette demande.".to_string()
            } else {
                format!("Enregistrées : {}", stored.join(" · "))
            }}
        </p>
        <ActionForm action=save attr:class="space-y-3" attr:data-testid="request-preferences-form">
            <input type="hidden" name="request_id" value=prefs.request_id.to_string() />
            <PreferencesFields values=PreferencesInput::from_preferences(&prefs.preferences, false) per_pool=false />
            <p class="text-xs text-slate-500">"Spécialités : étiquettes des lieux du pool de la demande."</p>
            <button type="submit" data-testid="save-request-preferences"
                class="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700">"Enregistrer"</button>
        </ActionForm>
        {(!inherited.is_empty()).then(|| view! {
            <p class="mt-3 text-xs text-slate-500" data-testid="inherited-preferences">
                "Vos préférences, appliquées là où la demande n'en a pas : " {inherited.join(" · ")}
            </p>
        })}
        <a href=prefs.search_url.clone() data-testid="request-search-link"
            class="mt-3 inline-block font-medium text-indigo-700 hover:underline">"Chercher des lieux pour cette demande →"</a>
    }
}

/// The query's `key=value` pairs, as written (no decoding: the keys we
/// add and remove are plain ASCII words).
fn pairs(search: &str) -> impl Iterator<Item = &str> {
    search
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
}

fn href(path: &str, pairs: Vec<&str>) -> String {
    if pairs.is_empty() {
        path.to_string()
    } else {
        format!("{path}?{}", pairs.join("&"))
    }
}

/// The same search without the default `key` (« retirer »): the query plus
/// `sans=<key>`, once.
pub fn clear_default_href(path: &str, search: &str, key: &str) -> String {
    let sans = format!("sans={key}");
    let mut kept: Vec<&str> = pairs(search).collect();
    if !kept.contains(&sans.as_str()) {
        kept.push(&sans);
    }
    href(path, kept)
}

/// The same search with the default `key` back (« rétablir »): every
/// `sans=<key>` of the query removed, the rest kept in order.
pub fn restore_default_href(path: &str, search: &str, key: &str) -> String {
    let sans = format!("sans={key}");
    href(path, pairs(search).filter(|p| *p != sans).collect())
}

/// Under a search: the defaults it applied, each with its source and a
/// link that runs the same search without it, then those this search
/// cleared, each with a link that brings it back. `path` and `search` are
/// the page's URL (the links keep all of it but the one `sans=`).
#[component]
pub fn AppliedDefaults(
    defaults: Vec<AppliedDefault>,
    removed: Vec<AppliedDefault>,
    path: String,
    search: String,
) -> impl IntoView {
    (!defaults.is_empty() || !removed.is_empty()).then(|| {
        view! {
            <ul class="flex flex-wrap gap-2 text-sm" data-testid="applied-defaults">
                {defaults.into_iter().map(|d| {
                    let href = clear_default_href(&path, &search, &d.key);
                    view! {
                        <li class="flex items-center gap-2 rounded-full bg-sky-50 px-3 py-1 text-sky-900"
                            data-testid="applied-default" data-key=d.key.clone() data-source=d.source.clone()>
                            <span>{d.label.clone()} " — " {d.source_label()}</span>
                            <a href=href data-testid=format!("clear-default-{}", d.key)
                                class="text-xs font-medium text-sky-700 underline hover:text-sky-900"
                                title="Relancer cette recherche sans ce défaut">"retirer"</a>
                        </li>
                    }
                }).collect_view()}
                {removed.into_iter().map(|d| {
                    let href = restore_default_href(&path, &search, &d.key);
                    view! {
                        <li class="flex items-center gap-2 rounded-full border border-dashed border-slate-300 px-3 py-1 text-slate-600"
                            data-testid="removed-default" data-key=d.key.clone() data-source=d.source.clone()>
                            <span>{d.label.clone()} " — " {d.source_label()} " (retiré pour cette recherche)"</span>
                            <a href=href data-testid=format!("restore-default-{}", d.key)
                                class="text-xs font-medium text-sky-700 underline hover:text-sky-900"
                                title="Relancer cette recherche avec ce défaut">"rétablir"</a>
                        </li>
                    }
                }).collect_view()}
            </ul>
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retirer_adds_one_sans_and_keeps_the_search() {
        assert_eq!(
            clear_default_href("/lieux", "?pool=p&q=cocktail%20festif", "zone"),
            "/lieux?pool=p&q=cocktail%20festif&sans=zone"
        );
        assert_eq!(
            clear_default_href("/lieux", "pool=p", "favoris"),
            "/lieux?pool=p&sans=favoris"
        );
        assert_eq!(clear_default_href("/lieux", "", "zone"), "/lieux?sans=zone");
        // Already cleared: not twice.
        assert_eq!(
            clear_default_href("/lieux", "?pool=p&sans=zone", "zone"),
            "/lieux?pool=p&sans=zone"
        );
    }

    #[test]
    fn retablir_removes_only_that_sans() {
        assert_eq!(
            restore_default_href("/lieux", "?pool=p&sans=zone&q=x&sans=favoris", "zone"),
            "/lieux?pool=p&q=x&sans=favoris"
        );
        // A key written twice (the form's hidden field and the link) goes
        // entirely; a longer key with the same start stays.
        assert_eq!(
            restore_default_href("/lieux", "?sans=zone&sans=zone&sans=zones", "zone"),
            "/lieux?sans=zones"
        );
        assert_eq!(
            restore_default_href("/lieux", "?sans=zone", "zone"),
            "/lieux"
        );
        assert_eq!(restore_default_href("/lieux", "", "zone"), "/lieux");
    }

    #[test]
    fn retirer_then_retablir_is_the_same_search() {
        let search = "?pool=lieux-atypiques&q=cocktail&demande=4";
        let cleared = clear_default_href("/lieux", search, "specialites");
        let (path, query) = cleared.split_once('?').unwrap_or((&cleared, ""));
        assert_eq!(
            restore_default_href(path, query, "specialites"),
            format!("/lieux{search}")
        );
    }
}
