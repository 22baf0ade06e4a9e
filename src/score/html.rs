//! `report.html` (`score --html`): one self-contained page — the report's tables,
//! the plots inline (SVG), and the items whose verdict flips against the base
//! image, each with its image, question, the model's raw output, the extracted
//! answer and the gold one, filterable by model, axis, variant and direction. It
//! opens from `file://` with no server or network; images are the run's own files,
//! linked relative to the report. Every text is escaped (`crate::html`).

use super::Scoring;
use super::base_set::BaseSetKind;
use super::error::ScoreError;
use super::flips::{Flip, scalar_text};
use super::plot;
use crate::html::{escape, url_path};
use std::collections::BTreeSet;
use std::fmt::Write;
use std::path::{Path, PathBuf};

const CSS: &str = include_str!("../../assets/gallery/gallery.css");
const SCRIPT: &str = include_str!("../../assets/report.js");

/// File name of the page in the report directory.
pub(crate) const REPORT_HTML: &str = "report.html";

/// Writes `report.html` into `dir` (created if needed); images are linked from
/// `manifest_dir`, the directory the manifest's image paths are relative to.
pub(crate) fn write_html(
    scoring: &Scoring,
    manifest_dir: &Path,
    dir: &Path,
) -> Result<PathBuf, ScoreError> {
    std::fs::create_dir_all(dir).map_err(|e| ScoreError::io(dir.display(), e))?;
    let images = image_base(dir, manifest_dir);
    let page = render(scoring, &images)?;
    super::write::write_atomic(dir, REPORT_HTML, page.as_bytes())
}

/// The URL prefix of the manifest's directory seen from the report's: relative
/// when both resolve on this machine (`../run/`), else an absolute `file://` URL.
fn image_base(report_dir: &Path, manifest_dir: &Path) -> String {
    let (Ok(from), Ok(to)) = (report_dir.canonicalize(), manifest_dir.canonicalize()) else {
        return String::new();
    };
    let from: Vec<_> = from.components().collect();
    let to_parts: Vec<_> = to.components().collect();
    let common = from
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let mut rel = "../".repeat(from.len() - common);
    for c in &to_parts[common..] {
        rel.push_str(&c.as_os_str().to_string_lossy());
        rel.push('/');
    }
    url_path(&rel)
}

fn render(s: &Scoring, images: &str) -> Result<String, ScoreError> {
    let r = &s.report;
    let mut h = String::with_capacity(64 << 10);
    h += "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
          <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
          <meta name=\"color-scheme\" content=\"light dark\">\n\
          <title>geomrender score report</title>\n<style>\n";
    h += CSS;
    h += "</style>\n</head>\n<body data-page=\"report\">\n<a class=\"skip\" href=\"#flips\">Skip to the flips</a>\n<header>\n<h1>geomrender score report</h1>\n";
    let c = &r.counts;
    let _ = writeln!(
        h,
        "<p id=\"counts\"><span data-count=\"items\">{}</span> items (<span data-count=\"bases\">{}</span> base images), \
         <span data-count=\"predictions\">{}</span> predictions from <span data-count=\"models\">{}</span> model(s); \
         {} missing, {} unknown ids, {} duplicate ids, {} malformed lines; \
         <span data-count=\"flips\">{}</span> flips against the base.</p>",
        c.items,
        c.base_items,
        c.predictions,
        r.models.len(),
        c.missing,
        c.unknown_ids,
        c.duplicate_ids,
        c.malformed_lines,
        s.flips.len()
    );
    let _ = writeln!(
        h,
        "<p class=\"hint\">Manifest <bdi>{}</bdi> (SHA-256 {}); relaxed accuracy with tolerance {} (absolute {} at zero); \
         missing predictions {}; intervals are 95 % Wilson.</p>\n</header>\n<main>",
        escape(&r.inputs.manifest.path),
        &r.inputs.manifest.sha256[..12.min(r.inputs.manifest.sha256.len())],
        r.tolerance.relative,
        r.tolerance.absolute_at_zero,
        match r.missing_policy {
            super::MissingPolicy::Exclude => "left out",
            super::MissingPolicy::Wrong => "counted wrong",
        }
    );
    base_set(&mut h, r);
    models_table(&mut h, s);
    h += "<h2 id=\"plots\">Plots</h2>\n";
    for p in plot::render_all(r)? {
        if let Some(stem) = p.name.strip_suffix(".svg") {
            use base64::Engine;
            let _ = writeln!(
                h,
                "<figure class=\"plot\"><img src=\"data:image/svg+xml;base64,{}\" alt=\"{} plot: {}\"></figure>",
                base64::engine::general_purpose::STANDARD.encode(&p.bytes),
                escape(stem),
                match stem {
                    "accuracy" => "accuracy per axis value and model, with 95 % intervals",
                    _ => "share of paired problems that flipped, per axis value and model",
                }
            );
        }
    }
    rows_table(&mut h, s);
    worst_case_table(&mut h, s);
    modality_table(&mut h, s);
    blind_table(&mut h, s);
    flips_section(&mut h, &s.flips, images);
    h += "</main>\n<script>\n";
    h += SCRIPT;
    h += "</script>\n</body>\n</html>\n";
    Ok(h)
}

