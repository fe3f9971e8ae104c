//! The acceptance rate of the search's picks (seed 001, « taux
//! d'acceptation »): on the builder, and as a small component the request
//! page can mount (`<AcceptanceRate request_id />`).
use crate::catalogue_builder::{catalogue_acceptance, Acceptance};
use crate::fr;
use leptos::prelude::*;

/// One line: kept / moved / replaced and the rate.
#[component]
pub fn AcceptanceLine(acceptance: Acceptance) -> impl IntoView {
    let Acceptance {
        search_picks,
        kept,
        moved,
        replaced,
    } = acceptance;
    let rate = acceptance
        .rate_percent()
        .map_or_else(String::new, |r| format!(" — {r}\u{a0}% acceptées"));
    let counted = format!(
        "{} — {} {}, {} {}, {} {}",
        fr::int(search_picks),
        fr::int(kept),
        fr::agree(kept, "gardée", "gardées"),
        fr::int(moved),
        fr::agree(moved, "déplacée", "déplacées"),
        fr::int(replaced),
        fr::agree(replaced, "remplacée", "remplacées"),
    );
    view! {
        <p class="text-xs text-slate-600" data-testid="acceptance-rate"
            data-kept=kept.to_string() data-moved=moved.to_string() data-replaced=replaced.to_string()
            title="Parmi les lieux proposés par la recherche : gardés au même rang, déplacés dans l'autre rang, retirés.">
            "Suggestions de la recherche : " {counted} {rate}
        </p>
    }
}

/// The acceptance of a request's catalogue, loaded on its own.
#[component]
pub fn AcceptanceRate(request_id: i64) -> impl IntoView {
    let acceptance = Resource::new(move || request_id, catalogue_acceptance);
    view! {
        <Suspense fallback=|| ()>
            {move || acceptance.get().map(|result| match result {
                Ok(Some(a)) => view! { <AcceptanceLine acceptance=a /> }.into_any(),
                // No fill from the search recorded: no rate to give (a sent
                // catalogue built by hand is not « not yet filled »).
                Ok(None) => ().into_any(),
                Err(_) => ().into_any(),
            })}
        </Suspense>
    }
}
