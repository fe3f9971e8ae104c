//! `/console/comptes`: accounts and roles. Create an account, change a
//! role, disable or re-enable, reset a password, close every session; each
//! change is audited by the server, which also refuses to disable or demote
//! yourself or the last active admin. A generated password is shown once.
use super::{AdminOnly, ConsoleNav, LoadError};
use crate::admin::{
    list_accounts, outcome_message, role_label, AccountRow, CreateAccount, EndAccountSessions,
    ResetAccountPassword, SetAccountActive, SetAccountRole,
};
use crate::auth::Role;
use crate::pages::{failure, FormError, PageHeader};
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

#[component]
pub fn AccountsPage() -> impl IntoView {
    // `?fait=…`: what a form posted without JavaScript did (read here, on
    // the server: the island has no router).
    let done = use_query_map()
        .read_untracked()
        .get("fait")
        .and_then(|f| outcome_message(&f))
        .map(str::to_string);
    view! {
        <AdminOnly>
            <PageHeader title="Comptes" subtitle="Les membres de l'équipe, leurs rôles et leurs accès." />
            <Accounts done=done.clone() />
        </AdminOnly>
    }
}

/// The page's five actions, shared by the forms of every row.
#[derive(Clone, Copy)]
struct Actions {
    role: ServerAction<SetAccountRole>,
    active: ServerAction<SetAccountActive>,
    reset: ServerAction<ResetAccountPassword>,
    sessions: ServerAction<EndAccountSessions>,
}

const FIELD: &str = "mt-1 block w-full min-w-0 rounded-md border border-slate-300 px-2 py-1";
const BUTTON: &str =
    "rounded-md border border-slate-300 bg-white px-3 py-1.5 text-slate-700 hover:bg-slate-50";

/// An island: a generated password is the answer of the server function,
/// shown once beside the form, which a plain form post could not show.
#[island]
fn Accounts(done: Option<String>) -> impl IntoView {
    let create = ServerAction::<CreateAccount>::new();
    let actions = Actions {
        role: ServerAction::new(),
        active: ServerAction::new(),
        reset: ServerAction::new(),
        sessions: ServerAction::new(),
    };
    let changes = move || {
        (
            create.version().get(),
            actions.role.version().get(),
            actions.active.version().get(),
            actions.reset.version().get(),
            actions.sessions.version().get(),
        )
    };
    let accounts = Resource::new(changes, |_| list_accounts());
    view! {
        <ConsoleNav current="/console/comptes" />
        <Outcome create actions done />
        <CreateForm create />
        <h2 class="mb-3 mt-8 text-lg font-medium">"Membres"</h2>
        <FormError error=failure(actions.role) testid="account-error" />
        <FormError error=failure(actions.active) testid="account-error" />
        <FormError error=failure(actions.reset) testid="account-error" />
        <FormError error=failure(actions.sessions) testid="account-error" />
        <Suspense fallback=|| view! { <p class="text-sm text-slate-500">"Chargement…"</p> }>
            {move || accounts.get().map(|result| match result {
                Ok(list) => view! {
                    <ul class="grid gap-3" data-testid="accounts">
                        {list.into_iter().map(|account| view! { <Account account actions /> }).collect_view()}
                    </ul>
                }.into_any(),
                Err(error) => view! { <LoadError error /> }.into_any(),
            })}
        </Suspense>
    }
}

/// What the last change did: from the address without JavaScript, from the
/// action's answer with it (a generated password is shown here, once).
#[component]
fn Outcome(
    create: ServerAction<CreateAccount>,
    actions: Actions,
    done: Option<String>,
) -> impl IntoView {
    let done = StoredValue::new(done);
    let from_address = move || done.get_value();
    let created = move || create.value().get().and_then(Result::ok);
    let reset = move || actions.reset.value().get().and_then(Result::ok);
    let ok = |action_done: bool, text: &'static str| action_done.then_some(text);
    let latest = move || {
        ok(
            actions.active.value().get().is_some_and(|r| r.is_ok()),
            "Accès du compte modifié.",
        )
        .or_else(|| {
            ok(
                actions.role.value().get().is_some_and(|r| r.is_ok()),
                "Rôle modifié.",
            )
        })
        .or_else(|| {
            actions
                .sessions
                .value()
                .get()
                .and_then(Result::ok)
                .map(|_| "Sessions fermées : le compte devra se reconnecter.")
        })
        .map(str::to_string)
        .or_else(from_address)
    };
    let status = "mb-4 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800";
    view! {
        {move || latest().map(|text| view! { <p role="status" class=status data-testid="console-done">{text}</p> })}
        {move || created().map(|generated| view! {
            <div role="status" class=status data-testid="account-created">
                "Compte créé."
                {generated.map(|pw| view! { <Password secret=pw /> })}
            </div>
        })}
        {move || reset().map(|pw| view! {
            <div role="status" class=status data-testid="account-reset">
                "Mot de passe réinitialisé : les sessions du compte sont fermées."
                <Password secret=pw />
            </div>
        })}
    }
}

