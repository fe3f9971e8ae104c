//! The landing page: what Maxy does, and a door to each section.
use leptos::prelude::*;
use leptos_router::components::A;

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
    Section { href: "/lieux", title: "Lieux", text: "Recherche par pool, zone, configuration et jauge, puis classement sémantique." },
    Section { href: "/memoire", title: "Mémoire", text: "Les faits que Maxy retient d'une conversation à l'autre." },
    Section { href: "/console", title: "Console", text: "Playbooks, bandes ENFORCE / SUGGEST / OBSERVE et suggestions, pour les admins." },
];

#[component]
pub fn HomePage() -> impl IntoView {
    view! {
        <div class="mb-8">
            <h1 class="text-3xl font-semibold tracking-tight">"Maxy"</h1>
            <p class="mt-2 max-w-2xl text-slate-600">
                "L'assistant de l'équipe Reciprok : il lit la base de lieux, cherche les bons candidats pour chaque demande et propose des catalogues que vous validez."
            </p>
        </div>
        <div class="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {move || SECTIONS
                .iter()
                .filter(|s| crate::layout::is_admin() || !admin_only(s))
                .map(|s| {
                    view! {
                        <A href=s.href attr:class="block rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-indigo-300 hover:shadow">
                            <h2 class="font-medium text-slate-900">{s.title}</h2>
                            <p class="mt-1 text-sm text-slate-500">{s.text}</p>
                        </A>
                    }
                })
                .collect_view()}
        </div>
    }
}
