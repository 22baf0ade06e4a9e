//! Plots of the report, as PNG and SVG, drawn with plotters and the embedded DejaVu
//! Sans (never a system font):
//!
//! - `accuracy`: one panel per axis (GeomVerse figure 8 layout), accuracy against the
//!   axis's values, one line per model with its 95 % Wilson band, and the model's
//!   accuracy on the base images as a dashed line.
//! - `flips`: one panel per axis, per value and model the share of paired problems
//!   that flipped right→wrong (bar up) and wrong→right (pale bar down); `*` marks a
//!   Holm-adjusted McNemar p < 0.05 (adjusted across the axis's values, as report.md
//!   says). All panels share one scale.
//!
//! `corrupt` is drawn as one panel per corruption, its severity on the x axis
//! (the base images at 0), as ImageNet-C's plots show a corruption.
//!
//! Axes the axis table marks `numeric` put their values at their numbers on a linear
//! x axis, joined by a line through the base images' accuracy at the axis's
//! `base_number` (`unrelated`: 0, `opacity`: 0.5); the others (annotation, palette,
//! grid cells…) are categories, evenly spaced in report order and drawn as points with
//! their interval as a whisker, never joined: a line between categories would claim
//! an order and an in-between that do not exist. Every panel's x axis is titled with
//! the quantity and its unit. The SVG is drawn at 1×, the PNG at 2× the SVG's size
//! (sharp in a paper); a single panel is widened so the header is never clipped.

use super::error::ScoreError;
use super::report::Report;
use super::tally::TallyRow;
use crate::font::FONT_DATA;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::HashMap;
use std::sync::OnceLock;

/// A rendered plot file.
pub(super) struct PlotFile {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Family name the embedded font is registered under. SVG output names it as is, a
/// CSS list, so viewers without DejaVu Sans fall back to a sans-serif font.
const FONT: &str = "DejaVu Sans, sans-serif";

const PANEL_W: u32 = 420;
const PANEL_H: u32 = 340;
const HEADER_H: u32 = 74;
/// Narrowest figure, so that the header's title and legend always fit.
const MIN_WIDTH: u32 = 880;
/// The PNG's pixels per SVG unit.
const PNG_SCALE: f64 = 2.0;
const MAX_COLS: usize = 3;
/// Panels drawn at most (the image stays a sane size); report.md has every axis.
const MAX_PANELS: usize = 48;

/// Okabe–Ito colours: distinguishable with colour-vision deficiencies.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(213, 94, 0),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(0, 0, 0),
    RGBColor(240, 228, 66),
];

fn register_font() -> Result<(), ScoreError> {
    static DONE: OnceLock<bool> = OnceLock::new();
    let ok = *DONE.get_or_init(|| {
        [FONT, "sans-serif"]
            .into_iter()
            .all(|name| plotters::style::register_font(name, FontStyle::Normal, FONT_DATA).is_ok())
    });
    ok.then_some(()).ok_or_else(|| ScoreError::Plot {
        name: "font".into(),
        message: "embedded DejaVu Sans failed to load".into(),
    })
}

/// Renders `accuracy` and `flips`, each as PNG and SVG.
pub(super) fn render_all(report: &Report) -> Result<Vec<PlotFile>, ScoreError> {
    register_font()?;
    let report = &by_severity(report);
    let data = PlotData::new(report);
    let mut out = Vec::new();
    for (name, kind) in [("accuracy", Kind::Accuracy), ("flips", Kind::Flips)] {
        let fail = |e: String| ScoreError::Plot {
            name: name.to_string(),
            message: e,
        };
        let mut svg = String::new();
        {
            let (w, h) = data.size(1.0);
            let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
            draw(&root, &data, kind, 1.0).map_err(|e| fail(e.to_string()))?;
            root.present().map_err(|e| fail(e.to_string()))?;
        }
        let (w, h) = data.size(PNG_SCALE);
        let mut rgb = vec![0u8; w as usize * h as usize * 3];
        {
            let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
            draw(&root, &data, kind, PNG_SCALE).map_err(|e| fail(e.to_string()))?;
            root.present().map_err(|e| fail(e.to_string()))?;
        }
        out.push(PlotFile {
            name: format!("{name}.png"),
            bytes: encode_png(&rgb, w, h).map_err(fail)?,
        });
        out.push(PlotFile {
            name: format!("{name}.svg"),
            bytes: svg.into_bytes(),
        });
    }
    Ok(out)
}

