//! One static HTML page per base (`bases/<n>.html`): the base image and every
//! variant side by side, each with its question, answer, solution (collapsed),
//! variant value and the audit's note. Images are the run's own files, linked
//! (`../../images/…`) and never copied; sizes are in the markup, so nothing moves
//! when they load.

use super::{AuditNote, Run, Thumb};
use crate::html::{escape, url_path};
use crate::output::dir::Dir;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// What the pages are made from.
pub(super) struct Context<'a> {
    pub run: &'a Run,
    /// Per entry, its thumbnail (`None`: the image could not be read).
    pub thumbs: &'a [Option<Thumb>],
    pub notes: &'a HashMap<String, AuditNote>,
    pub audit_unavailable: Option<&'a str>,
}

/// File name of base `b`'s page inside `bases/`.
pub(super) fn page_name(b: usize) -> String {
    format!("{b}.html")
}

/// Writes every base's page into `site/bases/`; returns the names written.
pub(super) fn write_all(site: &Dir, ctx: &Context) -> std::io::Result<HashSet<String>> {
    use rayon::prelude::*;
    let dir = site.sub("bases")?;
    (0..ctx.run.bases.len())
        .into_par_iter()
        .map(|b| {
            let name = page_name(b);
            dir.write_atomic(&name, render(ctx, b).as_bytes())?;
            Ok(name)
        })
        .collect()
}

/// The header every page shares: charset, viewport, colour schemes, stylesheet.
pub(super) fn head(title: &str, css: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"color-scheme\" content=\"light dark\">\n<title>{}</title>\n\
         <link rel=\"stylesheet\" href=\"{css}\">\n",
        escape(title)
    )
}

fn render(ctx: &Context, b: usize) -> String {
    let run = ctx.run;
    let base = &run.bases[b];
    let first = &run.entries[base.rows[0]];
    let mut h = head(
        &format!("{} · geomrender gallery", base.id),
        "../gallery.css",
    );
    let link = |rel: &str, to: Option<usize>| match to {
        Some(t) => format!("<link rel=\"{rel}\" href=\"{}\">\n", page_name(t)),
        None => String::new(),
    };
    let prev = b.checked_sub(1);
    let next = (b + 1 < run.bases.len()).then_some(b + 1);
    h += &link("prev", prev);
    h += &link("next", next);
    h += "</head>\n<body data-page=\"base\">\n<a class=\"skip\" href=\"#variants\">Skip to the images</a>\n<header>\n<nav aria-label=\"Bases\"><a href=\"../index.html\">All images</a>";
    let nav = |label: &str, rel: &str, to: Option<usize>| match to {
        Some(t) => format!(" · <a rel=\"{rel}\" href=\"{}\">{label}</a>", page_name(t)),
        None => format!(" · <span class=\"off\">{label}</span>"),
    };
    h += &nav("← previous base", "prev", prev);
    h += &nav("next base →", "next", next);
    let _ = write!(
        h,
        " <span class=\"hint\">(keys ← →)</span></nav>\n<h1>Base <bdi>{}</bdi> <small>{} of {}</small></h1>\n<dl class=\"facts\">",
        escape(&base.id),
        b + 1,
        run.bases.len()
    );
    let fact = |h: &mut String, k: &str, v: &str| {
        let _ = write!(h, "<div><dt>{k}</dt><dd>{}</dd></div>", escape(v));
    };
    fact(&mut h, "Task", &first.task);
    fact(&mut h, "Depth", first.depth.as_deref().unwrap_or("—"));
    fact(
        &mut h,
        "Question type",
        first.question_type.as_deref().unwrap_or("—"),
    );
    if !base.shapes.is_empty() {
        fact(&mut h, "Shapes", &base.shapes.join(", "));
    }
    fact(
        &mut h,
        "Images",
        &format!(
            "{} (base and {} variants)",
            base.rows.len(),
            base.rows.len().saturating_sub(1)
        ),
    );
    h += "</dl>\n";
    if let Some(why) = ctx.audit_unavailable {
        let _ = writeln!(h, "<p class=\"note\">No audit: {}</p>", escape(why));
    }
    h += "</header>\n<main id=\"variants\" class=\"variants\">\n";
    for (k, &i) in base.rows.iter().enumerate() {
        card(&mut h, ctx, k, i);
    }
    h += "</main>\n<script src=\"../gallery.js\"></script>\n</body>\n</html>\n";
    h
}

