//! The browser entry point. The server renders every page; in islands mode
//! only the interactive parts (`#[island]` components of `app`) hydrate, each
//! from its own exported function that the island script calls after this one.
// Deeply nested view types (the builder, the chat) need more than the default 128.
#![recursion_limit = "256"]
use wasm_bindgen::prelude::wasm_bindgen;

/// Called by the island script that the server puts in every team page,
/// before it hydrates each `<leptos-island>` of the page in document order.
#[wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_islands();
    app::mark_hydrated();
}