fn encode_png(rgb: &[u8], w: u32, h: u32) -> Result<Vec<u8>, String> {
    use image::ImageEncoder;
    let mut png = Vec::new();
    image::codecs::png::PngEncoder::new(&mut png)
        .write_image(rgb, w, h, image::ExtendedColorType::Rgb8)
        .map_err(|e| e.to_string())?;
    Ok(png)
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Accuracy,
    Flips,
}

/// The rows a plot needs, grouped by axis.
struct PlotData<'a> {
    models: Vec<&'a str>,
    /// (axis, its values in order)
    axes: Vec<(&'a str, &'a [String])>,
    rows: HashMap<(&'a str, &'a str, &'a str), &'a TallyRow>,
    base: HashMap<&'a str, &'a TallyRow>,
    tolerance: f64,
    /// Axes beyond [`MAX_PANELS`], not drawn.
    omitted: usize,
    /// Half-height of every flips panel, shared so panels compare at a glance.
    flip_scale: f64,
}

impl<'a> PlotData<'a> {
    fn new(r: &'a Report) -> Self {
        let rows = r
            .rows
            .iter()
            .map(|row| {
                (
                    (row.model.as_str(), row.axis.as_str(), row.value.as_str()),
                    row,
                )
            })
            .collect();
        let base = r
            .rows
            .iter()
            .filter(|row| row.axis == super::BASE_AXIS)
            .map(|row| (row.model.as_str(), row))
            .collect();
        PlotData {
            models: r.models.iter().map(|m| m.model.as_str()).collect(),
            axes: r
                .axes
                .iter()
                .take(MAX_PANELS)
                .map(|a| (a.axis.as_str(), a.values.as_slice()))
                .collect(),
            omitted: r.axes.len().saturating_sub(MAX_PANELS),
            flip_scale: r
                .rows
                .iter()
                .map(|row| {
                    flip_rate(row.flips_to_wrong, row).max(flip_rate(row.flips_to_right, row))
                })
                .fold(0.05f64, f64::max)
                .min(1.0 / 1.2)
                * 1.2,
            rows,
            base,
            tolerance: r.tolerance.relative,
        }
    }

    fn grid(&self) -> (usize, usize) {
        let panels = self.axes.len().max(1);
        let cols = panels.min(MAX_COLS);
        (panels.div_ceil(cols), cols)
    }

    /// The figure's size in pixels at `scale` × the SVG's units.
    fn size(&self, scale: f64) -> (u32, u32) {
        let (rows, cols) = self.grid();
        let (w, h) = (
            (PANEL_W * cols as u32).max(MIN_WIDTH),
            HEADER_H + PANEL_H * rows as u32,
        );
        (px(w, scale), px(h, scale))
    }

    fn color(&self, model_index: usize) -> RGBColor {
        PALETTE[model_index % PALETTE.len()]
    }
}

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

/// A length in SVG units at `scale`, in whole pixels.
/// The panel axis of one corruption's severities (`corrupt@fog`).
const SEVERITY_OF: &str = "corrupt@";

/// `report` with the `corrupt` axis (values `NAME-SEVERITY`) split into one panel
/// per corruption whose x axis is the severity (1–5, the base images at 0): a
/// corruption's accuracy against its severity, as ImageNet-C's plots have it.
fn by_severity(report: &Report) -> Report {
    let mut r = report.clone();
    let split = |value: &str| -> Option<(String, String)> {
        let (name, severity) = value.rsplit_once('-')?;
        severity.parse::<u8>().ok()?;
        Some((format!("{SEVERITY_OF}{name}"), severity.to_string()))
    };
    let mut axes = Vec::with_capacity(r.axes.len());
    for a in r.axes.drain(..) {
        if a.axis != "corrupt" {
            axes.push(a);
            continue;
        }
        for v in &a.values {
            let Some((axis, severity)) = split(v) else {
                continue;
            };
            match axes
                .iter_mut()
                .find(|x: &&mut super::report::ReportAxis| x.axis == axis)
            {
                Some(x) => x.values.push(severity),
                None => axes.push(super::report::ReportAxis {
                    axis,
                    values: vec![severity],
                    numeric: true,
                }),
            }
        }
    }
    r.axes = axes;
    for row in r.rows.iter_mut().filter(|row| row.axis == "corrupt") {
        if let Some((axis, severity)) = split(&row.value) {
            row.axis = axis;
            row.value = severity;
        }
    }
    r
}

