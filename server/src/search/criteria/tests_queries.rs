//! Realistic queries, table-driven: every field the extractor fills is
//! checked, so a change that helps one query and breaks another shows up.

use super::{extract, Configuration};

#[derive(Default)]
struct Case {
    text: &'static str,
    people: Option<u32>,
    max: Option<u32>,
    layouts: &'static [&'static str],
    codes: &'static [&'static str],
    /// Postal codes ruled out.
    excluded: &'static [&'static str],
    near: Option<(&'static str, f64)>,
    members: &'static [&'static str],
    broad: bool,
    semantic: Option<&'static str>,
}

fn q(text: &'static str) -> Case {
    Case {
        text,
        ..Case::default()
    }
}

impl Case {
    fn people(self, n: u32) -> Self {
        Case {
            people: Some(n),
            ..self
        }
    }
    fn range(self, min: u32, max: u32) -> Self {
        Case {
            people: Some(min),
            max: Some(max),
            ..self
        }
    }
    fn layouts(self, layouts: &'static [&'static str]) -> Self {
        Case { layouts, ..self }
    }
    fn codes(self, codes: &'static [&'static str]) -> Self {
        Case { codes, ..self }
    }
    fn excluded(self, excluded: &'static [&'static str]) -> Self {
        Case { excluded, ..self }
    }
    fn near(self, label: &'static str, radius_km: f64) -> Self {
        Case {
            near: Some((label, radius_km)),
            ..self
        }
    }
    fn members(self, members: &'static [&'static str]) -> Self {
        Case { members, ..self }
    }
    fn broad(self) -> Self {
        Case {
            broad: true,
            ..self
        }
    }
    fn semantic(self, semantic: &'static str) -> Self {
        Case {
            semantic: Some(semantic),
            ..self
        }
    }

    /// What differs from the expectation, if anything.
    fn mismatch(&self) -> Option<String> {
        let c = extract(self.text);
        let layouts: Vec<&str> = c
            .configurations
            .iter()
            .map(|l| Configuration::key(*l))
            .collect();
        let near = c
            .near
            .as_ref()
            .map(|n| (n.label.as_str(), n.radius_km.unwrap_or(0.0)));
        let mut diffs = Vec::new();
        let mut diff = |what: &str, got: String, want: String| {
            if got != want {
                diffs.push(format!("{what}: got {got}, want {want}"));
            }
        };
        diff(
            "participants",
            format!("{:?}", c.participants),
            format!("{:?}", self.people),
        );
        diff(
            "max",
            format!("{:?}", c.participants_max),
            format!("{:?}", self.max),
        );
        diff(
            "layouts",
            format!("{layouts:?}"),
            format!("{:?}", self.layouts),
        );
        diff(
            "postal codes",
            format!("{:?}", c.postal_codes),
            format!("{:?}", self.codes),
        );
        diff(
            "excluded postal codes",
            format!("{:?}", c.excluded_postal_codes),
            format!("{:?}", self.excluded),
        );
        diff("near", format!("{near:?}"), format!("{:?}", self.near));
        diff(
            "members",
            format!("{:?}", c.member_codes),
            format!("{:?}", self.members),
        );
        diff(
            "broad",
            format!("{:?}", c.broad_area),
            format!("{:?}", self.broad),
        );
        if let Some(semantic) = self.semantic {
            diff(
                "semantic",
                format!("{:?}", c.semantic_query),
                format!("{semantic:?}"),
            );
        }
        (!diffs.is_empty()).then(|| format!("{:?}\n    {}", self.text, diffs.join("\n    ")))
    }
}

