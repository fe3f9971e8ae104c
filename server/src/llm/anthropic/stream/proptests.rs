//! However the network chunks the bytes, the decoded events are the same:
//! cuts fall anywhere, inside multi-byte characters, JSON strings and
//! CRLF pairs included.
use super::tests::{assemble, decode_chunks};
use super::transcript::{expected_events, expected_message, TRANSCRIPT};
use proptest::prelude::*;

/// `bytes` cut at `cuts` (positions, in any order, repeats allowed).
fn chunked(bytes: &[u8], cuts: &[usize]) -> Vec<Vec<u8>> {
    let mut cuts: Vec<usize> = cuts.iter().map(|cut| cut % (bytes.len() + 1)).collect();
    cuts.push(0);
    cuts.push(bytes.len());
    cuts.sort_unstable();
    cuts.windows(2)
        .map(|pair| bytes[pair[0]..pair[1]].to_vec())
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_chunking_decodes_the_same(
        cuts in prop::collection::vec(any::<usize>(), 0..80),
        crlf in any::<bool>(),
    ) {
        let text = if crlf { TRANSCRIPT.replace('\n', "\r\n") } else { TRANSCRIPT.to_string() };
        let decoded = decode_chunks(chunked(text.as_bytes(), &cuts));
        let events: Vec<_> = decoded.into_iter().collect::<Result<_, _>>()
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&events, &expected_events());
        prop_assert_eq!(assemble(events), Ok(expected_message()));
    }
}

#[test]
fn cuts_inside_characters_and_crlf_pairs_decode_the_same() {
    let crlf = TRANSCRIPT.replace('\n', "\r\n");
    for text in [TRANSCRIPT, crlf.as_str()] {
        let bytes = text.as_bytes();
        // `None` for a line end the variant does not use.
        let inside = |needle: &str, offset: usize| text.find(needle).map(|at| at + offset);
        // Within « é » (2 bytes), « 🎉 » (4 bytes), « … » (3 bytes), an
        // escaped quote of a JSON fragment, and a line end.
        let cuts = [
            inside("é", 1),
            inside("🎉", 1),
            inside("🎉", 3),
            inside("…", 2),
            inside(r#"\"Mon"#, 1),
            inside("\n\n", 1),
            inside("\r\n", 1),
        ];
        let cuts: Vec<usize> = cuts.into_iter().flatten().collect();
        assert_eq!(cuts.len(), 6, "every cut but one line end applies");
        let decoded = decode_chunks(chunked(bytes, &cuts));
        assert_eq!(
            decoded.into_iter().collect::<Result<Vec<_>, _>>(),
            Ok(expected_events())
        );
    }
}