fn px(v: u32, scale: f64) -> u32 {
    (f64::from(v) * scale).round() as u32
}

/// What a variant axis measures, with its unit, as the x axis title (the axis
/// table's `plot_title`; a name the table does not know, from another version's
/// manifest, as it is).
fn axis_title(axis: &str) -> String {
    if let Some(name) = axis.strip_prefix(SEVERITY_OF) {
        return format!("{name}: ImageNet-C severity (0 = base)");
    }
    let one = |a: &str| match crate::variants::Axis::from_name(a) {
        Ok(axis) => axis.plot_title.to_string(),
        Err(_) => a.to_string(),
    };
    axis.split('+').map(one).collect::<Vec<_>>().join(" × ")
}

/// Where a panel's values sit on its x axis.
struct XAxis {
    /// x of each value, in report order.
    at: Vec<f64>,
    range: std::ops::Range<f64>,
    /// Values at their numbers (else evenly spaced, labelled by value).
    numeric: bool,
    /// Smallest gap between two values (1 for evenly spaced ones).
    step: f64,
    /// x of the base images' value on a numeric axis (`fontsize`: 16, between 12 and
    /// 24), where the base accuracy is plotted among the variants'.
    base_at: Option<f64>,
}

impl XAxis {
    fn of(axis: &str, values: &[String]) -> XAxis {
        let table = crate::variants::Axis::from_name(axis).ok();
        // A corruption's severities (`by_severity`): numbers, the base at 0.
        let severity = axis.starts_with(SEVERITY_OF);
        let numbers: Option<Vec<f64>> = (table.is_some_and(|a| a.numeric) || severity)
            .then(|| values.iter().map(|v| v.parse::<f64>().ok()).collect())
            .flatten();
        match numbers {
            Some(at) if !at.is_empty() && at.iter().all(|x| x.is_finite()) => {
                let base_at = match severity {
                    true => Some(0.0),
                    false => table.and_then(|a| a.base_number).filter(|b| b.is_finite()),
                };
                let (lo, hi) = at
                    .iter()
                    .chain(&base_at)
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &x| {
                        (l.min(x), h.max(x))
                    });
                let mut sorted: Vec<f64> = at.iter().chain(&base_at).copied().collect();
                sorted.sort_by(f64::total_cmp);
                let step = sorted
                    .windows(2)
                    .map(|w| w[1] - w[0])
                    .filter(|g| *g > 0.0)
                    .fold(f64::INFINITY, f64::min);
                let step = if step.is_finite() {
                    step
                } else {
                    hi.abs().max(1.0)
                };
                let pad = ((hi - lo) * 0.08).max(step * 0.5);
                XAxis {
                    at,
                    range: (lo - pad)..(hi + pad),
                    numeric: true,
                    step,
                    base_at,
                }
            }
            _ => XAxis {
                at: (0..values.len()).map(|i| i as f64).collect(),
                range: -0.5..(values.len() as f64 - 0.5),
                numeric: false,
                step: 1.0,
                base_at: None,
            },
        }
    }
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    d: &PlotData<'_>,
    kind: Kind,
    scale: f64,
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let (header, body) = root.split_vertically(px(HEADER_H, scale));
    let title = match kind {
        Kind::Accuracy => format!(
            "Relaxed accuracy (±{} %) per variant value, 95 % Wilson bands (whiskers on categories); dashed: base images (on numeric axes also at the base value)",
            d.tolerance * 100.0
        ),
        Kind::Flips => {
            "Paired flips vs base image: ↑ right→wrong, ↓ wrong→right (pale); * Holm-adjusted McNemar p < 0.05"
                .to_string()
        }
    };
    let title = match d.omitted {
        0 => title,
        n => format!("{title} (first {MAX_PANELS} axes; {n} more in report.md)"),
    };
    let at = |v: i32| (f64::from(v) * scale).round() as i32;
    header.draw(&Text::new(
        title,
        (at(12), at(10)),
        (FONT, 16.0 * scale).into_font().color(&BLACK),
    ))?;
    legend(&header, d, scale)?;
    if d.axes.is_empty() {
        body.draw(&Text::new(
            "No variant axes in the manifest: only base images were scored (see report.md).",
            (at(12), at(30)),
            (FONT, 15.0 * scale).into_font().color(&BLACK),
        ))?;
        return Ok(());
    }
    let panels = body.split_evenly(d.grid());
    for (panel, (axis, values)) in panels.iter().zip(&d.axes) {
        let x = XAxis::of(axis, values);
        match kind {
            Kind::Accuracy => accuracy_panel(panel, d, axis, values, &x, scale)?,
            Kind::Flips => flips_panel(panel, d, axis, values, &x, scale)?,
        }
    }
    Ok(())
}

fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    d: &PlotData<'_>,
    scale: f64,
) -> DrawResult<DB> {
    let at = |v: i32| (f64::from(v) * scale).round() as i32;
    let (mut x, mut y) = (14i32, 42i32);
    let width = (f64::from(area.dim_in_pixel().0) / scale) as i32;
    for (i, model) in d.models.iter().enumerate() {
        let c = d.color(i);
        let label_w = 40 + 8 * model.chars().count() as i32;
        if x + label_w > width && x > 14 {
            x = 14;
            y += 16;
        }
        area.draw(&Rectangle::new(
            [(at(x), at(y + 5)), (at(x + 22), at(y + 9))],
            c.filled(),
        ))?;
        area.draw(&Text::new(
            model.to_string(),
            (at(x + 28), at(y)),
            (FONT, 14.0 * scale).into_font().color(&BLACK),
        ))?;
        x += label_w;
    }
    Ok(())
}

fn category_label<'v>(values: &'v [String]) -> impl Fn(&f64) -> String + 'v {
    move |x: &f64| {
        let i = x.round();
        if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < values.len() {
            values[i as usize].clone()
        } else {
            String::new()
        }
    }
}

/// A panel's chart on linear x and y axes.
type Panel<'a, DB> = ChartContext<
    'a,
    DB,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// A panel's chart: caption, axis titles and label sizes at `scale`.
fn panel_chart<'a, DB: DrawingBackend>(
    area: &'a DrawingArea<DB, Shift>,
    axis: &str,
    x: &XAxis,
    y: std::ops::Range<f64>,
    scale: f64,
) -> Result<Panel<'a, DB>, DrawingAreaErrorKind<DB::ErrorType>> {
    ChartBuilder::on(area)
        .caption(axis, (FONT, 17.0 * scale))
        .margin(px(10, scale))
        .x_label_area_size(px(50, scale))
        .y_label_area_size(px(58, scale))
        .build_cartesian_2d(x.range.clone(), y)
}

/// A panel's y axis: tick count, title and tick labels.
struct YAxis<'f> {
    labels: usize,
    desc: &'static str,
    format: &'f dyn Fn(&f64) -> String,
}

/// The grid, ticks and axis titles of a panel: the x axis titled with its quantity
/// and unit, numeric ticks on a numeric axis, the values on a categorical one.
fn draw_mesh<DB: DrawingBackend>(
    chart: &mut Panel<'_, DB>,
    axis: &str,
    values: &[String],
    x: &XAxis,
    y: YAxis<'_>,
    scale: f64,
) -> DrawResult<DB> {
    let categories = category_label(values);
    let numbers = |v: &f64| format!("{}", (v * 1e6).round() / 1e6);
    let title = axis_title(axis);
    let mut mesh = chart.configure_mesh();
    mesh.y_labels(y.labels)
        .disable_x_mesh()
        .y_label_formatter(y.format)
        .y_desc(y.desc)
        .x_desc(title.as_str())
        .label_style((FONT, 12.0 * scale))
        .axis_desc_style((FONT, 13.0 * scale))
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.08).stroke_width(px(1, scale)));
    if x.numeric {
        mesh.x_labels(8).x_label_formatter(&numbers);
    } else {
        mesh.x_labels(values.len()).x_label_formatter(&categories);
    }
    mesh.draw()
}