/// Which base problems the rows count.
fn base_set(h: &mut String, r: &super::Report) {
    let b = &r.base_set;
    match b.set {
        BaseSetKind::All => {
            let _ = write!(
                h,
                "<p id=\"base-set\" data-base-set=\"all\">Base set: <strong>all</strong> {} base problems; \
                 each row counts those with its variant (column <em>bases</em>).",
                b.bases
            );
            if b.matched < b.bases {
                let _ = write!(
                    h,
                    " {} have every one of the {} conditions: <code>--matched</code> counts only those.",
                    b.matched, b.conditions
                );
            }
            h.push_str("</p>\n");
        }
        BaseSetKind::Matched => {
            let _ = writeln!(
                h,
                "<p id=\"base-set\" data-base-set=\"matched\">Base set: <strong>matched</strong>, the {} \
                 base problems with every one of the {} conditions; {} left out ({} lacking a variant, \
                 {} lacking a prediction). Every table counts only their images.</p>",
                b.bases, b.conditions, b.left_out, b.lacking_variant, b.lacking_prediction
            );
        }
    }
}

fn models_table(h: &mut String, s: &Scoring) {
    h.push_str("<h2>Models</h2>\n<table><thead><tr><th>model</th><th class=\"num\">predictions</th><th class=\"num\">missing</th><th class=\"num\">unparsed</th></tr></thead><tbody>\n");
    for m in &s.report.models {
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
            escape(&m.model),
            m.predictions,
            m.missing,
            m.unparsed
        );
    }
    h.push_str("</tbody></table>\n");
}

fn pct(v: Option<f64>) -> String {
    v.map_or("—".into(), |v| format!("{:.1}", 100.0 * v))
}

fn rows_table(h: &mut String, s: &Scoring) {
    h.push_str("<h2 id=\"accuracy\">Accuracy per axis value</h2>\n");
    if !s.report.baselines.methods.is_empty() {
        h.push_str("<p class=\"hint\">Rows <em>blind:…</em> are the blind baselines: the question text alone, no image (below).</p>\n");
    }
    h.push_str("<table><thead><tr><th>model</th><th>axis</th><th>value</th>\
                <th class=\"num\">n</th><th class=\"num\">bases</th><th class=\"num\">accuracy %</th><th class=\"num\">95 % interval</th>\
                <th class=\"num\">Δ vs base (pp)</th><th class=\"num\">right→wrong</th><th class=\"num\">wrong→right</th>\
                <th class=\"num\">McNemar p (Holm)</th></tr></thead><tbody>\n");
    let blind = s.report.baselines.methods.iter().flat_map(|m| &m.rows);
    for r in s.report.rows.iter().chain(blind) {
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}–{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{:.3}</td></tr>",
            escape(&r.model),
            escape(&r.axis),
            escape(&r.value),
            r.n,
            r.bases,
            pct(r.accuracy),
            pct(r.ci_low),
            pct(r.ci_high),
            r.delta.map_or("—".into(), |d| format!("{:+.1}", 100.0 * d)),
            r.flips_to_wrong,
            r.flips_to_right,
            r.mcnemar_p_holm
        );
    }
    h.push_str("</tbody></table>\n");
}

/// Per model and axis: consistency, DynaMath's worst-case accuracy and reasoning
/// robustness.
fn worst_case_table(h: &mut String, s: &Scoring) {
    h.push_str("<h2 id=\"worst-case\">Worst case per axis</h2>\n\
                <p class=\"hint\">Worst case: right on the base image and every variant of the axis (DynaMath's worst-case accuracy; MMBench's CircularEval on <em>choices</em>). Robustness: worst case over the mean accuracy of those rows. Bootstrap intervals over base problems.</p>\n");
    h.push_str("<table><thead><tr><th>model</th><th>axis</th><th class=\"num\">problems</th>\
                <th class=\"num\">consistent %</th><th class=\"num\">worst case %</th><th class=\"num\">95 % interval</th>\
                <th class=\"num\">robustness</th><th class=\"num\">95 % interval</th></tr></thead><tbody>\n");
    let ratio = |v: Option<f64>| v.map_or("—".into(), |v| format!("{v:.3}"));
    let blind = s
        .report
        .baselines
        .methods
        .iter()
        .flat_map(|m| &m.consistency);
    for c in s.report.consistency.iter().chain(blind) {
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}–{}</td><td class=\"num\">{}</td><td class=\"num\">{}–{}</td></tr>",
            escape(&c.model),
            escape(&c.axis),
            c.n,
            pct(c.share),
            pct(c.worst_case),
            pct(c.worst_case_low),
            pct(c.worst_case_high),
            ratio(c.robustness),
            ratio(c.robustness_low),
            ratio(c.robustness_high),
        );
    }
    h.push_str("</tbody></table>\n");
}

