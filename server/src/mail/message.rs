//! The two e-mails in French, each with its HTML and plain-text parts.
//! Organizer and venue names and the request's text are third-party text:
//! escaped in the HTML part, and never used as markup.
use app::room_configurations::label_of;

/// A message ready to queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    pub subject: String,
    pub text: String,
    pub html: String,
}

/// The event as both e-mails describe it.
#[derive(Clone, Debug, Default)]
pub struct Event {
    /// The public reference (« D-2026-00042 »).
    pub reference: String,
    pub participants: Option<i32>,
    /// « 12/03/2027 » or « du 12/03/2027 au 13/03/2027 ».
    pub dates: Option<String>,
    /// Configuration keys (`cocktail`…): shown by their French label.
    pub configurations: Vec<String>,
}

/// Who writes: the team member who sent it.
#[derive(Clone, Debug)]
pub struct Sender {
    pub name: String,
    pub email: String,
}

/// A catalogue to its organizer.
pub struct CatalogueMail<'a> {
    pub organizer_name: Option<&'a str>,
    pub sender: &'a Sender,
    pub event: &'a Event,
    pub url: &'a str,
    /// The last day the link opens the catalogue.
    pub valid_until: &'a str,
    pub venues: usize,
}

/// An availability check to a venue.
pub struct AvailabilityMail<'a> {
    pub venue_name: &'a str,
    pub sender: &'a Sender,
    pub event: &'a Event,
    pub url: &'a str,
    /// The last day to answer.
    pub answer_by: &'a str,
}

/// Escapes text for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The event's facts, one per line (« Participants : 180 »…).
fn facts(event: &Event) -> Vec<(&'static str, String)> {
    let mut facts = Vec::new();
    if let Some(dates) = &event.dates {
        facts.push(("Date", dates.clone()));
    }
    if let Some(n) = event.participants {
        facts.push(("Participants", group_digits(i64::from(n))));
    }
    if !event.configurations.is_empty() {
        let labels: Vec<&str> = event.configurations.iter().map(|c| label_of(c)).collect();
        facts.push(("Configuration", labels.join(", ")));
    }
    facts.push(("Référence", event.reference.clone()));
    facts
}

/// « 2 635 »: digits grouped by three with a narrow no-break space.
fn group_digits(n: i64) -> String {
    let digits = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{202f}');
        }
        out.push(c);
    }
    if n < 0 {
        out.insert(0, '-');
    }
    out
}

fn text_facts(event: &Event) -> String {
    facts(event)
        .into_iter()
        .map(|(k, v)| format!("- {k} : {v}\n"))
        .collect()
}

fn html_facts(event: &Event) -> String {
    let rows: String = facts(event)
        .into_iter()
        .map(|(k, v)| {
            format!(
                "<tr><td style=\"padding:2px 12px 2px 0;color:#64748b\">{k}</td><td style=\"padding:2px 0\"><strong>{}</strong></td></tr>",
                escape(&v)
            )
        })
        .collect();
    format!("<table style=\"border-collapse:collapse;font-size:14px\">{rows}</table>")
}

/// The HTML frame shared by both messages.
fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html><html lang=\"fr\"><head><meta charset=\"utf-8\"><title>{}</title></head>\
         <body style=\"margin:0;padding:24px;background:#f8fafc;font-family:Arial,Helvetica,sans-serif;color:#0f172a\">\
         <div style=\"max-width:560px;margin:0 auto;background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:24px\">\
         <p style=\"margin:0 0 16px;font-size:18px;font-weight:bold\">Reciprok</p>{body}</div></body></html>",
        escape(title)
    )
}

fn button(url: &str, label: &str) -> String {
    format!(
        "<p style=\"margin:24px 0\"><a href=\"{}\" style=\"background:#4f46e5;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;font-weight:bold\">{label}</a></p>\
         <p style=\"font-size:12px;color:#64748b\">Si le bouton ne s'ouvre pas, copiez cette adresse dans votre navigateur :<br>{}</p>",
        escape(url),
        escape(url)
    )
}

fn signature_text(sender: &Sender) -> String {
    format!("{}\nÉquipe Reciprok\n{}\n", sender.name, sender.email)
}

fn signature_html(sender: &Sender) -> String {
    format!(
        "<p style=\"margin-top:24px\">{}<br>Équipe Reciprok<br><a href=\"mailto:{}\">{}</a></p>",
        escape(&sender.name),
        escape(&sender.email),
        escape(&sender.email)
    )
}

fn greeting(name: Option<&str>) -> String {
    match name.map(str::trim).filter(|n| !n.is_empty()) {
        Some(name) => format!("Bonjour {name},"),
        None => "Bonjour,".to_string(),
    }
}

