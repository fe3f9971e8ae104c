//! The text a memory or a task is embedded from. The write path, the
//! backfill and the calibration must embed the same text, or the floor
//! calibrated on one would not hold for the other.

/// A memory: its title (when it has one) on the first line, then its content.
pub fn memory_text(title: &str, content: &str) -> String {
    titled(title, content)
}

/// A task: its title, then its description (when it has one).
pub fn task_text(title: &str, description: &str) -> String {
    titled(title, description)
}

fn titled(title: &str, body: &str) -> String {
    match (title.trim(), body.trim()) {
        ("", body) => body.to_string(),
        (title, "") => title.to_string(),
        (title, body) => format!("{title}\n{body}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_parts_leave_no_blank_line() {
        assert_eq!(memory_text("", " paracétamol 1g "), "paracétamol 1g");
        assert_eq!(task_text("Relancer Dupont", ""), "Relancer Dupont");
        assert_eq!(
            memory_text("Traiteur", "Le Pavillon impose le sien"),
            "Traiteur\nLe Pavillon impose le sien"
        );
    }
}
