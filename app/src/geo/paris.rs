//! The twenty arrondissements of Paris: postal codes and centres.
//!
//! The demo data places its venues around these centres (`demo::geography`
//! reads them through `geo::at`), so distances computed here agree with the
//! seeded coordinates.

/// One arrondissement of Paris.
#[derive(Debug, PartialEq)]
pub struct Arrondissement {
    /// 1 to 20.
    pub number: u8,
    /// How French writes it: "Paris 1er", "Paris 8e".
    pub name: &'static str,
    /// The main postal code ("75008").
    pub postal_code: &'static str,
    /// Other postal codes of the same arrondissement: the north of the 16th
    /// is "75116", and venues there are stored with that code.
    pub other_postal_codes: &'static [&'static str],
    pub lat: f64,
    pub lng: f64,
}

impl Arrondissement {
    /// Every postal code of the arrondissement, main one first.
    pub fn postal_codes(&self) -> impl Iterator<Item = &'static str> {
        std::iter::once(self.postal_code).chain(self.other_postal_codes.iter().copied())
    }
}

const fn arr(
    number: u8,
    name: &'static str,
    postal_code: &'static str,
    lat: f64,
    lng: f64,
) -> Arrondissement {
    Arrondissement {
        number,
        name,
        postal_code,
        other_postal_codes: &[],
        lat,
        lng,
    }
}

/// Paris, 1st to 20th, in order (index = number - 1).
#[rustfmt::skip]
pub const ARRONDISSEMENTS: [Arrondissement; 20] = [
    arr(1, "Paris 1er", "75001", 48.8625, 2.3364),
    arr(2, "Paris 2e", "75002", 48.8683, 2.3428),
    arr(3, "Paris 3e", "75003", 48.8630, 2.3601),
    arr(4, "Paris 4e", "75004", 48.8543, 2.3576),
    arr(5, "Paris 5e", "75005", 48.8445, 2.3497),
    arr(6, "Paris 6e", "75006", 48.8491, 2.3328),
    arr(7, "Paris 7e", "75007", 48.8562, 2.3122),
    arr(8, "Paris 8e", "75008", 48.8727, 2.3125),
    arr(9, "Paris 9e", "75009", 48.8770, 2.3375),
    arr(10, "Paris 10e", "75010", 48.8761, 2.3608),
    arr(11, "Paris 11e", "75011", 48.8590, 2.3800),
    arr(12, "Paris 12e", "75012", 48.8405, 2.3880),
    arr(13, "Paris 13e", "75013", 48.8283, 2.3623),
    arr(14, "Paris 14e", "75014", 48.8292, 2.3265),
    arr(15, "Paris 15e", "75015", 48.8401, 2.2934),
    Arrondissement { number: 16, name: "Paris 16e", postal_code: "75016", other_postal_codes: &["75116"], lat: 48.8630, lng: 2.2760 },
    arr(17, "Paris 17e", "75017", 48.8873, 2.3067),
    arr(18, "Paris 18e", "75018", 48.8925, 2.3484),
    arr(19, "Paris 19e", "75019", 48.8871, 2.3848),
    arr(20, "Paris 20e", "75020", 48.8634, 2.4010),
];

/// Centre of Paris (parvis de Notre-Dame, point zéro des routes de France):
/// what "à 30 km de Paris" measures from.
pub const PARIS_CENTRE: (f64, f64) = (48.8534, 2.3488);
