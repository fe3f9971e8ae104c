//! Properties of pasted requests: a signature or a quoted thread added
//! under any request of the corpus never changes what is read, and a zone
//! a negation governs is never searched.

use super::*;
use proptest::prelude::*;
use proptest::sample::select;
use std::sync::OnceLock;

/// Every request of the corpus, as written.
fn corpus() -> &'static [String] {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    TEXTS.get_or_init(|| {
        #[derive(serde::Deserialize)]
        struct Entry {
            text: String,
        }
        [
            include_str!("../../../tests/data/requests.yaml"),
            include_str!("../../../tests/data/requests_pasted.yaml"),
        ]
        .iter()
        .flat_map(|yaml| serde_norway::from_str::<Vec<Entry>>(yaml).unwrap_or_default())
        .map(|e| e.text)
        .collect()
    })
}

#[rustfmt::skip]
const CLOSINGS: &[&str] = &[
    "Cordialement,", "Bien cordialement,", "Bien à vous,", "Belle journée,", "Merci d'avance,",
    "Best regards,", "--", "",
];
const NAMES: &[&str] = &[
    "Stéphanie Roux",
    "Marc-Antoine Lefèvre",
    "Julie Martin",
    "Tom",
];
#[rustfmt::skip]
const TITLES: &[&str] = &[
    "Responsable événementiel – Groupe Arcadia", "Chef de projet | Agence Lumière",
    "Office manager", "Directrice de la communication, Fondation Horizon", "",
];
#[rustfmt::skip]
const ADDRESSES: &[&str] = &[
    "8 avenue de Paris, 94300 Vincennes", "12 rue de la Paix, 75002 Paris",
    "3 place du Marché, 92200 Neuilly-sur-Seine", "41 quai de la Seine 75019 Paris",
    "Tour Alto, 4 place des Saisons, 92400 Courbevoie", "93100 Montreuil", "",
];
#[rustfmt::skip]
const PHONES: &[&str] = &[
    "06 12 34 56 78", "Tél. : 01 43 28 55 90 | Mob. : 06 12 34 56 78", "+33 1 44 55 66 77",
    "01.44.55.66.77", "Ligne directe : 0612345678",
];
#[rustfmt::skip]
const WEB: &[&str] = &[
    "www.groupe-arcadia.fr", "julie.martin@agence-lumiere.com", "https://www.horizon.org", "",
];
#[rustfmt::skip]
const DISCLAIMERS: &[&str] = &[
    "Ce message et ses pièces jointes sont confidentiels et destinés à leur seul destinataire. Si vous n'êtes pas le destinataire, merci de le détruire.",
    "Pensez à l'environnement avant d'imprimer ce mail.",
    "This email and any attachments are confidential. If you are not the intended recipient, please delete it.",
    "",
];

/// A signature, with or without a closing formula (then with contact
/// details, as every signature without one has).
fn signature() -> impl Strategy<Value = String> {
    (
        select(CLOSINGS),
        select(NAMES),
        select(TITLES),
        select(ADDRESSES),
        select(PHONES),
        select(WEB),
        select(DISCLAIMERS),
    )
        .prop_map(|(closing, name, title, address, phone, web, disclaimer)| {
            let lines = [closing, name, title, address, phone, web];
            let mut out: Vec<&str> = lines.into_iter().filter(|l| !l.is_empty()).collect();
            if !disclaimer.is_empty() {
                out.push("");
                out.push(disclaimer);
            }
            out.join("\n")
        })
}

/// A thread under the answer: another request of the corpus, quoted.
fn thread() -> impl Strategy<Value = String> {
    (0..corpus().len(), 0..3usize).prop_map(|(k, style)| {
        let quoted = corpus().get(k).cloned().unwrap_or_default();
        match style {
            0 => {
                let marked: Vec<String> = quoted.lines().map(|l| format!("> {l}")).collect();
                format!(
                    "Le mar. 3 mars 2026 à 10:12, Julie Martin <julie@acme.fr> a écrit :\n{}",
                    marked.join("\n")
                )
            }
            1 => format!(
                "-----Message d'origine-----\nDe : Julie Martin <julie@acme.fr>\nEnvoyé : mardi 3 mars 2026 10:12\nÀ : Camille\nObjet : RE: demande\n\n{quoted}"
            ),
            _ => format!(
                "________________________________\nDe : Julie Martin\nEnvoyé : mardi 3 mars 2026 10:12\nÀ : Camille\nObjet : devis\n\n{quoted}"
            ),
        }
    })
}

