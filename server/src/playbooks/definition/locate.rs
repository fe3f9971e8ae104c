//! Where a field sits in a playbook's YAML text, for the errors serde does
//! not locate (an unknown skill, a `when` that does not parse): a path like
//! `steps[2].skill` is mapped to its line and column by walking the source
//! lines, as the block-style YAML admins write it is laid out.
//!
//! It is an outline, not a parser: the YAML has already parsed when it is
//! used, and anything it does not follow (flow mappings, multi-line flow
//! lists) only makes [`Outline::locate`] fall back to the nearest enclosing
//! field it did see.

/// A place in the source, both 1-based as editors show them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spot {
    pub line: usize,
    pub column: usize,
}

/// One key or list item the outline saw.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Entry {
    path: String,
    /// The key (or the item's dash).
    at: Spot,
    /// Where a scalar value's text begins, inside its quotes if quoted.
    value: Option<Spot>,
}

/// The keys and list items of a YAML text with their places.
#[derive(Clone, Debug, Default)]
pub struct Outline {
    entries: Vec<Entry>,
}

/// One open level while walking the lines.
enum Frame {
    Key { indent: usize, name: String },
    Item { indent: usize, index: usize },
}

impl Frame {
    fn indent(&self) -> usize {
        match self {
            Frame::Key { indent, .. } | Frame::Item { indent, .. } => *indent,
        }
    }
}

impl Outline {
    /// Walks `source` line by line.
    pub fn of(source: &str) -> Outline {
        let mut outline = Outline::default();
        let mut stack: Vec<Frame> = Vec::new();
        // A block scalar (`|`, `>`) swallows the lines indented deeper than
        // its key; its first line is where its value begins.
        let mut block: Option<(usize, String)> = None;
        for (number, text) in source.lines().enumerate() {
            let line = number + 1;
            let indent = text.chars().take_while(|c| *c == ' ').count();
            let content = text[indent..].trim_end();
            if content.is_empty() || content.starts_with('#') {
                continue;
            }
            if let Some((key_indent, path)) = &block {
                if indent > *key_indent {
                    let spot = Spot {
                        line,
                        column: indent + 1,
                    };
                    if let Some(e) = outline.entries.iter_mut().rev().find(|e| &e.path == path) {
                        e.value.get_or_insert(spot);
                    }
                    continue;
                }
                block = None;
            }
            if content == "---" || content == "..." {
                continue;
            }
            block = outline.line(&mut stack, line, indent, content);
        }
        outline
    }

    /// Reads one line's content at `indent`; returns the block scalar it
    /// opens, if any.
    fn line(
        &mut self,
        stack: &mut Vec<Frame>,
        line: usize,
        indent: usize,
        content: &str,
    ) -> Option<(usize, String)> {
        if content == "-" || content.starts_with("- ") {
            let mut index = 0;
            while let Some(top) = stack.last() {
                let same_list = matches!(top, Frame::Item { .. }) && top.indent() == indent;
                if top.indent() > indent || same_list {
                    if let (true, Some(Frame::Item { index: i, .. })) = (same_list, stack.pop()) {
                        index = i + 1;
                    }
                } else {
                    break;
                }
            }
            stack.push(Frame::Item { indent, index });
            let rest = &content[1..];
            let gap = rest.chars().take_while(|c| *c == ' ').count();
            let rest = &rest[gap..];
            let path = path_of(stack);
            let at = Spot {
                line,
                column: indent + 1,
            };
            if rest.is_empty() {
                self.entries.push(Entry {
                    path,
                    at,
                    value: None,
                });
                return None;
            }
            let rest_indent = indent + 1 + gap;
            if key_of(rest).is_some() {
                self.entries.push(Entry {
                    path,
                    at,
                    value: None,
                });
                return self.line(stack, line, rest_indent, rest);
            }
            let value = scalar_start(rest, rest_indent, line);
            self.entries.push(Entry { path, at, value });
            return None;
        }
        let (name, after) = key_of(content)?;
        while stack.last().is_some_and(|top| top.indent() >= indent) {
            stack.pop();
        }
        stack.push(Frame::Key {
            indent,
            name: name.to_string(),
        });
        let path = path_of(stack);
        let value_offset = indent + content.len() - after.len();
        let gap = after.chars().take_while(|c| *c == ' ').count();
        let value_text = &after[gap..];
        let value_column = value_offset + gap;
        let at = Spot {
            line,
            column: indent + 1,
        };
        if value_text.starts_with('|') || value_text.starts_with('>') {
            self.entries.push(Entry {
                path: path.clone(),
                at,
                value: None,
            });
            return Some((indent, path));
        }
        if value_text.starts_with('[') {
            self.entries.push(Entry {
                path: path.clone(),
                at,
                value: None,
            });
            self.flow_items(&path, value_text, value_column, line);
            return None;
        }
        let value = scalar_start(value_text, value_column, line);
        self.entries.push(Entry { path, at, value });
        None
    }

    /// The items of a one-line flow list `[a, "b", c]` starting at `column`
    /// (0-based offset of the bracket).
    fn flow_items(&mut self, path: &str, text: &str, column: usize, line: usize) {
        let inner = text.strip_prefix('[').unwrap_or(text);
        let inner = inner.split(']').next().unwrap_or(inner);
        let mut offset = column + 1;
        for (index, item) in inner.split(',').enumerate() {
            let gap = item.chars().take_while(|c| *c == ' ').count();
            if let Some(value) = scalar_start(&item[gap..], offset + gap, line) {
                self.entries.push(Entry {
                    path: format!("{path}[{index}]"),
                    at: value,
                    value: Some(value),
                });
            }
            offset += item.chars().count() + 1;
        }
    }

