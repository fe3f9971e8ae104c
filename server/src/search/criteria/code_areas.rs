//! Postal codes as a person names them: the twenty arrondissements are
//! Paris, the two codes of the 16th are one arrondissement, a commune has
//! its name. « Compris » (`describe`) and the count's answer word them
//! differently from this one reading.

use crate::geo;

/// What a run of postal codes names, in the order given.
#[derive(Debug, PartialEq)]
pub enum CodeArea<'a> {
    /// All twenty arrondissements: listed first, once.
    Paris,
    /// An arrondissement, with those of its codes that were given
    /// (75016 and 75116 are one).
    Arrondissement(&'static geo::Arrondissement, Vec<&'a str>),
    Commune(&'a str, &'static geo::Commune),
    /// A code the gazetteer does not know.
    Unknown(&'a str),
}

pub fn of(codes: &[String]) -> Vec<CodeArea<'_>> {
    let given = |p: &str| codes.iter().any(|c| c == p);
    let all_paris = geo::ARRONDISSEMENTS
        .iter()
        .all(|a| a.postal_codes().any(given));
    let mut areas = Vec::new();
    if all_paris {
        areas.push(CodeArea::Paris);
    }
    for code in codes {
        let code = code.as_str();
        if let Some(a) = geo::arrondissement_by_postal_code(code) {
            let seen = areas
                .iter()
                .any(|x| matches!(x, CodeArea::Arrondissement(b, _) if b.name == a.name));
            if !all_paris && !seen {
                let codes = a.postal_codes().filter(|p| given(p)).collect();
                areas.push(CodeArea::Arrondissement(a, codes));
            }
        } else if let Some(commune) = geo::commune_by_postal_code(code) {
            areas.push(CodeArea::Commune(code, commune));
        } else {
            areas.push(CodeArea::Unknown(code));
        }
    }
    areas
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(list: &[&str]) -> Vec<String> {
        list.iter().map(|c| c.to_string()).collect()
    }

    #[test]
    fn the_sixteenth_is_one_arrondissement_and_a_commune_keeps_its_code() {
        let given = codes(&["75116", "93100", "75016", "99999"]);
        let areas = of(&given);
        assert_eq!(areas.len(), 3, "{areas:?}");
        match &areas[0] {
            CodeArea::Arrondissement(a, codes) => {
                assert_eq!(a.name, "Paris 16e");
                assert_eq!(codes, &["75016", "75116"]);
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(areas[1], CodeArea::Commune("93100", c) if c.name == "Montreuil"));
        assert_eq!(areas[2], CodeArea::Unknown("99999"));
    }

    #[test]
    fn twenty_arrondissements_are_paris() {
        let mut given: Vec<String> = geo::ARRONDISSEMENTS
            .iter()
            .flat_map(|a| a.postal_codes())
            .map(str::to_string)
            .collect();
        given.push("92100".into());
        let areas = of(&given);
        assert_eq!(areas[0], CodeArea::Paris);
        assert_eq!(areas.len(), 2, "{areas:?}");
        // One code of the 16th is enough for the 16th to be there.
        given.retain(|c| c != "75116");
        assert_eq!(of(&given)[0], CodeArea::Paris);
    }
}