/// Per model: the blank control's gap and the vision gain (nothing without the
/// `modality` rows they need).
fn modality_table(h: &mut String, s: &Scoring) {
    if s.report.modality.is_empty() {
        return;
    }
    h.push_str("<h2 id=\"modality\">Does the score need the diagram?</h2>\n\
                <p class=\"hint\">Blank gap: accuracy on the base images minus on blank canvases with the same texts (<em>modality=blank</em>). Vision gain: accuracy on <em>text-dominant</em> (every fact in the text, and the image) minus on <em>text-only</em> (the same text, no image). Each paired per problem; bootstrap interval and exact McNemar test. Near zero: the model answers from the words.</p>\n");
    h.push_str("<table><thead><tr><th>model</th><th class=\"num\">problems</th><th class=\"num\">blank gap (pp)</th>\
                <th class=\"num\">95 % interval</th><th class=\"num\">right only with the diagram</th>\
                <th class=\"num\">right only blank</th><th class=\"num\">McNemar p</th>\
                <th class=\"num\">problems</th><th class=\"num\">vision gain (pp)</th>\
                <th class=\"num\">95 % interval</th><th class=\"num\">right only with the image</th>\
                <th class=\"num\">right only text-only</th><th class=\"num\">McNemar p</th></tr></thead><tbody>\n");
    let pp = |v: Option<f64>| v.map_or("—".into(), |v| format!("{:+.1}", 100.0 * v));
    for m in &s.report.modality {
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{} … {}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{:.3}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{} … {}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{:.3}</td></tr>",
            escape(&m.model),
            m.blank_pairs,
            pp(m.blank_gap),
            pp(m.blank_gap_ci_low),
            pp(m.blank_gap_ci_high),
            m.right_only_with_diagram,
            m.right_only_blank,
            m.blank_mcnemar_p,
            m.vision_pairs,
            pp(m.vision_gain),
            pp(m.vision_gain_ci_low),
            pp(m.vision_gain_ci_high),
            m.right_only_with_image,
            m.right_only_text_only,
            m.vision_mcnemar_p,
        );
    }
    h.push_str("</tbody></table>\n");
}

/// The blind baselines pooled over every image counted, per group.
fn blind_table(h: &mut String, s: &Scoring) {
    let b = &s.report.baselines;
    h.push_str(
        "<h2 id=\"blind\">Blind baselines</h2>\n<p>What a model could get without the image: \
         each item answered from its question text (point names and numbers masked) and \
         the answers of other problems, by 2-fold cross-fitting split by base problem. \
         <em>blind:template_majority</em>: the most frequent answer of the question's \
         template; <em>blind:text_classifier</em>: logistic regression on its words, \
         choosing among the item's options (multiple-choice items only; GeomVerse's numeric \
         answers have the template majority only). Pooled over every image counted; \
         report.md gives the details.</p>\n\
         <table><thead><tr><th>baseline</th><th>group</th><th class=\"num\">n</th><th class=\"num\">bases</th>\
         <th class=\"num\">accuracy %</th><th class=\"num\">95 % interval</th></tr></thead><tbody>\n",
    );
    for m in &b.methods {
        for g in &m.summary {
            let group = match g.dimension {
                "all" => "all".to_string(),
                d => format!("{d} = {}", g.group),
            };
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
                 <td class=\"num\">{}–{}</td></tr>",
                m.model,
                escape(&group),
                g.n,
                g.bases,
                pct(g.accuracy),
                pct(g.ci_low),
                pct(g.ci_high)
            );
        }
    }
    h.push_str("</tbody></table>\n");
}

fn select(h: &mut String, id: &str, label: &str, values: &BTreeSet<&str>) {
    let _ = write!(
        h,
        "<label>{label} <select id=\"{id}\"><option value=\"\">any</option>"
    );
    for v in values {
        let _ = write!(h, "<option value=\"{0}\">{0}</option>", escape(v));
    }
    h.push_str("</select></label>\n");
}

