//! `/memoire`: what Maxy remembers for the signed-in team member. A search
//! box (posted, then its results at `/memoire?q=…`: see
//! [`crate::memory::search_memory`]) whose hits say in words how sure the
//! search is (« correspond », « peut-être »), or that nothing matched and
//! these are the latest; the memories, which can be added, edited and
//! deleted; every open reminder by due date (en retard, cette semaine, plus
//! tard, sans échéance) with « Fait » and « Reporter », and a form to create
//! one; a small chart of how the searches of the last 30 days were answered,
//! which counts a search as soon as its results show. Every form posts to a
//! server function, so the page works without JavaScript.
mod chart;
mod memories;
mod reminders;
mod search;

use super::{FormError, PageHeader};
use crate::errors::AppError;
use crate::memory::{
    memory_overview, CompleteReminder, CreateReminder, DeleteMemory, SaveMemory, SearchMemory,
    SnoozeReminder, UpdateMemory,
};
use leptos::prelude::*;

/// The actions of the page, shared by its parts (the overview follows them).
#[derive(Clone, Copy)]
struct Actions {
    save: ServerAction<SaveMemory>,
    update: ServerAction<UpdateMemory>,
    delete: ServerAction<DeleteMemory>,
    remind: ServerAction<CreateReminder>,
    done: ServerAction<CompleteReminder>,
    snooze: ServerAction<SnoozeReminder>,
    search: ServerAction<SearchMemory>,
}

#[component]
pub fn MemoryPage() -> impl IntoView {
    let actions = Actions {
        save: ServerAction::new(),
        update: ServerAction::new(),
        delete: ServerAction::new(),
        remind: ServerAction::new(),
        done: ServerAction::new(),
        snooze: ServerAction::new(),
        search: ServerAction::new(),
    };
    let a = actions;
    let overview = Resource::new(
        move || {
            (
                a.save.version().get(),
                a.update.version().get(),
                a.delete.version().get(),
                a.remind.version().get(),
                a.done.version().get(),
                a.snooze.version().get(),
                // A search posted with JavaScript: the chart counts it at once.
                a.search.version().get(),
            )
        },
        |_| memory_overview(),
    );
    view! {
        <PageHeader title="Mémoire" subtitle="Ce que Maxy retient pour vous d'une conversation à l'autre, et vos rappels." />
        <search::SearchBox search=a.search />
        <Suspense fallback=|| view! { <p class="text-sm text-slate-500">"Chargement…"</p> }>
            {move || overview.get().map(|result| match result {
                Ok(o) => view! {
                    <div class="mt-8 grid gap-8 lg:grid-cols-[1fr_24rem]">
                        <memories::Memories memories=o.memories actions />
                        <aside class="space-y-8">
                            <reminders::Reminders reminders=o.reminders more=o.more_reminders actions />
                            <chart::SourceChart split=o.split />
                        </aside>
                    </div>
                }.into_any(),
                Err(e) => view! {
                    <p role="alert" class="mt-8 text-sm text-red-700" data-testid="memory-error">{e.to_string()}</p>
                }.into_any(),
            })}
        </Suspense>
    }
}

/// A memory's title when it says more than its content's first words (a
/// memory saved without a title gets the start of its content as one:
/// shown above the content, it reads twice).
fn shown_title(title: &str, content: &str) -> Option<String> {
    let stem = title.trim().trim_end_matches(['…', '.']).trim_end();
    if stem.is_empty() || content.trim_start().starts_with(stem) {
        None
    } else {
        Some(title.trim().to_string())
    }
}

/// The outcome of a form's last post: the server's message, or `ok` (also
/// when the page is the one a plain post came back to: `posted`).
#[component]
fn Outcome<T: Clone + Send + Sync + 'static>(
    result: Signal<Option<Result<T, AppError>>>,
    ok: &'static str,
    testid: &'static str,
    #[prop(optional)] posted: bool,
) -> impl IntoView {
    move || {
        let result = result.get().map(|r| r.map(|_| ()));
        result.or_else(|| posted.then_some(Ok(()))).map(|result| match result {
            Ok(_) => view! {
                <p role="status" class="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800" data-testid=format!("{testid}-saved")>
                    {ok}
                </p>
            }
            .into_any(),
            Err(e) => view! { <FormError error=Signal::stored(Some(e)) testid=format!("{testid}-error") /> }.into_any(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::shown_title;

    #[test]
    fn a_title_that_only_repeats_the_content_is_not_shown() {
        let content = "Pour les séminaires de Vinci, toujours proposer un traiteur";
        assert_eq!(shown_title("Pour les séminaires de Vinci…", content), None);
        assert_eq!(shown_title(content, content), None);
        assert_eq!(shown_title("", content), None);
        assert_eq!(
            shown_title("Vinci", content).as_deref(),
            Some("Vinci"),
            "a title of its own"
        );
    }
}
