//! Sentences for features, ambiances and catering, with synonyms, so the
//! same concept reads differently from one venue to the next. Implicit
//! variants never contain the concept's keyword (see `features`).

use crate::dice::{self, Dice};
use crate::features::{Feature, Wording};
use crate::french::a;
use crate::sketch::{Catering, Sketch, Style};

/// "quai de la Tournelle" reads "amarré quai de la Tournelle"; ports and
/// islands take a preposition ("au port de Javel", "à l'île de la Jatte").
pub fn at_quay(mooring: &str) -> String {
    if mooring.starts_with("quai ") {
        mooring.to_string()
    } else if let Some(rest) = mooring.strip_prefix("île ") {
        format!("à l'île {rest}")
    } else {
        format!("au {mooring}")
    }
}

/// One sentence for a feature, or None when it has no sentence of its own.
/// `capacity`: the venue's largest standing capacity, which sizes the
/// surfaces quoted (about one guest per square metre).
pub fn feature(
    rng: &mut Dice,
    sketch: &Sketch,
    feature: Feature,
    wording: Wording,
    capacity: i32,
) -> Option<String> {
    use Feature::*;
    use Wording::*;
    let view = *dice::pick(rng, sketch.place.views);
    let facing = a(view);
    let area =
        ((f64::from(capacity) * dice::uniform(rng, 0.8, 1.4) / 10.0).round() as i64 * 10).max(20);
    let floor = dice::between(rng, 6, 12);
    let quay = at_quay(sketch.mooring.unwrap_or("quai de Seine"));
    let street = sketch.street;
    let options: Vec<String> = match (feature, wording) {
        (Rooftop, Explicit) => vec![
            format!("Un rooftop de {area} m² au {floor}e étage, avec vue à 360° sur {view}."),
            format!("Son rooftop végétalisé se privatise dès les beaux jours, face {facing}."),
            format!("Le rooftop, bar et transats compris, domine {view}."),
        ],
        (Rooftop, Implicit) => vec![
            format!("Une terrasse panoramique au dernier étage, face au coucher du soleil sur {view}."),
            format!("Tout en haut de l'immeuble, un toit-terrasse aménagé domine {view}."),
            format!("Au {floor}e et dernier étage, la terrasse suspendue embrasse {view} à perte de vue."),
        ],
        (Terrace, _) => vec![
            format!("Une terrasse de {area} m² prolonge les salons."),
            "La terrasse, chauffée et abritée, accueille les cocktails de mai à octobre.".into(),
            format!("Aux beaux jours, la terrasse côté {street} accueille l'apéritif."),
        ],
        (Garden, Explicit) => vec![
            format!("Un jardin de {area} m², à l'abri des regards, accueille cocktails et dîners d'été."),
            "Côté jardin, pelouse et arbres centenaires offrent un cadre rare en ville.".into(),
            "Le jardin d'hiver et son patio végétalisé se prêtent aux réceptions.".into(),
        ],
        (Garden, Implicit) => vec![
            "Une cour arborée, pelouse et tonnelle, se privatise pour les déjeuners d'été.".into(),
            "Derrière la façade se cache un havre de verdure : pelouse, massifs fleuris et grands tilleuls.".into(),
            "Les invités profitent d'un patio planté d'oliviers et d'une pergola couverte de glycine.".into(),
        ],
        (OnWater, Explicit) => vec![
            format!("Péniche de {} mètres amarrée {quay}, avec pont-terrasse et salon sous verrière.", (20 + capacity / 8).min(60)),
            format!("Cette ancienne péniche de transport, entièrement réaménagée, est amarrée {quay}."),
            format!("À bord de la péniche, amarrée {quay}, le salon panoramique s'ouvre sur l'eau."),
        ],
        (OnWater, Implicit) => vec![
            format!("Bateau amarré {quay}, avec pont supérieur et salon vitré au ras de l'eau."),
            format!("Ancien bateau de marchandises reconverti et amarré {quay}, pour des soirées au fil de l'eau."),
            format!("On embarque {quay} : le pont ouvert et la cale aménagée accueillent vos invités."),
        ],
        (Waterside, _) => vec![
            format!("Les pieds dans l'eau, sur les berges face {facing}, tables en bois et guirlandes lumineuses."),
            format!("Au bord de l'eau, la salle s'ouvre sur {view} et le chemin de halage."),
        ],
        (Cellar, Explicit) => vec![
            format!("En sous-sol, une salle voûtée de {area} m² accueille les soirées jusqu'à l'aube."),
            "Le sous-sol, aménagé en club privé, se privatise pour les soirées.".into(),
        ],
        (Cellar, Implicit) => vec![
            "Des caves voûtées en pierre du XVIIe siècle, éclairées à la bougie, pour des dîners hors du temps.".into(),
            "Un escalier de pierre descend vers des voûtes du XVIIIe, idéales pour les dégustations.".into(),
        ],
        (Industrial, Explicit) => vec![
            format!("Loft de {area} m² au style industriel : béton ciré, grande hauteur sous plafond et mobilier vintage."),
            "Ancienne imprimerie transformée en loft, ce plateau brut se module à l'envi.".into(),
        ],
        (Industrial, Implicit) => vec![
            "Un atelier d'artiste avec poutres apparentes et verrière, murs de briques et parquet d'origine.".into(),
            "Ancienne fabrique de boutons du XIXe : charpente métallique, sheds vitrés et sols en béton brut.".into(),
            "Sous la verrière de cet ancien atelier, poutres métalliques et briques rouges donnent le ton.".into(),
        ],
        (SeineView, Explicit) => vec![
            "Les salons offrent une vue imprenable sur la Seine et ses ponts.".into(),
            "Vue directe sur la Seine depuis toutes les fenêtres.".into(),
        ],
        (SeineView, Implicit) => vec![
            "Les fenêtres donnent sur le fleuve et le ballet des bateaux-mouches.".into(),
            "Le regard file au fil de l'eau, d'un pont à l'autre.".into(),
        ],
        (EiffelView, Explicit) => vec![
            "Vue directe sur la tour Eiffel depuis les salons.".into(),
            "La tour Eiffel scintille juste en face à la nuit tombée.".into(),
        ],
        (EiffelView, Implicit) => vec![
            "La Dame de fer semble à portée de main depuis les fenêtres.".into(),
            "À la nuit tombée, le scintillement de la Dame de fer s'invite à la soirée.".into(),
        ],
        (Fireplace, _) => vec![
            "Une grande cheminée en pierre réchauffe le salon l'hiver.".into(),
            "Salons à cheminée, boiseries et parquet Versailles.".into(),
        ],
        (Pool, _) => vec![
            "Piscine extérieure chauffée, ouverte de mai à septembre.".into(),
            "Une piscine bordée de transats invite à la détente entre deux sessions.".into(),
        ],
        (Park, _) => vec![
            format!("Le parc de {} hectares, avec étang et allées de tilleuls, accueille cocktails et activités.", sketch.park_hectares),
            "Un parc à l'anglaise entoure la demeure, propice aux team buildings.".into(),
        ],
        (Stage, _) => vec![
            "Un auditorium équipé d'une scène et d'une régie son et lumière accueille les plénières.".into(),
            "Scène modulable, écran LED et régie technique intégrée.".into(),
        ],
        (DemoKitchen, _) => vec![
            "Une cuisine ouverte permet d'organiser des ateliers culinaires en équipe.".into(),
            "Le piano de cuisine trône au centre : cours de cuisine et team buildings gourmands.".into(),
        ],
        (Heritage, _) => vec![
            "La bâtisse, inscrite aux monuments historiques, a conservé ses décors d'origine.".into(),
            "Moulures, dorures et parquets anciens racontent trois siècles d'histoire.".into(),
            "Un patrimoine classé, restauré dans les règles de l'art.".into(),
        ],
        (Spa, _) => vec![
            "Un spa avec hammam et salle de massage prolonge la journée.".into(),
            "Espace bien-être : sauna, hammam et soins à la carte.".into(),
        ],
        (Accommodation, _) => vec![
            format!("{} chambres sur place pour les séminaires résidentiels.", sketch.bedrooms),
            format!("Hébergement sur place : {} chambres et suites.", sketch.bedrooms),
        ],
        (NaturalLight, _) => vec![
            "Lumière naturelle dans toutes les salles grâce à de hautes fenêtres.".into(),
            "Baigné de lumière naturelle, l'espace s'ouvre par de larges baies vitrées.".into(),
        ],
        // Said in the access sentence.
        (Parking | Accessible, _) => return None,
    };
    Some(dice::pick(rng, &options).clone())
}

