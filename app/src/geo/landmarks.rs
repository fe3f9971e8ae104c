//! Stations, monuments, districts and airports organizers search around
//! ("près de la gare de Lyon", "à 2 km de La Défense").
//!
//! Each spelling says how much context it needs before it counts as a
//! location, because many names are also ordinary words or views:
//! "Opéra" is a kind of show, "vue sur la tour Eiffel" is a wish, not a place
//! to search around. `bare` names are unambiguous on their own ("gare de
//! Lyon", "Roissy"), `triggered` ones need "près de", "autour de", "à"…, and
//! `distance_only` ones need an explicit distance ("à 30 km de Paris").

/// A point of interest with the radius "près de …" means around it.
#[derive(Debug, PartialEq)]
pub struct Landmark {
    /// Display name for notes ("Gare de Lyon").
    pub name: &'static str,
    pub lat: f64,
    pub lng: f64,
    /// How far "près de"/"autour de" reaches around it: a scale for
    /// ranking by distance, never a filter.
    pub radius_km: f64,
    /// Folded spellings that are a location on their own.
    pub bare: &'static [&'static str],
    /// Folded spellings that are a location after a proximity word.
    pub triggered: &'static [&'static str],
    /// Folded spellings that are a location only with an explicit distance.
    pub distance_only: &'static [&'static str],
}

const fn l(
    name: &'static str,
    lat: f64,
    lng: f64,
    radius_km: f64,
    bare: &'static [&'static str],
    triggered: &'static [&'static str],
) -> Landmark {
    Landmark {
        name,
        lat,
        lng,
        radius_km,
        bare,
        triggered,
        distance_only: &[],
    }
}

