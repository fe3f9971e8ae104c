//! No import circle between the server's modules: reading the sources, each
//! file is a module, and `crate::…` / `super::…` paths are its imports of
//! other modules. A module and its own submodules may use each other (that
//! is how Rust modules are built); two modules neither of which contains
//! the other must not, directly or through others.
//!
//! `#[cfg(test)] mod tests { … }` blocks at the end of a file are left out:
//! a test may reach anywhere. So are comment lines: naming a module in a
//! comment is not importing it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Module = Vec<String>;

/// Every `.rs` file under `dir` as a module path (`search/scoring.rs` →
/// `["search", "scoring"]`, `lib.rs` → `[]`) with its text.
fn modules(dir: &Path) -> BTreeMap<Module, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let rel = path.strip_prefix(dir).unwrap().with_extension("");
                let mut module: Module = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if module == ["lib"] || module == ["main"] {
                    module.clear();
                }
                let text = std::fs::read_to_string(&path).unwrap();
                let text = match text.find("#[cfg(test)]\nmod tests {") {
                    Some(cut) => &text[..cut],
                    None => &text,
                };
                out.insert(module, code(text));
            }
        }
    }
    out
}

/// `text` without its comment lines: a comment that names a module
/// (« the agent loop (`crate::agent`) speaks only these types ») is not an
/// import.
fn code(text: &str) -> String {
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths a file names, each as written from its first segment:
/// `crate::a::b`, `super::c`, and the items of `use super::{d, e::f}`.
fn paths(text: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let words = |s: &str| -> Vec<String> {
        s.split("::")
            .map(|w| {
                w.chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect::<String>()
            })
            .take_while(|w| !w.is_empty())
            .collect()
    };
    for head in ["crate::", "super::"] {
        let mut from = 0;
        while let Some(at) = text[from..].find(head) {
            let start = from + at;
            from = start + head.len();
            let before = text[..start].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let rest = &text[from..];
            if let Some(group) = rest.strip_prefix('{') {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                for item in group.split(',') {
                    out.push((head.to_string(), words(item.trim())));
                }
            } else {
                let mut segments = words(rest);
                // `super::super::x`
                let mut ups = 1;
                while segments.first().is_some_and(|s| s == "super") {
                    segments.remove(0);
                    ups += 1;
                }
                out.push((format!("{head}{ups}"), segments));
            }
        }
    }
    out
}

fn import_graph(dir: &Path) -> BTreeMap<Module, BTreeSet<Module>> {
    let modules = modules(dir);
    let known: BTreeSet<Module> = modules.keys().cloned().collect();
    // The longest prefix of `path` that is a module.
    let resolve = |path: Vec<String>| -> Option<Module> {
        (0..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|m| known.contains(m))
    };
    let mut graph = BTreeMap::new();
    for (module, text) in &modules {
        let mut targets = BTreeSet::new();
        for (head, segments) in paths(text) {
            let base: Module = if head.starts_with("crate") {
                Vec::new()
            } else {
                let ups: usize = head.trim_start_matches("super::").parse().unwrap_or(1);
                module[..module.len().saturating_sub(ups)].to_vec()
            };
            let mut path = base;
            path.extend(segments);
            if let Some(target) = resolve(path) {
                if &target != module {
                    targets.insert(target);
                }
            }
        }
        graph.insert(module.clone(), targets);
    }
    graph
}

fn contains(outer: &Module, inner: &Module) -> bool {
    inner.starts_with(outer)
}

/// Every module `from` reaches through imports.
fn reach(graph: &BTreeMap<Module, BTreeSet<Module>>, from: &Module) -> BTreeSet<Module> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![from.clone()];
    while let Some(m) = todo.pop() {
        for next in &graph[&m] {
            if seen.insert(next.clone()) {
                todo.push(next.clone());
            }
        }
    }
    seen
}

