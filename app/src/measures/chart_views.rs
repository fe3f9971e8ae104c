//! The page's charts from the server's numbers: what each one draws, its
//! words (title, period, the sentence to remember), its legend and the
//! numbers behind it.
use super::charts::{self, Drawn, Kind, Spec, Unit, PALETTE, REFERENCE};
use super::{ChartView, MeasuresData, MeasuresView, RowsQuery, Series, TextTable};
use crate::fr;
use chrono::NaiveDate;

/// Every chart of the page, in the order it shows them.
pub fn page(data: &MeasuresData) -> MeasuresView {
    let days = data.days.len() as u32;
    let period = period(&data.days);
    let rows = |family: &str| RowsQuery {
        family: family.into(),
        day: String::new(),
        days,
    };
    let calls = rows("appels");
    let searches = rows("recherches");
    let charts = vec![
        cost(data, &period, &calls),
        budget(data, &calls),
        tokens(data, &period, &calls),
        latency(data, &period, &searches),
        stages(data, &period, &searches),
        candidates(data, &period, &searches),
        ranking(data, &period, &searches),
        acceptance(data, &period, &rows("catalogues")),
        memory(data, &period, &rows("memoire")),
        approvals(data, &period, &rows("validations")),
        playbooks(data, &period),
    ];
    MeasuresView { days, charts }
}

/// A chart before drawing.
struct Draft<'a> {
    id: &'static str,
    title: &'static str,
    period: String,
    summary: String,
    kind: Kind,
    unit: Unit,
    days: &'a [String],
    /// (label, values), in drawing order.
    series: Vec<(String, &'a [Option<f64>])>,
    reference: Option<(String, f64)>,
    /// Where its rows are listed.
    rows: Rows<'a>,
}

/// Where a chart's rows are listed: a family of the rows page, or a page
/// of its own (the playbook decisions have their log).
enum Rows<'a> {
    Family(&'a RowsQuery),
    Page {
        href: &'static str,
        label: &'static str,
    },
}

impl Draft<'_> {
    fn finish(self) -> ChartView {
        let spec = Spec {
            title: self.title,
            kind: self.kind,
            unit: self.unit,
            days: self.days,
            series: self
                .series
                .iter()
                .zip(PALETTE.iter().cycle())
                .map(|((_, values), color)| Drawn {
                    color: *color,
                    values,
                })
                .collect(),
            reference: self.reference.as_ref().map(|(_, v)| *v),
        };
        let svg = charts::draw(&spec).unwrap_or_default();
        let mut legend: Vec<(String, String)> = self
            .series
            .iter()
            .zip(PALETTE.iter().cycle())
            .map(|((label, _), color)| (label.clone(), charts::css(*color)))
            .collect();
        if let Some((label, _)) = &self.reference {
            legend.push((label.clone(), charts::css(REFERENCE)));
        }
        let mut columns = vec!["Jour".to_string()];
        columns.extend(self.series.iter().map(|(label, _)| label.clone()));
        let rows = self
            .days
            .iter()
            .enumerate()
            .map(|(i, day)| {
                let mut row = vec![day_label(day)];
                row.extend(self.series.iter().map(|(_, values)| {
                    values
                        .get(i)
                        .copied()
                        .flatten()
                        .map_or_else(|| "—".to_string(), |v| cell(self.unit, v))
                }));
                row
            })
            .rev()
            .collect();
        let (rows_href, rows_label, family) = match self.rows {
            Rows::Family(query) => {
                let title = super::row_family_title(&query.family).unwrap_or("Lignes");
                (
                    query.href(),
                    format!("Voir les lignes : {}", title.to_lowercase()),
                    Some(query.family.clone()),
                )
            }
            Rows::Page { href, label } => (href.to_string(), label.to_string(), None),
        };
        ChartView {
            id: self.id.into(),
            title: self.title.into(),
            period: self.period,
            summary: self.summary,
            svg,
            legend,
            numbers: TextTable { columns, rows },
            days: self.days.iter().rev().cloned().collect(),
            family,
            rows_href,
            rows_label,
        }
    }
}

