//! Word lists venue names are composed from (invented names, no real venue).

#[rustfmt::skip]
pub const SURNAMES: &[&str] = &[
    "Montalembert", "Beaumarchais", "Lamartine", "Villeneuve", "Rochefort", "Valmont", "Castellane",
    "Sévigné", "Marigny", "Lauzun", "Mercier", "Dubreuil", "Fontaine", "Chevalier", "Delacroix",
    "Garnier", "Lemoine", "Moreau", "Rivière", "Bonnard", "Vernet", "Lenoir", "Faure", "Duval",
    "Roussel", "Caron", "Berthier", "Morel", "Mallet", "Perrin", "Sorel", "Aubertin",
    "Beauvilliers", "Clermont", "Courcy", "Daubigny", "Esterel", "Fersen", "Gabrielli",
    "Hauteville", "Jolivet", "Keller", "Lancret", "Marceau", "Nattier", "Orsini", "Pradier",
    "Quinault", "Rambuteau", "Saint-Aulaire", "Talma", "Vigée", "Watteau", "Ysaÿe", "Boissière",
    "Cassini", "Desmarets", "Fragonard", "Grimaldi", "Houdon",
];

#[rustfmt::skip]
pub const FIRST_NAMES: &[&str] = &[
    "Marcel", "Louise", "Gaston", "Jeanne", "Léon", "Margot", "Suzanne", "Paulette", "Raymond",
    "Colette", "Henri", "Simone", "Albert", "Lucie", "Émile", "Rose", "Victor", "Odette", "Jules",
    "Madeleine", "Camille", "Augustin", "Germaine", "Lucien", "Yvonne", "Félix", "Marthe", "Octave",
    "Berthe", "Anatole",
];

#[rustfmt::skip]
pub const NOUNS: &[&str] = &[
    "Régent", "Littré", "Pavillon", "Relais", "Belmont", "Zinc", "Comptoir", "Carillon", "Chardon",
    "Galopin", "Sémaphore", "Passage", "Trianon", "Central", "Panache", "Baromètre", "Cadran",
    "Phare", "Rendez-vous", "Balcon", "Colibri", "Cerf-Volant", "Mascaret", "Fanal", "Lutin",
    "Moulinet", "Canotier", "Sextant", "Tambour", "Grenadier", "Volubilis", "Carrousel",
];

#[rustfmt::skip]
pub const ADJECTIVES: &[&str] = &[
    "Doré", "Gourmand", "Parisien", "Bleu", "Joyeux", "Secret", "Vert", "Vagabond", "Curieux",
    "Sauvage", "Rouge", "Gourmet", "Malin", "Voyageur", "Tranquille", "Fidèle",
];

#[rustfmt::skip]
pub const BOATS: &[&str] = &[
    "Lumière", "Alizé", "Marjolaine", "Calypso", "Louisiane", "Capitaine", "Nénuphar", "Boréal",
    "Marquise", "Étoile", "Jangada", "Mistral", "Odyssée", "Sirène", "Vagabonde", "Fleur de Seine",
];

#[rustfmt::skip]
pub const DOMAIN_PLURALS: &[&str] = &[
    "Tilleuls", "Étangs", "Vignes", "Cèdres", "Grands Chênes", "Trois Fontaines", "Roches",
    "Saules", "Bruyères", "Charmes",
];

/// Invented estate names ("lieux-dits"), with their article where they take one.
#[rustfmt::skip]
pub const ESTATES: &[&str] = &[
    "la Chevrette", "Montvillars", "Bellefontaine", "Grandchamp", "Beauregard", "la Motte-Verte",
    "Bois-Fleuri", "Villiers-le-Haut", "Courcelles", "Montlouis", "la Verrerie", "Mesnil-Aubry",
    "la Bretèche", "Saint-Aubin", "Brimont", "la Roseraie", "Vauxbuin", "Chaumontel",
    "la Tour-Blanche", "Mareuil", "Fontenelle", "Orgival", "Boisrenard", "Hautecour",
    "l'Étang-Neuf", "Val-Fleury", "la Cour-Dieu", "Septfonds", "Malassise", "la Grange-Bâtelière",
    "Belleroche", "Montaigu", "la Fresnaye", "Villebon-le-Vieux", "Coudray", "la Salamandre",
    "Rochemaure", "Bois-Guillaume", "Armainvilliers", "la Tuilerie",
];
