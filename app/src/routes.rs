//! Every page and server function, and who may open or call it. The router
//! of [`crate::App`] and the server's guard both follow these rules; tests
//! derived from the real router check they agree.
use crate::auth::Role;

/// Who may open a page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// Anyone (the sign-in page).
    Public,
    /// A signed-in user whose role includes this one.
    Signed(Role),
    /// Anyone holding a valid magic link for it (checked by the page's data).
    MagicLink,
}

/// Page paths in the router's syntax (`:name` for a parameter).
pub const PAGES: &[(&str, Access)] = &[
    ("/", Access::Signed(Role::Team)),
    ("/chat", Access::Signed(Role::Team)),
    ("/chat/:id", Access::Signed(Role::Team)),
    ("/demandes", Access::Signed(Role::Team)),
    ("/demandes/:id", Access::Signed(Role::Team)),
    ("/demandes/:id/catalogue", Access::Signed(Role::Team)),
    ("/atelier", Access::Signed(Role::Team)),
    ("/lieux", Access::Signed(Role::Team)),
    ("/lieux/:id", Access::Signed(Role::Team)),
    ("/memoire", Access::Signed(Role::Team)),
    ("/entrainement", Access::Signed(Role::Team)),
    ("/console", Access::Signed(Role::Admin)),
    ("/console/comptes", Access::Signed(Role::Admin)),
    ("/console/playbooks", Access::Signed(Role::Admin)),
    ("/console/stations", Access::Signed(Role::Admin)),
    ("/console/decisions", Access::Signed(Role::Admin)),
    ("/console/motifs", Access::Signed(Role::Admin)),
    ("/console/simulateur", Access::Signed(Role::Admin)),
    ("/console/mesures", Access::Signed(Role::Admin)),
    ("/console/mesures/lignes", Access::Signed(Role::Admin)),
    ("/connexion", Access::Public),
    ("/c/:token", Access::MagicLink),
    ("/v/:token", Access::MagicLink),
];

/// The access rule of the page at `path`, if `path` is a page.
pub fn page_access(path: &str) -> Option<Access> {
    PAGES
        .iter()
        .find(|(pattern, _)| matches(pattern, path))
        .map(|(_, access)| *access)
}

/// Server functions anyone may call: the caller's own description.
pub const PUBLIC_SERVER_FUNCTIONS: &[&str] = &["/api/session/user"];

/// Server functions whose only credential is a magic-link token argument.
pub const LINK_SERVER_FUNCTIONS_PREFIX: &str = "/api/links/";

/// Who may call the server function at `path`: unless listed above, a
/// signed-in team member (the function may ask for more, e.g. admin). The
/// server's guard refuses anonymous callers before the arguments are even
/// read, so a new server function is closed by default.
pub fn server_fn_access(path: &str) -> Access {
    if PUBLIC_SERVER_FUNCTIONS.contains(&path) {
        Access::Public
    } else if path.starts_with(LINK_SERVER_FUNCTIONS_PREFIX) {
        Access::MagicLink
    } else {
        Access::Signed(Role::Team)
    }
}

/// Whether the sign-in form may send the user to `next` afterwards: only a
/// page of our router, written plainly (no open redirect, and nothing a
/// browser would read differently from the guard: no control characters,
/// whitespace, backslashes, encoded bytes or dot segments in the path).
pub fn is_safe_next(next: &str) -> bool {
    let path = next.split(['?', '#']).next().unwrap_or_default();
    let plain_path = path
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'-' | b'_' | b'.' | b'~'));
    let plain_rest = next.bytes().all(|b| b.is_ascii_graphic() && b != b'\\');
    plain_path
        && plain_rest
        && !path.starts_with("//")
        && !path.split('/').any(|s| s == "." || s == "..")
        && page_access(path).is_some()
}

fn matches(pattern: &str, path: &str) -> bool {
    let path = if path.len() > 1 {
        path.trim_end_matches('/')
    } else {
        path
    };
    let mut p = pattern.split('/');
    let mut q = path.split('/');
    loop {
        match (p.next(), q.next()) {
            (None, None) => return true,
            (Some(a), Some(b)) if a.starts_with(':') && !b.is_empty() => continue,
            (Some(a), Some(b)) if a == b => continue,
            _ => return false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_match_their_patterns_only() {
        assert_eq!(page_access("/"), Some(Access::Signed(Role::Team)));
        assert_eq!(page_access("/console"), Some(Access::Signed(Role::Admin)));
        assert_eq!(page_access("/console/"), Some(Access::Signed(Role::Admin)));
        assert_eq!(page_access("/chat/12"), Some(Access::Signed(Role::Team)));
        assert_eq!(page_access("/c/abc"), Some(Access::MagicLink));
        assert_eq!(page_access("/c/"), None);
        assert_eq!(page_access("/c/abc/def"), None);
        assert_eq!(page_access("/connexion"), Some(Access::Public));
        assert_eq!(page_access("/nulle-part"), None);
    }

    #[test]
    fn only_plain_paths_of_our_pages_are_followed() {
        for next in [
            "/",
            "/lieux",
            "/lieux?pool=hotels&q=loft",
            "/console/",
            "/c/abc.DEF-_1",
        ] {
            assert!(is_safe_next(next), "{next}");
        }
        for next in [
            "",
            "lieux",
            "//evil.example/",
            "https://evil.example/",
            "/\\evil.example",
            "/\t/evil.example/phish",
            "/%09/evil.example",
            "/lieux\r\nSet-Cookie: x=1",
            "/lieux?q=a b",
            "/./console",
            "/x/../console",
            "/c/..",
            "/nulle-part",
            "/lieux?q=\u{e9}",
        ] {
            assert!(!is_safe_next(next), "{next:?}");
        }
    }

    #[test]
    fn server_functions_are_closed_unless_listed() {
        assert_eq!(server_fn_access("/api/session/user"), Access::Public);
        assert_eq!(server_fn_access("/api/links/catalogue"), Access::MagicLink);
        assert_eq!(
            server_fn_access("/api/venues/search"),
            Access::Signed(Role::Team)
        );
        assert_eq!(
            server_fn_access("/api/anything/new"),
            Access::Signed(Role::Team)
        );
    }
}