/// A value in the numbers table.
fn cell(unit: Unit, v: f64) -> String {
    match unit {
        Unit::Euros => format!("{}\u{a0}€", fr::decimal(v, 2)),
        Unit::Count => fr::int(v.round() as i64),
        Unit::Milliseconds => format!("{}\u{a0}ms", fr::int(v.round() as i64)),
    }
}

fn date(day: &str) -> Option<NaiveDate> {
    NaiveDate::parse_from_str(day, "%Y-%m-%d").ok()
}

fn day_label(day: &str) -> String {
    date(day).map(fr::date).unwrap_or_else(|| day.to_string())
}

/// « du 07/11/2026 au 06/12/2026 (30 jours, heure de Paris) ».
fn period(days: &[String]) -> String {
    match (days.first(), days.last()) {
        (Some(first), Some(last)) => format!(
            "Du {} au {} ({} jours, heure de Paris)",
            day_label(first),
            day_label(last),
            days.len()
        ),
        _ => "Aucun jour".to_string(),
    }
}

fn total(series: &Series) -> f64 {
    series
        .values
        .iter()
        .flatten()
        .filter(|v| v.is_finite())
        .sum()
}

fn total_of(list: &[Series], key: &str) -> f64 {
    list.iter().filter(|s| s.key == key).map(total).sum()
}

fn sum_all(list: &[Series]) -> f64 {
    list.iter().map(total).sum()
}

/// `part` of `whole` in whole percent, rounded.
fn percent(part: f64, whole: f64) -> i64 {
    if whole > 0.0 {
        (part / whole * 100.0).round() as i64
    } else {
        0
    }
}

/// The series of `list` in the order of `table`'s keys (labelled), then
/// any key the table does not know (shown as stored, so nothing is lost).
fn labelled<'a>(list: &'a [Series], table: &[(&str, &str)]) -> Vec<(String, &'a [Option<f64>])> {
    let mut out: Vec<(String, &[Option<f64>])> = table
        .iter()
        .filter_map(|(key, label)| {
            list.iter()
                .find(|s| s.key == *key)
                .map(|s| (label.to_string(), s.values.as_slice()))
        })
        .collect();
    out.extend(
        list.iter()
            .filter(|s| !table.iter().any(|(key, _)| *key == s.key))
            .map(|s| (s.key.clone(), s.values.as_slice())),
    );
    out
}

/// The label of `key` in `table`, or the key as stored.
fn label_in(table: &[(&str, &str)], key: &str) -> String {
    table
        .iter()
        .find(|(k, _)| *k == key)
        .map_or_else(|| key.to_string(), |(_, label)| label.to_string())
}

fn cost(data: &MeasuresData, period: &str, rows: &RowsQuery) -> ChartView {
    let mut tasks: Vec<&Series> = data.cost_eur_by_task.iter().collect();
    tasks.sort_by(|a, b| total(b).total_cmp(&total(a)));
    let spent = sum_all(&data.cost_eur_by_task);
    let summary = match tasks.first() {
        Some(top) if spent > 0.0 => format!(
            "{} sur la période, dont {} pour « {} ».",
            fr::euros(spent),
            fr::euros(total(top)),
            fr::llm_task(&top.key)
        ),
        _ => "Aucune dépense sur la période.".to_string(),
    };
    Draft {
        id: "couts",
        title: "Coût des modèles par jour et par tâche",
        period: period.into(),
        summary,
        kind: Kind::StackedBars,
        unit: Unit::Euros,
        days: &data.days,
        series: tasks
            .iter()
            .map(|s| (fr::llm_task(&s.key).to_string(), s.values.as_slice()))
            .collect(),
        reference: None,
        rows: Rows::Family(rows),
    }
    .finish()
}