pub fn ambiance(rng: &mut Dice, style: Style) -> &'static str {
    let options: &[&str] = match style {
        Style::ArtDeco => &[
            "Décor Art déco restauré : laitons, miroirs biseautés et banquettes de velours.",
            "Ambiance années folles, boiseries et luminaires d'époque.",
        ],
        Style::Haussmann => &[
            "Moulures, parquet en point de Hongrie et belle hauteur sous plafond : le charme haussmannien intact.",
            "Salons haussmanniens en enfilade, marbres et grandes fenêtres.",
        ],
        Style::Contemporary => &[
            "Cadre contemporain et épuré, mobilier design et tons clairs.",
            "Architecture contemporaine, volumes généreux et lignes sobres.",
            "Un design actuel, modulable et lumineux.",
        ],
        Style::Bohemian => &[
            "Ambiance bohème et chaleureuse : objets chinés, plantes et tapis anciens.",
            "Un esprit décontracté, guirlandes lumineuses et grandes tablées en bois.",
        ],
        Style::Classic => &[
            "Élégance classique du XVIIIe : boiseries, tapisseries et lustres en cristal.",
            "Un cadre noble et solennel, idéal pour marquer les esprits.",
        ],
        Style::Rustic => &[
            "Pierres apparentes, poutres et tomettes pour une atmosphère chaleureuse.",
            "Un charme authentique, entre vieilles pierres et bois brut.",
        ],
        Style::Cosy => &[
            "Ambiance feutrée et intimiste, lumières tamisées et fauteuils club.",
            "Un cocon chaleureux où l'on se sent comme chez soi.",
        ],
        Style::Festive => &[
            "Un lieu festif où l'on danse tard : DJ bienvenu, piste de danse et bar.",
            "L'endroit idéal pour faire la fête, sono puissante et éclairages d'ambiance.",
        ],
        Style::Calm => &[
            "Calme absolu, loin de l'agitation, propice à la concentration.",
            "Une atmosphère sereine et studieuse, au vert ou presque.",
        ],
    };
    dice::one(rng, options)
}

pub fn catering(rng: &mut Dice, catering: Catering) -> &'static str {
    let options: &[&str] = match catering {
        Catering::Internal => &[
            "Cuisine maison signée par le chef, du cocktail dînatoire au dîner assis.",
            "Restauration assurée par notre brigade : buffets, cocktails et menus de saison.",
        ],
        Catering::External => &[
            "Traiteur libre ou choisi parmi nos partenaires référencés.",
            "Office traiteur équipé : vous venez avec le traiteur de votre choix.",
        ],
        Catering::Both => &[
            "Restauration sur place ou traiteur extérieur, selon vos envies.",
            "Notre cuisine ou votre traiteur : les deux sont possibles.",
        ],
    };
    dice::one(rng, options)
}