#[component]
fn Password(secret: String) -> impl IntoView {
    view! {
        <span class="mt-1 block">
            "Mot de passe provisoire : "
            <code class="select-all break-all rounded bg-white px-1 font-mono" data-testid="account-password">{secret}</code>
            " — transmettez-le à la personne : il ne sera plus affiché."
        </span>
    }
}

#[component]
fn CreateForm(create: ServerAction<CreateAccount>) -> impl IntoView {
    view! {
        <section aria-labelledby="new-account" class="rounded-xl border border-slate-200 bg-white p-4 text-sm">
            <h2 id="new-account" class="mb-3 text-lg font-medium">"Nouveau compte"</h2>
            <FormError error=failure(create) testid="account-create-error" />
            <ActionForm action=create attr:class="mt-2 grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4" attr:data-testid="account-create">
                <label class="block min-w-0">"Nom"
                    <input name="name" required maxlength="120" autocomplete="off" class=FIELD data-testid="account-name" />
                </label>
                <label class="block min-w-0">"E-mail"
                    <input name="email" type="email" required autocomplete="off" class=FIELD data-testid="account-email" />
                </label>
                <label class="block min-w-0">"Rôle"
                    <select name="role" class=FIELD data-testid="account-role">
                        <option value="team">{role_label(Role::Team)}</option>
                        <option value="admin">{role_label(Role::Admin)}</option>
                    </select>
                </label>
                <label class="block min-w-0">"Mot de passe provisoire"
                    <input name="password" type="password" minlength="12" autocomplete="new-password" class=FIELD
                        placeholder="Vide : généré et affiché une fois" />
                </label>
                <div class="sm:col-span-2 lg:col-span-4">
                    <button type="submit" data-testid="account-submit"
                        class="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700">"Créer le compte"</button>
                </div>
            </ActionForm>
        </section>
    }
}

#[component]
fn Account(account: AccountRow, actions: Actions) -> impl IntoView {
    let a = account;
    let other_role = match a.role {
        Role::Team => Role::Admin,
        Role::Admin => Role::Team,
    };
    let role_button = match other_role {
        Role::Admin => "Nommer administrateur",
        Role::Team => "Repasser en équipe",
    };
    let last = a
        .last_sign_in
        .map(|t| format!("Dernière connexion le {t}"))
        .unwrap_or_else(|| "Jamais connecté".into());
    let sessions = match a.sessions {
        0 => "aucune session ouverte".to_string(),
        1 => "1 session ouverte".to_string(),
        n => format!("{n} sessions ouvertes"),
    };
    let state = if a.active { "Actif" } else { "Désactivé" };
    let state_class = if a.active {
        "rounded-full bg-emerald-50 px-2 py-0.5 text-xs text-emerald-800"
    } else {
        "rounded-full bg-slate-200 px-2 py-0.5 text-xs text-slate-700"
    };
    let me = a.is_me;
    let (key, active) = (a.id, a.active);
    let hidden = move || view! { <input type="hidden" name="id" value=key.to_string() /> };
    let email = a.email.clone();
    view! {
        <li id=format!("compte-{}", a.id) data-testid="account" data-email=email
            class="min-w-0 rounded-xl border border-slate-200 bg-white p-4 text-sm">
            <div class="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                <span class="font-medium">{a.name}{me.then_some(" (vous)")}</span>
                <span class="break-all text-slate-600">{a.email}</span>
                <span class="text-slate-600">{role_label(a.role)}</span>
                <span class=state_class data-testid="account-state">{state}</span>
            </div>
            <p class="mt-1 text-xs text-slate-500">{format!("{last} · {sessions}")}</p>
            {(!me).then(|| view! {
                <div class="mt-3 flex flex-wrap gap-2">
                    <ActionForm action=actions.role>
                        {hidden()}
                        <input type="hidden" name="role" value=other_role.as_str() />
                        <button type="submit" class=BUTTON data-testid="account-role-change">{role_button}</button>
                    </ActionForm>
                    <ActionForm action=actions.active>
                        {hidden()}
                        <input type="hidden" name="active" value=(!active).to_string() />
                        <button type="submit" class=BUTTON data-testid="account-toggle">
                            {if active { "Désactiver" } else { "Réactiver" }}
                        </button>
                    </ActionForm>
                    <ActionForm action=actions.reset>
                        {hidden()}
                        <button type="submit" class=BUTTON data-testid="account-reset-password">"Réinitialiser le mot de passe"</button>
                    </ActionForm>
                    <ActionForm action=actions.sessions>
                        {hidden()}
                        <button type="submit" class=BUTTON data-testid="account-end-sessions">"Fermer les sessions"</button>
                    </ActionForm>
                </div>
            })}
        </li>
    }
}