fn budget(data: &MeasuresData, rows: &RowsQuery) -> ChartView {
    let spent = data.month_cumulative_eur.last().copied().unwrap_or(0.0);
    let summary = format!(
        "{} dépensés ce mois-ci sur un plafond de {} ({} %).",
        fr::euros(spent),
        fr::euros(data.cap_eur),
        percent(spent, data.cap_eur)
    );
    let period = match data.month_days.first() {
        Some(first) => format!(
            "Depuis le {} (mois en cours, compté comme le plafond)",
            day_label(first)
        ),
        None => "Mois en cours".to_string(),
    };
    let cumulative: Vec<Option<f64>> = data.month_cumulative_eur.iter().map(|v| Some(*v)).collect();
    Draft {
        id: "budget",
        title: "Dépense du mois contre le plafond",
        period,
        summary,
        kind: Kind::Lines,
        unit: Unit::Euros,
        days: &data.month_days,
        series: vec![("Dépense cumulée".to_string(), cumulative.as_slice())],
        reference: Some(("Plafond mensuel".to_string(), data.cap_eur)),
        rows: Rows::Family(rows),
    }
    .finish()
}

const TOKEN_KINDS: &[(&str, &str)] = &[
    ("plain", "Entrée lue en entier"),
    ("cache_read", "Entrée lue dans le cache"),
    ("cache_write", "Entrée écrite dans le cache"),
    ("output", "Sortie"),
];

fn tokens(data: &MeasuresData, period: &str, rows: &RowsQuery) -> ChartView {
    let all = sum_all(&data.tokens);
    let input = total_of(&data.tokens, "plain")
        + total_of(&data.tokens, "cache_read")
        + total_of(&data.tokens, "cache_write");
    let summary = if all > 0.0 {
        format!(
            "{} ; {} % des jetons d'entrée lus dans le cache.",
            fr::plural(all.round() as i64, "jeton", "jetons"),
            percent(total_of(&data.tokens, "cache_read"), input)
        )
    } else {
        "Aucun appel aux modèles sur la période.".to_string()
    };
    Draft {
        id: "jetons",
        title: "Jetons par jour, et la part du cache",
        period: period.into(),
        summary,
        kind: Kind::StackedBars,
        unit: Unit::Count,
        days: &data.days,
        series: labelled(&data.tokens, TOKEN_KINDS),
        reference: None,
        rows: Rows::Family(rows),
    }
    .finish()
}

const PERCENTILES: &[(&str, &str)] = &[("p50", "Médiane (p50)"), ("p95", "p95"), ("p99", "p99")];

fn latency(data: &MeasuresData, period: &str, rows: &RowsQuery) -> ChartView {
    let summary = match data.search_overall_ms {
        Some([p50, p95, p99]) => format!(
            "{} {} : médiane {} ms, p95 {} ms, p99 {} ms.",
            fr::int(data.search_count),
            fr::agree(data.search_count, "recherche", "recherches"),
            fr::int(p50.round() as i64),
            fr::int(p95.round() as i64),
            fr::int(p99.round() as i64)
        ),
        None => "Aucune recherche de lieux sur la période.".to_string(),
    };
    Draft {
        id: "recherche-duree",
        title: "Durée des recherches de lieux",
        period: period.into(),
        summary,
        kind: Kind::Lines,
        unit: Unit::Milliseconds,
        days: &data.days,
        series: labelled(&data.search_latency_ms, PERCENTILES),
        reference: None,
        rows: Rows::Family(rows),
    }
    .finish()
}

const STAGES: &[(&str, &str)] = &[
    ("sql", "Filtres"),
    ("embed", "Sens de la requête"),
    ("vector", "Proximité de sens"),
    ("llm", "Classement par le modèle"),
];

fn stages(data: &MeasuresData, period: &str, rows: &RowsQuery) -> ChartView {
    let slowest = data
        .stage_p95_ms
        .iter()
        .filter_map(|s| {
            let max = s.values.iter().flatten().copied().fold(f64::NAN, f64::max);
            max.is_finite().then_some((s, max))
        })
        .max_by(|a, b| a.1.total_cmp(&b.1));
    let summary = match slowest {
        Some((s, max)) => format!(
            "Étape la plus lente : « {} » (p95 jusqu'à {} ms un jour de la période).",
            label_in(STAGES, &s.key),
            fr::int(max.round() as i64)
        ),
        None => "Aucune recherche de lieux sur la période.".to_string(),
    };
    Draft {
        id: "recherche-etapes",
        title: "Durée de chaque étape de la recherche (p95)",
        period: period.into(),
        summary,
        kind: Kind::Lines,
        unit: Unit::Milliseconds,
        days: &data.days,
        series: labelled(&data.stage_p95_ms, STAGES),
        reference: None,
        rows: Rows::Family(rows),
    }
    .finish()
}