fn flips_section(h: &mut String, flips: &[Flip], images: &str) {
    h.push_str("<h2 id=\"flips\">Verdicts that flip against the base image</h2>\n");
    if flips.is_empty() {
        h.push_str(
            "<p>No model's verdict on a variant differs from its verdict on the base image.</p>\n",
        );
        return;
    }
    let set = |f: fn(&Flip) -> &str| flips.iter().map(f).collect::<BTreeSet<&str>>();
    h.push_str("<form id=\"filters\" role=\"search\" aria-label=\"Filter the flips\">\n");
    select(h, "f-model", "Model", &set(|f| &f.model));
    select(h, "f-axis", "Axis", &set(|f| &f.axis));
    select(h, "f-variant", "Variant", &set(|f| &f.variant));
    select(h, "f-direction", "Verdict", &set(|f| f.direction.name()));
    h.push_str("</form>\n<p id=\"shown\" aria-live=\"polite\"></p>\n");
    h.push_str("<table id=\"flip-table\"><thead><tr><th>image</th><th>id</th><th>model</th><th>variant</th><th>verdict</th>\
                <th>question</th><th>gold</th><th>output on the variant</th><th>extracted</th>\
                <th>output on the base</th><th>extracted</th><th>probes on this image</th></tr></thead><tbody>\n");
    // At most FLIPS_SHOWN rows per model and axis value, so the page stays bounded.
    let mut shown: std::collections::HashMap<(&str, &str), usize> = Default::default();
    let mut left_out = 0usize;
    for f in flips {
        let n = shown.entry((&f.model, &f.variant)).or_default();
        *n += 1;
        if *n > FLIPS_SHOWN {
            left_out += 1;
            continue;
        }
        let dir = f.direction.name();
        let _ = write!(
            h,
            "<tr data-model=\"{}\" data-axis=\"{}\" data-variant=\"{}\" data-direction=\"{dir}\" data-id=\"{}\"><td>",
            escape(&f.model),
            escape(&f.axis),
            escape(&f.variant),
            escape(&f.id)
        );
        match &f.image {
            Some(img) => {
                let src = escape(&format!("{images}{}", url_path(img)));
                // Drawn 160 px wide at the image's own aspect, so nothing moves on load.
                let (w, h2) = f.size.unwrap_or((1, 1));
                let height = (160.0 * f64::from(h2) / f64::from(w.max(1)))
                    .round()
                    .max(1.0);
                let _ = write!(
                    h,
                    "<a href=\"{src}\"><img class=\"flip-img\" src=\"{src}\" width=\"160\" height=\"{height}\" loading=\"lazy\" alt=\"Diagram {}\"></a>",
                    escape(&f.id)
                );
            }
            None => h.push('—'),
        }
        let opt = |v: &Option<String>| v.as_deref().map_or("—".to_string(), escape);
        let ext = |v: &Option<super::items::Scalar>| {
            v.as_ref()
                .map_or("—".to_string(), |v| escape(&scalar_text(v)))
        };
        let _ = writeln!(
            h,
            "</td><td><bdi>{}</bdi></td><td>{}</td><td>{}</td><td class=\"{}\">{}</td><td class=\"question\">{}</td>\
             <td>{}</td><td class=\"output\">{}</td><td>{}</td><td class=\"output\">{}</td><td>{}</td><td class=\"probes\">{}</td></tr>",
            escape(&f.id),
            escape(&f.model),
            escape(&f.variant),
            dir.replace('_', "-"),
            dir.replace('_', " "),
            opt(&f.question),
            escape(&scalar_text(&f.answer)),
            opt(&f.output),
            ext(&f.extracted),
            opt(&f.base_output),
            ext(&f.base_extracted),
            probe_list(&f.probes)
        );
    }
    h.push_str("</tbody></table>\n");
    if left_out > 0 {
        let _ = writeln!(
            h,
            "<p>… and {left_out} more flips, past {FLIPS_SHOWN} per model and variant \
             (every one is in <code>items.jsonl</code>).</p>"
        );
    }
}

/// A flip's probes as a list (`—` without).
fn probe_list(probes: &[String]) -> String {
    if probes.is_empty() {
        return "—".to_string();
    }
    let items: String = probes
        .iter()
        .map(|p| format!("<li>{}</li>", escape(p)))
        .collect();
    format!("<ul>{items}</ul>")
}

/// Flips shown per model and variant in `report.html`.
pub(super) const FLIPS_SHOWN: usize = 200;
