//! Text placed inside HTML's raw-text elements, `<textarea>` and `<title>`.
//!
//! The HTML parser ends a textarea's text at the first `</textarea>` and a
//! title's at the first `</title>`, and the Leptos we run (tachys 0.2) writes
//! both without escaping them on the server: a memo, a comment or a memory
//! holding `</textarea><h1>…` would close the field and the rest would become
//! page markup (a `<meta http-equiv="refresh">` that sends the reader away, a
//! fake heading). Every such text goes through these functions, which escape
//! it on the server only: in the browser the same text is set as a DOM text
//! node, where an entity would show as `&lt;`. Upstream fixed this in tachys
//! 0.3, still a release candidate (ADR 0026).

/// The value of a `<textarea>`, as its child: `view! { <textarea>{textarea_value(memo)}</textarea> }`.
pub fn textarea_value(value: impl Into<String>) -> String {
    server_escaped(value.into(), true)
}

/// A page title, as the `<title>` formatter returns it.
pub fn title_text(value: impl Into<String>) -> String {
    server_escaped(value.into(), false)
}

#[cfg(feature = "ssr")]
fn server_escaped(value: String, leading_newline: bool) -> String {
    let escaped = escape_markup(&value);
    // The parser drops one newline right after `<textarea>`: one of ours goes
    // first, so a value that starts with a newline keeps it.
    if leading_newline {
        format!("\n{escaped}")
    } else {
        escaped
    }
}

#[cfg(not(feature = "ssr"))]
fn server_escaped(value: String, _leading_newline: bool) -> String {
    value
}

/// `&`, `<` and `>` as character references, `&` first so an escape
/// already in the text stays readable as what it was: an HTML parser reads
/// the text back exactly, and so does the model reading `<external_content>`
/// (the server's wrapper uses this too).
pub fn escape_markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(all(test, feature = "ssr"))]
mod tests {
    use super::*;
    use leptos::prelude::*;

    fn rendered(value: &str) -> String {
        let value = textarea_value(value);
        view! { <textarea name="memo">{value}</textarea> }.to_html()
    }

    #[test]
    fn a_value_cannot_close_its_textarea() {
        let html = rendered("Merci</textarea><h1 id=\"x\">Lien expiré</h1><!-- </script>");
        assert_eq!(
            html,
            "<textarea name=\"memo\">\nMerci&lt;/textarea&gt;&lt;h1 id=\"x\"&gt;Lien expiré&lt;/h1&gt;&lt;!-- &lt;/script&gt;</textarea>"
        );
        assert_eq!(html.matches("</textarea>").count(), 1);
    }

    #[test]
    fn ordinary_text_and_entities_survive_the_round_trip() {
        // `&amp;` typed by a person must come back as `&amp;`, not `&`.
        assert_eq!(
            rendered("Prix & conditions &amp; 5 < 6"),
            "<textarea name=\"memo\">\nPrix &amp; conditions &amp;amp; 5 &lt; 6</textarea>"
        );
        assert_eq!(rendered(""), "<textarea name=\"memo\">\n</textarea>");
        assert_eq!(
            rendered("\nligne"),
            "<textarea name=\"memo\">\n\nligne</textarea>"
        );
    }

    /// Every `<textarea>` of the pages whose child is an expression (it ends
    /// in `}` before `</textarea>`) passes it through [`textarea_value`].
    #[test]
    fn every_textarea_of_the_pages_renders_its_value_escaped() {
        fn walk(dir: &std::path::Path, found: &mut Vec<(String, String)>) {
            for entry in std::fs::read_dir(dir).unwrap().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    walk(&path, found);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    let source = std::fs::read_to_string(&path).unwrap();
                    for block in source.split("<textarea").skip(1) {
                        let Some((inside, _)) = block.split_once("</textarea>") else {
                            continue;
                        };
                        found.push((path.display().to_string(), inside.to_string()));
                    }
                }
            }
        }
        let mut textareas = Vec::new();
        walk(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut textareas,
        );
        let with_value: Vec<_> = textareas
            .iter()
            .filter(|(file, _)| !file.ends_with("raw_text.rs"))
            .filter(|(_, inside)| inside.trim_end().ends_with('}'))
            .collect();
        assert!(
            with_value.len() >= 5,
            "the scan finds the textareas: {with_value:?}"
        );
        for (file, inside) in with_value {
            assert!(
                inside.contains("{textarea_value("),
                "{file}: a <textarea> renders its value without textarea_value: {inside}"
            );
        }
    }

    #[test]
    fn a_title_cannot_close_the_title_element() {
        assert_eq!(
            title_text("Demande</title><meta http-equiv=\"refresh\">"),
            "Demande&lt;/title&gt;&lt;meta http-equiv=\"refresh\"&gt;"
        );
    }
}
