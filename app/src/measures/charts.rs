//! The charts of « Mesures », drawn by plotters' SVG backend: axes, grid,
//! bars and lines as SVG shapes, their labels as SVG text (no font file on
//! the server: the browser lays the text out). The SVG scales to its
//! column's width (a `viewBox`, no fixed size); the legend is the page's
//! own HTML next to it, so it reflows on a phone.
use plotters::prelude::*;

/// How the series of a chart are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// One bar per day, the series stacked in their order.
    StackedBars,
    /// One line per series (gaps where a day has no value).
    Lines,
}

/// What the vertical axis counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    Euros,
    Count,
    Milliseconds,
}

impl Unit {
    /// An axis tick in French: « 1,50 € », « 12 000 », « 480 ms ». None
    /// between two whole counts or milliseconds: an empty day's axis
    /// ticks at 0, 0.5 and 1, which would read « 0, 1, 1 ».
    pub fn tick(self, value: f64) -> String {
        use crate::fr::{decimal, int};
        match self {
            Unit::Count | Unit::Milliseconds if (value - value.round()).abs() > 1e-9 => {
                String::new()
            }
            Unit::Euros if value != 0.0 && value.abs() < 10.0 => {
                format!("{}\u{a0}€", decimal(value, 2))
            }
            Unit::Euros => format!("{}\u{a0}€", int(value.round() as i64)),
            Unit::Count => int(value.round() as i64),
            Unit::Milliseconds => format!("{}\u{a0}ms", int(value.round() as i64)),
        }
    }
}

/// A series as drawn: its colour and one value per day.
pub struct Drawn<'a> {
    pub color: RGBColor,
    pub values: &'a [Option<f64>],
}

/// A chart to draw over `days` (ISO dates, oldest first).
pub struct Spec<'a> {
    /// Said to screen readers (`aria-label`).
    pub title: &'a str,
    pub kind: Kind,
    pub unit: Unit,
    pub days: &'a [String],
    pub series: Vec<Drawn<'a>>,
    /// A horizontal line (the monthly cap).
    pub reference: Option<f64>,
}

/// The palette, in the series' order (Tailwind's 600s: readable on white).
pub const PALETTE: [RGBColor; 7] = [
    RGBColor(79, 70, 229),   // indigo
    RGBColor(5, 150, 105),   // emerald
    RGBColor(217, 119, 6),   // amber
    RGBColor(2, 132, 199),   // sky
    RGBColor(219, 39, 119),  // pink
    RGBColor(101, 163, 13),  // lime
    RGBColor(100, 116, 139), // slate
];

/// The reference line's colour (red 600).
pub const REFERENCE: RGBColor = RGBColor(220, 38, 38);

/// The colour as CSS (`#4f46e5`), for the HTML legend.
pub fn css(color: RGBColor) -> String {
    format!("#{:02x}{:02x}{:02x}", color.0, color.1, color.2)
}

const WIDTH: u32 = 560;
const HEIGHT: u32 = 280;
/// Large enough to stay legible when a phone shrinks the chart by half.
const FONT_PX: u32 = 22;
const AXIS: RGBColor = RGBColor(71, 85, 105);
const GRID: RGBColor = RGBColor(226, 232, 240);

/// The chart as an SVG element; `None` if plotters fails (it writes into
/// a string, so only a bug of ours could make it).
pub fn draw(spec: &Spec) -> Option<String> {
    let mut svg = String::new();
    render(spec, &mut svg).ok()?;
    Some(responsive(&svg, spec.title))
}

/// The highest value the axis must show (a little headroom, never 0).
fn top(spec: &Spec) -> f64 {
    let days = spec.days.len();
    let data = match spec.kind {
        Kind::StackedBars => (0..days)
            .map(|i| spec.series.iter().map(|s| value(s, i)).sum::<f64>())
            .fold(0.0, f64::max),
        Kind::Lines => spec
            .series
            .iter()
            .flat_map(|s| s.values.iter().flatten().copied())
            .fold(0.0, f64::max),
    };
    let highest = data.max(spec.reference.unwrap_or(0.0));
    if highest > 0.0 && highest.is_finite() {
        highest * 1.1
    } else {
        1.0
    }
}

