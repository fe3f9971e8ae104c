//! The home page, « À faire »: what needs the signed-in member now (see
//! [`crate::work_queue`]), then a door to each section.
mod queue;

use crate::work_queue::my_work_queue;
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::components::A;
use queue::QueueView;

struct Section {
    href: &'static str,
    title: &'static str,
    text: &'static str,
}

fn admin_only(section: &Section) -> bool {
    section.href == "/console"
}

const SECTIONS: &[Section] = &[
    Section { href: "/chat", title: "Chat", text: "Posez une question, qualifiez une demande, faites proposer un catalogue : rien n'est écrit sans votre accord." },
    Section { href: "/demandes", title: "Demandes", text: "Les demandes des organisateurs, leurs catalogues de 4 lieux recommandés et 4 compatibles." },
    Section { href: "/lieux", title: "Lieux", text: "Cherchez des lieux par zone, configuration de salle et nombre de personnes ; Maxy les classe selon la demande." },
    Section { href: "/memoire", title: "Mémoire", text: "Ce que Maxy retient d'une conversation à l'autre, et vos rappels." },
    Section { href: "/console", title: "Console", text: "Pour les admins : le journal d'activité, le budget IA, les playbooks, leurs réglages, leurs décisions et les motifs repérés." },
];

#[component]
pub fn HomePage() -> impl IntoView {
    let queue = Resource::new(|| (), |_| my_work_queue());
    view! {
        <Title text="À faire" />
        <div class="mb-6">
            <h1 class="text-2xl font-semibold tracking-tight">"À faire"</h1>
            <p class="mt-1 max-w-2xl text-sm text-slate-500">
                "Ce qui attend votre action : propositions de Maxy à approuver, retours des organisateurs, demandes à qualifier, rappels et réponses des lieux."
            </p>
        </div>
        <Suspense fallback=|| view! { <p class="text-sm text-slate-500">"Chargement…"</p> }>
            {move || queue.get().map(|result| match result {
                Ok(queue) => view! { <QueueView queue /> }.into_any(),
                Err(e) => view! {
                    <p role="alert" class="rounded-md bg-red-50 px-4 py-3 text-sm text-red-700">{e.to_string()}</p>
                }.into_any(),
            })}
        </Suspense>
        <h2 class="mb-3 mt-10 text-lg font-medium text-slate-900">"Rubriques"</h2>
        <div class="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {move || SECTIONS
                .iter()
                .filter(|s| crate::layout::is_admin() || !admin_only(s))
                .map(|s| {
                    view! {
                        <A href=s.href attr:class="block rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-indigo-300 hover:shadow">
                            <h3 class="font-medium text-slate-900">{s.title}</h3>
                            <p class="mt-1 text-sm text-slate-500">{s.text}</p>
                        </A>
                    }
                })
                .collect_view()}
        </div>
    }
}
