//! Every page and who may open it. The router of [`crate::App`] and the
//! server's page guard both follow this table; a test checks they agree.
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
    ("/demandes", Access::Signed(Role::Team)),
    ("/lieux", Access::Signed(Role::Team)),
    ("/memoire", Access::Signed(Role::Team)),
    ("/console", Access::Signed(Role::Admin)),
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

/// Only same-site paths are followed after sign-in (no open redirect).
pub fn is_local_path(path: &str) -> bool {
    path.starts_with('/')
        && !path.starts_with("//")
        && !path.contains('\\')
        && !path.contains("://")
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
        assert_eq!(page_access("/c/abc"), Some(Access::MagicLink));
        assert_eq!(page_access("/c/"), None);
        assert_eq!(page_access("/c/abc/def"), None);
        assert_eq!(page_access("/connexion"), Some(Access::Public));
        assert_eq!(page_access("/nulle-part"), None);
    }

    #[test]
    fn only_local_paths_are_followed() {
        assert!(is_local_path("/lieux?x=1"));
        assert!(!is_local_path("//evil.example/"));
        assert!(!is_local_path("https://evil.example/"));
        assert!(!is_local_path("/\\evil.example"));
        assert!(!is_local_path("lieux"));
    }
}
