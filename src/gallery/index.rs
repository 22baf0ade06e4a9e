//! `index.html` and the data its script reads, as JavaScript files (`data/*.js`,
//! each one call of `GR.put`), since a page opened from `file://` cannot `fetch`:
//!
//! - `meta.js`: counts and the value tables of each filter (labels with their
//!   axes, depths, question types, tasks), with the number of rows of each value;
//! - `cols.js`: per row, the code of its label, depth, question type and task, as
//!   fixed-width base-64 digits in one string per column (a few bytes a row): what
//!   every filter runs on, so a filter never loads the rows it does not show;
//! - `rows-<k>.js`: the rows themselves in chunks (id, thumbnail, base page), loaded
//!   for the page on screen only;
//! - `ids.js`: every id, loaded on the first search.

use super::GalleryOptions;
use super::page::{Context, head, page_name};
use crate::html::{escape, script_json};
use crate::output::dir::{Dir, Kind};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};

/// The 64 digits of the column strings.
const DIGITS: &[u8; 64] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";

/// Key of a row without a depth, question type or task.
const NONE: &str = "—";

/// A column's distinct values in first-seen order, with counts, and each row's code.
struct Column {
    values: Vec<String>,
    counts: Vec<usize>,
    /// The first row of each value.
    first: Vec<usize>,
    codes: Vec<usize>,
}

impl Column {
    fn of<'a>(rows: impl Iterator<Item = &'a str>) -> Column {
        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut col = Column {
            values: Vec::new(),
            counts: Vec::new(),
            first: Vec::new(),
            codes: Vec::new(),
        };
        for (row, v) in rows.enumerate() {
            let code = *index.entry(v).or_insert_with(|| {
                col.values.push(v.to_string());
                col.counts.push(0);
                col.first.push(row);
                col.values.len() - 1
            });
            col.counts[code] += 1;
            col.codes.push(code);
        }
        col
    }

    /// Digits per row: enough for every code.
    fn width(&self) -> usize {
        let mut w = 1;
        while 64usize.pow(w as u32) < self.values.len() {
            w += 1;
        }
        w
    }

    fn encoded(&self) -> String {
        let w = self.width();
        let mut s = String::with_capacity(self.codes.len() * w);
        for &c in &self.codes {
            for j in (0..w).rev() {
                s.push(DIGITS[(c >> (6 * j)) & 63] as char);
            }
        }
        s
    }

    fn table(&self) -> Value {
        (self.values.iter().zip(&self.counts))
            .map(|(v, n)| json!({"key": v, "n": n}))
            .collect()
    }
}

