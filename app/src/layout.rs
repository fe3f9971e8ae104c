//! The team's app frame: the skip link, brand, main navigation (a drawer on
//! phones), the signed-in user, and the page content (`<Outlet/>`, in
//! `<main id="contenu">`).
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
        hint: "Playbooks et réglages, pour les administrateurs",
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

/// Sidebar navigation on wide screens; below 768 px a « Menu » button opens
/// it as a drawer. The button is a checkbox in a label, so the drawer opens
/// without JavaScript too (and by keyboard: Space on the focused box).
/// « Aller au contenu » comes first, for keyboard and screen-reader users.
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
    // The layout is server HTML (no router in the browser): following
    // `#contenu` moves the focus to `<main tabindex="-1">` natively.
    view! {
        <a href="#contenu" data-testid="skip-link"
            class="sr-only focus:not-sr-only focus:fixed focus:left-3 focus:top-3 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:text-indigo-700 focus:shadow-lg focus:ring-2 focus:ring-indigo-500">
            "Aller au contenu"
        </a>
        <div class="group/frame min-h-screen md:flex">
            <header class="relative flex flex-col border-b border-slate-200 bg-white md:w-60 md:shrink-0 md:border-b-0 md:border-r">
                <div class="flex items-center justify-between gap-3 pr-3">
                    <A href="/" attr:class="flex items-center gap-2 px-5 py-4">
                        <span class="grid h-8 w-8 place-items-center rounded-lg bg-indigo-600 text-sm font-bold text-white">"M"</span>
                        <span class="text-lg font-semibold tracking-tight">"Maxy"</span>
                    </A>
                    <label data-testid="menu-button"
                        class="flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500 md:hidden">
                        <input type="checkbox" id="menu-toggle" class="sr-only" aria-controls="menu-drawer" />
                        <span aria-hidden="true">"☰"</span>
                        "Menu"
                    </label>
                </div>
                <div id="menu-drawer" class="hidden flex-1 flex-col group-has-[#menu-toggle:checked]/frame:flex md:flex">
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
                </div>
            </header>
            <main id="contenu" tabindex="-1" class="min-w-0 flex-1 px-4 py-6 focus:outline-none sm:px-6 md:px-10 md:py-8">
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
        <nav aria-label="Navigation principale" class="flex flex-col gap-1 px-3 pb-3 md:pb-0">
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
        <div class="mt-auto border-t border-slate-200 px-5 py-4 text-sm" data-testid="user-menu">
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
