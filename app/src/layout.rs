//! The team's app frame: brand, main navigation, the signed-in user, and the
//! page content (`<Outlet/>`).
use crate::auth::{current_user, SessionUser};
use leptos::prelude::*;
use leptos_router::components::{Outlet, A};

/// One entry of the main navigation.
struct NavItem {
    href: &'static str,
    label: &'static str,
    hint: &'static str,
    admin_only: bool,
}

const NAV: &[NavItem] = &[
    NavItem {
        href: "/chat",
        label: "Chat",
        hint: "Parler à Maxy",
        admin_only: false,
    },
    NavItem {
        href: "/demandes",
        label: "Demandes",
        hint: "Demandes des organisateurs",
        admin_only: false,
    },
    NavItem {
        href: "/lieux",
        label: "Lieux",
        hint: "Rechercher parmi les lieux",
        admin_only: false,
    },
    NavItem {
        href: "/atelier",
        label: "Atelier",
        hint: "Entraîner Maxy sur des demandes passées ou inventées",
        admin_only: false,
    },
    NavItem {
        href: "/entrainement",
        label: "Entraînement",
        hint: "Ce que l'équipe apprend à Maxy",
        admin_only: false,
    },
    NavItem {
        href: "/memoire",
        label: "Mémoire",
        hint: "Ce dont Maxy se souvient",
        admin_only: false,
    },
    NavItem {
        href: "/console",
        label: "Console",
        hint: "Playbooks et réglages (admin)",
        admin_only: true,
    },
];

/// The signed-in user, loaded once per page by the layout and shared with
/// the pages through context.
pub type CurrentUser = Resource<Result<Option<SessionUser>, crate::errors::AppError>>;

/// Whether the signed-in user is an admin (false while unknown).
pub fn is_admin() -> bool {
    use_context::<CurrentUser>()
        .and_then(|user| user.get())
        .and_then(Result::ok)
        .flatten()
        .is_some_and(|u| u.is_admin())
}

/// Sidebar navigation on wide screens, a top bar on narrow ones.
#[component]
pub fn AppLayout() -> impl IntoView {
    // Blocking: the navigation is part of the first HTML, so it is there
    // without JavaScript too (no out-of-order fragment to move into place).
    // On the server the caller is read now, synchronously, from the request
    // (the authentication layer put it there); the browser receives that
    // value with the page and only asks `current_user` when it has none.
    let known = server_side_user();
    let user: CurrentUser = Resource::new_blocking(|| (), move |_| load_user(known.clone()));
    provide_context(user);
    view! {
        <div class="min-h-screen md:flex">
            <header class="flex flex-col border-b border-slate-200 bg-white md:w-60 md:shrink-0 md:border-b-0 md:border-r">
                <A href="/" attr:class="flex items-center gap-2 px-5 py-4">
                    <span class="grid h-8 w-8 place-items-center rounded-lg bg-indigo-600 text-sm font-bold text-white">"M"</span>
                    <span class="text-lg font-semibold tracking-tight">"Maxy"</span>
                </A>
                <Suspense fallback=|| ()>
                    {move || {
                        user.get()
                            .map(|result| {
                                let user = result.ok().flatten();
                                view! {
                                    <MainNav is_admin=user.as_ref().is_some_and(SessionUser::is_admin) />
                                    {user.map(|u| view! { <UserMenu user=u /> })}
                                }
                            })
                    }}
                </Suspense>
            </header>
            <main class="flex-1 px-6 py-8 md:px-10">
                <Outlet />
            </main>
        </div>
    }
}

#[cfg(feature = "ssr")]
fn server_side_user() -> Option<Option<SessionUser>> {
    Some(crate::auth::access::caller())
}

#[cfg(not(feature = "ssr"))]
fn server_side_user() -> Option<Option<SessionUser>> {
    None
}

async fn load_user(
    known: Option<Option<SessionUser>>,
) -> Result<Option<SessionUser>, crate::errors::AppError> {
    match known {
        Some(user) => Ok(user),
        None => current_user().await,
    }
}

#[component]
fn MainNav(is_admin: bool) -> impl IntoView {
    view! {
        <nav aria-label="Navigation principale" class="flex gap-1 overflow-x-auto px-3 pb-3 md:flex-col md:pb-0">
            {NAV
                .iter()
                .filter(|item| is_admin || !item.admin_only)
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
    }
}

/// Who is signed in, and the two ways out (plain forms: they work without JavaScript).
#[component]
fn UserMenu(user: SessionUser) -> impl IntoView {
    let role = if user.is_admin() {
        "Administrateur"
    } else {
        "Équipe"
    };
    view! {
        <div class="mt-auto hidden border-t border-slate-200 px-5 py-4 text-sm md:block" data-testid="user-menu">
            <p class="font-medium text-slate-900">{user.display_name}</p>
            <p class="text-xs text-slate-500">{role}</p>
            <form method="post" action="/deconnexion" class="mt-3">
                <button type="submit" class="text-sm font-medium text-indigo-700 hover:underline">"Se déconnecter"</button>
            </form>
            <form method="post" action="/deconnexion/partout" class="mt-1">
                <button type="submit" class="text-xs text-slate-500 hover:underline">"Se déconnecter de tous les appareils"</button>
            </form>
        </div>
    }
}
