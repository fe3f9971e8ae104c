//! What the HTML shell puts in `<head>` besides the page's own meta tags:
//! the icon, the stylesheet and — on the team's pages only — the wasm bundle.
//!
//! The organizer's catalogue (`/c/…`) and the venue's availability answer
//! (`/v/…`) are read by people outside the team, often on a slow phone link.
//! Both work entirely through forms that post and redirect, so they are sent
//! without the hydration script and without the bundle's preloads: the page
//! is usable as soon as its HTML has arrived (ADR 0036).
//!
//! Asset names carry a content fingerprint (`maxy.<hash>.js`, `…_bg.wasm`,
//! `….css`) that the server reads from the built site at start and puts in
//! `LeptosOptions::output_name`; the files are then cached for a year.
use leptos::prelude::*;

/// The `<head>` links of every page rendered by the server.
#[component]
pub fn DocumentAssets(options: LeptosOptions) -> impl IntoView {
    let stylesheet = format!("/{}/{}.css", options.site_pkg_dir, options.output_name);
    let hydrate = !served_without_wasm();
    view! {
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" id="maxy-css" href=stylesheet />
        {hydrate.then(|| view! { <HydrationScripts options islands=true /> })}
    }
}

/// Whether the page being rendered is one of the link pages (catalogue or
/// availability) that work without the wasm bundle.
fn served_without_wasm() -> bool {
    #[cfg(feature = "ssr")]
    {
        use_context::<http::request::Parts>().is_some_and(|parts| is_link_page(parts.uri.path()))
    }
    #[cfg(not(feature = "ssr"))]
    {
        false
    }
}

/// The pages opened through a magic link (`/c/<token>`, `/v/<token>`):
/// every one of them works by plain form posts.
pub fn is_link_page(path: &str) -> bool {
    crate::routes::page_access(path) == Some(crate::routes::Access::MagicLink)
}

#[cfg(test)]
mod tests {
    use super::is_link_page;

    #[test]
    fn only_the_two_link_pages_go_without_the_bundle() {
        assert!(is_link_page("/c/abc.DEF-_1"));
        assert!(is_link_page("/v/xyz"));
        for path in [
            "/",
            "/chat",
            "/c/",
            "/v/",
            "/c/a/b",
            "/connexion",
            "/console",
        ] {
            assert!(!is_link_page(path), "{path}");
        }
    }
}