const CANDIDATE_STAGES: &[(&str, &str)] = &[
    ("sql", "Après les filtres"),
    ("vector", "Après la proximité de sens"),
    ("llm", "Soumis au modèle"),
];

fn candidates(data: &MeasuresData, period: &str, rows: &RowsQuery) -> ChartView {
    let last = (0..data.days.len()).rev().find(|i| {
        data.stage_candidates
            .iter()
            .any(|s| s.values.get(*i).copied().flatten().is_some())
    });
    let summary = match last {
        Some(i) => {
            let parts: Vec<String> = labelled(&data.stage_candidates, CANDIDATE_STAGES)
                .into_iter()
                .filter_map(|(label, values)| {
                    values.get(i).copied().flatten().map(|v| {
                        format!("{} : {}", label.to_lowercase(), fr::int(v.round() as i64))
                    })
                })
                .collect();
            format!(
                "Le {} (médianes) : {}.",
                day_label(&data.days[i]),
                parts.join(", ")
            )
        }
        None => "Aucune recherche de lieux sur la période.".to_string(),
    };
    Draft {
        id: "recherche-candidats",
        title: "Candidats après chaque étape (médiane du jour)",
        period: period.into(),
        summary,
        kind: Kind::Lines,
        unit: Unit::Count,
        days: &data.days,
        series: labelled(&data.stage_candidates, CANDIDATE_STAGES),
        reference: None,
        rows: Rows::Family(rows),
    }
    .finish()
}

fn ranking(data: &MeasuresData, period: &str, rows: &RowsQuery) -> ChartView {
    let all = sum_all(&data.ranking_sources);
    let summary = if all > 0.0 {
        format!(
            "Le modèle a classé {} % des recherches ({}) ; les règles, {} %.",
            percent(total_of(&data.ranking_sources, "llm"), all),
            fr::plural(all.round() as i64, "recherche", "recherches"),
            percent(total_of(&data.ranking_sources, "deterministic"), all)
        )
    } else {
        "Aucune recherche de lieux sur la période.".to_string()
    };
    Draft {
        id: "recherche-classement",
        title: "Qui a classé les lieux",
        period: period.into(),
        summary,
        kind: Kind::StackedBars,
        unit: Unit::Count,
        days: &data.days,
        series: labelled(&data.ranking_sources, fr::RANKING_SOURCES),
        reference: None,
        rows: Rows::Family(rows),
    }
    .finish()
}

const ACCEPTANCE: &[(&str, &str)] = &[
    ("kept", "Gardés à leur rang"),
    ("moved", "Gardés, rang changé"),
    ("replaced", "Remplacés"),
];

fn acceptance(data: &MeasuresData, period: &str, rows: &RowsQuery) -> ChartView {
    let all = sum_all(&data.acceptance);
    let kept = total_of(&data.acceptance, "kept") + total_of(&data.acceptance, "moved");
    let summary = if all > 0.0 {
        format!(
            "{} % des lieux proposés par la recherche ({}) sont restés dans les catalogues envoyés.",
            percent(kept, all),
            fr::plural(all.round() as i64, "lieu", "lieux")
        )
    } else {
        "Aucun catalogue préparé par la recherche n'a été envoyé sur la période.".to_string()
    };
    Draft {
        id: "acceptation",
        title: "Propositions de la recherche gardées par l'équipe",
        period: period.into(),
        summary,
        kind: Kind::StackedBars,
        unit: Unit::Count,
        days: &data.days,
        series: labelled(&data.acceptance, ACCEPTANCE),
        reference: None,
        rows: Rows::Family(rows),
    }
    .finish()
}

