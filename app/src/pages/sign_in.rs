//! « Connexion »: e-mail + password, posted as a plain form to `/connexion`
//! (works with or without JavaScript). The server answers with a redirect:
//! to the requested page, or back here with `?erreur=…`.
use leptos::prelude::*;
use leptos_meta::Title;
use leptos_router::hooks::use_query_map;

use crate::routes::is_safe_next;

#[component]
pub fn SignInPage() -> impl IntoView {
    let query = use_query_map();
    let error = move || {
        query.read().get("erreur").map(|code| match code.as_str() {
            "trop" => "Trop de tentatives. Réessayez dans une minute.",
            "session" => "Votre session a expiré. Reconnectez-vous.",
            "caractere" => "L'e-mail ou le mot de passe contient un caractère invisible interdit (caractère nul). Retapez-les.",
            _ => "E-mail ou mot de passe incorrect.",
        })
    };
    let signed_out = move || query.read().get("deconnecte").is_some();
    let next = move || {
        query
            .read()
            .get("suivant")
            .filter(|n| is_safe_next(n))
            .unwrap_or_default()
    };
    view! {
        <Title text="Connexion" />
        <div class="flex min-h-screen items-center justify-center bg-slate-50 px-4">
            <div class="w-full max-w-sm">
                <div class="mb-6 flex items-center gap-2">
                    <span class="grid h-9 w-9 place-items-center rounded-lg bg-indigo-600 font-bold text-white">"M"</span>
                    <h1 class="text-2xl font-semibold tracking-tight">"Connexion"</h1>
                </div>
                <form method="post" action="/connexion" class="space-y-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
                    {move || error().map(|message| view! {
                        <p role="alert" class="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">{message}</p>
                    })}
                    {move || signed_out().then(|| view! {
                        <p role="status" class="rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-700">"Vous êtes déconnecté."</p>
                    })}
                    <input type="hidden" name="suivant" value=next />
                    <label class="block text-sm font-medium text-slate-700">
                        "E-mail"
                        <input type="email" name="email" required autocomplete="username"
                            class="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500" />
                    </label>
                    <label class="block text-sm font-medium text-slate-700">
                        "Mot de passe"
                        <input type="password" name="password" required autocomplete="current-password"
                            class="mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-indigo-500 focus:outline-none focus:ring-1 focus:ring-indigo-500" />
                    </label>
                    <button type="submit" class="w-full rounded-md bg-indigo-600 px-4 py-2 text-sm font-medium text-white hover:bg-indigo-700">
                        "Se connecter"
                    </button>
                </form>
                <p class="mt-4 text-center text-xs text-slate-500">"Organisateurs et lieux : utilisez le lien reçu par e-mail."</p>
            </div>
        </div>
    }
}
