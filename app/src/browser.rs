//! What islands ask of the browser itself. In islands mode there is no
//! client-side router: moving to another page is a full page load, which the
//! server renders like any other; an island that already shows the next
//! address only changes the address bar.

/// Opens `href` (a path of this site) as a new page load.
pub fn go_to(href: &str) {
    #[cfg(feature = "hydrate")]
    {
        let _ = leptos::prelude::window().location().set_href(href);
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = href;
}

/// Puts `href` (a path of this site) in the address bar and the history
/// without loading it: the island already shows what that address shows.
pub fn show_address(href: &str) {
    #[cfg(feature = "hydrate")]
    {
        if let Ok(history) = leptos::prelude::window().history() {
            let _ = history.push_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(href));
        }
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = href;
}

/// After [`show_address`], Back and Forward move between addresses the
/// island did not load: load them.
pub fn reload_on_history_moves() {
    #[cfg(feature = "hydrate")]
    {
        let _ = leptos::prelude::window_event_listener(leptos::ev::popstate, |_| {
            let _ = leptos::prelude::window().location().reload();
        });
    }
}