fn value(series: &Drawn, day: usize) -> f64 {
    series
        .values
        .get(day)
        .copied()
        .flatten()
        .filter(|v| v.is_finite() && *v > 0.0)
        .unwrap_or(0.0)
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;

fn render(spec: &Spec, out: &mut String) -> DrawResult {
    let root = SVGBackend::with_string(out, (WIDTH, HEIGHT)).into_drawing_area();
    root.fill(&WHITE)?;
    let days = spec.days.len().max(1);
    let mut chart = ChartBuilder::on(&root)
        .margin(14)
        .x_label_area_size(34)
        .y_label_area_size(100)
        .build_cartesian_2d(-0.5f64..(days as f64 - 0.5), 0f64..top(spec))?;
    let day_label = |x: &f64| {
        let i = x.round();
        if (x - i).abs() > 1e-6 || i < 0.0 {
            return String::new();
        }
        spec.days
            .get(i as usize)
            .and_then(|d| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
            .map(crate::fr::day_month)
            .unwrap_or_default()
    };
    let unit = spec.unit;
    let tick = move |y: &f64| unit.tick(*y);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(days.min(6))
        .y_labels(5)
        .x_label_formatter(&day_label)
        .y_label_formatter(&tick)
        .label_style(("sans-serif", FONT_PX).into_font().color(&AXIS))
        .axis_style(AXIS)
        .bold_line_style(GRID)
        .max_light_lines(0)
        .draw()?;
    match spec.kind {
        Kind::StackedBars => {
            for day in 0..spec.days.len() {
                let x = day as f64;
                let mut base = 0.0;
                for series in &spec.series {
                    let v = value(series, day);
                    if v > 0.0 {
                        chart.draw_series(std::iter::once(Rectangle::new(
                            [(x - 0.38, base), (x + 0.38, base + v)],
                            series.color.filled(),
                        )))?;
                        base += v;
                    }
                }
            }
        }
        Kind::Lines => {
            for series in &spec.series {
                for run in runs(series.values) {
                    chart
                        .draw_series(LineSeries::new(run.clone(), series.color.stroke_width(3)))?;
                    if spec.days.len() <= 31 {
                        chart.draw_series(
                            run.into_iter()
                                .map(|p| Circle::new(p, 4, series.color.filled())),
                        )?;
                    }
                }
            }
        }
    }
    if let Some(cap) = spec.reference {
        chart.draw_series(LineSeries::new(
            [(-0.5, cap), (days as f64 - 0.5, cap)],
            REFERENCE.stroke_width(2),
        ))?;
    }
    root.present()?;
    Ok(())
}

/// The runs of consecutive days that have a value, as points.
fn runs(values: &[Option<f64>]) -> Vec<Vec<(f64, f64)>> {
    let mut out: Vec<Vec<(f64, f64)>> = Vec::new();
    let mut current = Vec::new();
    for (day, v) in values.iter().enumerate() {
        match v.filter(|v| v.is_finite()) {
            Some(v) => current.push((day as f64, v)),
            None if !current.is_empty() => out.push(std::mem::take(&mut current)),
            None => {}
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// The SVG without its fixed size (it fills its column; the `viewBox`
/// keeps the proportions), named for screen readers.
fn responsive(svg: &str, title: &str) -> String {
    let fixed = format!("<svg width=\"{WIDTH}\" height=\"{HEIGHT}\"");
    let named = format!(
        "<svg role=\"img\" aria-label=\"{}\" class=\"block h-auto w-full\"",
        escape(title)
    );
    svg.replacen(&fixed, &named, 1)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn days(n: usize) -> Vec<String> {
        (1..=n).map(|d| format!("2026-12-{d:02}")).collect()
    }

    #[test]
    fn bars_are_one_rectangle_per_day_and_series_with_a_value() {
        let days = days(3);
        let a = [Some(1.0), None, Some(2.0)];
        let b = [Some(0.5), Some(0.0), Some(1.0)];
        let svg = draw(&Spec {
            title: "Coût « par jour » & tâche",
            kind: Kind::StackedBars,
            unit: Unit::Euros,
            days: &days,
            series: vec![
                Drawn {
                    color: PALETTE[0],
                    values: &a,
                },
                Drawn {
                    color: PALETTE[1],
                    values: &b,
                },
            ],
            reference: None,
        })
        .unwrap();
        assert!(svg.starts_with("<svg role=\"img\" aria-label=\"Coût « par jour » &amp; tâche\" class=\"block h-auto w-full\""), "{}", &svg[..200]);
        assert!(svg.contains("viewBox=\"0 0 560 280\""));
        let tag = &svg[..svg.find('>').unwrap()];
        assert!(!tag.contains("width="), "{tag}");
        // Background + 4 bars (day 2 has nothing).
        assert_eq!(svg.matches("<rect").count(), 1 + 4, "{svg}");
        assert_eq!(svg.matches("fill=\"#4F46E5\"").count(), 2, "{svg}");
        // Day labels in French, ticks in euros.
        assert!(svg.contains("\n01/12\n"), "{svg}");
        assert!(svg.contains("\u{a0}€\n"), "{svg}");
    }

    #[test]
    fn lines_break_where_a_day_has_no_value() {
        assert_eq!(
            runs(&[Some(1.0), Some(2.0), None, Some(3.0), Some(f64::NAN)]),
            vec![vec![(0.0, 1.0), (1.0, 2.0)], vec![(3.0, 3.0)]]
        );
        let days = days(5);
        let v = [Some(100.0), Some(200.0), None, Some(300.0), None];
        let svg = draw(&Spec {
            title: "Durée",
            kind: Kind::Lines,
            unit: Unit::Milliseconds,
            days: &days,
            series: vec![Drawn {
                color: PALETTE[2],
                values: &v,
            }],
            reference: Some(350.0),
        })
        .unwrap();
        // Two runs of the series and the reference line.
        assert_eq!(
            svg.matches("stroke=\"#D97706\" stroke-width=\"3\"").count(),
            2,
            "{svg}"
        );
        assert_eq!(svg.matches("stroke=\"#DC2626\"").count(), 1, "{svg}");
        assert_eq!(svg.matches("<circle").count(), 3, "{svg}");
        assert!(svg.contains("\u{a0}ms\n"), "{svg}");
    }

    #[test]
    fn an_empty_period_still_draws_axes() {
        let svg = draw(&Spec {
            title: "Rien",
            kind: Kind::StackedBars,
            unit: Unit::Count,
            days: &[],
            series: vec![],
            reference: None,
        })
        .unwrap();
        assert!(svg.contains("<svg role=\"img\""));
    }

    #[test]
    fn ticks_read_as_french() {
        assert_eq!(Unit::Euros.tick(1.5), "1,50\u{a0}€");
        assert_eq!(Unit::Euros.tick(0.0), "0\u{a0}€");
        assert_eq!(Unit::Euros.tick(1234.0), "1\u{202f}234\u{a0}€");
        assert_eq!(Unit::Count.tick(12000.0), "12\u{202f}000");
        assert_eq!(Unit::Milliseconds.tick(480.0), "480\u{a0}ms");
        assert_eq!(
            Unit::Count.tick(0.5),
            "",
            "no second « 1 » on an empty axis"
        );
        assert_eq!(Unit::Milliseconds.tick(2.5), "");
    }
}