fn accuracy_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    d: &PlotData<'_>,
    axis: &str,
    values: &[String],
    x: &XAxis,
    scale: f64,
) -> DrawResult<DB> {
    let mut chart = panel_chart(area, axis, x, 0f64..1f64, scale)?;
    let y = YAxis {
        labels: 6,
        desc: "accuracy",
        format: &|y| format!("{:.0} %", y * 100.0),
    };
    draw_mesh(&mut chart, axis, values, x, y, scale)?;
    for (m, model) in d.models.iter().enumerate() {
        let c = d.color(m);
        let base_point = x.base_at.zip(d.base.get(model).copied());
        let mut ordered: Vec<(f64, &TallyRow)> = values
            .iter()
            .zip(&x.at)
            .filter_map(|(v, &at)| Some((at, *d.rows.get(&(*model, axis, v.as_str()))?)))
            .chain(base_point)
            .filter(|(_, r)| r.accuracy.is_some())
            .collect();
        ordered.sort_by(|a, b| a.0.total_cmp(&b.0));
        if let Some(base) = d.base.get(model).and_then(|r| r.accuracy) {
            let dash = [(x.range.start, base), (x.range.end, base)];
            chart.draw_series(DashedLineSeries::new(
                dash,
                px(6, scale),
                px(4, scale),
                c.stroke_width(px(1, scale)),
            ))?;
        }
        match x.numeric {
            true => numeric_series(&mut chart, &ordered, c, x, scale)?,
            false => {
                // Side by side within a category, so models do not hide each other.
                let models = d.models.len() as f64;
                let shift = (m as f64 - (models - 1.0) / 2.0) * (0.5 / models).min(0.12);
                category_points(&mut chart, &ordered, shift, c, scale)?;
            }
        }
    }
    Ok(())
}

/// A numeric axis: the model's accuracies joined by a line over their Wilson band.
fn numeric_series<DB: DrawingBackend>(
    chart: &mut Panel<'_, DB>,
    ordered: &[(f64, &TallyRow)],
    c: RGBColor,
    x: &XAxis,
    scale: f64,
) -> DrawResult<DB> {
    let band: Vec<(f64, f64)> = ordered
        .iter()
        .filter_map(|(x, r)| Some((*x, r.ci_high?)))
        .chain(
            ordered
                .iter()
                .rev()
                .filter_map(|(x, r)| Some((*x, r.ci_low?))),
        )
        .collect();
    if ordered.len() > 1 {
        chart.draw_series(std::iter::once(Polygon::new(band, c.mix(0.16).filled())))?;
    } else if let Some((at, r)) = ordered.first() {
        let (lo, hi) = (r.ci_low.unwrap_or(0.0), r.ci_high.unwrap_or(1.0));
        let half = 0.08 * x.step;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(at - half, lo), (at + half, hi)],
            c.mix(0.16).filled(),
        )))?;
    }
    let line: Vec<(f64, f64)> = ordered
        .iter()
        .filter_map(|(x, r)| Some((*x, r.accuracy?)))
        .collect();
    chart.draw_series(LineSeries::new(line.clone(), c.stroke_width(px(2, scale))))?;
    let radius = px(3, scale) as i32;
    chart.draw_series(line.into_iter().map(|p| Circle::new(p, radius, c.filled())))?;
    Ok(())
}

/// A categorical axis: one point per value with its Wilson interval as a whisker,
/// moved `shift` sideways; no line joins categories.
fn category_points<DB: DrawingBackend>(
    chart: &mut Panel<'_, DB>,
    points: &[(f64, &TallyRow)],
    shift: f64,
    c: RGBColor,
    scale: f64,
) -> DrawResult<DB> {
    let radius = px(3, scale) as i32;
    for (at, r) in points {
        let (Some(acc), at) = (r.accuracy, at + shift) else {
            continue;
        };
        if let (Some(lo), Some(hi)) = (r.ci_low, r.ci_high) {
            chart.draw_series(std::iter::once(PathElement::new(
                vec![(at, lo), (at, hi)],
                c.mix(0.6).stroke_width(px(2, scale)),
            )))?;
        }
        chart.draw_series(std::iter::once(Circle::new((at, acc), radius, c.filled())))?;
    }
    Ok(())
}

