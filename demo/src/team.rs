//! The internal team (every demo account signs in with [`DEMO_PASSWORD`])
//! and their favourite venues.

use std::collections::BTreeSet;

use super::dice::{self, Concept};
use super::index::Index;
use super::model::{Dataset, Favorite, User, BASE};

/// (email, display name, role, profiles, pool slug the person mostly handles).
pub const TEAM: &[(&str, &str, &str, &[&str], &str)] = &[
    (
        "admin@reciprok.fr",
        "Admin Reciprok",
        "admin",
        &["admin"],
        "",
    ),
    (
        "camille.martin@reciprok.fr",
        "Camille Martin",
        "team",
        &["sales", "senior"],
        "hotels",
    ),
    (
        "julien.bernard@reciprok.fr",
        "Julien Bernard",
        "team",
        &["sales"],
        "lieux-atypiques",
    ),
    (
        "sophie.lefebvre@reciprok.fr",
        "Sophie Lefebvre",
        "team",
        &["account-manager", "senior"],
        "chateaux",
    ),
    (
        "thomas.moreau@reciprok.fr",
        "Thomas Moreau",
        "team",
        &["sales"],
        "restaurants",
    ),
    (
        "lea.dubois@reciprok.fr",
        "Léa Dubois",
        "team",
        &["sales", "junior"],
        "salles-seminaires",
    ),
    (
        "antoine.girard@reciprok.fr",
        "Antoine Girard",
        "team",
        &["manager"],
        "lieux-atypiques",
    ),
];

/// Ids of the team members who handle requests (not the admin).
pub const HANDLERS: std::ops::RangeInclusive<i64> = 2..=7;

/// The password of every demo account (printed by `maxy seed` and the run
/// command). Demo data is for local use: never seed a public deployment.
pub const DEMO_PASSWORD: &str = "maxy-demo-2026";

/// The argon2id hash of [`DEMO_PASSWORD`] for `email`, salted from the e-mail
/// so the same seed still gives byte-identical data. Argon2 with its
/// defaults, as the server hashes and verifies passwords (every test that
/// signs in with a demo account checks that the two agree).
pub fn demo_password_hash(email: &str) -> anyhow::Result<String> {
    use argon2::PasswordHasher as _;
    use sha2::Digest;
    let salt_bytes = sha2::Sha256::digest(email.as_bytes());
    let salt = argon2::password_hash::SaltString::encode_b64(&salt_bytes[..16])
        .map_err(|e| anyhow::anyhow!("demo salt: {e}"))?;
    argon2::Argon2::default()
        .hash_password(DEMO_PASSWORD.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| anyhow::anyhow!("demo password hash: {e}"))
}

const NOTES: &[&str] = &[
    "Toujours réactifs, accueil impeccable.",
    "Excellent rapport qualité-prix.",
    "Chef très arrangeant sur les menus.",
    "Parfait pour les clients premium.",
    "Le gérant répond même le week-end.",
    "Clients ravis à chaque fois.",
];

pub fn fill(data: &mut Dataset, seed: u64, index: &Index) {
    data.users = TEAM
        .iter()
        .enumerate()
        .map(|(i, (email, display_name, role, profiles, _))| User {
            id: i as i64 + 1,
            email,
            display_name,
            role,
            profiles: profiles.to_vec(),
            created_at: BASE.plus_days(-400 + 20 * i as i64),
        })
        .collect();
    let per_user = (data.members.len() / 150).clamp(5, 120);
    for user_id in HANDLERS {
        let mut rng = dice::stream(seed, Concept::Team, user_id as u64);
        let home = home_pool(user_id);
        let mut chosen = BTreeSet::new();
        for _ in 0..per_user * 3 {
            if chosen.len() >= per_user {
                break;
            }
            // Mostly venues of the pool the person handles, some elsewhere.
            let pool = if dice::chance(&mut rng, 0.7) {
                home
            } else {
                dice::between(&mut rng, 0, 4) as usize
            };
            if let Some(&member) = index
                .active_in_pool(pool)
                .get(rng_index(&mut rng, index.active_in_pool(pool).len()))
            {
                chosen.insert(member);
            }
        }
        for member in chosen {
            data.favorites.push(Favorite {
                user_id,
                member_id: data.members[member].id,
                note: dice::chance(&mut rng, 0.4).then(|| *dice::pick(&mut rng, NOTES)),
                created_at: BASE
                    .plus_days(-dice::between(&mut rng, 1, 400))
                    .plus_minutes(dice::between(&mut rng, 480, 1140)),
            });
        }
    }
}

/// Index into `POOLS` of the pool a team member mostly handles.
pub fn home_pool(user_id: i64) -> usize {
    let slug = usize::try_from(user_id - 1)
        .ok()
        .and_then(|i| TEAM.get(i))
        .map_or("", |t| t.4);
    super::pools::POOLS
        .iter()
        .position(|p| p.slug == slug)
        .unwrap_or(0)
}

fn rng_index(rng: &mut dice::Dice, len: usize) -> usize {
    if len == 0 {
        0
    } else {
        dice::between(rng, 0, len as i64 - 1) as usize
    }
}
