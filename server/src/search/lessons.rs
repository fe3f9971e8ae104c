//! The team's training, applied to one search (seed 000, « training that
//! acts »). Loaded in one query next to the finalists' signals: the
//! directives and the verdicts on the finalists of the request's kind of
//! event (its event type, else the event types the training knows that
//! its text names; sessions without an event type apply to every kind).
//! Training of another kind of event never changes the ranking.
//!
//! - a directive applies when its trigger is in the request (text or event
//!   type): each preferred word found in a venue's texts, tags or
//!   attributes raises its score, each avoided word lowers it;
//! - a venue **rejected** for this kind of event is left out of both tiers
//!   and listed among the venues turned down, with the training as reason
//!   (« écarté le 12/11 pour un cocktail : pas d'extérieur ») — the team
//!   said not to propose it again, so it is not offered as compatible
//!   either (docs/adr/0016-training-in-the-ranking.md);
//! - a **demoted** venue is at best compatible, an **approved** one gets a
//!   small boost;
//! - every pick's reason cites the lessons that moved it, with their date.
use super::finalist::Finalist;
use super::request::SearchRequest;
use crate::db::training_sessions::{self, LessonRow};
use crate::db::venue_facts::VenueFacts;
use crate::training::directives::Directives;
use crate::training::event_type::{self, fold};
use chrono::{DateTime, Utc};
use sqlx::PgExecutor;
use std::collections::HashMap;

/// Lessons read per search (newest first).
pub const MAX_LESSONS: i64 = 200;
const PREFER_BOOST: f64 = 0.08;
const MAX_BOOST: f64 = 0.16;
const AVOID_PENALTY: f64 = 0.15;
const MAX_PENALTY: f64 = 0.30;
const APPROVED_BOOST: f64 = 0.05;
/// Characters of a reason quoted in a pick's sentence.
const QUOTED_REASON_CHARS: usize = 120;

/// One session that applies to this search.
#[derive(Clone, Debug)]
pub struct Lesson {
    pub id: i64,
    pub verdict: String,
    pub member_id: Option<i64>,
    pub reason: String,
    pub event_type: Option<String>,
    pub directives: Option<Directives>,
    pub created_at: DateTime<Utc>,
}

impl Lesson {
    /// « 12/11 ».
    pub fn date(&self) -> String {
        self.created_at.format("%d/%m").to_string()
    }

    /// « pour un cocktail », or nothing for a lesson about every event.
    pub fn for_event(&self) -> String {
        match &self.event_type {
            Some(t) => format!(" pour {}", event_type::with_article(t)),
            None => String::new(),
        }
    }

    fn quoted_reason(&self) -> String {
        let flat = self.reason.split_whitespace().collect::<Vec<_>>().join(" ");
        if flat.chars().count() <= QUOTED_REASON_CHARS {
            flat
        } else {
            let cut: String = flat.chars().take(QUOTED_REASON_CHARS).collect();
            format!("{}…", cut.trim_end())
        }
    }

    /// « écarté le 12/11 pour un cocktail : pas d'extérieur ».
    pub fn citation(&self) -> String {
        let verb = match self.verdict.as_str() {
            "rejected" => "écarté",
            "demoted" => "rétrogradé en compatible",
            "approved" => "retenu",
            _ => "consigne",
        };
        let reason = self.quoted_reason();
        let mut text = format!("{verb} le {}{}", self.date(), self.for_event());
        if !reason.is_empty() {
            text.push_str(" : ");
            text.push_str(&reason);
        }
        text
    }
}

/// The lessons of one search, newest first.
#[derive(Clone, Debug, Default)]
pub struct Lessons {
    pub lessons: Vec<Lesson>,
}

/// What the training does to one finalist.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Effect {
    /// Added to the score (negative: lowered).
    pub delta: f64,
    /// The newest verdict on this venue for this kind of event.
    pub verdict: Option<(String, String)>,
    /// « jardin, préféré par l'équipe pour « festif » (consigne du 12/11) ».
    pub notes: Vec<String>,
    /// « sous-sol, à éviter pour « festif » (consigne du 12/11) ».
    pub caveats: Vec<String>,
}