fn card(h: &mut String, ctx: &Context, k: usize, i: usize) {
    let e = &ctx.run.entries[i];
    let is_base = e.id == e.base_id;
    let _ = writeln!(
        h,
        "<article class=\"card{}\" id=\"v{k}\" data-label=\"{}\">\n<h2>{}</h2>",
        if is_base { " base" } else { "" },
        escape(&e.label),
        escape(&e.label)
    );
    let src = escape(&format!("../../{}", url_path(&e.image)));
    match ctx.thumbs[i] {
        Some(_) => {
            let _ = writeln!(
                h,
                "<a class=\"full\" href=\"{src}\"><img src=\"{src}\" width=\"{}\" height=\"{}\" alt=\"Diagram {}, {}\" loading=\"lazy\"></a>",
                e.width,
                e.height,
                escape(&e.id),
                escape(&e.label)
            );
        }
        None => {
            let _ = writeln!(
                h,
                "<p class=\"missing\" style=\"aspect-ratio:{}/{}\">Image not readable: <a href=\"{src}\">{}</a></p>",
                e.width,
                e.height,
                escape(&e.image)
            );
        }
    }
    let _ = writeln!(
        h,
        "<dl>\n<div><dt>Id</dt><dd><bdi>{}</bdi></dd></div>",
        escape(&e.id)
    );
    if let Some(a) = &e.answer {
        let _ = writeln!(
            h,
            "<div><dt>Answer</dt><dd class=\"answer\">{}</dd></div>",
            escape(a)
        );
    }
    let _ = writeln!(
        h,
        "<div><dt>Size</dt><dd>{}×{}</dd></div>",
        e.width, e.height
    );
    if !is_base {
        h.push_str("<div><dt>Audit</dt>");
        audit_cell(h, ctx, &e.id);
        h.push_str("</div>\n");
    }
    h.push_str("</dl>\n");
    if let Some(q) = &e.question {
        let _ = writeln!(h, "<p class=\"question\">{}</p>", escape(q));
    }
    if !e.choices.is_empty() {
        h.push_str("<ol class=\"choices\" type=\"A\">");
        for c in &e.choices {
            let _ = write!(h, "<li>{}</li>", escape(c));
        }
        h.push_str("</ol>\n");
    }
    if let Some(cot) = &e.cot {
        let _ = writeln!(
            h,
            "<details><summary>Solution</summary><p class=\"cot\">{}</p></details>",
            escape(cot)
        );
    }
    h.push_str("</article>\n");
}

fn audit_cell(h: &mut String, ctx: &Context, id: &str) {
    let Some(note) = ctx.notes.get(id) else {
        let why = match ctx.audit_unavailable {
            Some(_) => "not audited",
            None => "not audited (see audit's errors)",
        };
        let _ = write!(h, "<dd class=\"audit\">{why}</dd>");
        return;
    };
    let flagged = note.identical || !note.undeclared.is_empty();
    let _ = write!(
        h,
        "<dd class=\"audit{}\">",
        if flagged { " flag" } else { "" }
    );
    if note.identical {
        h.push_str("<strong>identical to the base</strong>");
    } else {
        let parts: Vec<String> = (note.changes.iter())
            .map(|(c, n)| format!("{} {n}", c.replace('_', " ")))
            .collect();
        h.push_str(&escape(&parts.join(", ")));
        if !note.undeclared.is_empty() {
            let _ = write!(
                h,
                " — <strong>undeclared: {}</strong>",
                escape(&note.undeclared.join(", "))
            );
        }
    }
    h.push_str("</dd>");
}
