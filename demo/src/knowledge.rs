//! Practical facts the team has gathered about a venue (delivery access,
//! deposits, curfews…): 2–3 entries for a share of the venues. Facts tied
//! to a feature follow the venue's wording (no "jardin" for a venue whose
//! garden is only ever called a courtyard).

use super::dice::{self, Dice};
use super::features::{Feature, Wording};
use super::sketch::{Catering, Sketch};

/// Share of venues with knowledge entries.
const SHARE: f64 = 0.4;

/// (title, content, source) of the entries of a venue, possibly none.
/// `capacity` (the largest standing capacity) keeps the quoted head counts plausible.
pub fn entries(
    rng: &mut Dice,
    sketch: &Sketch,
    always: bool,
    capacity: i32,
) -> Vec<(&'static str, String, &'static str)> {
    if !always && !dice::chance(rng, SHARE) {
        return Vec::new();
    }
    let mut pool: Vec<(&'static str, String)> = feature_facts(sketch);
    pool.extend(general_facts(rng, i64::from(capacity)));
    let count = dice::between(rng, 2, 3) as usize;
    let chosen = dice::sample(rng, &pool, count);
    chosen
        .into_iter()
        .map(|(title, content)| {
            let source = *dice::weighted(
                rng,
                &[("team", 50), ("venue", 25), ("email", 15), ("import", 10)],
            );
            (*title, content.clone(), source)
        })
        .collect()
}

fn feature_facts(sketch: &Sketch) -> Vec<(&'static str, String)> {
    let mut facts = Vec::new();
    for (feature, wording) in &sketch.features {
        let implicit = *wording == Wording::Implicit;
        let fact = match feature {
            Feature::Garden if implicit => "La cour n'est plus utilisable après 22 h (voisinage) : prévoir un repli en salle.",
            Feature::Garden => "Le jardin n'est plus utilisable après 22 h (voisinage) : prévoir un repli en salle.",
            Feature::Rooftop if implicit => "Terrasse du dernier étage fermée si le vent dépasse 50 km/h ; repli prévu en salle.",
            Feature::Rooftop => "Rooftop fermé si le vent dépasse 50 km/h ; solution de repli à l'étage inférieur.",
            Feature::OnWater if implicit => "Embarquement par passerelle : accès PMR possible par le quai bas sur demande. Le bateau reste à quai.",
            Feature::OnWater => "Embarquement par passerelle : accès PMR possible par le quai bas sur demande. La péniche ne navigue pas.",
            Feature::Cellar if implicit => "Pas de réseau mobile dans les caves : wifi disponible sur demande.",
            Feature::Cellar => "Pas de réseau mobile au sous-sol : wifi disponible sur demande.",
            Feature::Industrial if implicit => "L'atelier se chauffe mal en plein hiver : chauffages d'appoint fournis.",
            Feature::Industrial => "Loft difficile à chauffer en hiver : chauffages d'appoint fournis.",
            Feature::Terrace => "Terrasse couverte par une toile tendue en cas de pluie (supplément 450 € HT).",
            Feature::Park => "Activités de team building dans le parc (tir à l'arc, course d'orientation) avec notre prestataire.",
            Feature::Accommodation => "Tarif séminaire résidentiel dégressif à partir de 20 chambres.",
            Feature::Accessible => "Accès PMR par l'entrée latérale, ascenseur jusqu'au premier étage.",
            _ => continue,
        };
        facts.push(("Logistique", fact.to_string()));
    }
    if sketch.catering == Catering::External {
        facts.push((
            "Restauration",
            "Office non équipé pour un traiteur chaud : prévoir un traiteur autonome.".into(),
        ));
    }
    facts
}

fn general_facts(rng: &mut Dice, capacity: i64) -> Vec<(&'static str, String)> {
    let share = |rng: &mut Dice, low: f64, high: f64| {
        ((capacity as f64 * dice::uniform(rng, low, high) / 10.0).round() as i64 * 10).max(20)
    };
    let day = *dice::pick(rng, &["dimanche", "lundi", "samedi midi", "mois d'août"]);
    vec![
        (
            "Logistique",
            format!(
                "Accès livraison par la rue arrière, monte-charge {} kg.",
                dice::between(rng, 4, 12) * 100
            ),
        ),
        (
            "Conditions commerciales",
            format!("Privatisation totale possible le {day}."),
        ),
        (
            "Technique",
            format!(
                "Limiteur de son réglé à {} dB dans la salle principale.",
                dice::between(rng, 90, 102)
            ),
        ),
        (
            "Restauration",
            format!(
                "Le traiteur partenaire exige un minimum de {} couverts.",
                share(rng, 0.2, 0.5)
            ),
        ),
        (
            "Logistique",
            "Accord avec le parking public voisin : tarif préférentiel sur demande.".into(),
        ),
        (
            "Horaires",
            format!(
                "Montage possible dès {} h le jour J, démontage avant {} h.",
                dice::between(rng, 6, 10),
                dice::between(rng, 1, 3)
            ),
        ),
        (
            "Conditions commerciales",
            format!(
                "Acompte de {} % à la signature, solde {} jours avant l'événement.",
                dice::between(rng, 3, 5) * 10,
                dice::between(rng, 1, 4) * 7
            ),
        ),
        (
            "Sécurité",
            "Pas de confettis ni de bougies à flamme nue.".into(),
        ),
        (
            "Logistique",
            format!(
                "Vestiaire tenu sur place à partir de {} invités.",
                share(rng, 0.3, 0.6)
            ),
        ),
        (
            "Horaires",
            "Fermeture annuelle la première quinzaine d'août.".into(),
        ),
        (
            "Technique",
            format!(
                "Wifi fibre {} Gb/s, réseau invité dédié.",
                dice::between(rng, 1, 8)
            ),
        ),
        (
            "Contact",
            "Le responsable commercial répond plutôt le matin ; relancer par téléphone après 48 h."
                .into(),
        ),
        (
            "Conditions commerciales",
            format!(
                "Option de {} jours posée sans frais.",
                dice::between(rng, 5, 15)
            ),
        ),
        (
            "Sécurité",
            format!(
                "Agent de sécurité obligatoire au-delà de {} personnes (facturé {} € HT).",
                share(rng, 0.4, 0.8),
                dice::between(rng, 3, 8) * 50
            ),
        ),
        (
            "Restauration",
            "Menus à valider 10 jours avant l'événement ; régimes spécifiques sans supplément."
                .into(),
        ),
    ]
}
