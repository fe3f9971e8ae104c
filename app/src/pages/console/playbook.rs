//! One playbook (`/console/playbooks?nom=…`): its status and the buttons
//! that change it, its YAML read-only and in an edit form (a refused save
//! shows the line and field of the error and changes nothing), and the
//! history of its versions, each YAML on demand.
use super::{playbooks::StatusBadge, LoadError};
use crate::pages::{failure, FormError};
use crate::playbook_console::{
    get_playbook, PlaybookDetail, SavePlaybook, SetPlaybookStatus, VersionView,
};
use crate::raw_text::textarea_value;
use leptos::prelude::*;

/// The status buttons: (status, button label).
const STATUS_BUTTONS: &[(&str, &str)] = &[
    ("active", "Activer"),
    ("observe", "Mettre en observation"),
    ("disabled", "Désactiver"),
];

#[component]
pub fn PlaybookView(
    name: String,
    save: ServerAction<SavePlaybook>,
    status: ServerAction<SetPlaybookStatus>,
) -> impl IntoView {
    let detail = Resource::new(
        move || (name.clone(), save.version().get(), status.version().get()),
        |(name, _, _)| get_playbook(name),
    );
    view! {
        <p class="mb-4 text-sm"><a href="/console/playbooks" class="text-indigo-700 hover:underline">"← Tous les playbooks"</a></p>
        <Suspense fallback=|| view! { <p class="text-sm text-slate-500">"Chargement…"</p> }>
            {move || detail.get().map(|result| match result {
                Ok(detail) => view! { <Detail detail save status /> }.into_any(),
                Err(error) => view! { <LoadError error /> }.into_any(),
            })}
        </Suspense>
    }
}

#[component]
fn Detail(
    detail: PlaybookDetail,
    save: ServerAction<SavePlaybook>,
    status: ServerAction<SetPlaybookStatus>,
) -> impl IntoView {
    let row = detail.row;
    let name = row.name.clone();
    let title = row.title.clone();
    let key = name.clone();
    let current = row.status.clone();
    view! {
        <article class="max-w-4xl space-y-6" data-testid="playbook" data-name=key>
            <header>
                <h2 class="break-words text-xl font-semibold">{title}</h2>
                <p class="text-xs text-slate-500"><code>{row.name.clone()}</code></p>
                <p class="mt-1 text-sm text-slate-700">{row.goal}</p>
                <p class="mt-2 flex flex-wrap items-center gap-3 text-xs text-slate-500">
                    <span data-testid="playbook-status"><StatusBadge status=row.status /></span>
                    <span>{format!("version {} · modifiée le {}", row.version, row.updated_at)}</span>
                </p>
            </header>
            <div class="flex flex-wrap gap-2" data-testid="playbook-status-buttons">
                {STATUS_BUTTONS.iter().filter(|(s, _)| *s != current).map(|(s, label)| { let name = name.clone(); view! {
                    <ActionForm action=status>
                        <input type="hidden" name="name" value=name.clone() />
                        <input type="hidden" name="status" value=*s />
                        <button type="submit" data-testid=format!("playbook-set-{s}")
                            class="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm hover:bg-slate-50">
                            {*label}
                        </button>
                    </ActionForm>
                }}).collect_view()}
            </div>
            <FormError error=failure(status) testid="playbook-status-error" />
            <section>
                <h3 class="mb-2 font-medium">"Définition"</h3>
                <pre class="overflow-x-auto rounded-xl border border-slate-200 bg-white p-4 font-mono text-xs" data-testid="playbook-yaml">{detail.source.clone()}</pre>
            </section>
            <section>
                <h3 class="mb-2 font-medium">"Modifier"</h3>
                <p class="mb-2 text-xs text-slate-500">"Le YAML est validé à l'enregistrement : s'il est refusé, l'erreur dit la ligne et le champ, et la version en vigueur ne change pas."</p>
                <ActionForm action=save attr:class="space-y-2 text-sm" attr:data-testid="playbook-edit">
                    <textarea name="yaml" rows="16" required spellcheck="false" aria-label="Définition (YAML)" data-testid="playbook-edit-yaml"
                        class="block w-full rounded-md border border-slate-300 px-2 py-1 font-mono text-xs">
                        {textarea_value(detail.source)}
                    </textarea>
                    <FormError error=failure(save) testid="playbook-edit-error" />
                    <button type="submit" class="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700" data-testid="playbook-edit-submit">
                        "Enregistrer une nouvelle version"
                    </button>
                </ActionForm>
            </section>
            <History versions=detail.versions />
        </article>
    }
}

#[component]
fn History(versions: Vec<VersionView>) -> impl IntoView {
    view! {
        <section>
            <h3 class="mb-2 font-medium">"Historique des versions"</h3>
            <ul class="space-y-2 text-sm" data-testid="playbook-versions">
                {versions.into_iter().map(|v| view! {
                    <li class="rounded-lg border border-slate-200 bg-white px-3 py-2" data-testid="playbook-version">
                        <details>
                            <summary class="cursor-pointer">
                                <span class="font-medium">{format!("Version {}", v.version)}</span>
                                <span class="text-slate-500">{format!(" · {} · {}", v.by, v.at)}</span>
                            </summary>
                            <pre class="mt-2 overflow-x-auto font-mono text-xs">{v.source}</pre>
                        </details>
                    </li>
                }).collect_view()}
            </ul>
        </section>
    }
}
