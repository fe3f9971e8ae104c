//! The little Markdown the assistant writes: lines, bullet lists (`- `,
//! `* `, `• `), `**bold**`, and paths of this site (« /demandes/20 ») and
//! request references (« D-2025-00007 ») as links — never another site's
//! address. Everything else stays plain text, and text is
//! never read as HTML (Leptos escapes it), so a model's answer cannot inject
//! markup. Pure, so the server and the browser render the same blocks.
//! A wrapper tag the model echoed (`<external_content …>`) is taken off
//! first ([`for_people`]): it is for the model, never for people.
use crate::external_text::for_people;
use leptos::prelude::*;

#[derive(Clone, Debug, PartialEq)]
pub enum Span {
    Plain(String),
    Bold(String),
    /// A path of this site, shown as it is written.
    Link(String),
    /// A request's reference (« D-2025-00007 »), linked to its page.
    Request(String),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    Line(Vec<Span>),
    List(Vec<Vec<Span>>),
}

/// The blocks of `text`; blank lines only separate.
pub fn blocks(text: &str) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim_start();
        let item = ["- ", "* ", "• "]
            .iter()
            .find_map(|bullet| trimmed.strip_prefix(bullet));
        match item {
            Some(item) => match out.last_mut() {
                Some(Block::List(items)) => items.push(spans(item)),
                _ => out.push(Block::List(vec![spans(item)])),
            },
            None if line.trim().is_empty() => {}
            None => out.push(Block::Line(spans(line))),
        }
    }
    out
}

/// `**bold**` spans; an unclosed `**` (text still streaming) stays as is.
pub fn spans(line: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find("**") {
        let after = &rest[start + 2..];
        let Some(len) = after.find("**") else {
            break;
        };
        if len == 0 {
            // `****`: nothing to embolden; keep the stars as text.
            push_plain(&mut out, &rest[..start + 4]);
            rest = &after[2..];
            continue;
        }
        push_plain(&mut out, &rest[..start]);
        out.push(Span::Bold(after[..len].to_string()));
        rest = &after[len + 2..];
    }
    push_plain(&mut out, rest);
    out
}

/// Plain text with the site's paths in it made links: a path starts after
/// a space, a line start or « ( », with `/` then a letter, and ends at a
/// space; trailing punctuation stays text. `//host` is no path of ours.
fn push_plain(out: &mut Vec<Span>, text: &str) {
    let mut rest = text;
    loop {
        let start = rest.char_indices().find(|&(i, c)| {
            c == '/'
                && rest[..i]
                    .chars()
                    .last()
                    .is_none_or(|p| p.is_whitespace() || p == '(')
                && rest[i + 1..]
                    .chars()
                    .next()
                    .is_some_and(|n| n.is_ascii_lowercase())
        });
        let Some((start, _)) = start else { break };
        let len = rest[start..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || "/-_?=&".contains(c)))
            .unwrap_or(rest.len() - start);
        let path = rest[start..start + len].trim_end_matches(['?', '&', '=']);
        push_text(out, &rest[..start]);
        out.push(Span::Link(path.to_string()));
        rest = &rest[start + path.len()..];
    }
    push_text(out, rest);
}

/// Text with the request references in it made links: « D- », four
/// digits, « - », digits, and a copy's suffix if any (« -BIS »), neither
/// glued to a letter or digit before nor after.
fn push_text(out: &mut Vec<Span>, text: &str) {
    let mut rest = text;
    while let Some((start, len)) = next_reference(rest) {
        push_words(out, &rest[..start]);
        out.push(Span::Request(rest[start..start + len].to_string()));
        rest = &rest[start + len..];
    }
    push_words(out, rest);
}

/// Where the first reference of `text` starts, and its length.
fn next_reference(text: &str) -> Option<(usize, usize)> {
    let glued = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '-');
    text.match_indices("D-").find_map(|(start, _)| {
        let digits = |from: usize| {
            text[from..]
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(text.len() - from)
        };
        let year = digits(start + 2);
        let dash = start + 2 + year;
        if year != 4 || !text[dash..].starts_with('-') {
            return None;
        }
        let number = digits(dash + 1);
        let mut end = dash + 1 + number;
        // « D-2025-00019-BIS »: capital letters after a dash.
        if text[end..].starts_with('-') {
            let suffix = text[end + 1..]
                .find(|c: char| !c.is_ascii_uppercase())
                .unwrap_or(text.len() - end - 1);
            if (1..=10).contains(&suffix) {
                end += 1 + suffix;
            }
        }
        let ok = (1..=12).contains(&number)
            && !glued(text[..start].chars().last())
            && !glued(text[end..].chars().next());
        ok.then_some((start, end - start))
    })
}