/// Every landmark.
#[rustfmt::skip]
pub const LANDMARKS: &[Landmark] = &[
    // Railway stations: unambiguous, usually meant as "reachable from".
    l("Gare de Lyon", 48.8443, 2.3743, 2.0, &["gare de lyon"], &[]),
    l("Gare du Nord", 48.8809, 2.3553, 2.0, &["gare du nord"], &[]),
    l("Gare de l'Est", 48.8768, 2.3592, 2.0, &["gare de l est"], &[]),
    l("Gare Montparnasse", 48.8412, 2.3210, 2.0, &["gare montparnasse", "gare de montparnasse", "montparnasse"], &[]),
    // The tower, a few hundred metres from the station: its own point.
    l("Tour Montparnasse", 48.8421, 2.3219, 1.0, &["tour montparnasse"], &[]),
    l("Gare Saint-Lazare", 48.8763, 2.3254, 2.0, &["gare saint lazare", "gare st lazare", "saint lazare", "st lazare"], &[]),
    l("Gare d'Austerlitz", 48.8422, 2.3650, 2.0, &["gare d austerlitz", "gare austerlitz", "austerlitz"], &[]),
    // Monuments: often a view ("vue sur…"), so most need a proximity word.
    l("Tour Eiffel", 48.8584, 2.2945, 2.0, &[], &["tour eiffel", "champ de mars"]),
    l("Champs-Élysées", 48.8698, 2.3075, 2.0, &["avenue des champs elysees", "champs elysees"], &["champs", "triangle d or"]),
    l("Arc de Triomphe", 48.8738, 2.2950, 2.0, &["place de l etoile", "charles de gaulle etoile"], &["arc de triomphe", "etoile"]),
    l("Louvre", 48.8606, 2.3376, 2.0, &["musee du louvre"], &["louvre"]),
    l("Bastille", 48.8532, 2.3692, 2.0, &["place de la bastille"], &["bastille"]),
    l("République", 48.8674, 2.3636, 2.0, &["place de la republique"], &["republique"]),
    l("Opéra", 48.8720, 2.3316, 2.0, &["opera garnier", "palais garnier"], &["opera"]),
    l("Montmartre", 48.8867, 2.3431, 2.0, &["montmartre", "butte montmartre"], &["sacre coeur"]),
    l("Notre-Dame", 48.8530, 2.3499, 2.0, &["notre dame de paris", "ile de la cite"], &["notre dame"]),
    l("Trocadéro", 48.8616, 2.2893, 2.0, &["trocadero", "place du trocadero", "palais de chaillot"], &[]),
    l("Invalides", 48.8566, 2.3125, 2.0, &["esplanade des invalides"], &["invalides"]),
    l("Madeleine", 48.8700, 2.3245, 2.0, &["place de la madeleine"], &["madeleine"]),
    l("Concorde", 48.8656, 2.3212, 2.0, &["place de la concorde"], &["concorde"]),
    l("Châtelet – Les Halles", 48.8584, 2.3470, 2.0, &["chatelet", "chatelet les halles"], &["les halles", "halles"]),
    // Districts and neighbourhoods. Those with borders are areas too
    // (`quartiers`): "dans le Marais" is postal codes; these points serve
    // "près du Marais" and "à 2 km du Marais".
    l("La Défense", 48.8918, 2.2389, 2.0, &["la defense", "paris la defense", "grande arche"], &["defense"]),
    l("Bercy", 48.8386, 2.3800, 2.0, &["bercy", "bercy village", "accor arena"], &[]),
    l("Le Marais", 48.8575, 2.3590, 1.5, &["le marais", "haut marais"], &["marais"]),
    l("Saint-Germain-des-Prés", 48.8540, 2.3330, 1.5, &["saint germain des pres", "st germain des pres"], &[]),
    l("Quartier latin", 48.8490, 2.3470, 1.5, &["quartier latin"], &[]),
    l("Pigalle", 48.8822, 2.3376, 1.5, &["pigalle", "sopi"], &[]),
    l("Batignolles", 48.8870, 2.3160, 1.5, &["batignolles"], &[]),
    l("Belleville", 48.8720, 2.3770, 1.5, &["belleville"], &[]),
    l("Canal Saint-Martin", 48.8710, 2.3650, 1.5, &["canal saint martin", "canal st martin"], &[]),
    l("Oberkampf", 48.8650, 2.3780, 1.5, &["oberkampf"], &[]),
    l("Butte-aux-Cailles", 48.8275, 2.3500, 1.5, &["butte aux cailles"], &[]),
    l("Passy", 48.8575, 2.2850, 1.5, &["passy"], &[]),
    l("Auteuil", 48.8475, 2.2640, 1.5, &["auteuil"], &[]),
    l("Grands Boulevards", 48.8716, 2.3430, 1.5, &["grands boulevards"], &[]),
    l("Buttes-Chaumont", 48.8809, 2.3828, 1.5, &["buttes chaumont", "parc des buttes chaumont"], &[]),
    l("Bois de Boulogne", 48.8620, 2.2490, 2.0, &["bois de boulogne"], &[]),
    l("Bois de Vincennes", 48.8283, 2.4330, 2.0, &["bois de vincennes"], &[]),
    l("Porte Maillot – Palais des Congrès", 48.8785, 2.2830, 2.0, &["porte maillot", "palais des congres"], &[]),
    l("Paris Expo – Porte de Versailles", 48.8323, 2.2874, 2.0, &["porte de versailles", "paris expo"], &[]),
    l("Bibliothèque François-Mitterrand", 48.8337, 2.3755, 1.5, &["bibliotheque francois mitterrand", "bnf", "bibliotheque nationale de france"], &[]),
    l("Stade de France", 48.9245, 2.3602, 2.0, &["stade de france"], &[]),
    // Airports: hotels and conference centres spread a few km around them.
    l("Aéroport d'Orly", 48.7262, 2.3652, 5.0, &["orly", "aeroport d orly", "aeroport orly"], &[]),
    l("Aéroport Roissy-Charles-de-Gaulle", 49.0097, 2.5479, 5.0,
      &["roissy", "roissy cdg", "roissy charles de gaulle", "cdg", "aeroport charles de gaulle",
        "aeroport cdg", "aeroport de roissy", "charles de gaulle"], &[]),
    // Paris as a whole: "près de Paris" is no criterion, "à 30 km de Paris" is.
    Landmark { name: "Paris", lat: super::paris::PARIS_CENTRE.0, lng: super::paris::PARIS_CENTRE.1, radius_km: 10.0,
      bare: &[], triggered: &[], distance_only: &["paris", "paris centre", "centre de paris"] },
];