/// Pairs of modules, neither inside the other, that reach each other.
fn circles(graph: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<(Module, Module)> {
    let reaches: BTreeMap<&Module, BTreeSet<Module>> =
        graph.keys().map(|m| (m, reach(graph, m))).collect();
    let mut out = Vec::new();
    for (a, from_a) in &reaches {
        for b in from_a {
            let related = contains(a, b) || contains(b, a);
            if !related && *a < b && reaches[b].contains(*a) {
                out.push(((*a).clone(), b.clone()));
            }
        }
    }
    out
}

fn show(path: &[Module]) -> String {
    path.iter()
        .map(|m| {
            if m.is_empty() {
                "crate".into()
            } else {
                m.join("::")
            }
        })
        .collect::<Vec<_>>()
        .join(" ⇄ ")
}

#[test]
fn no_two_server_modules_import_each_other() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = import_graph(&dir);
    assert!(graph.len() > 50, "the sources were read: {}", graph.len());
    let found: Vec<String> = circles(&graph)
        .iter()
        .map(|(a, b)| show(&[a.clone(), b.clone()]))
        .collect();
    assert!(found.is_empty(), "import circles:\n{}", found.join("\n"));
}

/// Modules under `a` that reach a module under `b`, with the first module
/// of `b` they reach.
fn reaching(graph: &BTreeMap<Module, BTreeSet<Module>>, a: &str, b: &str) -> Vec<String> {
    let under = |m: &Module, top: &str| m.first().is_some_and(|s| s == top);
    graph
        .keys()
        .filter(|m| under(m, a))
        .filter_map(|m| {
            let target = reach(graph, m).into_iter().find(|t| under(t, b))?;
            Some(format!(
                "{} reaches {}",
                show(std::slice::from_ref(m)),
                show(&[target])
            ))
        })
        .collect()
}

/// The tables and the provider layer do not know each other (ADR 0030):
/// no module under `db` reaches `llm`, none under `llm` reaches `db` (calls
/// are kept and the spend read through the `llm::CallLog` port), and no
/// module under `llm` names `sqlx` (it holds no query and no pool).
fn layering_problems(dir: &Path) -> Vec<String> {
    let graph = import_graph(dir);
    let mut found = reaching(&graph, "db", "llm");
    found.extend(reaching(&graph, "llm", "db"));
    for (module, text) in modules(dir) {
        if module.first().is_some_and(|s| s == "llm") && text.contains("sqlx") {
            found.push(format!("{} names sqlx", show(&[module])));
        }
    }
    found
}

#[test]
fn the_tables_and_the_provider_layer_do_not_know_each_other() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let found = layering_problems(&dir);
    assert!(found.is_empty(), "layering:\n{}", found.join("\n"));
}

#[test]
fn the_layering_check_sees_a_table_that_knows_a_provider_and_a_query_in_the_provider_layer() {
    let dir = std::env::temp_dir().join(format!("module-layers-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("db")).unwrap();
    std::fs::create_dir_all(dir.join("llm")).unwrap();
    let files = [
        ("lib.rs", "pub mod db;\npub mod llm;\npub mod shared;\n"),
        ("shared.rs", "pub struct Block;\n"),
        ("db.rs", "pub mod messages;\npub mod calls;\n"),
        ("db/messages.rs", "use crate::shared::Block;\n"),
        ("db/calls.rs", "use crate::llm::CallRecord;\n"),
        ("llm.rs", "pub mod budget;\npub mod chat;\n"),
        (
            "llm/chat.rs",
            "pub use crate::shared::Block;\n// sqlx, in a comment\n",
        ),
        (
            "llm/budget.rs",
            "pub async fn spent(db: &Pool) { sqlx::query(\"SELECT 1\").execute(db).await; }\n",
        ),
    ];
    for (path, text) in files {
        std::fs::write(dir.join(path), text).unwrap();
    }
    let found = layering_problems(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(
        found,
        ["db::calls reaches llm", "llm::budget names sqlx"],
        "the clean modules pass, the two faults are named"
    );
}

#[test]
fn the_reader_sees_a_circle_when_there_is_one() {
    let dir = std::env::temp_dir().join(format!("module-graph-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("search")).unwrap();
    std::fs::write(dir.join("lib.rs"), "pub mod search;\n").unwrap();
    std::fs::write(dir.join("search.rs"), "mod reasons;\nmod scoring;\n").unwrap();
    std::fs::write(
        dir.join("search/scoring.rs"),
        "pub struct Finalist;\nfn f() { super::reasons::sentence(); }\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("search/reasons.rs"),
        "use super::scoring::Finalist;\npub fn sentence() {}\n",
    )
    .unwrap();
    let graph = import_graph(&dir);
    let found = circles(&graph);
    std::fs::remove_dir_all(&dir).unwrap();
    let shown: Vec<String> = found
        .iter()
        .map(|(a, b)| show(&[a.clone(), b.clone()]))
        .collect();
    assert_eq!(shown, ["search::reasons ⇄ search::scoring"]);
}
