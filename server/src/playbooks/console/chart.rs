//! The « Motifs » trend chart: occurrences per week of the top patterns,
//! one line each, drawn on the server as SVG by `plotters` (its SVG backend
//! only: no fonts, no script). The page inserts the markup; the chart is
//! labelled for screen readers (`role="img"`, `<title>`) and the page shows
//! its table beside it.
use plotters::prelude::*;

/// One line of the chart.
pub struct Series {
    pub label: String,
    /// One count per week, oldest first.
    pub counts: Vec<i64>,
}

const WIDTH: u32 = 760;
const CHART_HEIGHT: u32 = 260;
/// A legend row's height.
const LEGEND_ROW: u32 = 22;

/// The series' colours (Tailwind's indigo, amber, emerald, rose, sky, slate).
const COLOURS: [RGBColor; 6] = [
    RGBColor(79, 70, 229),
    RGBColor(217, 119, 6),
    RGBColor(5, 150, 105),
    RGBColor(225, 29, 72),
    RGBColor(2, 132, 199),
    RGBColor(71, 85, 105),
];

/// The SVG markup of the chart of `series` over `weeks` (their labels,
/// oldest first), titled `title`.
pub fn trend_svg(title: &str, weeks: &[String], series: &[Series]) -> Result<String, String> {
    let legend_height = LEGEND_ROW * u32::try_from(series.len().max(1)).unwrap_or(1) + 8;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, CHART_HEIGHT + legend_height))
            .into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        let (plot, legend) = root.split_vertically(CHART_HEIGHT);
        let top = series
            .iter()
            .flat_map(|s| s.counts.iter().copied())
            .max()
            .unwrap_or(0)
            .max(4);
        let last = i32::try_from(weeks.len().saturating_sub(1))
            .unwrap_or(0)
            .max(1);
        let mut chart = ChartBuilder::on(&plot)
            .margin(12)
            .x_label_area_size(28)
            .y_label_area_size(36)
            .build_cartesian_2d(0..last, 0..top + top / 10 + 1)
            .map_err(|e| e.to_string())?;
        let week_label = |i: &i32| {
            usize::try_from(*i)
                .ok()
                .and_then(|i| weeks.get(i))
                .cloned()
                .unwrap_or_default()
        };
        chart
            .configure_mesh()
            .x_labels(weeks.len().max(2))
            .x_label_formatter(&week_label)
            .y_desc("appels")
            .light_line_style(RGBColor(241, 245, 249))
            .bold_line_style(RGBColor(226, 232, 240))
            .axis_style(RGBColor(148, 163, 184))
            .label_style(("sans-serif", 12).into_font().color(&RGBColor(71, 85, 105)))
            .draw()
            .map_err(|e| e.to_string())?;
        for (index, s) in series.iter().enumerate() {
            let colour = COLOURS[index % COLOURS.len()];
            let points: Vec<(i32, i64)> = s
                .counts
                .iter()
                .enumerate()
                .map(|(i, n)| (i32::try_from(i).unwrap_or(0), *n))
                .collect();
            chart
                .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))
                .map_err(|e| e.to_string())?;
            chart
                .draw_series(PointSeries::of_element(
                    points,
                    3,
                    colour.filled(),
                    &|at, size, style| EmptyElement::at(at) + Circle::new((0, 0), size, style),
                ))
                .map_err(|e| e.to_string())?;
            // The legend, below the chart: a swatch and the pattern's words.
            let y = i32::try_from(index).unwrap_or(0) * LEGEND_ROW as i32 + 6;
            legend
                .draw(&Rectangle::new(
                    [(48, y + 4), (62, y + 14)],
                    colour.filled(),
                ))
                .map_err(|e| e.to_string())?;
            legend
                .draw(&Text::new(
                    s.label.clone(),
                    (70, y + 2),
                    ("sans-serif", 13).into_font().color(&RGBColor(51, 65, 85)),
                ))
                .map_err(|e| e.to_string())?;
        }
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(accessible(&svg, title))
}

/// Makes the chart an image with a name for assistive technology, and
/// lets it shrink with its box (the page scrolls it on a phone).
fn accessible(svg: &str, title: &str) -> String {
    let escaped = title
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;");
    match svg.find('>') {
        Some(end) if svg.starts_with("<svg ") => format!(
            "<svg role=\"img\" aria-label=\"{escaped}\" class=\"h-auto w-full\" {}><title>{escaped}</title>{}",
            &svg[5..end],
            &svg[end + 1..]
        ),
        _ => svg.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weeks() -> Vec<String> {
        (1..=8).map(|d| format!("{:02}/11", d * 3)).collect()
    }

    #[test]
    fn the_chart_is_an_svg_image_with_its_title_legend_and_lines() {
        let series = vec![
            Series {
                label: "« Demande de disponibilité » après « Signaux des lieux »".into(),
                counts: vec![0, 2, 3, 5, 8, 9, 12, 14],
            },
            Series {
                label: "« Nouveau rappel » après <script>".into(),
                counts: vec![1; 8],
            },
        ];
        let svg = trend_svg("Motifs : 8 semaines", &weeks(), &series).unwrap();
        assert!(
            svg.starts_with("<svg role=\"img\" aria-label=\"Motifs : 8 semaines\""),
            "{svg}"
        );
        assert!(svg.contains("<title>Motifs : 8 semaines</title>"));
        assert!(svg.contains("Demande de disponibilité"));
        assert!(svg.contains("&lt;script&gt;"), "text is escaped");
        assert!(!svg.contains("<script>"));
        let lines = |svg: &str| svg.matches("stroke-width=\"2\" points=").count();
        assert_eq!(lines(&svg), 2, "one line per series");
        assert!(
            svg.contains("03/11") && svg.contains("24/11"),
            "weeks on the axis"
        );
        assert!(
            !svg.contains("style="),
            "the page's CSP refuses inline styles"
        );
    }

    #[test]
    fn no_series_still_draws_an_empty_chart() {
        let svg = trend_svg("Motifs", &weeks(), &[]).unwrap();
        assert!(svg.contains("<title>Motifs</title>"));
        assert_eq!(svg.matches("stroke-width=\"2\" points=").count(), 0);
    }
}
