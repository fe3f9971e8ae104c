//! The app frame: brand, main navigation and the content area.
use leptos::prelude::*;
use leptos_router::components::A;

/// One entry of the main navigation.
struct NavItem {
    href: &'static str,
    label: &'static str,
    hint: &'static str,
}

const NAV: &[NavItem] = &[
    NavItem {
        href: "/chat",
        label: "Chat",
        hint: "Parler à Maxy",
    },
    NavItem {
        href: "/demandes",
        label: "Demandes",
        hint: "Demandes des organisateurs",
    },
    NavItem {
        href: "/lieux",
        label: "Lieux",
        hint: "Rechercher parmi les lieux",
    },
    NavItem {
        href: "/memoire",
        label: "Mémoire",
        hint: "Ce dont Maxy se souvient",
    },
    NavItem {
        href: "/console",
        label: "Console",
        hint: "Playbooks et réglages (admin)",
    },
];

/// Sidebar navigation on wide screens, a top bar on narrow ones.
#[component]
pub fn AppLayout(children: Children) -> impl IntoView {
    view! {
        <div class="min-h-screen md:flex">
            <header class="border-b border-slate-200 bg-white md:w-60 md:shrink-0 md:border-b-0 md:border-r">
                <A href="/" attr:class="flex items-center gap-2 px-5 py-4">
                    <span class="grid h-8 w-8 place-items-center rounded-lg bg-indigo-600 text-sm font-bold text-white">"M"</span>
                    <span class="text-lg font-semibold tracking-tight">"Maxy"</span>
                </A>
                <nav aria-label="Navigation principale" class="flex gap-1 overflow-x-auto px-3 pb-3 md:flex-col md:pb-0">
                    {NAV
                        .iter()
                        .map(|item| {
                            view! {
                                <A
                                    href=item.href
                                    attr:title=item.hint
                                    attr:class="rounded-md px-3 py-2 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 aria-[current=page]:bg-indigo-50 aria-[current=page]:text-indigo-700"
                                >
                                    {item.label}
                                </A>
                            }
                        })
                        .collect_view()}
                </nav>
            </header>
            <main class="flex-1 px-6 py-8 md:px-10">{children()}</main>
        </div>
    }
}
