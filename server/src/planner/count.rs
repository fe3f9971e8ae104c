//! « Combien de lieux dans le 8e pour 100 personnes en cocktail ? »: the
//! criteria are read by the search's own extractor
//! (`search::criteria::extract`), then `count_members`.
use super::answer::number;
use super::results::count;
use super::step::Next;
use super::turn::Turn;
use super::words::cut;
use crate::search::criteria;
use serde_json::{json, Map, Value};

pub fn next(turn: &Turn) -> Next {
    let input = input(&turn.text);
    match turn.json("count_members") {
        None => Next::call("count_members", input),
        Some(v) => Next::Say(answer(v, &input)),
    }
}

/// The count's arguments from the text.
pub fn input(text: &str) -> Value {
    let c = criteria::extract(cut(text, criteria::MAX_INPUT_BYTES));
    let mut input = Map::new();
    if !c.postal_codes.is_empty() {
        input.insert("postal_codes".into(), json!(c.postal_codes));
    }
    if let Some(conf) = c.configurations.first() {
        input.insert("configuration".into(), json!(conf.key()));
    }
    if let Some(n) = c.participants {
        input.insert("min_capacity".into(), json!(n));
    }
    // « combien de châteaux ? »: the pool the words name.
    if let Some((slug, _)) = super::pools::named(&super::words::words(text)) {
        input.insert("pool".into(), json!(slug));
    }
    Value::Object(input)
}

fn answer(result: &Value, input: &Value) -> String {
    let Some(n) = count(result, "count") else {
        return "Le comptage n'a pas donné de nombre.".to_string();
    };
    let mut filters = Vec::new();
    if let Some(pool) = super::results::text(input, "pool") {
        filters.push(format!("dans le pool {}", super::pools::name_of(pool)));
    }
    let codes = super::results::strings(input, "postal_codes");
    if !codes.is_empty() {
        filters.push(format!("dans {}", codes.join(", ")));
    }
    match (
        super::results::text(input, "configuration"),
        count(input, "min_capacity"),
    ) {
        (Some(conf), Some(cap)) => filters.push(format!(
            "avec une salle d'au moins {} personnes {}",
            number(cap),
            app::room_configurations::phrase_of(conf)
        )),
        (Some(conf), None) => filters.push(app::room_configurations::phrase_of(conf)),
        (None, Some(cap)) => filters.push(format!(
            "avec une salle d'au moins {} personnes",
            number(cap)
        )),
        (None, None) => {}
    }
    let noun = if n == 1 { "lieu" } else { "lieux" };
    if filters.is_empty() {
        format!("{} {noun} au total.", number(n))
    } else {
        format!("{} {noun} {}.", number(n), filters.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn criteria_become_the_count_filters() {
        assert_eq!(
            input("Combien de lieux dans le 8e pour 100 personnes en cocktail ?"),
            json!({"postal_codes": ["75008"], "configuration": "cocktail", "min_capacity": 100})
        );
        assert_eq!(input("combien de lieux ?"), json!({}));
    }

    #[test]
    fn the_answer_names_the_filters() {
        let input = json!({"postal_codes": ["75008"], "min_capacity": 100});
        assert_eq!(
            answer(&json!({"count": 1234}), &input),
            "1\u{a0}234 lieux dans 75008 avec une salle d'au moins 100 personnes."
        );
        assert_eq!(answer(&json!({"count": 1}), &json!({})), "1 lieu au total.");
    }
}