fn memory(data: &MeasuresData, period: &str, rows: &RowsQuery) -> ChartView {
    let all = sum_all(&data.memory_sources);
    let summary = if all > 0.0 {
        format!(
            "{} % des recherches ({}) trouvées par le sens ; {} % par les mots.",
            percent(total_of(&data.memory_sources, "vector"), all),
            fr::plural(all.round() as i64, "recherche", "recherches"),
            percent(total_of(&data.memory_sources, "fts"), all)
        )
    } else {
        "Aucune recherche dans la mémoire sur la période.".to_string()
    };
    Draft {
        id: "memoire",
        title: "Ce qui répond aux recherches dans la mémoire",
        period: period.into(),
        summary,
        kind: Kind::StackedBars,
        unit: Unit::Count,
        days: &data.days,
        series: labelled(&data.memory_sources, fr::MEMORY_SOURCES),
        reference: None,
        rows: Rows::Family(rows),
    }
    .finish()
}

/// « 45 s », « 3 min 20 s », « 2 h 05 min ».
fn duration(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as i64;
    match s {
        0..=59 => format!("{s}\u{a0}s"),
        60..=3599 => format!("{}\u{a0}min {:02}\u{a0}s", s / 60, s % 60),
        _ => format!("{}\u{a0}h {:02}\u{a0}min", s / 3600, (s % 3600) / 60),
    }
}

fn approvals(data: &MeasuresData, period: &str, rows: &RowsQuery) -> ChartView {
    let all = sum_all(&data.approvals);
    let validated = ["approved", "executed", "failed"]
        .iter()
        .map(|k| total_of(&data.approvals, k))
        .sum::<f64>();
    let expired = total_of(&data.approvals, "expired");
    let summary = if all > 0.0 {
        let decided = data
            .approval_median_decide_s
            .map(|s| format!(" ; décision en {} (médiane)", duration(s)))
            .unwrap_or_default();
        format!(
            "{} : {} % validées, {} {}{decided}.",
            fr::plural(all.round() as i64, "proposition", "propositions"),
            percent(validated, all),
            fr::int(expired.round() as i64),
            fr::agree(expired.round() as i64, "expirée", "expirées"),
        )
    } else {
        "Aucune proposition soumise à validation sur la période.".to_string()
    };
    Draft {
        id: "validations",
        title: "Propositions soumises à validation, par issue",
        period: period.into(),
        summary,
        kind: Kind::StackedBars,
        unit: Unit::Count,
        days: &data.days,
        series: labelled(&data.approvals, fr::APPROVAL_STATUSES),
        reference: None,
        rows: Rows::Family(rows),
    }
    .finish()
}