/// What decides the search: every criterion and the description.
fn read(text: &str) -> (Criteria, String) {
    let c = extract(text);
    let hard = Criteria {
        semantic_query: String::new(),
        notes: Vec::new(),
        remarks: Vec::new(),
        ..c.clone()
    };
    (hard, geo::fold(&c.semantic_query))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn a_signature_or_a_thread_changes_nothing(
        k in 0..corpus().len().max(1),
        signature in signature(),
        thread in thread(),
        with_signature in any::<bool>(),
        with_thread in any::<bool>(),
    ) {
        let body = corpus().get(k).cloned().unwrap_or_default();
        prop_assume!(!body.trim().is_empty());
        let mut pasted = body.trim_end().to_string();
        if with_signature {
            pasted = format!("{pasted}\n\n{signature}");
        }
        if with_thread {
            pasted = format!("{pasted}\n\n{thread}");
        }
        prop_assert_eq!(read(&body), read(&pasted), "{}", pasted);
    }
}

/// A zone, how a text names it, and the postal codes or département it
/// stands for.
#[rustfmt::skip]
const ZONES: &[(&str, &[&str], Option<&str>)] = &[
    ("le 17e", &["75017"], None), ("Paris 16e", &["75016", "75116"], None),
    ("le 8e arrondissement", &["75008"], None), ("Montreuil", &["93100"], None),
    ("Boulogne", &["92100"], None), ("Saint-Denis", &["93200"], None),
    ("Vincennes", &["94300"], None), ("le 93", &[], Some("93")),
    ("la Seine-Saint-Denis", &[], Some("93")), ("les Hauts-de-Seine", &[], Some("92")),
    ("le Marais", &["75003", "75004"], None), ("Neuilly", &["92200"], None),
];

#[rustfmt::skip]
const CUES: &[&str] = &[
    "pas dans", "on évite", "surtout pas dans", "sauf", "hors", "pas côté", "à éviter :",
    "évitez", "not in", "pas à", "jamais dans",
];

#[rustfmt::skip]
const REQUESTS: &[&str] = &[
    "séminaire pour 40 personnes en U", "Bonjour, dîner de gala de 120 couverts à Paris",
    "cocktail 200 pax en petite couronne", "réunion de 12 personnes, Paris 11e ou Paris 12e",
    "afterwork pour 60 personnes", "conférence de 300 personnes en théâtre, près de la gare de Lyon",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn a_zone_ruled_out_is_never_searched(
        request in select(REQUESTS),
        cue in select(CUES),
        zone in select(ZONES),
        before in any::<bool>(),
    ) {
        let (name, codes, department) = zone;
        let ruled = format!("{cue} {name}");
        let text = if before {
            format!("{ruled}, {request}")
        } else {
            format!("{request}, {ruled}")
        };
        let c = extract(&text);
        // Nothing the request alone does not search, and the zone excluded.
        let alone = extract(request);
        for code in &c.postal_codes {
            prop_assert!(alone.postal_codes.contains(code), "{text}: {c:?}");
        }
        for d in &c.departments {
            prop_assert!(alone.departments.contains(d), "{text}: {c:?}");
        }
        for code in codes {
            prop_assert!(c.excluded_postal_codes.iter().any(|p| p == code), "{text}: {c:?}");
        }
        if let Some(d) = department {
            prop_assert!(c.excluded_departments.iter().any(|p| p == d), "{text}: {c:?}");
        }
        prop_assert!(!geo::fold(&c.semantic_query).contains(&geo::fold(name)), "{text}: {c:?}");
    }
}