    /// The key or item at `path`, or else its nearest enclosing field.
    pub fn locate(&self, path: &str) -> Option<Spot> {
        let mut path = path;
        loop {
            if let Some(e) = self.entries.iter().find(|e| e.path == path) {
                return Some(e.at);
            }
            path = parent(path)?;
        }
    }

    /// The second occurrence of a key already seen at the same path (YAML
    /// refuses it, but only says where the enclosing mapping starts).
    pub fn duplicate(&self) -> Option<(&str, Spot)> {
        self.entries.iter().enumerate().find_map(|(i, e)| {
            self.entries[..i]
                .iter()
                .any(|earlier| earlier.path == e.path)
                .then_some((e.path.as_str(), e.at))
        })
    }

    /// Where the scalar at `path` begins (inside its quotes), if the
    /// outline saw one there.
    pub fn value(&self, path: &str) -> Option<Spot> {
        self.entries
            .iter()
            .find(|e| e.path == path)
            .and_then(|e| e.value)
    }
}

/// `steps[2].skill` → `steps[2]` → `steps` → none.
fn parent(path: &str) -> Option<&str> {
    let cut = path.rfind(['.', '['])?;
    Some(&path[..cut])
}

fn path_of(stack: &[Frame]) -> String {
    let mut path = String::new();
    for frame in stack {
        match frame {
            Frame::Key { name, .. } => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(name);
            }
            Frame::Item { index, .. } => path.push_str(&format!("[{index}]")),
        }
    }
    path
}

/// A plain key (`name:` followed by a space or the end): the key and what
/// follows the colon.
fn key_of(content: &str) -> Option<(&str, &str)> {
    let end = content.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))?;
    let (name, rest) = content.split_at(end);
    let after = rest.strip_prefix(':')?;
    (!name.is_empty() && (after.is_empty() || after.starts_with(' '))).then_some((name, after))
}

/// Where a scalar written at 0-based `column` begins: inside its quotes if
/// quoted; none for an empty value or a comment.
fn scalar_start(text: &str, column: usize, line: usize) -> Option<Spot> {
    if text.is_empty() || text.starts_with('#') {
        return None;
    }
    let quoted = text.starts_with('"') || text.starts_with('\'');
    Some(Spot {
        line,
        column: column + 1 + usize::from(quoted),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SOURCE: &str = "\
# a comment
name: qualification-demande
goal: \"la demande est qualifiée\"
activation:
  when: \"'sales' in profiles\"   # filter
  exclusive_skills: [update_request, get_request]
steps:
  - skill: get_request
  - skill: find_similar_requests
    optional: true
  -
    skill: update_request
    guard: >
      request.participants != null
profiles:
  open:
    - sales
    - 'admin'
";

    fn spot(line: usize, column: usize) -> Option<Spot> {
        Some(Spot { line, column })
    }

    #[test]
    fn keys_and_items_are_found_with_their_place() {
        let o = Outline::of(SOURCE);
        assert_eq!(o.locate("name"), spot(2, 1));
        assert_eq!(o.locate("activation.when"), spot(5, 3));
        assert_eq!(o.locate("steps[0].skill"), spot(8, 5));
        assert_eq!(o.locate("steps[1]"), spot(9, 3));
        assert_eq!(o.locate("steps[1].optional"), spot(10, 5));
        assert_eq!(o.locate("steps[2].skill"), spot(12, 5));
        assert_eq!(o.locate("profiles.open[1]"), spot(18, 5));
    }

    #[test]
    fn values_begin_inside_their_quotes() {
        let o = Outline::of(SOURCE);
        assert_eq!(o.value("activation.when"), spot(5, 10));
        assert_eq!(o.value("goal"), spot(3, 8));
        assert_eq!(o.value("steps[2].guard"), spot(14, 7));
        assert_eq!(o.value("profiles.open[1]"), spot(18, 8));
        assert_eq!(o.value("steps"), None);
    }

    #[test]
    fn flow_list_items_are_found() {
        let o = Outline::of(SOURCE);
        assert_eq!(o.locate("activation.exclusive_skills[0]"), spot(6, 22));
        assert_eq!(o.locate("activation.exclusive_skills[1]"), spot(6, 38));
    }

    #[test]
    fn an_unknown_path_falls_back_to_its_nearest_field() {
        let o = Outline::of(SOURCE);
        assert_eq!(o.locate("steps[2].skill.nope"), spot(12, 5));
        assert_eq!(o.locate("steps[9]"), spot(7, 1));
        assert_eq!(o.locate("nothing"), None);
    }

    #[test]
    fn a_repeated_key_is_found_at_its_second_place() {
        let o = Outline::of("name: a\nsteps:\n  - skill: b\n    skill: c\nname: d\n");
        assert_eq!(
            o.duplicate(),
            Some(("steps[0].skill", Spot { line: 4, column: 5 }))
        );
        assert_eq!(Outline::of(SOURCE).duplicate(), None);
    }

    #[test]
    fn indentless_lists_belong_to_their_key() {
        let o = Outline::of(
            "steps:\n- skill: a\n  optional: true\n- skill: b\nprofiles:\n  open: []\n",
        );
        assert_eq!(o.locate("steps[1].skill"), spot(4, 3));
        assert_eq!(o.locate("steps[0].optional"), spot(3, 3));
        assert_eq!(o.locate("profiles.open"), spot(6, 3));
    }
}
