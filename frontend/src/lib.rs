//! The browser entry point: hydrates the server-rendered HTML.
// Deeply nested view types (the search results) need more than the default 128.
#![recursion_limit = "256"]
use wasm_bindgen::prelude::wasm_bindgen;

/// Called by the hydration script that the server puts in every page.
#[wasm_bindgen]
pub fn hydrate() {
    console_error_panic_hook::set_once();
    leptos::mount::hydrate_body(app::App);
}