impl Effect {
    pub fn is_rejected(&self) -> bool {
        self.verdict.as_ref().is_some_and(|(v, _)| v == "rejected")
    }

    pub fn is_demoted(&self) -> bool {
        self.verdict.as_ref().is_some_and(|(v, _)| v == "demoted")
    }

    /// The reason of a venue the training turned down: « Écarté le 12/11… ».
    pub fn rejection(&self) -> Option<String> {
        self.verdict
            .as_ref()
            .filter(|(v, _)| v == "rejected")
            .map(|(_, c)| app::fr::capitalized(c) + ".")
    }

    /// `sentence` with the lessons that moved this venue appended.
    pub fn annotate(&self, sentence: &str) -> String {
        let mut parts: Vec<String> = Vec::new();
        parts.extend(self.notes.iter().cloned());
        parts.extend(self.caveats.iter().map(|c| format!("mais {c}")));
        if let Some((_, citation)) = self.verdict.as_ref().filter(|(v, _)| v != "rejected") {
            parts.push(citation.clone());
        }
        if parts.is_empty() {
            return sentence.to_string();
        }
        let base = sentence.trim_end().trim_end_matches('.');
        format!("{base} ; {}.", parts.join(", "))
    }
}

/// What the training does to each finalist that it touches.
#[derive(Clone, Debug, Default)]
pub struct Effects(HashMap<i64, Effect>);

impl Effects {
    pub fn get(&self, member_id: i64) -> Option<&Effect> {
        self.0.get(&member_id)
    }

    pub fn delta(&self, member_id: i64) -> f64 {
        self.get(member_id).map_or(0.0, |e| e.delta)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// The finalists the training turned down, with their reason, by id.
    pub fn rejections(&self) -> Vec<(i64, String)> {
        let mut out: Vec<(i64, String)> = self
            .0
            .iter()
            .filter_map(|(id, e)| e.rejection().map(|r| (*id, r)))
            .collect();
        out.sort_by_key(|(id, _)| *id);
        out
    }
}

/// The request's words (event type, text, what was understood), folded:
/// the SQL query looks for event types there.
fn request_words(req: &SearchRequest) -> String {
    fold(&format!(
        "{} {} {}",
        req.event_type.as_deref().unwrap_or_default(),
        req.text,
        req.semantic_query
    ))
}

/// A word without the endings French adds for plural and feminine, so
/// « festives » is « festif » and « jardins » is « jardin »: a crude
/// stemmer, applied the same way to both sides of every comparison.
fn stem(word: &str) -> String {
    let mut w = word.to_string();
    if w.len() > 3 && (w.ends_with('s') || w.ends_with('x')) {
        w.pop();
    }
    for (end, to) in [
        ("ive", "if"),
        ("euse", "eu"),
        ("elle", "el"),
        ("enne", "en"),
        ("ette", "et"),
    ] {
        if w.len() > end.len() + 2 && w.ends_with(end) {
            w.truncate(w.len() - end.len());
            w.push_str(to);
            break;
        }
    }
    if w.len() > 3 && w.ends_with('e') {
        w.pop();
    }
    w
}

/// A text as the sequence of its words' stems.
fn stems(text: &str) -> Vec<String> {
    fold(text)
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(stem)
        .collect()
}

/// Whether the words of `phrase` appear, in order, in `text` (stems
/// compared): « jardin » is in « jardins arborés », « sous-sol » in
/// « en sous-sol », « festif » in « soirée festive ».
fn mentions(text: &[String], phrase: &str) -> bool {
    contains(text, &stems(phrase))
}

/// Whether the stems `phrase` appear, in order, in `text`.
fn contains(text: &[String], phrase: &[String]) -> bool {
    !phrase.is_empty() && text.windows(phrase.len()).any(|w| w == phrase)
}

/// [`contains`] over a folded text's words, stemming only the words that
/// could match (the search looks into 50 venues' texts per query).
fn contains_in_words(words: &[&str], phrase: &[String]) -> bool {
    let Some(first) = phrase.first() else {
        return false;
    };
    // A stem differs from its word in the last letter at most (« festif »,
    // « festive »): words not starting like it cannot match.
    let head = first.char_indices().last().map_or("", |(i, _)| &first[..i]);
    words.windows(phrase.len()).any(|w| {
        w[0].starts_with(head)
            && w.iter()
                .zip(phrase)
                .all(|(word, stemmed)| stem(word) == *stemmed)
    })
}

impl Lessons {
    /// The one query of the training (run next to the signals' query).
    pub async fn load(
        db: impl PgExecutor<'_>,
        req: &SearchRequest,
        finalist_ids: &[i64],
    ) -> sqlx::Result<Self> {
        let event_key = req
            .event_type
            .as_deref()
            .map(event_type::key)
            .filter(|k| !k.is_empty());
        let words = request_words(req);
        let rows = training_sessions::for_search(
            db,
            event_key.as_deref(),
            &words,
            finalist_ids,
            MAX_LESSONS,
        )
        .await?;
        Ok(Self::from_rows(rows, req))
    }

