//! Cross-check with the demo generator: its requests are written from
//! structured fields (head count, layouts, area), so extracting them back
//! from the French text measures the extractor on hundreds of sentences
//! nobody tuned it on.

use super::extract;
use crate::demo::{self, model::Area};
use crate::geo;

#[test]
fn demo_requests_read_back() {
    let (mut total, mut people_ok, mut layouts_ok, mut area_ok) = (0usize, 0usize, 0usize, 0usize);
    let mut misses = Vec::new();
    for seed in 1..=6 {
        let data = demo::generate(seed, 600);
        for r in &data.requests {
            let text = format!("{} Zone : {}.", r.description, r.area_label);
            let c = extract(&text);
            total += 1;
            if c.participants == u32::try_from(r.participants).ok() {
                people_ok += 1;
            } else {
                misses.push(format!("participants {:?}: {text}", c.participants));
            }
            let mut want: Vec<&str> = r.configurations.iter().map(|l| l.key()).collect();
            let mut got: Vec<&str> = c.configurations.iter().map(|l| l.key()).collect();
            want.sort_unstable();
            got.sort_unstable();
            // A description may name fewer layouts than the request accepts
            // ("Cocktail de networking" for cocktail or banquet), never others.
            if !got.is_empty() && got.iter().all(|k| want.contains(k)) {
                layouts_ok += 1;
            } else {
                misses.push(format!("layouts {got:?} ≠ {want:?}: {text}"));
            }
            let area_read = match &r.area {
                Area::PostalCodes(codes) => {
                    let mut want: Vec<&str> = codes.clone();
                    // The demo stores the 16th as 75016 only; the extractor
                    // adds 75116, the other half of the arrondissement.
                    let mut got: Vec<&str> = c
                        .postal_codes
                        .iter()
                        .map(String::as_str)
                        .filter(|c| *c != "75116")
                        .collect();
                    want.sort_unstable();
                    got.sort_unstable();
                    got == want
                }
                Area::Radius { lat, lng, km } => c.near.as_ref().is_some_and(|n| {
                    n.radius_km.is_some_and(|r| (r - km).abs() < 0.01)
                        && geo::distance_km((n.lat, n.lng), (*lat, *lng)) < 0.5
                }),
            };
            if area_read {
                area_ok += 1;
            } else {
                misses.push(format!("area {:?} {:?}: {text}", c.postal_codes, c.near));
            }
        }
    }
    let rate = |ok: usize| ok as f64 / total as f64;
    println!("{total} requests: participants {people_ok}, layouts {layouts_ok}, area {area_ok}");
    for miss in misses.iter().take(20) {
        println!("  {miss}");
    }
    assert!(total >= 100, "{total}");
    assert!(
        rate(people_ok) >= 0.98 && rate(layouts_ok) >= 0.95 && rate(area_ok) >= 0.98,
        "{misses:#?}"
    );
}
