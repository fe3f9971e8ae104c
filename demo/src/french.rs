//! Small French grammar helpers for composed names and sentences: the
//! "de" contraction before a name with its article, and capitalisation.

/// "de" + a name that may carry its article: "les Ternes" → "des Ternes",
/// "le Marais" → "du Marais", "la Bastille" → "de la Bastille",
/// "l'Odéon" → "de l'Odéon", "Oberkampf" → "d'Oberkampf", "Passy" → "de Passy".
pub fn de(name: &str) -> String {
    if let Some(rest) = name.strip_prefix("les ") {
        format!("des {rest}")
    } else if let Some(rest) = name.strip_prefix("le ") {
        format!("du {rest}")
    } else if name.starts_with("la ") || name.starts_with("l'") {
        format!("de {name}")
    } else if starts_with_vowel(name) {
        format!("d'{name}")
    } else {
        format!("de {name}")
    }
}

/// "à" + a name that may carry its article: "le canal" → "au canal",
/// "les toits" → "aux toits", "la Seine" → "à la Seine".
pub fn a(name: &str) -> String {
    if let Some(rest) = name.strip_prefix("le ") {
        format!("au {rest}")
    } else if let Some(rest) = name.strip_prefix("les ") {
        format!("aux {rest}")
    } else {
        format!("à {name}")
    }
}

/// The name without its article: "les Ternes" → "Ternes", "l'Odéon" → "Odéon".
pub fn bare(name: &str) -> &str {
    for article in ["les ", "le ", "la ", "l'"] {
        if let Some(rest) = name.strip_prefix(article) {
            return rest;
        }
    }
    name
}

/// "le Marais" → "Le Marais" (for the start of a name or a sentence).
pub fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// ASCII, lower-case, dash-separated form of a name, for e-mail domains:
/// "Hôtel Le Marais" → "hotel-le-marais".
pub fn slug(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.to_lowercase().chars() {
        let folded = match c {
            'à' | 'â' | 'ä' => "a",
            'é' | 'è' | 'ê' | 'ë' => "e",
            'î' | 'ï' => "i",
            'ô' | 'ö' => "o",
            'ù' | 'û' | 'ü' => "u",
            'ç' => "c",
            'œ' => "oe",
            'æ' => "ae",
            c if c.is_ascii_alphanumeric() => {
                out.push(c);
                continue;
            }
            _ => "-",
        };
        if folded == "-" && (out.is_empty() || out.ends_with('-')) {
            continue;
        }
        out.push_str(folded);
    }
    out.trim_end_matches('-').to_string()
}

/// Whether the elision rules apply ("d'", "l'"): a vowel, or a mute h.
fn starts_with_vowel(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| "AEIOUYÉÈÊÂÎÔaeiouyéèêâîôHh".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contractions() {
        assert_eq!(de("les Ternes"), "des Ternes");
        assert_eq!(de("le Marais"), "du Marais");
        assert_eq!(de("la Bastille"), "de la Bastille");
        assert_eq!(de("l'Odéon"), "de l'Odéon");
        assert_eq!(de("Oberkampf"), "d'Oberkampf");
        assert_eq!(de("Passy"), "de Passy");
        assert_eq!(de("Île Seguin"), "d'Île Seguin");
        assert_eq!(bare("l'Île Seguin"), "Île Seguin");
        assert_eq!(a("le canal Saint-Martin"), "au canal Saint-Martin");
        assert_eq!(a("les toits de Paris"), "aux toits de Paris");
        assert_eq!(a("la Seine"), "à la Seine");
        assert_eq!(capitalize("le Marais"), "Le Marais");
        assert_eq!(capitalize("élégant"), "Élégant");
        assert_eq!(
            slug("Hôtel Le Marais – Saint-Paul"),
            "hotel-le-marais-saint-paul"
        );
        assert_eq!(slug("L'Œuf à la coque"), "l-oeuf-a-la-coque");
    }
}
