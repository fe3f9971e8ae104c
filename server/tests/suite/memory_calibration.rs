//! The calibration set and the metrics of `maxy calibrate memory`: the
//! committed set parses and its labels point at its memories; precision,
//! recall, distributions, top-1 and the suggested floor on hand-made scores.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design
use server::memory::calibration::{
    document_text, metrics, Calibration, CalibrationSet, SetError, DEFAULT_SET,
};
use server::memory::floor;

#[test]
fn the_committed_set_parses_and_every_label_names_one_of_its_memories() {
    let set = CalibrationSet::parse(DEFAULT_SET).unwrap();
    assert!(set.memories.len() >= 40, "{}", set.memories.len());
    assert!(set.queries.len() >= 30, "{}", set.queries.len());
    for q in &set.queries {
        for label in &q.related {
            assert!(
                set.memories.iter().any(|m| &m.id == label),
                "{}: {label}",
                q.id
            );
        }
    }
    // The cases the issue names are in the set, labelled as it says.
    let related_of = |text: &str| {
        let q = set.queries.iter().find(|q| q.text.contains(text)).unwrap();
        q.related
            .iter()
            .map(|id| {
                let m = set.memories.iter().find(|m| &m.id == id).unwrap();
                document_text(m)
            })
            .collect::<Vec<_>>()
    };
    assert!(related_of("médicaments")[0].contains("paracétamol"));
    assert!(related_of("rooftop")[0].contains("terrasse sur le toit"));
    assert!(related_of("traiteur")
        .iter()
        .any(|t| t.contains("traiteur")));
    assert!(related_of("catering")
        .iter()
        .all(|t| !t.contains("catering")));
    // Some English, some queries that relate to nothing.
    assert!(set
        .queries
        .iter()
        .any(|q| q.text.contains("which organizer")));
    assert!(set.queries.iter().filter(|q| q.related.is_empty()).count() >= 3);
    // Every memory is the answer to at least one query.
    for m in &set.memories {
        assert!(
            set.queries.iter().any(|q| q.related.contains(&m.id)),
            "{} is never asked for",
            m.id
        );
    }
}