    /// Keeps the verdicts, and the directives whose trigger the request names.
    pub fn from_rows(rows: Vec<LessonRow>, req: &SearchRequest) -> Self {
        let words = stems(&request_words(req));
        let request_key = req.event_type.as_deref().map(event_type::key);
        let lessons = rows
            .into_iter()
            .filter_map(|r| {
                let directives = r.directives.as_ref().and_then(Directives::from_stored);
                let lesson = Lesson {
                    id: r.id,
                    verdict: r.verdict,
                    member_id: r.member_id,
                    reason: r.reason,
                    event_type: r.event_type,
                    directives,
                    created_at: r.created_at,
                };
                let triggered = lesson.directives.as_ref().is_some_and(|d| {
                    let key = event_type::key(&d.trigger);
                    mentions(&words, &d.trigger)
                        || request_key.as_deref() == Some(key.as_str())
                        || lesson
                            .event_type
                            .as_deref()
                            .is_some_and(|t| event_type::key(t) == key)
                });
                let verdict = lesson.member_id.is_some() && lesson.verdict != "guideline";
                (verdict || triggered).then(|| {
                    let mut lesson = lesson;
                    if !triggered {
                        lesson.directives = None;
                    }
                    lesson
                })
            })
            .collect();
        Lessons { lessons }
    }

    pub fn is_empty(&self) -> bool {
        self.lessons.is_empty()
    }

    /// The directives that apply, newest first.
    pub fn directives(&self) -> impl Iterator<Item = (&Lesson, &Directives)> {
        self.lessons
            .iter()
            .filter_map(|l| l.directives.as_ref().map(|d| (l, d)))
    }

    /// The newest verdict on `member_id`.
    pub fn verdict(&self, member_id: i64) -> Option<&Lesson> {
        self.lessons
            .iter()
            .find(|l| l.member_id == Some(member_id) && l.verdict != "guideline")
    }

