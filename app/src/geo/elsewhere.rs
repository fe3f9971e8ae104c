//! Places the search cannot locate because they are outside the gazetteer's
//! area (Paris and Île-de-France): the big French cities, the usual
//! seminar destinations, the regions and the foreign cities organizers
//! name. Knowing them lets the search say « je ne sais pas situer Lyon »
//! instead of answering with Paris venues as if Lyon had been read.
//!
//! Left out on purpose: names that are as often something else in a request
//! (« Nancy » signs e-mails, « au champagne » and « au cassis » are drinks).
//!
//! Aliases are folded (`geo::fold`). None is a commune or a landmark of the
//! gazetteer (a test checks it): Chantilly and Fontainebleau are communes,
//! « gare de Lyon » is a landmark.

/// A place outside the area the search covers.
#[derive(Debug, PartialEq)]
pub struct Elsewhere {
    /// How the answer names it (« Lyon », « la Bretagne »).
    pub name: &'static str,
    /// Folded spellings.
    pub aliases: &'static [&'static str],
}

const fn e(name: &'static str, aliases: &'static [&'static str]) -> Elsewhere {
    Elsewhere { name, aliases }
}

#[rustfmt::skip]
pub const ELSEWHERE: &[Elsewhere] = &[
    // The largest French cities outside Île-de-France.
    e("Lyon", &["lyon"]), e("Marseille", &["marseille"]), e("Toulouse", &["toulouse"]),
    e("Nice", &["nice"]), e("Nantes", &["nantes"]), e("Montpellier", &["montpellier"]),
    e("Strasbourg", &["strasbourg"]), e("Bordeaux", &["bordeaux"]), e("Lille", &["lille"]),
    e("Rennes", &["rennes"]), e("Reims", &["reims"]), e("Toulon", &["toulon"]),
    e("Saint-Étienne", &["saint etienne", "st etienne"]), e("Le Havre", &["le havre", "havre"]),
    e("Grenoble", &["grenoble"]), e("Dijon", &["dijon"]), e("Angers", &["angers"]),
    e("Nîmes", &["nimes"]), e("Villeurbanne", &["villeurbanne"]),
    e("Clermont-Ferrand", &["clermont ferrand"]), e("Le Mans", &["le mans", "mans"]),
    e("Aix-en-Provence", &["aix en provence"]), e("Brest", &["brest"]), e("Tours", &["tours"]),
    e("Amiens", &["amiens"]), e("Limoges", &["limoges"]), e("Annecy", &["annecy"]),
    e("Perpignan", &["perpignan"]), e("Metz", &["metz"]), e("Besançon", &["besancon"]),
    e("Orléans", &["orleans"]), e("Rouen", &["rouen"]), e("Mulhouse", &["mulhouse"]),
    e("Caen", &["caen"]), e("Avignon", &["avignon"]),
    e("Poitiers", &["poitiers"]), e("La Rochelle", &["la rochelle"]), e("Pau", &["pau"]),
    e("Bayonne", &["bayonne"]), e("Colmar", &["colmar"]), e("Troyes", &["troyes"]),
    e("Valence", &["valence"]), e("Ajaccio", &["ajaccio"]), e("Bastia", &["bastia"]),
    // Just over Île-de-France's border, where the gazetteer stops.
    e("Chartres", &["chartres"]), e("Beauvais", &["beauvais"]), e("Compiègne", &["compiegne"]),
    e("Évreux", &["evreux"]),
    // Seminar and incentive destinations.
    e("Deauville", &["deauville"]), e("Honfleur", &["honfleur"]), e("Étretat", &["etretat"]),
    e("Saint-Malo", &["saint malo", "st malo"]), e("Biarritz", &["biarritz"]),
    e("Arcachon", &["arcachon"]), e("Cannes", &["cannes"]), e("Antibes", &["antibes"]),
    e("Saint-Tropez", &["saint tropez", "st tropez"]),
    e("Évian", &["evian", "evian les bains"]), e("Chamonix", &["chamonix"]),
    e("Courchevel", &["courchevel"]), e("Megève", &["megeve"]), e("Le Touquet", &["le touquet", "touquet"]),
    // Regions and « la province » as a whole.
    e("la province", &["province"]), e("la Normandie", &["normandie"]),
    e("la Bretagne", &["bretagne"]), e("la Provence", &["provence"]),
    e("la Côte d'Azur", &["cote d azur"]), e("l'Alsace", &["alsace"]),
    e("la Bourgogne", &["bourgogne"]),
    e("la Sologne", &["sologne"]), e("les Alpes", &["alpes"]),
    // Abroad.
    e("Londres", &["londres"]), e("Bruxelles", &["bruxelles"]), e("Genève", &["geneve"]),
    e("Lausanne", &["lausanne"]), e("Bâle", &["bale"]), e("Monaco", &["monaco"]),
    e("Barcelone", &["barcelone"]), e("Madrid", &["madrid"]), e("Lisbonne", &["lisbonne"]),
    e("Rome", &["rome"]), e("Milan", &["milan"]), e("Berlin", &["berlin"]),
    e("Amsterdam", &["amsterdam"]), e("New York", &["new york"]),
];

/// The longest place outside the area that starts `words` (folded, one
/// word each), and how many words it took.
pub fn match_elsewhere<S: AsRef<str>>(words: &[S]) -> Option<(&'static Elsewhere, usize)> {
    let mut best: Option<(&'static Elsewhere, usize)> = None;
    for place in ELSEWHERE {
        for alias in place.aliases {
            let Some(taken) = super::alias_len(alias, words) else {
                continue;
            };
            if best.is_none_or(|(_, n)| taken > n) {
                best = Some((place, taken));
            }
        }
    }
    best
}

/// A place outside the area by its whole name, however it is spelt
/// (« Aix-en-Provence », « LYON »).
pub fn lookup_elsewhere(name: &str) -> Option<&'static Elsewhere> {
    let folded = super::fold(name.trim());
    let words: Vec<&str> = folded.split(' ').filter(|w| !w.is_empty()).collect();
    match_elsewhere(&words)
        .filter(|(_, n)| *n == words.len())
        .map(|(place, _)| place)
}
