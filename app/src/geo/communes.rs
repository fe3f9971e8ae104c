//! Communes of Île-de-France (and Chantilly/Senlis, just over the border)
//! where event venues cluster, with their postal code and town-hall area
//! coordinates.
//!
//! Aliases are folded (`geo::fold`) and include the full name; short forms
//! ("issy", "neuilly") are the ones organizers actually type. Some entries
//! exist only so a longer name wins over a shorter alias: "Neuilly-sur-Marne"
//! must not be read as "Neuilly", "Clichy-sous-Bois" as "Clichy".

/// A commune a venue can be in.
#[derive(Debug, PartialEq)]
pub struct Commune {
    pub name: &'static str,
    pub postal_code: &'static str,
    pub lat: f64,
    pub lng: f64,
    /// Folded spellings, full name first.
    pub aliases: &'static [&'static str],
}

const fn c(
    name: &'static str,
    postal_code: &'static str,
    lat: f64,
    lng: f64,
    aliases: &'static [&'static str],
) -> Commune {
    Commune {
        name,
        postal_code,
        lat,
        lng,
        aliases,
    }
}

/// Every commune; the first entry of a postal code is its main commune.
#[rustfmt::skip]
pub const COMMUNES: &[Commune] = &[
    // Hauts-de-Seine (92)
    c("Boulogne-Billancourt", "92100", 48.8353, 2.2407, &["boulogne billancourt", "boulogne"]),
    c("Neuilly-sur-Seine", "92200", 48.8846, 2.2697, &["neuilly sur seine", "neuilly"]),
    c("Levallois-Perret", "92300", 48.8950, 2.2870, &["levallois perret", "levallois"]),
    c("Issy-les-Moulineaux", "92130", 48.8240, 2.2700, &["issy les moulineaux", "issy"]),
    c("Rueil-Malmaison", "92500", 48.8778, 2.1803, &["rueil malmaison", "rueil"]),
    c("Nanterre", "92000", 48.8924, 2.2071, &["nanterre"]),
    c("Courbevoie", "92400", 48.8918, 2.2386, &["courbevoie"]),
    c("Puteaux", "92800", 48.8846, 2.2387, &["puteaux"]),
    c("Saint-Cloud", "92210", 48.8440, 2.2190, &["saint cloud", "st cloud"]),
    c("Sèvres", "92310", 48.8239, 2.2108, &["sevres"]),
    c("Meudon", "92190", 48.8131, 2.2353, &["meudon"]),
    c("Clichy", "92110", 48.9044, 2.3064, &["clichy", "clichy la garenne"]),
    c("Sceaux", "92330", 48.7765, 2.2906, &["sceaux"]),
    c("Suresnes", "92150", 48.8714, 2.2290, &["suresnes"]),
    c("Asnières-sur-Seine", "92600", 48.9146, 2.2876, &["asnieres sur seine", "asnieres"]),
    c("Gennevilliers", "92230", 48.9333, 2.2931, &["gennevilliers"]),
    c("Montrouge", "92120", 48.8163, 2.3167, &["montrouge"]),
    c("Malakoff", "92240", 48.8169, 2.2992, &["malakoff"]),
    c("Vanves", "92170", 48.8215, 2.2897, &["vanves"]),
    c("Châtillon", "92320", 48.8024, 2.2939, &["chatillon"]),
    c("Clamart", "92140", 48.8003, 2.2667, &["clamart"]),
    c("Bagneux", "92220", 48.7958, 2.3089, &["bagneux"]),
    c("Colombes", "92700", 48.9236, 2.2522, &["colombes"]),
    c("Bois-Colombes", "92270", 48.9175, 2.2683, &["bois colombes"]),
    c("La Garenne-Colombes", "92250", 48.9069, 2.2447, &["la garenne colombes", "garenne colombes"]),
    c("Garches", "92380", 48.8456, 2.1878, &["garches"]),
    c("Chaville", "92370", 48.8081, 2.1886, &["chaville"]),
    // Seine-Saint-Denis (93)
    c("Saint-Denis", "93200", 48.9362, 2.3574, &["saint denis", "st denis"]),
    c("Saint-Denis – La Plaine", "93210", 48.9180, 2.3600, &["la plaine saint denis", "plaine saint denis", "la plaine st denis"]),
    c("Montreuil", "93100", 48.8638, 2.4485, &["montreuil", "montreuil sous bois"]),
    c("Pantin", "93500", 48.8944, 2.4094, &["pantin"]),
    c("Aubervilliers", "93300", 48.9146, 2.3821, &["aubervilliers"]),
    c("Saint-Ouen-sur-Seine", "93400", 48.9119, 2.3340, &["saint ouen sur seine", "saint ouen", "st ouen"]),
    c("Bagnolet", "93170", 48.8693, 2.4183, &["bagnolet"]),
    c("Bobigny", "93000", 48.9086, 2.4397, &["bobigny"]),
    c("Noisy-le-Grand", "93160", 48.8486, 2.5526, &["noisy le grand"]),
    c("Neuilly-sur-Marne", "93330", 48.8537, 2.5265, &["neuilly sur marne"]),
    c("Neuilly-Plaisance", "93360", 48.8630, 2.5060, &["neuilly plaisance"]),
    c("Clichy-sous-Bois", "93390", 48.9102, 2.5470, &["clichy sous bois"]),
    c("Les Lilas", "93260", 48.8797, 2.4189, &["les lilas"]),
    c("Le Pré-Saint-Gervais", "93310", 48.8850, 2.4040, &["le pre saint gervais", "pre saint gervais", "pre st gervais"]),
    c("Romainville", "93230", 48.8842, 2.4350, &["romainville"]),
    // Val-de-Marne (94)
    c("Vincennes", "94300", 48.8474, 2.4390, &["vincennes"]),
    c("Saint-Mandé", "94160", 48.8422, 2.4186, &["saint mande", "st mande"]),
    c("Créteil", "94000", 48.7904, 2.4556, &["creteil"]),
    c("Ivry-sur-Seine", "94200", 48.8131, 2.3848, &["ivry sur seine", "ivry"]),
    c("Nogent-sur-Marne", "94130", 48.8367, 2.4827, &["nogent sur marne", "nogent"]),
    c("Saint-Maur-des-Fossés", "94100", 48.7994, 2.4997, &["saint maur des fosses", "saint maur", "st maur"]),
    c("Charenton-le-Pont", "94220", 48.8220, 2.4152, &["charenton le pont", "charenton"]),
    c("Joinville-le-Pont", "94340", 48.8214, 2.4728, &["joinville le pont", "joinville"]),
    c("Le Kremlin-Bicêtre", "94270", 48.8100, 2.3581, &["le kremlin bicetre", "kremlin bicetre"]),
    c("Arcueil", "94110", 48.8058, 2.3364, &["arcueil"]),
    c("Gentilly", "94250", 48.8133, 2.3444, &["gentilly"]),
    c("Villejuif", "94800", 48.7922, 2.3636, &["villejuif"]),
    c("Fontenay-sous-Bois", "94120", 48.8511, 2.4775, &["fontenay sous bois"]),
    c("Bry-sur-Marne", "94360", 48.8381, 2.5225, &["bry sur marne"]),
    c("Rungis", "94150", 48.7475, 2.3497, &["rungis"]),
    // Yvelines (78)
    c("Versailles", "78000", 48.8049, 2.1204, &["versailles"]),
    c("Saint-Germain-en-Laye", "78100", 48.8989, 2.0938, &["saint germain en laye", "st germain en laye"]),
    c("Maisons-Laffitte", "78600", 48.9469, 2.1456, &["maisons laffitte"]),
    c("Rambouillet", "78120", 48.6440, 1.8299, &["rambouillet"]),
    c("Bougival", "78380", 48.8650, 2.1400, &["bougival"]),
    c("Chatou", "78400", 48.8897, 2.1573, &["chatou"]),
    c("Le Vésinet", "78110", 48.8931, 2.1306, &["le vesinet", "vesinet"]),
    c("Poissy", "78300", 48.9290, 2.0458, &["poissy"]),
    c("Marly-le-Roi", "78160", 48.8675, 2.0947, &["marly le roi"]),
    c("Vélizy-Villacoublay", "78140", 48.7833, 2.1900, &["velizy villacoublay", "velizy"]),
    c("Jouy-en-Josas", "78350", 48.7650, 2.1683, &["jouy en josas"]),
    c("Guyancourt", "78280", 48.7733, 2.0739, &["guyancourt"]),
    // Seine-et-Marne (77)
    c("Fontainebleau", "77300", 48.4047, 2.7016, &["fontainebleau"]),
    c("Chessy (Marne-la-Vallée)", "77700", 48.8700, 2.7820, &["chessy", "marne la vallee", "marne la vallee chessy", "disneyland", "disneyland paris"]),
    c("Maincy (Vaux-le-Vicomte)", "77950", 48.5650, 2.7140, &["maincy", "vaux le vicomte"]),
    c("Barbizon", "77630", 48.4450, 2.6050, &["barbizon"]),
    c("Meaux", "77100", 48.9601, 2.8788, &["meaux"]),
    c("Provins", "77160", 48.5600, 3.2990, &["provins"]),
    c("Champs-sur-Marne", "77420", 48.8528, 2.6030, &["champs sur marne"]),
    // Essonne (91)
    c("Massy", "91300", 48.7309, 2.2713, &["massy"]),
    c("Évry-Courcouronnes", "91000", 48.6291, 2.4405, &["evry courcouronnes", "evry"]),
    // Val-d'Oise (95)
    c("Enghien-les-Bains", "95880", 48.9697, 2.3081, &["enghien les bains", "enghien"]),
    c("Auvers-sur-Oise", "95430", 49.0713, 2.1697, &["auvers sur oise"]),
    c("Cergy", "95000", 49.0364, 2.0761, &["cergy", "cergy pontoise"]),
    c("Roissy-en-France", "95700", 49.0036, 2.5156, &["roissy en france"]),
    // Oise (60): the châteaux country just north of Île-de-France.
    c("Chantilly", "60500", 49.1940, 2.4711, &["chantilly"]),
    c("Senlis", "60300", 49.2072, 2.5867, &["senlis"]),
];
