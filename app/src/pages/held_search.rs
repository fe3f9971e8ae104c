//! A search opened from another site (the venue search): shown with its
//! criteria but not run until the member says so, since a link elsewhere must
//! not spend the team's budget nor write with their session.
use leptos::prelude::*;
use leptos_router::hooks::use_location;

/// The notice and its « Lancer la recherche » link: the same URL, opened
/// again from our own page, which the server then runs.
#[component]
pub fn HeldSearch(
    /// What the member should check before running it.
    message: &'static str,
    /// `data-testid` of the notice and of its link.
    testid: &'static str,
    run_testid: &'static str,
) -> impl IntoView {
    let location = use_location();
    // The router's `search` has no `?` (server side at least): put it back.
    let search = location.search.get_untracked();
    let href = match search.trim_start_matches('?') {
        "" => location.pathname.get_untracked(),
        search => format!("{}?{search}", location.pathname.get_untracked()),
    };
    view! {
        <div role="status" class="mt-4 rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-900" data-testid=testid>
            <p>{message}</p>
            <a href=href data-testid=run_testid
                class="mt-2 inline-block rounded-md bg-indigo-600 px-4 py-2 font-medium text-white hover:bg-indigo-700">
                "Lancer la recherche"</a>
        </div>
    }
}
