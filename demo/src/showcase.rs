//! Hand-written venues that always come first (ids 1, 2, …), so every
//! dataset, even a 10-member one, holds the semantic-search showcases: each
//! conveys a concept without its usual keyword (a rooftop never called
//! "rooftop", a barge never called "péniche"…), plus two explicit
//! counterparts to compare with.

use super::features::{Feature, Wording};
use super::pools::{Kind, Size};
use super::rooms::Category;
use super::sketch::{Catering, Style};

pub struct Showcase {
    pub kind: Kind,
    pub postal_code: &'static str,
    pub quarter: &'static str,
    pub street: &'static str,
    pub mooring: Option<&'static str>,
    pub size: Size,
    pub style: Style,
    pub catering: Catering,
    pub features: &'static [(Feature, Wording)],
    pub name: &'static str,
    pub description: &'static str,
    pub rooms: &'static [(Category, &'static str, &'static str)],
    /// Words that must appear nowhere in this venue's text (checked by tests).
    #[cfg_attr(not(test), allow(dead_code))]
    pub absent: &'static [&'static str],
}

use Feature::*;
use Wording::*;

pub const SHOWCASES: &[Showcase] = &[
    Showcase {
        kind: Kind::Rooftop, postal_code: "75009", quarter: "Saint-Georges", street: "rue de Châteaudun", mooring: None,
        size: Size::Medium, style: Style::Festive, catering: Catering::External,
        features: &[(Rooftop, Implicit), (Accessible, Explicit)],
        name: "Le Belvédère Saint-Georges",
        description: "Au dernier étage d'un immeuble haussmannien, une terrasse panoramique au coucher du soleil sur les toits de Paris, du Sacré-Cœur à l'Opéra Garnier. Bar en bois clair, transats et bacs d'oliviers pour des cocktails entre ciel et zinc. Un salon vitré attenant permet de se replier en cas d'averse. Accès : métro Saint-Georges, à 4 minutes à pied. Ascenseur jusqu'au septième étage.",
        rooms: &[
            (Category::Rooftop, "Terrasse du septième", "Terrasse au dernier étage face aux toits de Paris et au Sacré-Cœur, superbe au coucher du soleil."),
            (Category::Hall, "Salon vitré", "Salon vitré attenant à la terrasse, repli idéal en cas de pluie."),
        ],
        absent: &["rooftop", "roof"],
    },
    Showcase {
        kind: Kind::Loft, postal_code: "75011", quarter: "Oberkampf", street: "rue Oberkampf", mooring: None,
        size: Size::Medium, style: Style::Contemporary, catering: Catering::External,
        features: &[(Industrial, Implicit), (NaturalLight, Explicit), (DemoKitchen, Explicit)],
        name: "Atelier Oberkampf",
        description: "Atelier avec poutres apparentes et verrière, murs de briques et sol en béton ciré, au fond d'une cour pavée de la rue Oberkampf. Cette ancienne menuiserie de 400 m² baignée de lumière zénithale se prolonge d'une mezzanine et d'une grande cuisine ouverte. Traiteur libre. Accès : métro Parmentier, à 3 minutes à pied.",
        rooms: &[
            (Category::Loft, "Grand atelier", "Atelier de 320 m² sous verrière, poutres apparentes et murs de briques."),
            (Category::Hall, "Mezzanine", "Mezzanine surplombant l'atelier, parfaite pour un espace lounge."),
            (Category::Dining, "Cuisine ouverte", "Grande cuisine ouverte pour ateliers culinaires et cocktails."),
        ],
        absent: &["loft", "industriel"],
    },
    Showcase {
        kind: Kind::Barge, postal_code: "75005", quarter: "Maubert", street: "quai de la Tournelle", mooring: Some("quai de la Tournelle"),
        size: Size::Medium, style: Style::Festive, catering: Catering::Both,
        features: &[(OnWater, Implicit)],
        name: "Le Marjolaine",
        description: "Bateau amarré quai de la Tournelle, face à Notre-Dame et à l'île Saint-Louis. Salon vitré de 150 m² au ras de l'eau et pont supérieur à ciel ouvert pour les cocktails au coucher du soleil. Cet ancien bateau de transport des années 1930 a été entièrement rénové. Accès : métro Maubert-Mutualité, à 5 minutes à pied.",
        rooms: &[
            (Category::Hall, "Salon vitré", "Salon vitré de 150 m² au ras de l'eau, bar et piste de danse."),
            (Category::Deck, "Pont supérieur", "Pont à ciel ouvert face à Notre-Dame, pour les cocktails d'été."),
        ],
        absent: &["péniche", "peniche"],
    },
    Showcase {
        kind: Kind::Bistrot, postal_code: "75014", quarter: "Pernety", street: "rue Daguerre", mooring: None,
        size: Size::Medium, style: Style::Bohemian, catering: Catering::Internal,
        features: &[(Garden, Implicit)],
        name: "Chez Colette",
        description: "Restaurant de quartier à Montparnasse, prolongé par une cour arborée, pelouse et tonnelle, où l'on déjeune à l'ombre des tilleuls dès les premiers beaux jours. Cuisine du marché, grandes tablées et bouquets de saison. Accès : métro Pernety, à 2 minutes à pied.",
        rooms: &[
            (Category::Dining, "Salle principale", "Salle de 90 m² aux murs de pierre, banquettes et grandes tablées."),
            (Category::Garden, "Cour arborée", "Cour de 200 m² plantée de tilleuls, pelouse et tonnelle."),
        ],
        absent: &["jardin"],
    },
    Showcase {
        kind: Kind::Cellar, postal_code: "75004", quarter: "le Marais", street: "rue des Francs-Bourgeois", mooring: None,
        size: Size::Small, style: Style::Rustic, catering: Catering::Internal,
        features: &[(Cellar, Implicit)],
        name: "Les Voûtes Saint-Paul",
        description: "Sous une maison du Marais, des caves voûtées en pierre du XVIIe siècle éclairées à la bougie, pour des dîners et des dégustations hors du temps. Au rez-de-chaussée, un bar à vins et plus de 400 références. Accès : métro Saint-Paul, à 3 minutes à pied.",
        rooms: &[
            (Category::Cellar, "Caves voûtées", "Voûtes de pierre du XVIIe, tables d'hôtes et éclairage à la bougie."),
            (Category::Dining, "Bar à vins", "Bar à vins au rez-de-chaussée, comptoir en chêne et tables hautes."),
        ],
        absent: &["sous-sol"],
    },
    Showcase {
        kind: Kind::Hotel, postal_code: "75007", quarter: "le Gros-Caillou", street: "avenue Bosquet", mooring: None,
        size: Size::Medium, style: Style::Haussmann, catering: Catering::Internal,
        features: &[(EiffelView, Implicit), (Accommodation, Explicit), (Accessible, Explicit)],
        name: "Hôtel Bosquet Gros-Caillou",
        description: "Hôtel 4 étoiles du Gros-Caillou dont les salons, au sixième étage, font face à la Dame de fer : à la nuit tombée, son scintillement s'invite à chaque soirée. 62 chambres, deux salons de réception et un bar feutré. Accès : métro École Militaire, à 4 minutes à pied.",
        rooms: &[
            (Category::Salon, "Salon Champ-de-Mars", "Salon de 140 m² au sixième étage, grandes fenêtres face à la Dame de fer."),
            (Category::Meeting, "Salon Bosquet", "Salle de réunion lumineuse, visioconférence intégrée."),
        ],
        absent: &["eiffel"],
    },
    Showcase {
        kind: Kind::Domaine, postal_code: "60500", quarter: "la Forêt", street: "route de l'Aigle", mooring: None,
        size: Size::Large, style: Style::Classic, catering: Catering::Both,
        features: &[(Park, Explicit), (Heritage, Explicit), (Accommodation, Explicit), (Parking, Explicit)],
        name: "Domaine de la Chevrette",
        description: "Demeure seigneuriale du XVIIe siècle entourée de douves, au milieu d'un parc de 40 hectares, à 45 minutes de Paris. Salons d'apparat, orangerie et 35 chambres pour les séminaires résidentiels. Parking privé sur place.",
        rooms: &[
            (Category::Salon, "Salle des Gardes", "Salle d'apparat aux boiseries d'origine et cheminée monumentale."),
            (Category::Salon, "Orangerie", "Orangerie vitrée ouverte sur les parterres, pour les dîners de gala."),
            (Category::Park, "Parc", "Parc de 40 hectares, douves, allées de tilleuls et prairies."),
        ],
        absent: &["château", "chateau"],
    },
    Showcase {
        kind: Kind::Rooftop, postal_code: "75017", quarter: "les Batignolles", street: "rue des Batignolles", mooring: None,
        size: Size::Medium, style: Style::Festive, catering: Catering::Internal,
        features: &[(Rooftop, Explicit)],
        name: "Le Rooftop des Batignolles",
        description: "Rooftop de 300 m² au huitième étage, bar à cocktails, DJ le jeudi et vue sur les toits de Paris. Idéal pour les afterworks et soirées d'entreprise. Accès : métro Brochant, à 3 minutes à pied.",
        rooms: &[(Category::Rooftop, "Rooftop", "Rooftop de 300 m² avec bar et transats, vue sur les toits de Paris.")],
        absent: &[],
    },
    Showcase {
        kind: Kind::Barge, postal_code: "75013", quarter: "Paris Rive Gauche", street: "quai François-Mauriac", mooring: Some("port de la Gare"),
        size: Size::Medium, style: Style::Festive, catering: Catering::External,
        features: &[(OnWater, Explicit), (SeineView, Explicit)],
        name: "La Péniche Lumière",
        description: "Péniche de 38 mètres amarrée au port de la Gare, face à la Bibliothèque François-Mitterrand, avec salon panoramique et pont-terrasse. Vue sur la Seine et ses ponts. Traiteur libre. Accès : métro Quai de la Gare, à 2 minutes à pied.",
        rooms: &[
            (Category::Hall, "Cale", "Cale aménagée de 180 m², bar et piste de danse."),
            (Category::Deck, "Pont-terrasse", "Pont de la péniche à ciel ouvert, vue sur la Seine."),
        ],
        absent: &[],
    },
];
