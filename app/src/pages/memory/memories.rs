//! The member's memories (« souvenirs », as the search calls them): a form
//! to add one, and each memory with its edit form and its deletion (behind
//! a disclosure: no JavaScript needed).
use super::{shown_title, Actions, Outcome};
use crate::memory::MemoryView;
use crate::pages::posted_to;
use crate::raw_text::textarea_value;
use leptos::prelude::*;

#[component]
pub fn Memories(memories: Vec<MemoryView>, actions: Actions) -> impl IntoView {
    let save = actions.save;
    view! {
        <section>
            <h2 class="mb-3 text-lg font-medium">"Souvenirs"</h2>
            <ActionForm action=save attr:class="mb-6 space-y-2 rounded-xl border border-slate-200 bg-white p-4 text-sm" attr:data-testid="memory-add-form">
                <label class="block">
                    "Titre (facultatif)"
                    <input type="text" name="title" maxlength="200" data-testid="memory-add-title"
                        class="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1" />
                </label>
                <label class="block">
                    "À retenir"
                    <textarea name="content" rows="2" maxlength="4000" required data-testid="memory-add-content"
                        placeholder="Le Pavillon Royal ne prend plus de groupes le dimanche"
                        class="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1"></textarea>
                </label>
                <button type="submit" class="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700" data-testid="memory-add-submit">
                    "Retenir"
                </button>
                <Outcome result=Signal::derive(move || save.value().get()) ok="Souvenir enregistré." testid="memory-add" posted=posted_to(save) />
            </ActionForm>
            <Outcome result=Signal::derive(move || actions.update.value().get()) ok="Souvenir modifié." testid="memory-edit" posted=posted_to(actions.update) />
            <Outcome result=Signal::derive(move || actions.delete.value().get()) ok="Souvenir supprimé." testid="memory-delete" posted=posted_to(actions.delete) />
            {if memories.is_empty() {
                view! { <p class="text-sm text-slate-500" data-testid="memory-empty">"Aucun souvenir pour l'instant."</p> }.into_any()
            } else {
                view! {
                    <ul class="space-y-3" data-testid="memory-list">
                        {memories.into_iter().map(|m| view! { <MemoryItem memory=m actions /> }).collect_view()}
                    </ul>
                }.into_any()
            }}
        </section>
    }
}

#[component]
fn MemoryItem(memory: MemoryView, actions: Actions) -> impl IntoView {
    let m = memory;
    // Only what a person can use: a memory not embedded yet is found by
    // its words alone until the backfill gives it a vector.
    let meta = if m.embedded {
        format!("{} · {}", m.origin_label, m.created_on)
    } else {
        format!(
            "{} · {} · retrouvable par ses mots seulement, pour l'instant",
            m.origin_label, m.created_on
        )
    };
    let title = shown_title(&m.title, &m.content);
    let id = m.id;
    view! {
        <li class="rounded-xl border border-slate-200 bg-white p-4 text-sm" data-testid="memory-item" data-id=id.to_string()>
            {title.map(|t| view! { <p class="font-medium" data-testid="memory-title">{t}</p> })}
            <p class="whitespace-pre-line text-slate-700" data-testid="memory-content">{m.content.clone()}</p>
            <p class="mt-2 text-xs text-slate-400">{meta}</p>
            <div class="mt-2 flex gap-4 text-xs">
                <details>
                    <summary class="cursor-pointer text-indigo-700" data-testid="memory-edit">"Modifier"</summary>
                    <ActionForm action=actions.update attr:class="mt-2 space-y-2">
                        <input type="hidden" name="id" value=id.to_string() />
                        <input type="text" name="title" value=m.title.clone() maxlength="200" aria-label="Titre"
                            data-testid="memory-edit-title" class="block w-full rounded-md border border-slate-300 px-2 py-1" />
                        <textarea name="content" rows="3" maxlength="4000" required aria-label="Contenu"
                            data-testid="memory-edit-content" class="block w-full rounded-md border border-slate-300 px-2 py-1">
                            {textarea_value(m.content.clone())}
                        </textarea>
                        <button type="submit" class="rounded-md bg-indigo-600 px-2 py-1 font-medium text-white hover:bg-indigo-700" data-testid="memory-edit-submit">
                            "Enregistrer"
                        </button>
                    </ActionForm>
                </details>
                <details>
                    <summary class="cursor-pointer text-red-700" data-testid="memory-delete">"Supprimer"</summary>
                    <ActionForm action=actions.delete attr:class="mt-1 flex items-center gap-2">
                        <input type="hidden" name="id" value=id.to_string() />
                        <span>"Oublier définitivement ce souvenir ?"</span>
                        <button type="submit" class="rounded-md bg-red-600 px-2 py-1 font-medium text-white hover:bg-red-700" data-testid="memory-delete-confirm">
                            "Confirmer"
                        </button>
                    </ActionForm>
                </details>
            </div>
        </li>
    }
}