fn playbooks(data: &MeasuresData, period: &str) -> ChartView {
    let all = sum_all(&data.playbook_bands);
    let count = |key, one, many| {
        let n = total_of(&data.playbook_bands, key).round() as i64;
        format!("{} {}", fr::int(n), fr::agree(n, one, many))
    };
    let summary = if all > 0.0 {
        format!(
            "{} : {}, {}, {}.",
            fr::plural(all.round() as i64, "évaluation", "évaluations"),
            count("enforce", "imposée", "imposées"),
            count("suggest", "suggérée", "suggérées"),
            count("observe", "observée", "observées")
        )
    } else {
        "Aucune évaluation des playbooks sur la période.".to_string()
    };
    Draft {
        id: "playbooks",
        title: "Décisions des playbooks par mode",
        period: period.into(),
        summary,
        kind: Kind::StackedBars,
        unit: Unit::Count,
        days: &data.days,
        series: labelled(&data.playbook_bands, crate::playbook_console::MODES),
        reference: None,
        rows: Rows::Page {
            href: "/console/decisions",
            label: "Voir le journal des décisions",
        },
    }
    .finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series(key: &str, values: &[Option<f64>]) -> Series {
        Series {
            key: key.into(),
            values: values.to_vec(),
        }
    }

    fn sample() -> MeasuresData {
        let days: Vec<String> = ["2026-12-04", "2026-12-05", "2026-12-06"]
            .map(String::from)
            .to_vec();
        MeasuresData {
            days: days.clone(),
            cost_eur_by_task: vec![
                series("rank", &[Some(0.5), Some(0.0), Some(1.0)]),
                series("chat", &[Some(2.0), Some(1.0), Some(3.0)]),
            ],
            month_days: days,
            month_cumulative_eur: vec![2.5, 3.5, 7.5],
            cap_eur: 200.0,
            tokens: vec![
                series("plain", &[Some(100.0), Some(0.0), Some(100.0)]),
                series("cache_read", &[Some(300.0), Some(0.0), Some(500.0)]),
                series("cache_write", &[Some(0.0), Some(0.0), Some(0.0)]),
                series("output", &[Some(50.0), Some(0.0), Some(50.0)]),
            ],
            search_latency_ms: vec![series("p95", &[Some(480.0), None, Some(510.0)])],
            search_overall_ms: Some([120.0, 495.0, 900.0]),
            search_count: 42,
            approvals: vec![
                series("executed", &[Some(3.0), None, Some(1.0)]),
                series("expired", &[Some(1.0), None, None]),
                series("rejected", &[None, None, Some(1.0)]),
            ],
            approval_median_decide_s: Some(200.0),
            ..MeasuresData::default()
        }
    }

    #[test]
    fn the_page_says_what_each_chart_shows_in_french() {
        let page = page(&sample());
        assert_eq!(page.charts.len(), 11);
        let cost = &page.charts[0];
        assert_eq!(
            cost.period,
            "Du 04/12/2026 au 06/12/2026 (3 jours, heure de Paris)"
        );
        assert_eq!(
            cost.summary,
            "7,50\u{a0}€ sur la période, dont 6\u{a0}€ pour « Conversation »."
        );
        // Biggest task first, labels in French, never the stored key.
        assert_eq!(cost.legend[0].0, "Conversation");
        assert_eq!(cost.legend[1].0, "Classement des lieux");
        assert_eq!(
            cost.numbers.columns,
            ["Jour", "Conversation", "Classement des lieux"]
        );
        // Newest day first, with its ISO day for the rows link.
        assert_eq!(
            cost.numbers.rows[0],
            ["06/12/2026", "3,00\u{a0}€", "1,00\u{a0}€"]
        );
        assert_eq!(cost.days[0], "2026-12-06");
        assert_eq!(
            cost.rows_href,
            "/console/mesures/lignes?famille=appels&jours=3"
        );
        assert!(cost.svg.starts_with("<svg role=\"img\""));

        let budget = &page.charts[1];
        assert!(
            budget
                .summary
                .starts_with("7,50\u{a0}€ dépensés ce mois-ci sur un plafond de 200\u{a0}€ (4 %)"),
            "{}",
            budget.summary
        );
        assert_eq!(budget.legend.last().unwrap().0, "Plafond mensuel");

        let tokens = &page.charts[2];
        assert_eq!(
            tokens.summary,
            "1\u{202f}100 jetons ; 80 % des jetons d'entrée lus dans le cache."
        );

        let latency = &page.charts[3];
        assert_eq!(
            latency.summary,
            "42 recherches : médiane 120 ms, p95 495 ms, p99 900 ms."
        );
        assert_eq!(latency.numbers.rows[1], ["05/12/2026", "—"]);

        let approvals = &page.charts[9];
        assert_eq!(
            approvals.summary,
            "6 propositions : 67 % validées, 1 expirée ; décision en 3\u{a0}min 20\u{a0}s (médiane)."
        );
        assert_eq!(
            approvals
                .legend
                .iter()
                .map(|l| l.0.as_str())
                .collect::<Vec<_>>(),
            ["Refusée", "Expirée", "Exécutée"]
        );

        // Empty families say so instead of drawing nothing silently.
        assert_eq!(
            page.charts[8].summary,
            "Aucune recherche dans la mémoire sur la période."
        );
        assert_eq!(page.charts[10].rows_href, "/console/decisions");
    }

    #[test]
    fn unknown_keys_stay_visible_as_stored() {
        let list = [
            series("brand_new", &[Some(1.0)]),
            series("vector", &[Some(2.0)]),
        ];
        let out = labelled(&list, fr::MEMORY_SOURCES);
        assert_eq!(out[0].0, "Par le sens");
        assert_eq!(out[1].0, "brand_new");
    }

    #[test]
    fn durations_read_as_french() {
        assert_eq!(duration(45.0), "45\u{a0}s");
        assert_eq!(duration(200.0), "3\u{a0}min 20\u{a0}s");
        assert_eq!(duration(7500.0), "2\u{a0}h 05\u{a0}min");
    }
}
