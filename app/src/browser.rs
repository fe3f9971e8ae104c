//! What islands ask of the browser itself. In islands mode there is no
//! client-side router: moving to another page is a full page load, which the
//! server renders like any other.

/// Opens `href` (a path of this site) as a new page load.
pub fn go_to(href: &str) {
    #[cfg(feature = "hydrate")]
    {
        let _ = leptos::prelude::window().location().set_href(href);
    }
    #[cfg(not(feature = "hydrate"))]
    let _ = href;
}