    /// What the lessons do to each finalist, from its texts.
    pub fn effects(&self, finalists: &[Finalist<'_>], facts: &[VenueFacts]) -> Effects {
        let mut out = HashMap::new();
        if self.is_empty() {
            return Effects(out);
        }
        // Each directive word stemmed once, not once per venue.
        let words = |list: &[String]| -> Vec<(String, Vec<String>)> {
            list.iter().map(|w| (w.clone(), stems(w))).collect()
        };
        let rules: Vec<_> = self
            .directives()
            .map(|(l, d)| (l, d, words(&d.prefer), words(&d.avoid)))
            .collect();
        for f in finalists {
            let c = f.candidate;
            let mut effect = Effect::default();
            if let Some(l) = self.verdict(c.id) {
                effect.verdict = Some((l.verdict.clone(), l.citation()));
                if l.verdict == "approved" {
                    effect.delta += APPROVED_BOOST;
                }
            }
            // The venue's texts are read only when a directive applies.
            let folded = if rules.is_empty() {
                String::new()
            } else {
                venue_text(f, facts.iter().find(|x| x.member_id == c.id))
            };
            let text: Vec<&str> = folded.split(' ').collect();
            let (mut boost, mut penalty) = (0.0_f64, 0.0_f64);
            for (l, d, prefer, avoid) in &rules {
                for (word, _) in prefer.iter().filter(|(_, s)| contains_in_words(&text, s)) {
                    if effect.notes.iter().any(|n| n.starts_with(word.as_str())) {
                        continue;
                    }
                    boost += PREFER_BOOST;
                    effect.notes.push(format!(
                        "{word}, préféré par l'équipe pour « {} » (consigne du {})",
                        d.trigger,
                        l.date()
                    ));
                }
                for (word, _) in avoid.iter().filter(|(_, s)| contains_in_words(&text, s)) {
                    if effect.caveats.iter().any(|n| n.starts_with(word.as_str())) {
                        continue;
                    }
                    penalty += AVOID_PENALTY;
                    effect.caveats.push(format!(
                        "{word}, à éviter pour « {} » (consigne du {})",
                        d.trigger,
                        l.date()
                    ));
                }
            }
            effect.delta += boost.min(MAX_BOOST) - penalty.min(MAX_PENALTY);
            if effect != Effect::default() {
                out.insert(c.id, effect);
            }
        }
        Effects(out)
    }
}

/// Everything a venue says of itself, folded: name, room, description,
/// tags, attributes and knowledge.
fn venue_text(f: &Finalist<'_>, facts: Option<&VenueFacts>) -> String {
    let c = f.candidate;
    let mut text = format!("{} {}", c.name, c.room_name);
    if let Some(x) = facts {
        for part in [
            &x.description,
            &x.tags.join(" "),
            &x.attributes.join(" "),
            &x.knowledge.join(" "),
        ] {
            text.push(' ');
            text.push_str(part);
        }
    }
    fold(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_match_whatever_their_plural_or_feminine() {
        let text = stems("Des Jardins d'hiver, pas de sous-sol, soirées festives");
        assert!(mentions(&text, "jardin"));
        assert!(mentions(&text, "sous-sol"));
        assert!(mentions(&text, "Sous sol"));
        assert!(mentions(&text, "festif"));
        assert!(mentions(&text, "soirée festive"));
        assert!(!mentions(&text, "ardin"));
        assert!(!mentions(&text, "terrasse"));
        assert!(!mentions(&text, ""));
        let folded = fold("Des Jardins d'hiver, pas de sous-sol");
        let words: Vec<&str> = folded.split(' ').collect();
        assert!(contains_in_words(&words, &stems("jardin")));
        assert!(contains_in_words(&words, &stems("sous-sol")));
        let festive = fold("Soirées festives");
        let festive: Vec<&str> = festive.split(' ').collect();
        assert!(contains_in_words(&festive, &stems("festif")));
        assert!(contains_in_words(&festive, &stems("soirée festive")));
        assert!(!contains_in_words(&words, &stems("ardin")));
        assert!(!contains_in_words(&words, &stems("")));
    }

    #[test]
    fn annotations_cite_the_training() {
        let e = Effect {
            delta: 0.0,
            verdict: Some(("demoted".into(), "rétrogradé en compatible le 12/11".into())),
            notes: vec!["jardin, préféré".into()],
            caveats: vec!["sous-sol, à éviter".into()],
        };
        assert_eq!(
            e.annotate("Salle « A » : 100 places."),
            "Salle « A » : 100 places ; jardin, préféré, mais sous-sol, à éviter, rétrogradé en compatible le 12/11."
        );
        assert_eq!(Effect::default().annotate("Rien."), "Rien.");
    }
}
