//! Plots of the report, as PNG and SVG, drawn with plotters and the embedded DejaVu
//! Sans (never a system font):
//!
//! - `accuracy`: one panel per axis (GeomVerse figure 8 layout), accuracy against the
//!   axis's values, one line per model with its 95 % Wilson band, and the model's
//!   accuracy on the base images as a dashed line.
//! - `flips`: one panel per axis, per value and model the share of paired problems
//!   that flipped right→wrong (bar up) and wrong→right (pale bar down); `*` marks
//!   McNemar p < 0.05. All panels share one scale.
//!
//! Values sit evenly spaced in report order (numbers ascending), labelled by value.

use super::error::ScoreError;
use super::report::{Report, Row};
use crate::font::FONT_DATA;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use std::collections::HashMap;
use std::sync::OnceLock;

/// A rendered plot file.
pub struct PlotFile {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// Family name the embedded font is registered under. SVG output names it as is, a
/// CSS list, so viewers without DejaVu Sans fall back to a sans-serif font.
const FONT: &str = "DejaVu Sans, sans-serif";

const PANEL_W: u32 = 420;
const PANEL_H: u32 = 320;
const HEADER_H: u32 = 74;
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
pub fn render_all(report: &Report) -> Result<Vec<PlotFile>, ScoreError> {
    register_font()?;
    let data = PlotData::new(report);
    let mut out = Vec::new();
    for (name, kind) in [("accuracy", Kind::Accuracy), ("flips", Kind::Flips)] {
        let (w, h) = data.size();
        let fail = |e: String| ScoreError::Plot {
            name: name.to_string(),
            message: e,
        };
        let mut svg = String::new();
        {
            let root = SVGBackend::with_string(&mut svg, (w, h)).into_drawing_area();
            draw(&root, &data, kind).map_err(|e| fail(e.to_string()))?;
            root.present().map_err(|e| fail(e.to_string()))?;
        }
        let mut rgb = vec![0u8; w as usize * h as usize * 3];
        {
            let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
            draw(&root, &data, kind).map_err(|e| fail(e.to_string()))?;
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
    rows: HashMap<(&'a str, &'a str, &'a str), &'a Row>,
    base: HashMap<&'a str, &'a Row>,
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

    fn size(&self) -> (u32, u32) {
        let (rows, cols) = self.grid();
        (PANEL_W * cols as u32, HEADER_H + PANEL_H * rows as u32)
    }

    fn color(&self, model_index: usize) -> RGBColor {
        PALETTE[model_index % PALETTE.len()]
    }
}

type DrawResult<DB> = Result<(), DrawingAreaErrorKind<<DB as DrawingBackend>::ErrorType>>;

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    d: &PlotData<'_>,
    kind: Kind,
) -> DrawResult<DB> {
    root.fill(&WHITE)?;
    let (header, body) = root.split_vertically(HEADER_H);
    let title = match kind {
        Kind::Accuracy => format!(
            "Relaxed accuracy (±{} %) per variant value, 95 % Wilson bands; dashed: base images",
            d.tolerance * 100.0
        ),
        Kind::Flips => {
            "Paired flips vs base image: ↑ right→wrong, ↓ wrong→right (pale); * McNemar p < 0.05"
                .to_string()
        }
    };
    let title = match d.omitted {
        0 => title,
        n => format!("{title} (first {MAX_PANELS} axes; {n} more in report.md)"),
    };
    header.draw(&Text::new(
        title,
        (12, 10),
        (FONT, 16).into_font().color(&BLACK),
    ))?;
    legend(&header, d)?;
    if d.axes.is_empty() {
        body.draw(&Text::new(
            "No variant axes in the manifest: only base images were scored (see report.md).",
            (12, 30),
            (FONT, 15).into_font().color(&BLACK),
        ))?;
        return Ok(());
    }
    let panels = body.split_evenly(d.grid());
    for (panel, (axis, values)) in panels.iter().zip(&d.axes) {
        match kind {
            Kind::Accuracy => accuracy_panel(panel, d, axis, values)?,
            Kind::Flips => flips_panel(panel, d, axis, values)?,
        }
    }
    Ok(())
}

fn legend<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, d: &PlotData<'_>) -> DrawResult<DB> {
    let (mut x, mut y) = (14i32, 42i32);
    let width = area.dim_in_pixel().0 as i32;
    for (i, model) in d.models.iter().enumerate() {
        let c = d.color(i);
        let label_w = 40 + 8 * model.chars().count() as i32;
        if x + label_w > width && x > 14 {
            x = 14;
            y += 16;
        }
        area.draw(&Rectangle::new([(x, y + 5), (x + 22, y + 9)], c.filled()))?;
        area.draw(&Text::new(
            model.to_string(),
            (x + 28, y),
            (FONT, 14).into_font().color(&BLACK),
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

fn accuracy_panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    d: &PlotData<'_>,
    axis: &str,
    values: &[String],
) -> DrawResult<DB> {
    let k = values.len();
    let mut chart = ChartBuilder::on(area)
        .caption(axis, (FONT, 17))
        .margin(10)
        .x_label_area_size(34)
        .y_label_area_size(48)
        .build_cartesian_2d(-0.5f64..(k as f64 - 0.5), 0f64..1f64)?;
    let xfmt = category_label(values);
    chart
        .configure_mesh()
        .x_labels(k)
        .y_labels(6)
        .disable_x_mesh()
        .x_label_formatter(&xfmt)
        .y_label_formatter(&|y| format!("{:.0} %", y * 100.0))
        .y_desc("accuracy")
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.08))
        .draw()?;
    for (m, model) in d.models.iter().enumerate() {
        let c = d.color(m);
        let pts: Vec<(f64, &Row)> = values
            .iter()
            .enumerate()
            .filter_map(|(i, v)| Some((i as f64, *d.rows.get(&(*model, axis, v.as_str()))?)))
            .filter(|(_, r)| r.accuracy.is_some())
            .collect();
        let band: Vec<(f64, f64)> = pts
            .iter()
            .filter_map(|(x, r)| Some((*x, r.ci_high?)))
            .chain(pts.iter().rev().filter_map(|(x, r)| Some((*x, r.ci_low?))))
            .collect();
        if pts.len() > 1 {
            chart.draw_series(std::iter::once(Polygon::new(band, c.mix(0.16).filled())))?;
        } else if let Some((x, r)) = pts.first() {
            let (lo, hi) = (r.ci_low.unwrap_or(0.0), r.ci_high.unwrap_or(1.0));
            chart.draw_series(std::iter::once(Rectangle::new(
                [(x - 0.08, lo), (x + 0.08, hi)],
                c.mix(0.16).filled(),
            )))?;
        }
        if let Some(base) = d.base.get(model).and_then(|r| r.accuracy) {
            let dash = [(-0.5, base), (k as f64 - 0.5, base)];
            chart.draw_series(DashedLineSeries::new(dash, 6, 4, c.stroke_width(1)))?;
        }
        let line: Vec<(f64, f64)> = pts
            .iter()
            .filter_map(|(x, r)| Some((*x, r.accuracy?)))
            .collect();
        chart.draw_series(LineSeries::new(line.clone(), c.stroke_width(2)))?;
        chart.draw_series(line.into_iter().map(|p| Circle::new(p, 3, c.filled())))?;
    }
    Ok(())
}

/// Share of the paired problems that flipped.
fn flip_rate(flips: u64, r: &Row) -> f64 {
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
) -> DrawResult<DB> {
    let k = values.len();
    let top = d.flip_scale;
    let mut chart = ChartBuilder::on(area)
        .caption(axis, (FONT, 17))
        .margin(10)
        .x_label_area_size(34)
        .y_label_area_size(48)
        .build_cartesian_2d(-0.5f64..(k as f64 - 0.5), -top..top)?;
    let xfmt = category_label(values);
    chart
        .configure_mesh()
        .x_labels(k)
        .y_labels(7)
        .disable_x_mesh()
        .x_label_formatter(&xfmt)
        .y_label_formatter(&|y| format!("{:.0} %", y.abs() * 100.0))
        .y_desc("share of paired problems")
        .label_style((FONT, 12))
        .axis_desc_style((FONT, 13))
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.08))
        .draw()?;
    chart.draw_series(LineSeries::new(
        [(-0.5, 0.0), (k as f64 - 0.5, 0.0)],
        BLACK.stroke_width(1),
    ))?;
    let models = d.models.len().max(1) as f64;
    let w = 0.8 / models;
    for (m, model) in d.models.iter().enumerate() {
        let c = d.color(m);
        for (i, v) in values.iter().enumerate() {
            let Some(r) = d.rows.get(&(*model, axis, v.as_str())) else {
                continue;
            };
            let x0 = i as f64 - 0.4 + w * m as f64 + w * 0.08;
            let x1 = x0 + w * 0.84;
            let up = flip_rate(r.flips_to_wrong, r);
            let down = flip_rate(r.flips_to_right, r);
            chart.draw_series([
                Rectangle::new([(x0, 0.0), (x1, up)], c.filled()),
                Rectangle::new([(x0, -down), (x1, 0.0)], c.mix(0.4).filled()),
            ])?;
            if r.paired_n > 0 && r.mcnemar_p < 0.05 {
                let style = (FONT, 16)
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