/// The catalogue an organizer receives.
pub fn catalogue(mail: &CatalogueMail<'_>) -> Rendered {
    let subject = format!(
        "Votre sélection de lieux pour votre événement ({})",
        mail.event.reference
    );
    let venues = match mail.venues {
        1 => "un lieu".to_string(),
        n => format!("{n} lieux"),
    };
    let intro =
        format!("Voici la sélection de {venues} que nous vous proposons pour votre événement.");
    let next = format!(
        "Prochaine étape : marquez vos lieux préférés et laissez-nous vos remarques, sur la page ou sur chaque lieu, avant le {}. \
         Nous vérifions alors leurs disponibilités et revenons vers vous.",
        mail.valid_until
    );
    let text = format!(
        "{}\n\n{intro}\n\n{}\nOuvrir votre sélection :\n{}\n\n{next}\n\nUne question ? Répondez à cet e-mail ou écrivez à {}.\n\n{}",
        greeting(mail.organizer_name),
        text_facts(mail.event),
        mail.url,
        mail.sender.email,
        signature_text(mail.sender)
    );
    let body = format!(
        "<p>{}</p><p>{}</p>{}{}<p>{}</p><p>Une question ? Répondez à cet e-mail.</p>{}",
        escape(&greeting(mail.organizer_name)),
        escape(&intro),
        html_facts(mail.event),
        button(mail.url, "Voir ma sélection"),
        escape(&next),
        signature_html(mail.sender)
    );
    Rendered {
        html: page(&subject, &body),
        subject,
        text,
    }
}

/// The availability check a venue receives.
pub fn availability(mail: &AvailabilityMail<'_>) -> Rendered {
    let subject = match &mail.event.dates {
        Some(dates) => format!(
            "Êtes-vous disponible le {dates} ? ({})",
            mail.event.reference
        ),
        None => format!("Demande de disponibilité ({})", mail.event.reference),
    };
    let intro = "Un organisateur recherche un lieu pour l'événement ci-dessous et le vôtre fait partie de notre sélection. Pouvez-vous nous dire si vous êtes disponible ?";
    let deadline = format!(
        "Merci de répondre avant le {} : oui, non, ou oui sous conditions, en un clic.",
        mail.answer_by
    );
    let text = format!(
        "{}\n\n{intro}\n\n{}\nRépondre :\n{}\n\n{deadline}\n\n{}",
        greeting(Some(mail.venue_name)),
        text_facts(mail.event),
        mail.url,
        signature_text(mail.sender)
    );
    let body = format!(
        "<p>{}</p><p>{}</p>{}{}<p>{}</p>{}",
        escape(&greeting(Some(mail.venue_name))),
        escape(intro),
        html_facts(mail.event),
        button(mail.url, "Répondre"),
        escape(&deadline),
        signature_html(mail.sender)
    );
    Rendered {
        html: page(&subject, &body),
        subject,
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event() -> Event {
        Event {
            reference: "D-2026-00042".into(),
            participants: Some(1800),
            dates: Some("12/03/2027".into()),
            configurations: vec!["theatre".into()],
        }
    }

    #[test]
    fn third_party_names_are_escaped_in_html_and_kept_in_text() {
        let sender = Sender {
            name: "Camille Martin".into(),
            email: "camille.martin@reciprok.fr".into(),
        };
        let m = availability(&AvailabilityMail {
            venue_name: "Le <b>Bateau</b> & Co",
            sender: &sender,
            event: &event(),
            url: "http://127.0.0.1:3000/v/abc",
            answer_by: "13/12/2026",
        });
        assert!(m.html.contains("Le &lt;b&gt;Bateau&lt;/b&gt; &amp; Co"));
        assert!(!m.html.contains("<b>Bateau"));
        assert!(m.text.contains("Bonjour Le <b>Bateau</b> & Co,"));
        assert!(m.text.contains("http://127.0.0.1:3000/v/abc"));
        assert!(m.text.contains("Participants : 1\u{202f}800"));
        assert!(m.subject.starts_with("Êtes-vous disponible le 12/03/2027"));
    }

    #[test]
    fn the_catalogue_mail_says_who_what_where_and_the_next_step() {
        let sender = Sender {
            name: "Camille Martin".into(),
            email: "camille.martin@reciprok.fr".into(),
        };
        let m = catalogue(&CatalogueMail {
            organizer_name: Some("Jeanne"),
            sender: &sender,
            event: &event(),
            url: "http://x/c/tok",
            valid_until: "05/01/2027",
            venues: 6,
        });
        assert!(m.text.starts_with("Bonjour Jeanne,"));
        assert!(m.text.contains("6 lieux"));
        assert!(m.text.contains("avant le 05/01/2027"));
        assert!(m.text.contains("Camille Martin"));
        assert!(m.html.contains("href=\"http://x/c/tok\""));
        // The configuration by its French label, never its key.
        assert!(m.text.contains("Configuration : théâtre"), "{}", m.text);
    }
}