/// Writes `index.html` and `data/`.
pub(super) fn write(site: &Dir, ctx: &Context, options: &GalleryOptions) -> std::io::Result<()> {
    let run = ctx.run;
    let data = site.sub("data")?;
    let mut written: HashSet<String> = HashSet::new();
    let mut put = |name: String, body: String| -> std::io::Result<()> {
        data.write_atomic(&name, body.as_bytes())?;
        written.insert(name);
        Ok(())
    };

    let label = Column::of(run.entries.iter().map(|e| e.label.as_str()));
    let depth = Column::of(
        run.entries
            .iter()
            .map(|e| e.depth.as_deref().unwrap_or(NONE)),
    );
    let qtype =
        Column::of((run.entries.iter()).map(|e| e.question_type.as_deref().unwrap_or(NONE)));
    let task = Column::of(run.entries.iter().map(|e| e.task.as_str()));
    let labels: Vec<Value> = (0..label.values.len())
        .map(|c| {
            let axes = &run.entries[label.first[c]].axes;
            json!({"key": label.values[c], "axes": axes, "n": label.counts[c]})
        })
        .collect();
    let chunk = options.chunk_rows.max(1);
    let meta = json!({
        "rows": run.entries.len(),
        "bases": run.bases.len(),
        "chunk": chunk,
        "chunks": run.entries.len().div_ceil(chunk),
        "labels": labels,
        "depth": depth.table(),
        "qtype": qtype.table(),
        "task": task.table(),
        "widths": {"label": label.width(), "depth": depth.width(), "qtype": qtype.width(), "task": task.width()},
        "errors": run.errors.len(),
        "audit": ctx.audit_unavailable.is_none(),
    });
    put(
        "meta.js".into(),
        format!("GR.put(\"meta\",{});\n", script_json(&meta)),
    )?;
    let cols = json!({
        "label": label.encoded(), "depth": depth.encoded(),
        "qtype": qtype.encoded(), "task": task.encoded(),
    });
    put(
        "cols.js".into(),
        format!("GR.put(\"cols\",{});\n", script_json(&cols)),
    )?;

    // The position of each entry on its base's page (`#v<k>`).
    let mut slot = vec![0usize; run.entries.len()];
    for base in &run.bases {
        for (k, &i) in base.rows.iter().enumerate() {
            slot[i] = k;
        }
    }
    for (k, rows) in run.entries.chunks(chunk).enumerate() {
        let rows: Vec<Value> = (rows.iter().enumerate())
            .map(|(j, e)| {
                let i = k * chunk + j;
                let b = run.base_of[i];
                let thumb = ctx.thumbs[i].as_ref();
                let shapes = match e.id == e.base_id {
                    true => run.bases[b].shapes.join(", "),
                    false => String::new(),
                };
                json!([
                    e.id,
                    thumb.map(|t| t.key.as_str()),
                    thumb.map_or(e.width, |t| t.width),
                    thumb.map_or(e.height, |t| t.height),
                    format!("bases/{}#v{}", page_name(b), slot[i]),
                    shapes,
                ])
            })
            .collect();
        put(
            format!("rows-{k}.js"),
            format!("GR.put(\"rows\",{k},{});\n", script_json(&rows)),
        )?;
    }
    let ids: Vec<&str> = run.entries.iter().map(|e| e.id.as_str()).collect();
    put(
        "ids.js".into(),
        format!("GR.put(\"ids\",{});\n", script_json(&ids)),
    )?;
    for (name, kind) in data.entries()? {
        if kind == Kind::File && !written.contains(&name) {
            data.remove_file(&name)?;
        }
    }
    site.write_atomic("index.html", index_html(ctx).as_bytes())
}

fn index_html(ctx: &Context) -> String {
    let run = ctx.run;
    let variants = run.entries.len()
        - run
            .bases
            .iter()
            .filter(|b| {
                let e = &run.entries[b.rows[0]];
                e.id == e.base_id
            })
            .count();
    let mut h = head("geomrender gallery", "gallery.css");
    h += "</head>\n<body data-page=\"index\">\n<a class=\"skip\" href=\"#grid\">Skip to the images</a>\n<header>\n<h1>geomrender gallery</h1>\n";
    h += &format!(
        "<p id=\"counts\"><span data-count=\"rows\">{}</span> images of <span data-count=\"bases\">{}</span> bases (<span data-count=\"variants\">{}</span> variants)",
        run.entries.len(),
        run.bases.len(),
        variants
    );
    if !run.errors.is_empty() {
        h += &format!(
            "; <strong><span data-count=\"errors\">{}</span> lines or images could not be shown</strong> (the command listed them)",
            run.errors.len()
        );
    }
    if let Some(why) = ctx.audit_unavailable {
        h += &format!("; no audit: {}", escape(why));
    }
    h += ".</p>\n";
    h += r#"<form id="filters" role="search" aria-label="Filter the images">
<label>Axis <select id="f-axis"><option value="@base">bases only</option><option value="@all">all images</option></select></label>
<label>Value <select id="f-value" disabled><option value="">any value</option></select></label>
<label>Depth <select id="f-depth"><option value="">any</option></select></label>
<label>Question type <select id="f-qtype"><option value="">any</option></select></label>
<label>Task <select id="f-task"><option value="">any</option></select></label>
<label>Id <input id="f-id" type="search" placeholder="search by id (press /)" autocomplete="off" spellcheck="false"></label>
</form>
<p id="shown" aria-live="polite">Loading…</p>
</header>
<main>
<noscript><p>The index needs JavaScript to list the images; each base's page (<a href="bases/0.html">the first</a>) does not.</p></noscript>
<ul id="grid" class="grid" aria-label="Images"></ul>
<nav id="pager" class="pager" aria-label="Pages">
<button type="button" id="prev" accesskey="p">← previous</button>
<span id="page"></span>
<button type="button" id="next" accesskey="n">next →</button>
</nav>
</main>
<script src="gallery.js"></script>
</body>
</html>
"#;
    h
}
