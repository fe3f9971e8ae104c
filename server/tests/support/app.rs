//! A real server on a loopback port, and a browser-like client for it
//! (same-origin headers, cookies handled by hand so tests can see them).
use reqwest::header::{HeaderMap, HeaderValue, COOKIE, ORIGIN, SET_COOKIE};
use reqwest::{redirect, Response, StatusCode};
use sqlx::PgPool;
use std::net::SocketAddr;

pub struct TestApp {
    pub addr: SocketAddr,
    pub db: PgPool,
    client: reqwest::Client,
    /// The session cookie's name (`__Host-` prefixed when the public URL is https).
    cookie_name: &'static str,
    /// Keeps the organizer pages' listener running (dropped: it stops).
    _listening: Option<tokio::sync::watch::Sender<bool>>,
}

/// What a call returned, with the body read.
pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: String,
}

impl Reply {
    async fn from(response: Response) -> Reply {
        let status = response.status();
        let headers = response.headers().clone();
        let body = response.text().await.unwrap_or_default();
        Reply {
            status,
            headers,
            body,
        }
    }

    /// `maxy_form_error=…` as a refused no-JavaScript post's redirect sets
    /// it: the page shows the error in its URL only with this cookie.
    pub fn form_error_cookie(&self) -> String {
        self.headers
            .get_all("set-cookie")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find(|c| c.starts_with("maxy_form_error="))
            .and_then(|c| c.split(';').next())
            .unwrap_or_else(|| panic!("the redirect sets no form-error cookie: {:?}", self.headers))
            .to_string()
    }

    pub fn location(&self) -> &str {
        self.headers
            .get("location")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
    }

    /// The session token the server set, if any (`None` for a clearing cookie).
    pub fn session_cookie(&self) -> Option<String> {
        self.headers
            .get_all(SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .find_map(|c| {
                let c = c.strip_prefix("__Host-").unwrap_or(c);
                let value = c.strip_prefix("maxy_session=")?.split(';').next()?;
                Some(value.to_string()).filter(|v| !v.is_empty())
            })
    }

    pub fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or(serde_json::Value::Null)
    }
}

impl TestApp {
    pub async fn start(db: PgPool) -> TestApp {
        TestApp::start_with(db, &[]).await
    }

    /// A server with more settings (`MAXY_PUBLIC_URL`…).
    pub async fn start_with(db: PgPool, settings: &[(&str, &str)]) -> TestApp {
        let embeddings = super::fake_embedding_server().await;
        let state = super::app_state_with(db.clone(), embeddings, settings);
        TestApp::serve(db, state, None).await
    }

