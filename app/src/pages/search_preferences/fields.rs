//! The fields of a preferences form, shared by the user's and the
//! request's: the names are the server functions' arguments.
use crate::raw_text::textarea_value;
use crate::search_preferences::PreferencesInput;
use leptos::prelude::*;

const INPUT: &str = "mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 font-normal";

/// `per_pool`: a user's specialities name their pool on each line; a
/// request's are one list for its pool.
#[component]
pub fn PreferencesFields(values: PreferencesInput, per_pool: bool) -> impl IntoView {
    let fav = values.favorites_first.clone();
    let option = move |value: &'static str, label: &'static str| {
        let selected = fav == value;
        view! { <option value=value selected=selected>{label}</option> }
    };
    view! {
        <fieldset class="grid gap-3 md:grid-cols-2">
            <legend class="mb-1 font-medium text-slate-700">"Zone"</legend>
            <label class="block font-medium text-slate-700">
                "Nom de la zone"
                <input type="text" name="zone_label" maxlength="80" value=values.zone_label.clone()
                    placeholder="Paris 11e" data-testid="pref-zone-label" class=INPUT />
            </label>
            <label class="block font-medium text-slate-700">
                "Codes postaux"
                <input type="text" name="postal_codes" value=values.postal_codes.clone()
                    placeholder="75011, 75012" data-testid="pref-postal-codes" class=INPUT />
            </label>
            <label class="block font-medium text-slate-700">
                "ou centre (coordonnées GPS)"
                <input type="text" name="centre" value=values.centre.clone()
                    placeholder="collées depuis une carte" data-testid="pref-centre" class=INPUT />
            </label>
            <label class="block font-medium text-slate-700">
                "et rayon (km)"
                <input type="text" inputmode="decimal" name="radius_km" value=values.radius_km.clone()
                    placeholder="3" data-testid="pref-radius" class=INPUT />
            </label>
        </fieldset>
        <label class="block font-medium text-slate-700">
            "Favoris de l'équipe d'abord"
            <select name="favorites_first" data-testid="pref-favorites-first" class=INPUT>
                {option("", "Pas de préférence")}
                {option("oui", "Oui : à qualité égale, les favoris d'abord")}
                {option("non", "Non")}
            </select>
        </label>
        <label class="block font-medium text-slate-700">
            {if per_pool { "Spécialités par pool (une ligne par pool)" } else { "Spécialités à privilégier" }}
            <textarea name="specialities" rows=if per_pool { "3" } else { "1" } data-testid="pref-specialities"
                placeholder=if per_pool { "Hôtels : rooftop, jardin" } else { "rooftop, jardin" }
                class=INPUT>{textarea_value(values.specialities.clone())}</textarea>
        </label>
    }
}
