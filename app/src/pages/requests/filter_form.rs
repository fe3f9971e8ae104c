//! The list's filters: a GET form, so filters are a shareable URL, the
//! back button walks through them, and it works without JavaScript.
use crate::errors::AppError;
use crate::requests::{status_label, RequestsQuery, MAX_QUERY_CHARS, OPEN, OPEN_LABEL, STATUSES};
use crate::venue_search::PoolOption;
use leptos::prelude::*;

#[component]
pub fn FilterForm(
    filters: Memo<RequestsQuery>,
    pools: Resource<Result<Vec<PoolOption>, AppError>>,
) -> impl IntoView {
    let f = filters.get_untracked();
    let selected_pool = f.pool.clone();
    let selected_status = f.status.clone();
    let input = "mt-1 block w-full rounded-md border border-slate-300 px-2 py-2";
    view! {
        <form method="get" action="/demandes" data-testid="requests-filters"
            class="space-y-4 rounded-xl border border-slate-200 bg-white p-5 text-sm">
            <div class="grid gap-4 md:grid-cols-[1fr_12rem_12rem]">
                <label class="block font-medium text-slate-700">
                    "Recherche"
                    <input type="search" name="q" value=f.q.clone() maxlength=MAX_QUERY_CHARS
                        placeholder="Référence, organisateur ou mots de la demande"
                        data-testid="filter-q" class=input />
                </label>
                <label class="block font-medium text-slate-700">
                    "Statut"
                    <select name="status" data-testid="filter-status" class=input>
                        <option value="">"Tous"</option>
                        <option value=OPEN selected=selected_status == OPEN>{OPEN_LABEL}</option>
                        {STATUSES.iter().map(|s| {
                            let selected = *s == selected_status;
                            view! { <option value=*s selected=selected>{status_label(s)}</option> }
                        }).collect_view()}
                    </select>
                </label>
                <label class="block font-medium text-slate-700">
                    "Pool"
                    <select name="pool" data-testid="filter-pool" class=input>
                        <option value="">"Tous"</option>
                        <Suspense fallback=|| ()>
                            {move || {
                                let selected_pool = selected_pool.clone();
                                pools.get().and_then(Result::ok).map(|list| {
                                    list.into_iter().map(|p| {
                                        let selected = p.slug == selected_pool;
                                        view! { <option value=p.slug selected=selected>{p.name}</option> }
                                    }).collect_view()
                                })
                            }}
                        </Suspense>
                    </select>
                </label>
            </div>
            <div class="grid items-end gap-4 md:grid-cols-[10rem_10rem_10rem_1fr]">
                <label class="block font-medium text-slate-700">
                    "Événement du"
                    <input type="date" name="from" value=f.from.clone() data-testid="filter-from" class=input />
                </label>
                <label class="block font-medium text-slate-700">
                    "au"
                    <input type="date" name="to" value=f.to.clone() data-testid="filter-to" class=input />
                </label>
                <label class="block font-medium text-slate-700">
                    "ou le mois"
                    <input type="month" name="month" value=f.month.clone() placeholder="AAAA-MM"
                        data-testid="filter-month" class=input />
                </label>
                <div class="flex items-center justify-between gap-4">
                    <label class="flex items-center gap-2 font-medium text-slate-700">
                        <input type="checkbox" name="mine" value="1" checked=f.mine data-testid="filter-mine" />
                        "Mes demandes"
                    </label>
                    <div class="flex items-center gap-3">
                        <a href="/demandes" class="text-slate-500 hover:underline">"Effacer"</a>
                        <button type="submit" data-testid="apply-filters"
                            class="rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700">"Filtrer"</button>
                    </div>
                </div>
            </div>
        </form>
    }
    .into_any()
}