    /// A server that listens for changes to the organizer pages, as `maxy
    /// serve` does (and so sends them again without reading the database
    /// until a change is heard).
    #[allow(dead_code)] // only the organizer page's tests use it
    pub async fn start_following_pages(db: PgPool) -> TestApp {
        let embeddings = super::fake_embedding_server().await;
        let state = super::app_state_with(db.clone(), embeddings, &[]);
        let (stop, shutdown) = tokio::sync::watch::channel(false);
        tokio::spawn(server::link_views::page_changes::follow(
            state.link_views.page_changes.clone(),
            db.clone(),
            shutdown,
        ));
        // Listening before the first request, as a started server would be.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while state.link_views.page_changes.current().is_none() {
            assert!(std::time::Instant::now() < deadline, "LISTEN never started");
            tokio::time::sleep(std::time::Duration::from_millis(10)).await;
        }
        TestApp::serve(db, state, Some(stop)).await
    }

    async fn serve(
        db: PgPool,
        state: server::state::AppState,
        listening: Option<tokio::sync::watch::Sender<bool>>,
    ) -> TestApp {
        let cookie_name = server::auth::sessions::cookie_name(&state.config.auth);
        let app = server::http::router(state);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        tokio::spawn(async move {
            axum::serve(
                listener,
                app.into_make_service_with_connect_info::<SocketAddr>(),
            )
            .await
        });
        // A request that hangs fails its test within a minute instead of
        // holding the whole suite. (The rare page hangs seen in CI were a
        // router built while another rendered: `router_builds.rs`.)
        let client = reqwest::Client::builder()
            .redirect(redirect::Policy::none())
            .timeout(std::time::Duration::from_secs(60))
            .build()
            .expect("client");
        TestApp {
            addr,
            db,
            client,
            cookie_name,
            _listening: listening,
        }
    }

    /// A client of a `maxy serve` process a test started at `addr` (on
    /// `db`, with the default settings' cookie name).
    #[allow(dead_code)] // only the process tests use it
    pub fn external(addr: SocketAddr, db: PgPool) -> TestApp {
        TestApp {
            addr,
            db,
            client: reqwest::Client::builder()
                .redirect(redirect::Policy::none())
                .timeout(std::time::Duration::from_secs(60))
                .build()
                .expect("client"),
            cookie_name: "maxy_session",
            _listening: None,
        }
    }

    /// A server whose assistant calls a local model speaking Anthropic's
    /// wire at `model_url`, with more settings.
    pub async fn on_model(db: PgPool, model_url: &str, settings: &[(&str, &str)]) -> TestApp {
        let mut all = vec![
            ("MAXY_LLM_PROVIDER", "anthropic"),
            ("MAXY_ANTHROPIC_API_KEY", super::anthropic::KEY),
            ("MAXY_ANTHROPIC_BASE_URL", model_url),
        ];
        all.extend_from_slice(settings);
        TestApp::start_with(db, &all).await
    }

    /// The `Cookie` header value that carries `session`.
    pub fn cookie(&self, session: &str) -> String {
        format!("{}={session}", self.cookie_name)
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// A conversation's SSE log after `after`, until `idle`, as the chat
    /// page follows it: (seq, event).
    pub async fn events(
        &self,
        session: &str,
        conversation: i64,
        after: i64,
    ) -> Vec<(i64, serde_json::Value)> {
        use eventsource_stream::Eventsource;
        use futures_util::StreamExt;
        let response = reqwest::Client::new()
            .get(self.url(&format!(
                "/api/chat/conversations/{conversation}/events?after={after}"
            )))
            .header("cookie", self.cookie(session))
            .timeout(std::time::Duration::from_secs(120))
            .send()
            .await
            .expect("events");
        let mut events = Vec::new();
        let mut stream = response.bytes_stream().eventsource();
        while let Some(event) = stream.next().await {
            let event = event.expect("sse");
            if event.event == "idle" {
                break;
            }
            let json: serde_json::Value = serde_json::from_str(&event.data).expect("json");
            events.push((
                json["seq"].as_i64().unwrap_or_default(),
                json["event"].clone(),
            ));
        }
        events
    }

    fn headers(&self, session: Option<&str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(token) = session {
            headers.insert(
                COOKIE,
                HeaderValue::from_str(&format!("{}={token}", self.cookie_name)).expect("cookie"),
            );
        }
        headers
    }

    pub async fn get(&self, path: &str, session: Option<&str>) -> Reply {
        self.get_with(path, session, &[]).await
    }

    /// A GET with extra headers (`Sec-Fetch-Site`, `Referer`…).
    pub async fn get_with(
        &self,
        path: &str,
        session: Option<&str>,
        extra: &[(&str, &str)],
    ) -> Reply {
        let mut request = self
            .client
            .get(self.url(path))
            .headers(self.headers(session));
        for (k, v) in extra {
            request = request.header(*k, *v);
        }
        Reply::from(request.send().await.expect("get")).await
    }

    /// A same-origin form post, as our own pages send it.
    pub async fn post_form(
        &self,
        path: &str,
        fields: &[(&str, &str)],
        session: Option<&str>,
    ) -> Reply {
        let body = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(fields)
            .finish();
        self.send(
            reqwest::Method::POST,
            path,
            Some("application/x-www-form-urlencoded"),
            body.into_bytes(),
            session,
        )
        .await
    }

    /// Any method with any body and content type, from our own origin.
    pub async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        content_type: Option<&str>,
        body: Vec<u8>,
        session: Option<&str>,
    ) -> Reply {
        let mut headers = self.headers(session);
        headers.insert(
            ORIGIN,
            HeaderValue::from_str(&self.url("")).expect("origin"),
        );
        let mut request = self
            .client
            .request(method, self.url(path))
            .headers(headers)
            .body(body);
        if let Some(content_type) = content_type {
            request = request.header("content-type", content_type);
        }
        Reply::from(request.send().await.expect("send")).await
    }

    /// A post with exactly the given extra headers (no Origin unless given).
    pub async fn post_raw(
        &self,
        path: &str,
        fields: &[(&str, &str)],
        extra: &[(&str, &str)],
    ) -> Reply {
        let mut request = self.client.post(self.url(path)).form(fields);
        for (k, v) in extra {
            request = request.header(*k, *v);
        }
        Reply::from(request.send().await.expect("post")).await
    }

    /// Signs in through the form and returns the session token.
    pub async fn sign_in(&self, email: &str, password: &str) -> String {
        let reply = self
            .post_form(
                "/connexion",
                &[("email", email), ("password", password)],
                None,
            )
            .await;
        assert_eq!(
            reply.status,
            StatusCode::SEE_OTHER,
            "sign-in failed: {}",
            reply.location()
        );
        reply.session_cookie().expect("a session cookie")
    }

    /// Sends a chat message (`fields`: `text`, and `conversation_id` or
    /// `request_id` when given) and waits for its turn to end; the
    /// conversation and the event stream as the page read it.
    #[allow(dead_code)] // not every test file sends messages
    pub async fn send_and_wait(&self, session: &str, fields: &[(&str, &str)]) -> (i64, String) {
        let sent = self
            .post_form("/api/chat/send", fields, Some(session))
            .await;
        assert_eq!(sent.status, StatusCode::OK, "{}", sent.body);
        let conversation = sent.json()["conversation_id"]
            .as_i64()
            .expect("conversation_id");
        let body = reqwest::Client::new()
            .get(self.url(&format!("/api/chat/conversations/{conversation}/events")))
            .header("cookie", self.cookie(session))
            .timeout(std::time::Duration::from_secs(120))
            .send()
            .await
            .expect("events")
            .text()
            .await
            .expect("events body");
        assert!(body.contains("turn_finished"), "{body}");
        (conversation, body)
    }

    pub async fn count(&self, sql: &str) -> i64 {
        sqlx::query_scalar(sql)
            .fetch_one(&self.db)
            .await
            .expect("count")
    }
}

/// Demo data (with its demo accounts) in the test database.
/// A week-long organizer link to the first sent catalogue of the demo data.
pub async fn catalogue_link(db: &PgPool) -> server::auth::magic_links::IssuedLink {
    use server::auth::magic_links::{issue, Purpose};
    let catalogue: i64 = sqlx::query_scalar(
        "SELECT id FROM catalogues WHERE status = 'sent' AND kind = 'standard' ORDER BY id LIMIT 1",
    )
    .fetch_one(db)
    .await
    .expect("a sent catalogue");
    let key = server::auth::tokens::SigningKey::new(super::SECRET_KEY.as_bytes().to_vec());
    let week = std::time::Duration::from_secs(7 * 86_400);
    issue(db, &key, Purpose::Catalogue, catalogue, week, None)
        .await
        .expect("link")
}

pub async fn seed_demo(db: &PgPool) {
    let options = server::demo::SeedOptions {
        seed: 7,
        members: 120,
        progress: false,
    };
    server::demo::seed(db, &options).await.expect("seed");
}

pub const ADMIN: &str = "admin@reciprok.fr";
pub const TEAM: &str = "camille.martin@reciprok.fr";
pub const PASSWORD: &str = server::demo::DEMO_PASSWORD;
