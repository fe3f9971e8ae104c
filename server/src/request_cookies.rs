//! The cookies of a request by name: every `Cookie` header, each split into
//! its pairs, malformed pairs skipped. The session, the form-error token and
//! the « saved » notice all read their cookie this way.
use axum::http::{header, HeaderMap};
use cookie::Cookie;

/// Every cookie called `name`, in the order the browser sent them (a
/// browser may send two of one name, set for different paths).
pub fn named<'a>(headers: &'a HeaderMap, name: &'a str) -> impl Iterator<Item = Cookie<'a>> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| Cookie::split_parse(v).filter_map(Result::ok))
        .filter(move |c| c.name() == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn cookies_are_found_across_headers_and_pairs_with_bad_ones_skipped() {
        let mut headers = HeaderMap::new();
        headers.append(
            header::COOKIE,
            HeaderValue::from_static("a=1; =broken; s=first"),
        );
        headers.append(header::COOKIE, HeaderValue::from_static("s=second"));
        let values: Vec<String> = named(&headers, "s")
            .map(|c| c.value().to_string())
            .collect();
        assert_eq!(values, ["first", "second"]);
        assert_eq!(named(&headers, "missing").count(), 0);
        assert_eq!(named(&HeaderMap::new(), "s").count(), 0);
    }
}