#[test]
fn a_broken_set_is_refused_with_the_reason() {
    let memory = r#"{"id": "m1", "kind": "memory", "title": "", "content": "paracétamol"}"#;
    let set = |memories: &str, queries: &str| {
        CalibrationSet::parse(&format!(
            r#"{{"memories": [{memories}], "queries": [{queries}]}}"#
        ))
    };
    assert_eq!(
        set(
            memory,
            r#"{"id": "q1", "text": "médicaments", "related": ["m2"]}"#
        )
        .unwrap_err(),
        SetError::UnknownLabel {
            query: "q1".into(),
            memory: "m2".into()
        }
    );
    assert_eq!(
        set(
            &format!("{memory}, {memory}"),
            r#"{"id": "q1", "text": "x", "related": []}"#
        )
        .unwrap_err(),
        SetError::DuplicateId("m1".into())
    );
    assert_eq!(
        set(memory, r#"{"id": "q1", "text": "  ", "related": []}"#).unwrap_err(),
        SetError::EmptyText("q1".into())
    );
    assert_eq!(set(memory, "").unwrap_err(), SetError::Empty("queries"));
    assert!(matches!(
        set(memory, r#"{"id": "q1", "txt": "x", "related": []}"#),
        Err(SetError::Json(_))
    ));
    let ok = set(
        memory,
        r#"{"id": "q1", "text": "médicaments", "related": ["m1"]}"#,
    )
    .unwrap();
    assert_eq!(ok.relation_matrix(), vec![vec![true]]);
}

/// Three queries × three memories: q1 relates to m1 (0.90) and m2 (0.80),
/// q2 to m3 (0.75), q3 to nothing.
fn hand_made() -> Calibration {
    Calibration::new(
        vec![
            vec![0.90, 0.80, 0.70],
            vec![0.85, 0.72, 0.75],
            vec![0.71, 0.78, 0.74],
        ],
        vec![
            vec![true, true, false],
            vec![false, false, true],
            vec![false, false, false],
        ],
    )
}

#[test]
fn precision_and_recall_count_pairs_at_or_above_the_floor() {
    let c = hand_made();
    assert_eq!((c.related_pairs(), c.unrelated_pairs()), (3, 6));

    // At 0.75: related 0.90, 0.80, 0.75 pass (TP 3); unrelated 0.85, 0.78 pass (FP 2).
    let r = c.at(0.75);
    assert_eq!(
        (r.true_positives, r.false_positives, r.false_negatives),
        (3, 2, 0)
    );
    assert!((r.precision - 0.6).abs() < 1e-9);
    assert!((r.recall - 1.0).abs() < 1e-9);
    assert!((r.f1 - 0.75).abs() < 1e-9);
    assert_eq!(r.queries_found, 2);
    assert_eq!(r.negatives_silent, 0, "q3's 0.78 passes");

    // At 0.80: related 0.90, 0.80 (TP 2, FN 1); unrelated 0.85 (FP 1).
    let r = c.at(0.80);
    assert_eq!(
        (r.true_positives, r.false_positives, r.false_negatives),
        (2, 1, 1)
    );
    assert!((r.precision - 2.0 / 3.0).abs() < 1e-9);
    assert!((r.recall - 2.0 / 3.0).abs() < 1e-9);
    assert_eq!(r.queries_found, 1);
    assert_eq!(r.negatives_silent, 1);

    // Above every score: nothing passes, precision counts as 1, recall 0.
    let r = c.at(0.95);
    assert_eq!(
        (r.true_positives, r.false_positives, r.false_negatives),
        (0, 0, 3)
    );
    assert_eq!((r.precision, r.recall, r.f1), (1.0, 0.0, 0.0));

    let floors: Vec<f64> = c.rows().iter().map(|r| r.floor).collect();
    assert_eq!(floors.len(), 26);
    assert!((floors[0] - 0.70).abs() < 1e-9 && (floors[25] - 0.95).abs() < 1e-9);
}

#[test]
fn top1_distributions_and_the_suggested_floor() {
    let c = hand_made();
    // q1's best is m1 (related); q2's best is m1 (0.85, unrelated); q3 has no label.
    assert!((c.top1_accuracy() - 0.5).abs() < 1e-9);

    let (related, unrelated) = c.distributions();
    let related = related.unwrap();
    assert_eq!(
        (related.count, related.min, related.median, related.max),
        (3, 0.75, 0.80, 0.90)
    );
    let unrelated = unrelated.unwrap();
    assert_eq!(
        (unrelated.count, unrelated.min, unrelated.max),
        (6, 0.70, 0.85)
    );

    // Recall >= 0.9 holds up to 0.75; among those floors F1 is best at 0.75.
    let s = c.suggest(0.9).unwrap();
    assert!((s.floor - 0.75).abs() < 1e-9, "{s:?}");
    // Without a recall constraint the best F1 wins (0.79 and 0.80 reach
    // 0.667, 0.75 reaches 0.75).
    let s = c.suggest(0.0).unwrap();
    assert!((s.floor - 0.75).abs() < 1e-9, "{s:?}");
    // No floor reaches recall 1.01: the best F1 overall.
    assert!((c.suggest(1.01).unwrap().floor - 0.75).abs() < 1e-9);

    let report = c.report(metrics::MIN_RECALL);
    assert!(report.contains("suggested floor: 0.75"), "{report}");
    assert!(report.contains("top-1 accuracy: 0.500"), "{report}");
    assert!(report.contains("3: relates to nothing"), "{report}");
}

#[test]
fn the_local_model_has_its_tuning_and_the_setting_wins() {
    let tuned = floor::tuning_for("multilingual-e5-small-q4").unwrap();
    assert_eq!(floor::for_model("multilingual-e5-small-q4", None), tuned);
    assert_eq!(
        floor::for_model("multilingual-e5-small-q4", Some(0.7)).keep_floor,
        0.7
    );
    assert_eq!(
        floor::for_model("text-embedding-3-small", None),
        floor::UNCALIBRATED
    );
}

#[test]
fn a_bad_floor_setting_stops_the_configuration() {
    use server::config::{Config, ConfigError, Env};
    for bad in ["1.5", "-0.2", "abc"] {
        let err = Config::from_source(&Env::from_pairs([("MAXY_MEMORY_SIMILARITY_FLOOR", bad)]))
            .unwrap_err();
        assert!(
            matches!(&err, ConfigError::Invalid { var, .. } if var == "MAXY_MEMORY_SIMILARITY_FLOOR"),
            "{bad}: {err:?}"
        );
        assert!(err.to_string().contains("from 0 to 1"), "{err}");
    }
    let config =
        Config::from_source(&Env::from_pairs([("MAXY_MEMORY_SIMILARITY_FLOOR", "0.8")])).unwrap();
    assert_eq!(config.memory.similarity_floor, Some(0.8));
    assert_eq!(
        Config::from_source(&Env::from_pairs([]))
            .unwrap()
            .memory
            .similarity_floor,
        None
    );
}