/// Share of the paired problems that flipped.
fn flip_rate(flips: u64, r: &TallyRow) -> f64 {
    if r.paired_n == 0 {
        0.0
    } else {
        flips as f64 / r.paired_n as f64
    }
}

fn flips_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    d: &PlotData<'_>,
    axis: &str,
    values: &[String],
    x: &XAxis,
    scale: f64,
) -> DrawResult<DB> {
    let top = d.flip_scale;
    let mut chart = panel_chart(area, axis, x, -top..top, scale)?;
    let y = YAxis {
        labels: 7,
        desc: "share of paired problems",
        format: &|y| format!("{:.0} %", y.abs() * 100.0),
    };
    draw_mesh(&mut chart, axis, values, x, y, scale)?;
    chart.draw_series(LineSeries::new(
        [(x.range.start, 0.0), (x.range.end, 0.0)],
        BLACK.stroke_width(px(1, scale)),
    ))?;
    let models = d.models.len().max(1) as f64;
    // Bars of one value share 80 % of the smallest gap between two values.
    let w = 0.8 * x.step / models;
    for (m, model) in d.models.iter().enumerate() {
        let c = d.color(m);
        for (v, &at) in values.iter().zip(&x.at) {
            let Some(r) = d.rows.get(&(*model, axis, v.as_str())) else {
                continue;
            };
            let x0 = at - 0.4 * x.step + w * m as f64 + w * 0.08;
            let x1 = x0 + w * 0.84;
            let up = flip_rate(r.flips_to_wrong, r);
            let down = flip_rate(r.flips_to_right, r);
            chart.draw_series([
                Rectangle::new([(x0, 0.0), (x1, up)], c.filled()),
                Rectangle::new([(x0, -down), (x1, 0.0)], c.mix(0.4).filled()),
            ])?;
            if r.paired_n > 0 && r.mcnemar_p_holm < 0.05 {
                let style = (FONT, 16.0 * scale)
                    .into_font()
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Center, VPos::Bottom));
                let y = if up >= down { up } else { -down - top * 0.1 };
                chart.draw_series(std::iter::once(Text::new("*", ((x0 + x1) / 2.0, y), style)))?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    /// Numeric or not, and where the base sits, come from the axis table
    /// (`numeric`, `base_number`), never from the values or the axis name.
    #[test]
    fn the_axis_table_places_values_and_the_base() {
        let x = XAxis::of("unrelated", &values(&["1", "2"]));
        assert!(x.numeric);
        assert_eq!((x.at.clone(), x.base_at), (vec![1.0, 2.0], Some(0.0)));
        assert!(x.range.contains(&0.0) && x.range.contains(&2.0));
        let x = XAxis::of("opacity", &values(&["0.1", "1"]));
        assert_eq!((x.numeric, x.base_at), (true, Some(0.5)));
        // Numbers on a numeric axis without a base value on its scale (PNG vs JPEG).
        let x = XAxis::of("jpeg", &values(&["50", "90"]));
        assert_eq!((x.numeric, x.base_at), (true, None));
        // Categories, even when their values read as numbers.
        for (axis, v) in [
            ("annotation", vec!["individual"]),
            ("relabel", vec!["1", "2"]),
            ("backward", vec!["1"]),
            ("fontsize+opacity", vec!["8+0.25"]),
            ("not-an-axis", vec!["1", "2"]),
        ] {
            let x = XAxis::of(axis, &values(&v));
            assert_eq!((x.numeric, x.base_at), (false, None), "{axis}");
            assert_eq!(x.at, (0..v.len()).map(|i| i as f64).collect::<Vec<_>>());
        }
        // A corruption's panel (`by_severity`): severities on a number line, the
        // base images at 0.
        let x = XAxis::of("corrupt@fog", &values(&["1", "3", "5"]));
        assert_eq!(
            (x.numeric, x.at.clone(), x.base_at),
            (true, vec![1.0, 3.0, 5.0], Some(0.0))
        );
        assert_eq!(
            axis_title("corrupt@fog"),
            "fog: ImageNet-C severity (0 = base)"
        );
    }
}