fn push_words(out: &mut Vec<Span>, text: &str) {
    if text.is_empty() {
        return;
    }
    match out.last_mut() {
        Some(Span::Plain(so_far)) => so_far.push_str(text),
        _ => out.push(Span::Plain(text.to_string())),
    }
}

/// The assistant's text as paragraphs and lists.
pub fn render(text: &str) -> impl IntoView {
    blocks(&for_people(text))
        .into_iter()
        .map(|block| match block {
            Block::Line(line) => {
                view! { <p class="whitespace-pre-wrap">{render_spans(line)}</p> }.into_any()
            }
            Block::List(items) => view! {
                <ul class="list-disc space-y-0.5 pl-5">
                    {items.into_iter().map(|item| view! { <li>{render_spans(item)}</li> }).collect_view()}
                </ul>
            }
            .into_any(),
        })
        .collect_view()
}

fn render_spans(spans: Vec<Span>) -> impl IntoView {
    spans
        .into_iter()
        .map(|span| match span {
            Span::Plain(text) => view! { <span>{text}</span> }.into_any(),
            Span::Bold(text) => view! { <strong class="font-semibold">{text}</strong> }.into_any(),
            Span::Link(path) => {
                let href = path.clone();
                view! { <a class="text-sky-700 underline hover:text-sky-900" href=href>{path}</a> }
                    .into_any()
            }
            Span::Request(reference) => {
                let href = format!("/demandes/{reference}");
                view! { <a class="text-sky-700 underline hover:text-sky-900" href=href>{reference}</a> }
                    .into_any()
            }
        })
        .collect_view()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(text: &str) -> Span {
        Span::Plain(text.into())
    }

    fn bold(text: &str) -> Span {
        Span::Bold(text.into())
    }

    #[test]
    fn paths_of_the_site_become_links_and_nothing_else() {
        assert_eq!(
            spans("La liste complète : /demandes?status=won."),
            [
                plain("La liste complète : "),
                Span::Link("/demandes?status=won".into()),
                plain("."),
            ]
        );
        assert_eq!(
            spans("(le constructeur : /demandes/9/catalogue)"),
            [
                plain("(le constructeur : "),
                Span::Link("/demandes/9/catalogue".into()),
                plain(")"),
            ]
        );
        for text in [
            "https://evil.example/demandes",
            "//evil.example",
            "et/ou",
            "12/06/2026",
            "javascript:alert(1)",
            "/ espace",
        ] {
            assert_eq!(spans(text), [plain(text)], "{text}");
        }
    }

    #[test]
    fn request_references_link_to_their_page() {
        assert_eq!(
            spans("D-2025-00024 — mariage (perdue), voir D-2026-7."),
            [
                Span::Request("D-2025-00024".into()),
                plain(" — mariage (perdue), voir "),
                Span::Request("D-2026-7".into()),
                plain("."),
            ]
        );
        assert_eq!(
            spans("(D-2025-00019-BIS)"),
            [
                plain("("),
                Span::Request("D-2025-00019-BIS".into()),
                plain(")"),
            ]
        );
        for text in [
            "XD-2025-00024",
            "D-2025-00024B",
            "D-25-00024",
            "D-2025-",
            "D-2025-0002-4",
        ] {
            assert_eq!(spans(text), [plain(text)], "{text}");
        }
    }

    #[test]
    fn lines_and_bullet_lists() {
        let text =
            "J'ai trouvé 2 lieux :\n- Le Belvédère (M-1)\n* Atelier (M-2)\n\nValidez la carte.";
        assert_eq!(
            blocks(text),
            vec![
                Block::Line(vec![plain("J'ai trouvé 2 lieux :")]),
                Block::List(vec![
                    vec![plain("Le Belvédère (M-1)")],
                    vec![plain("Atelier (M-2)")]
                ]),
                Block::Line(vec![plain("Validez la carte.")]),
            ]
        );
        assert_eq!(blocks(""), vec![]);
        assert_eq!(blocks("\n\n"), vec![]);
        // A dash without its space is not a bullet.
        assert_eq!(blocks("-5 %"), vec![Block::Line(vec![plain("-5 %")])]);
    }

    #[test]
    fn bold_spans_and_what_is_not_one() {
        assert_eq!(
            spans("Le **Belvédère** et **Atelier**."),
            vec![
                plain("Le "),
                bold("Belvédère"),
                plain(" et "),
                bold("Atelier"),
                plain(".")
            ]
        );
        // Still streaming: the star pair is not closed yet.
        assert_eq!(spans("Le **Belv"), vec![plain("Le **Belv")]);
        assert_eq!(spans("a **** b"), vec![plain("a **** b")]);
        assert_eq!(spans("**"), vec![plain("**")]);
        assert_eq!(spans("é**à**ü"), vec![plain("é"), bold("à"), plain("ü")]);
    }
}
