//! Every open reminder by due date, in groups under a small heading (en
//! retard, cette semaine, plus tard, sans échéance; the server orders and
//! caps them, and says how many more are open), each with « Fait » and
//! « Reporter » (+1 day, next Monday); and the form to create one.
use super::{Actions, Outcome};
use crate::memory::{DueGroup, ReminderView, RECURRENCES, SNOOZES};
use crate::pages::posted_to;
use leptos::prelude::*;

/// Consecutive reminders of the same group (the list comes in group order).
fn grouped(reminders: Vec<ReminderView>) -> Vec<(DueGroup, Vec<ReminderView>)> {
    let mut groups: Vec<(DueGroup, Vec<ReminderView>)> = Vec::new();
    for r in reminders {
        match groups.last_mut() {
            Some((group, items)) if *group == r.group => items.push(r),
            _ => groups.push((r.group, vec![r])),
        }
    }
    groups
}

#[component]
pub fn Reminders(reminders: Vec<ReminderView>, more: i64, actions: Actions) -> impl IntoView {
    let remind = actions.remind;
    view! {
        <section>
            <h2 class="mb-3 text-lg font-medium">"Rappels"</h2>
            <Outcome result=Signal::derive(move || actions.done.value().get()) ok="Rappel fait." testid="reminder-done" posted=posted_to(actions.done) />
            <Outcome result=Signal::derive(move || actions.snooze.value().get()) ok="Rappel reporté." testid="reminder-snooze" posted=posted_to(actions.snooze) />
            {if reminders.is_empty() {
                view! { <p class="text-sm text-slate-500" data-testid="reminder-empty">"Aucun rappel en cours."</p> }.into_any()
            } else {
                view! {
                    <div class="space-y-4" data-testid="reminder-list">
                        {grouped(reminders).into_iter().map(|(group, items)| {
                            let heading_class = if group == DueGroup::Overdue {
                                "mb-1 text-xs font-semibold uppercase tracking-wide text-red-700"
                            } else {
                                "mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500"
                            };
                            view! {
                                <div data-testid="reminder-group" data-group=group.key()>
                                    <h3 class=heading_class>{group.heading()}</h3>
                                    <ul class="space-y-2">
                                        {items.into_iter().map(|r| view! { <ReminderItem reminder=r actions /> }).collect_view()}
                                    </ul>
                                </div>
                            }
                        }).collect_view()}
                        {(more > 0).then(|| {
                            let text = if more == 1 {
                                "Et 1 autre rappel en cours, non affiché.".to_string()
                            } else {
                                format!("Et {more} autres rappels en cours, non affichés.")
                            };
                            view! { <p class="text-xs text-slate-500" data-testid="reminder-more">{text}</p> }
                        })}
                    </div>
                }.into_any()
            }}
            <details class="mt-4 text-sm" open=move || remind.value().with(|v| matches!(v, Some(Err(_))))>
                <summary class="cursor-pointer font-medium text-indigo-700" data-testid="reminder-new">"Nouveau rappel"</summary>
                <ActionForm action=remind attr:class="mt-2 space-y-2 rounded-xl border border-slate-200 bg-white p-4" attr:data-testid="reminder-form">
                    <label class="block">
                        "Titre"
                        <input type="text" name="title" maxlength="200" required data-testid="reminder-title"
                            class="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1" />
                    </label>
                    <label class="block">
                        "Description (facultative)"
                        <textarea name="description" rows="2" maxlength="4000" data-testid="reminder-description"
                            class="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1"></textarea>
                    </label>
                    <div class="grid grid-cols-2 gap-2">
                        <label class="block">
                            "Échéance"
                            <input type="date" name="due_on" required data-testid="reminder-due"
                                class="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1" />
                        </label>
                        <label class="block">
                            "Heure (facultative, 9 h par défaut)"
                            <input type="time" name="due_time" data-testid="reminder-time"
                                class="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1" />
                        </label>
                    </div>
                    <label class="block">
                        "Récurrence"
                        <select name="recurrence" data-testid="reminder-recurrence" class="mt-1 block w-full rounded-md border border-slate-300 px-2 py-1">
                            {RECURRENCES.iter().map(|(value, label)| view! { <option value=*value>{*label}</option> }).collect_view()}
                        </select>
                    </label>
                    <button type="submit" class="rounded-md bg-indigo-600 px-3 py-1.5 font-medium text-white hover:bg-indigo-700" data-testid="reminder-submit">
                        "Créer le rappel"
                    </button>
                    <Outcome result=Signal::derive(move || remind.value().get()) ok="Rappel créé." testid="reminder" posted=posted_to(remind) />
                </ActionForm>
            </details>
        </section>
    }
}

#[component]
fn ReminderItem(reminder: ReminderView, actions: Actions) -> impl IntoView {
    let r = reminder;
    let id = r.id;
    let overdue = r.group == DueGroup::Overdue;
    let due_class = if overdue {
        "text-xs font-medium text-red-700"
    } else {
        "text-xs text-slate-500"
    };
    view! {
        <li class="rounded-lg border border-slate-200 bg-white p-3 text-sm" data-testid="reminder-item" data-id=id.to_string() data-overdue=overdue.to_string()>
            <p class="font-medium" data-testid="reminder-item-title">{r.title.clone()}</p>
            {(!r.description.is_empty()).then(|| view! { <p class="text-slate-700">{r.description.clone()}</p> })}
            {(r.due_on.is_some() || r.recurrence_label.is_some()).then(|| view! {
                <p class=due_class>
                    {r.due_on.clone().map(|d| format!("Échéance : {d}"))}
                    {r.recurrence_label.clone().map(|l| format!(" · {l}"))}
                </p>
            })}
            <div class="mt-2 flex flex-wrap items-center gap-2 text-xs">
                <ActionForm action=actions.done>
                    <input type="hidden" name="id" value=id.to_string() />
                    <button type="submit" class="rounded-md bg-emerald-600 px-2 py-1 font-medium text-white hover:bg-emerald-700" data-testid="reminder-done">
                        "Fait"
                    </button>
                </ActionForm>
                {SNOOZES.iter().map(|(value, label)| {

                    view! {
                        <ActionForm action=actions.snooze>
                            <input type="hidden" name="id" value=id.to_string() />
                            <input type="hidden" name="until" value=*value />
                            <button type="submit" class="rounded-md border border-slate-300 px-2 py-1 hover:bg-slate-50" data-testid=format!("reminder-snooze-{value}")>
                                {*label}
                            </button>
                        </ActionForm>
                    }
                }).collect_view()}
            </div>
        </li>
    }
}
