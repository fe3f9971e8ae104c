//! The départements of Île-de-France (and the Oise, for Chantilly and
//! Senlis): what "dans le 93" or "en Hauts-de-Seine" searches. A
//! département is the first two digits of its postal codes, so a search
//! by département needs no list of communes: every venue whose postal
//! code starts with them is inside.

/// One département.
#[derive(Debug, PartialEq)]
pub struct Department {
    /// Two digits ("93"), the start of every postal code inside.
    pub number: &'static str,
    /// "Seine-Saint-Denis".
    pub name: &'static str,
    /// A central point, where distances are measured from when the
    /// département is the whole area asked for.
    pub lat: f64,
    pub lng: f64,
    /// Folded spellings of the name, full name first.
    pub aliases: &'static [&'static str],
}

#[rustfmt::skip]
pub const DEPARTMENTS: &[Department] = &[
    Department { number: "75", name: "Paris", lat: 48.8566, lng: 2.3522, aliases: &[] },
    Department { number: "77", name: "Seine-et-Marne", lat: 48.6300, lng: 2.9300,
        aliases: &["seine et marne"] },
    Department { number: "78", name: "Yvelines", lat: 48.8100, lng: 1.9000,
        aliases: &["yvelines", "les yvelines"] },
    Department { number: "91", name: "Essonne", lat: 48.5200, lng: 2.2400,
        aliases: &["essonne", "l essonne"] },
    Department { number: "92", name: "Hauts-de-Seine", lat: 48.8400, lng: 2.2200,
        aliases: &["hauts de seine", "haut de seine", "hauts de seines"] },
    Department { number: "93", name: "Seine-Saint-Denis", lat: 48.9100, lng: 2.4700,
        aliases: &["seine saint denis", "seine st denis"] },
    Department { number: "94", name: "Val-de-Marne", lat: 48.7800, lng: 2.4700,
        aliases: &["val de marne"] },
    Department { number: "95", name: "Val-d'Oise", lat: 49.0800, lng: 2.1300,
        aliases: &["val d oise", "val doise"] },
    Department { number: "60", name: "Oise", lat: 49.4100, lng: 2.4100, aliases: &["l oise"] },
];

/// The département numbered `number` ("93").
pub fn department(number: &str) -> Option<&'static Department> {
    DEPARTMENTS.iter().find(|d| d.number == number)
}

/// The département a postal code belongs to.
pub fn department_of(postal_code: &str) -> Option<&'static Department> {
    department(postal_code.get(..2)?)
}

/// The longest département name that starts `words` (folded, one word
/// each), and how many words it takes.
pub fn match_department<S: AsRef<str>>(words: &[S]) -> Option<(&'static Department, usize)> {
    DEPARTMENTS
        .iter()
        .flat_map(|d| d.aliases.iter().map(move |a| (d, *a)))
        .filter_map(|(d, alias)| Some((d, super::alias_len(alias, words)?)))
        .max_by_key(|&(_, n)| n)
}
