//! The synthetic users and memories of `maxy bench memory`, seeded once and
//! deterministically: vectors that cluster like texts do, and texts that
//! read as a team's French notes, so the full-text step finds as many rows
//! for a common word as it would in real life.
use super::{Options, MODEL};
use pgvector::Vector;
use rand::{Rng, SeedableRng};
use sqlx::PgPool;
use std::time::Instant;

/// The first words of every synthetic note before they read as French
/// notes: such a database is seeded again.
const OLD_TEXT: &str = "Note de banc";

/// The synthetic notes' vocabulary: a title, then « opener action when. »,
/// every third note with an extra sentence. Common words recur across the
/// lists at the rate they would in a team's notes: « semaine » in about a
/// quarter of the rows, « salle » as often, « traiteur » in a fifth.
const TEXTS: [&[&str]; 5] = [
    &[
        "Traiteur du Belvédère",
        "Salle Wagram",
        "Péniche Marcounet",
        "Rooftop Montmartre",
        "Séminaire Axa",
        "Mariage Dupont",
        "Budget séminaire",
        "Visite hôtel Lutetia",
        "Soirée de gala",
        "Déjeuner d'équipe",
        "Loft Bastille",
        "Château de Vaux",
        "Médicaments",
        "Relance devis",
        "Parking",
        "Cocktail BNP",
        "Pavillon Ledoyen",
        "Conférence annuelle",
        "Traiteur Potel",
        "Salle de réunion du 8e",
        "Julie",
        "Anniversaire Martin",
        "Terrasse Batignolles",
        "Rendez-vous comptable",
    ],
    &[
        "Le traiteur",
        "La salle",
        "Le lieu",
        "Claire",
        "L'organisateur",
        "Le client",
        "La péniche",
        "Le rooftop",
        "L'hôtel",
        "Julie",
        "Le gérant",
        "La responsable événementiel",
        "Le château",
        "Marc",
        "Le prestataire",
        "L'agence",
    ],
    &[
        "préfère un cocktail dînatoire",
        "refuse les mariages",
        "demande un devis détaillé",
        "a eu un problème de parking",
        "propose une remise de 10 %",
        "ferme tout le mois d'août",
        "veut une terrasse couverte",
        "accepte jusqu'à 150 personnes",
        "n'a pas de cuisine sur place",
        "demande un acompte de 30 %",
        "a changé de numéro de téléphone",
        "impose son propre traiteur",
        "a validé le menu végétarien",
        "attend la confirmation du budget",
        "cherche une salle pour 80 personnes",
        "coupe la musique à 22 h",
        "a besoin d'un vidéoprojecteur",
        "veut visiter la salle avant de signer",
        "a annulé la réservation",
        "propose un forfait journée d'étude",
    ],
    &[
        "cette semaine",
        "la semaine prochaine",
        "avant vendredi",
        "pour le séminaire de juin",
        "lundi matin",
        "d'ici la fin du mois",
        "pour la soirée du 12",
        "après la visite de jeudi",
        "depuis janvier",
        "pour l'événement de septembre",
        "dans la semaine",
        "avant les vacances",
        "pour le mariage de juillet",
        "demain",
    ],
    &[
        "Rappeler Julie.",
        "Prévoir un acompte.",
        "Vérifier l'accès PMR.",
        "Le traiteur doit confirmer le menu.",
        "Demander les plans de la salle.",
        "Penser à prendre les médicaments.",
        "Envoyer le contrat signé.",
        "Budget serré, négocier.",
        "Comparer avec la salle Wagram.",
        "Voir avec Claire pour le parking.",
        "Relancer la semaine prochaine.",
        "Bon contact, à recommander.",
    ],
];

