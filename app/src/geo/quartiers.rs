//! Named areas whose borders follow arrondissements or communes: the two
//! banks of the Seine, the quartiers organizers name ("le Marais",
//! "Montmartre"), and the business district of La Défense.
//!
//! A curator who writes one means "in there", so it becomes postal codes
//! (a hard filter), unlike a point ("gare du Nord", "Bastille"), which is
//! searched around. Where an area is also a landmark, the landmark stays
//! for "à 2 km du Marais" and "près du Marais".

/// An area and the postal codes that cover it.
#[derive(Debug, PartialEq)]
pub struct Quartier {
    /// Display name for notes ("Le Marais").
    pub name: &'static str,
    /// Every postal code of the area; arrondissements with all of theirs
    /// (the 16th is 75016 and 75116).
    pub postal_codes: &'static [&'static str],
    /// Folded spellings that name the area on their own.
    pub bare: &'static [&'static str],
    /// Folded spellings that name it only after a preposition or an
    /// article ("dans le Marais", "au Marais"): alone they are ordinary
    /// words ("un marais").
    pub triggered: &'static [&'static str],
    /// Wider than a quartier (a bank of the Seine, a district over two
    /// communes): a place named inside it narrows it ("rive gauche, dans
    /// le 6e" is the 6th; "Courbevoie – La Défense" is Courbevoie).
    pub wide: bool,
}

const fn q(
    name: &'static str,
    postal_codes: &'static [&'static str],
    bare: &'static [&'static str],
    triggered: &'static [&'static str],
) -> Quartier {
    Quartier {
        name,
        postal_codes,
        bare,
        triggered,
        wide: false,
    }
}

const fn wide(
    name: &'static str,
    postal_codes: &'static [&'static str],
    bare: &'static [&'static str],
    triggered: &'static [&'static str],
) -> Quartier {
    Quartier {
        wide: true,
        ..q(name, postal_codes, bare, triggered)
    }
}

const PARIS_16: &[&str] = &["75016", "75116"];

/// Every named area.
#[rustfmt::skip]
pub const QUARTIERS: &[Quartier] = &[
    wide("Rive gauche", &["75005", "75006", "75007", "75013", "75014", "75015"],
      &["rive gauche", "paris rive gauche", "rive gauche de paris"], &[]),
    wide("Rive droite", &["75001", "75002", "75003", "75004", "75008", "75009", "75010", "75011",
                       "75012", "75016", "75116", "75017", "75018", "75019", "75020"],
      &["rive droite", "paris rive droite", "rive droite de paris"], &[]),
    q("Le Marais", &["75003", "75004"], &["haut marais"], &["marais"]),
    q("Quartier latin", &["75005"], &["quartier latin"], &[]),
    q("Saint-Germain-des-Prés", &["75006"], &["saint germain des pres", "st germain des pres"], &[]),
    q("Montmartre", &["75018"], &["montmartre", "butte montmartre"], &[]),
    q("Batignolles", &["75017"], &["batignolles"], &[]),
    q("Belleville", &["75019", "75020"], &["belleville"], &[]),
    q("Champs-Élysées", &["75008"], &["champs elysees", "avenue des champs elysees"], &[]),
    q("Triangle d'or", &["75008"], &["triangle d or"], &[]),
    q("Grands Boulevards", &["75002", "75009"], &["grands boulevards"], &[]),
    q("Canal Saint-Martin", &["75010"], &["canal saint martin", "canal st martin"], &[]),
    q("Oberkampf", &["75011"], &["oberkampf"], &[]),
    q("Butte-aux-Cailles", &["75013"], &["butte aux cailles"], &[]),
    q("Passy", PARIS_16, &["passy"], &[]),
    q("Auteuil", PARIS_16, &["auteuil"], &[]),
    q("Pigalle", &["75009", "75018"], &["pigalle"], &[]),
    // South Pigalle is the 9th side only.
    q("SoPi", &["75009"], &["sopi", "south pigalle"], &[]),
    wide("La Défense", &["92400", "92800"], &["la defense", "paris la defense"], &["defense"]),
];

/// The area whose longest spelling starts `words` (folded, one word each),
/// and how many words it took. `triggered` spellings count only when the
/// caller saw a preposition or an article before.
pub fn match_quartier<S: AsRef<str>>(
    words: &[S],
    triggered: bool,
) -> Option<(&'static Quartier, usize)> {
    let mut best: Option<(&'static Quartier, usize)> = None;
    for quartier in QUARTIERS {
        let spellings = quartier
            .bare
            .iter()
            .chain(quartier.triggered.iter().filter(|_| triggered));
        for spelling in spellings {
            if let Some(n) = super::alias_len(spelling, words) {
                if best.is_none_or(|(_, b)| n > b) {
                    best = Some((quartier, n));
                }
            }
        }
    }
    best
}