fn cases() -> Vec<Case> {
    vec![
        // The seed's example and the brief's.
        q("Trouve-moi un rooftop dans le 8ème pour 100 personnes festif avec vue sur Paris")
            .people(100).codes(&["75008"]).semantic("rooftop festif avec vue sur Paris"),
        q("Soirée de lancement pour 180 personnes en cocktail dans le 8e, ambiance festive")
            .people(180).layouts(&["cocktail"]).codes(&["75008"])
            .semantic("Soirée de lancement, ambiance festive"),
        q("Séminaire de direction 25 personnes en U avec déjeuner")
            .people(25).layouts(&["u"]).semantic("Séminaire de direction avec déjeuner"),
        q("dîner assis 60 couverts près de la tour Eiffel")
            .people(60).layouts(&["banquet"]).near("Tour Eiffel", 0.0).semantic("dîner"),
        q("#102 et #157").members(&["#102", "#157"]).semantic(""),
        q("péniche pour 120 à moins de 3 km de Bercy").people(120).near("Bercy", 3.0).semantic("péniche"),
        q("loft industriel Paris 11 ou 20 pour 90 pers.")
            .people(90).codes(&["75011", "75020"]).semantic("loft industriel"),
        q("n'importe où en Île-de-France pour 300 personnes").people(300).broad().semantic(""),
        q("180 personnes en cocktail OU banquet").people(180).layouts(&["cocktail", "banquet"]).semantic(""),
        q("entre 80 et 120 personnes").range(80, 120).semantic(""),
        q("une centaine d'invités, ambiance chic").semantic("ambiance chic"),
        q("200 pax, salle modulable").people(200).semantic("salle modulable"),
        q("80 invités en dîner assis").people(80).layouts(&["banquet"]).semantic("dîner"),
        q("soirée debout pour 150").people(150).layouts(&["cocktail"]).semantic("soirée"),
        q("Paris 8 ou 17, style école/classe").codes(&["75008", "75017"]).layouts(&["ecole"]).semantic(""),
        q("11e arrondissement, cabaret pour 70").codes(&["75011"]).people(70).semantic("cabaret"),
        q("75011 en configuration cabaret").codes(&["75011"]).layouts(&["cabaret"]).semantic(""),
        q("un lieu à Boulogne").codes(&["92100"]).semantic(""),
        q("à moins de 5 km de la gare de Lyon").near("Gare de Lyon", 5.0).semantic(""),
        q("autour de La Défense").near("La Défense", 0.0).semantic(""),
        q("dans un rayon de 10 km autour de Versailles").near("Versailles", 10.0).semantic(""),
        // Demo-style requests.
        q("Séminaire annuel de 40 collaborateurs en réunion ou en U, plénière le matin et ateliers l'après-midi")
            .people(40).layouts(&["reunion", "u", "theatre"])
            .semantic("Séminaire annuel, plénière le matin et ateliers l'après-midi"),
        q("Keynote client de 200 invités en théâtre suivie d'un cocktail")
            .people(200).layouts(&["theatre", "cocktail"]).semantic("Keynote client suivie d'un cocktail"),
        q("Mariage de 120 invités : cocktail puis dîner assis en banquet, au vert avec un parc")
            .people(120).layouts(&["cocktail", "banquet"]).semantic("Mariage, cocktail puis dîner, au vert avec un parc"),
        q("Cocktail de networking pour 80 invités").people(80).layouts(&["cocktail"]).semantic("Cocktail de networking"),
        q("Comité de direction de 12 personnes en réunion, discrétion indispensable")
            .people(12).layouts(&["reunion"]).semantic("Comité de direction, discrétion indispensable"),
        q("Dîner de gala de 250 couverts en banquet, cadre prestigieux souhaité")
            .people(250).layouts(&["banquet"]).semantic("Dîner de gala, cadre prestigieux souhaité"),
        q("Formation de 15 personnes en école sur deux jours, vidéoprojecteur et paperboards")
            .people(15).layouts(&["ecole"]).semantic("Formation, vidéoprojecteur et paperboards"),
        // Places in their many spellings.
        q("VIIIe arrondissement, 75011, Saint Denis, st-ouen, Issy")
            .codes(&["75008", "75011", "93200", "93400", "92130"]).semantic(""),
        q("Paris 8e, 9e et 17e arrondissements").codes(&["75008", "75009", "75017"]).semantic(""),
        q("dans le 8e ou le 17e pour un afterwork").codes(&["75008", "75017"]).layouts(&["cocktail"]).semantic("pour un afterwork"),
        q("hôtel particulier du 18e siècle dans le XVIe")
            .codes(&["75016", "75116"]).semantic("hôtel particulier du 18e siècle"),
        q("lieu de 80 à 100 personnes dans le 16").range(80, 100).codes(&["75016", "75116"]).semantic(""),
        q("Sceaux ou Neuilly-sur-Marne, pas Neuilly").codes(&["92330", "93330"]).excluded(&["92200"]),
        q("la Plaine Saint-Denis, 300 personnes").people(300).codes(&["93210"]).semantic(""),
        q("restaurant rue Saint-Denis pour cinquante personnes")
            .people(50).semantic("restaurant rue Saint-Denis"),
        q("crème chantilly à volonté, porte de Saint-Cloud")
            .semantic("crème chantilly à volonté, porte de Saint-Cloud"),
        q("vue sur la tour Eiffel, rooftop 8e 100 pers")
            .people(100).codes(&["75008"]).semantic("vue sur la tour Eiffel, rooftop"),
        q("Paris Centre, galerie pour 60").people(60).codes(&["75001", "75002", "75003", "75004"]).semantic("galerie"),
        // Around a point.
        q("hôtel à 10 minutes à pied de la gare du Nord pour 40")
            .people(40).near("Gare du Nord", 0.8).semantic("hôtel"),
        q("domaine à une heure de Paris, 80 personnes").people(80).near("Paris", 50.0).semantic("domaine"),
        q("à 1,5 km de République pour 45 pers").people(45).near("République", 1.5).semantic(""),
        q("à 500 m de la gare Saint-Lazare").near("Gare Saint-Lazare", 0.5).semantic(""),
        q("dans le Marais ou à Saint-Germain-des-Prés, galerie pour 60")
            .people(60).codes(&["75003", "75004", "75006"]).semantic("galerie"),
        q("séminaire à La Défense, 50 personnes en théâtre")
            .people(50).layouts(&["theatre"]).codes(&["92400", "92800"]).semantic("séminaire"),
        q("un théâtre pour 300 personnes à Montmartre").people(300).codes(&["75018"]).semantic("théâtre"),
        q("près de Roissy, 30 chambres et une salle pour 100")
            .people(100).near("Aéroport Roissy-Charles-de-Gaulle", 0.0).semantic("30 chambres et une salle"),
        // Numbers that are not head counts.
        q("séminaire 2 jours, budget 80 €/pers, le 12 juin, à 10 minutes du métro")
            .semantic("séminaire, à 10 minutes du métro"),
        q("salle de 75 m² au 1er étage pour 40 personnes")
            .people(40).semantic("salle de 75 m² au 1er étage"),
        q("le 1er juin, 2e étage, pour la 3e fois").semantic("2e étage, pour la 3e fois"),
        q("budget 15 000 € pour 150 invités").people(150).semantic(""),
        q("pour 18h, 30 personnes").people(30).semantic(""),
        q("pour 2026, rooftop").semantic("rooftop"),
        q("pour le 2 et 3 juin").semantic(""),
        q("une quinzaine de jours avant l'événement").semantic("avant l'événement"),
        q("à plus de 20 km de Paris").semantic("à plus de 20 km de Paris"),
        // Wide areas and explicit venues.
        q("toute l'IDF mais idéalement Paris 15").codes(&["75015"]).semantic(""),
        q("région parisienne, 500 personnes debout").people(500).layouts(&["cocktail"]).broad().semantic(""),
        q("#102, #157 et #203 pour 50 personnes").people(50).members(&["#102", "#157", "#203"]).semantic(""),
        // Layout subtleties.
        q("pas de cocktail, dîner assis pour 40").people(40).layouts(&["banquet"]).semantic("dîner"),
        q("200 personnes en cocktail et 120 en dîner assis").people(200).layouts(&["cocktail", "banquet"]).semantic("dîner"),
        q("table en U pour 20, ou format réunion").people(20).layouts(&["u", "reunion"]).semantic(""),
        q("réunion d'équipe de 8 personnes").people(8).layouts(&["reunion"]).semantic("réunion"),
        q("ancienne école reconvertie, 90 personnes").people(90).semantic("ancienne école reconvertie"),
        // Search-box shorthand.
        q("restaurant privatisable 40 couverts Paris 17 ou Neuilly")
            .people(40)
            .codes(&["75017", "92200"])
            .semantic("restaurant privatisable"),
        q("lieu atypique Paris 11e/12e 200 debout")
            .people(200)
            .layouts(&["cocktail"])
            .codes(&["75011", "75012"])
            .semantic("atypique"),
        q("Hôtel 4* avec salle plénière 120 pers. en théâtre + 4 sous-commissions, proche gare Montparnasse")
            .people(120)
            .layouts(&["theatre"])
            .near("Gare Montparnasse", 0.0)
            .semantic("Hôtel 4* avec salle plénière, 4 sous-commissions"),
        q("boardroom 12 personnes Champs-Élysées")
            .people(12)
            .layouts(&["reunion"])
            .codes(&["75008"])
            .semantic(""),
        q("brunch pour 35 adultes et 10 enfants").people(45).semantic("brunch"),
        q("mariage 180 invités, à 45 min de Paris en voiture")
            .people(180)
            .near("Paris", 37.5)
            .semantic("mariage"),
        q("Paris 8, 16, 17").codes(&["75008", "75016", "75116", "75017"]).semantic(""),
        // Case, accents, odd input.
        q("PARIS 11E, ROOFTOP, 80 PERSONNES").people(80).codes(&["75011"]).semantic("ROOFTOP"),
        q("Paris VIII, 1 000 personnes debout").people(1000).codes(&["75008"]).layouts(&["cocktail"]).semantic(""),
        q("cinquante à soixante personnes au Trocadéro").range(50, 60).near("Trocadéro", 0.0).semantic(""),
        q("").semantic(""),
        q("  \n\t ").semantic(""),
        q("🎉 soirée 🎉").semantic("🎉 soirée 🎉"),
    ]
}

#[test]
fn realistic_queries() {
    let failures: Vec<String> = cases().iter().filter_map(Case::mismatch).collect();
    assert!(
        failures.is_empty(),
        "{} of {} queries differ:\n{}",
        failures.len(),
        cases().len(),
        failures.join("\n")
    );
}