/// Seeds the synthetic users and memories once; returns the users' ids.
pub(super) async fn seed(db: &PgPool, opts: &Options, dims: u32) -> anyhow::Result<Vec<i64>> {
    let want = opts.users * opts.per_user;
    let (have, old): (i64, bool) = sqlx::query_as(
        "SELECT count(*), coalesce(bool_or(content LIKE $2 || '%'), false)
           FROM ai_memories WHERE embedding_model = $1",
    )
    .bind(MODEL)
    .bind(OLD_TEXT)
    .fetch_one(db)
    .await?;
    let mut tx = db.begin().await?;
    let users: Vec<i64> = sqlx::query_scalar(
        "WITH wanted AS (
             SELECT 'bench-memory-' || g || '@bench.invalid' AS email, 'Banc ' || g AS name
               FROM generate_series(1, $1) g
         ), inserted AS (
             INSERT INTO users (email, display_name) SELECT email, name FROM wanted
             ON CONFLICT (email) DO NOTHING RETURNING id
         )
         SELECT id FROM users WHERE email IN (SELECT email FROM wanted)
         UNION SELECT id FROM inserted ORDER BY 1",
    )
    .bind(opts.users)
    .fetch_all(&mut *tx)
    .await?;
    if have >= want && !old {
        tx.commit().await?;
        return Ok(users);
    }
    println!("seeding {want} synthetic memories ({dims} dims; minutes per million)…");
    let started = Instant::now();
    sqlx::query("DELETE FROM ai_memories WHERE embedding_model = $1")
        .bind(MODEL)
        .execute(&mut *tx)
        .await?;
    let mut rng = rand::rngs::StdRng::seed_from_u64(42);
    let mut random_vectors = |scale: f32| -> Vec<Vector> {
        (0..1000)
            .map(|_| {
                Vector::from(
                    (0..dims)
                        .map(|_| (rng.random::<f32>() - 0.5) * scale)
                        .collect::<Vec<_>>(),
                )
            })
            .collect()
    };
    let bases = random_vectors(1.0);
    let offsets = random_vectors(0.6);
    // Indexing a bound array per row would copy it each time: the two sets
    // go to temporary tables, joined on their index.
    for (table, vectors) in [("bench_bases", &bases), ("bench_offsets", &offsets)] {
        sqlx::query(&format!(
            "CREATE TEMP TABLE {table} ON COMMIT DROP AS
               SELECT (n - 1)::bigint AS k, v FROM unnest($1::vector[]) WITH ORDINALITY AS x(v, n)"
        ))
        .bind(vectors)
        .execute(&mut *tx)
        .await?;
    }
    // Rows interleave users, as months of notes do: user u's rows are
    // spread over the whole table, one heap page each. Each list is indexed
    // by its own multiplicative hash of i (modulo a prime), so a user's
    // notes (every 101st i) still mix every fragment with every other.
    sqlx::query(&format!(
        "INSERT INTO ai_memories (user_id, title, content, source, embedding, embedding_model, created_at)
         SELECT ($1::bigint[])[1 + i % $2],
                ($5::text[])[1 + (i * 7919 % 1000003) % cardinality($5::text[])],
                ($6::text[])[1 + (i * 104729 % 1000003) % cardinality($6::text[])] || ' '
                  || ($7::text[])[1 + (i * 1299709 % 1000003) % cardinality($7::text[])] || ' '
                  || ($8::text[])[1 + (i * 15485863 % 1000003) % cardinality($8::text[])] || '.'
                  || CASE WHEN i % 3 = 0 THEN ' ' || ($9::text[])[1 + (i * 179424673 % 1000003) % cardinality($9::text[])] ELSE '' END,
                'manual', (b.v + o.v)::vector({dims}), $3, now() - ($4 - i) * interval '30 seconds'
           FROM generate_series(0::bigint, $4 - 1) i
           JOIN bench_bases b ON b.k = (i * 7919) % 1000
           JOIN bench_offsets o ON o.k = (i / 1000 + i * 31) % 1000"
    ))
    .bind(&users)
    .bind(opts.users)
    .bind(MODEL)
    .bind(want)
    .bind(TEXTS[0])
    .bind(TEXTS[1])
    .bind(TEXTS[2])
    .bind(TEXTS[3])
    .bind(TEXTS[4])
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    sqlx::query("VACUUM ANALYZE ai_memories")
        .execute(db)
        .await?;
    println!("  seeded in {:.0} s", started.elapsed().as_secs_f64());
    Ok(users)
}
