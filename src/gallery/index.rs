//! `index.html` and the data its script reads, as JavaScript files (`data/*.js`,
//! each one call of `GR.put`), since a page opened from `file://` cannot `fetch`:
//!
//! - `meta.js`: counts, and the value table of every filter column with the
//!   number of rows of each value (labels with their axes);
//! - `col-<name>.js`: per row, the code of its value in one filter column, as
//!   fixed-width base-64 digits in one string (a digit or two a row), loaded when a
//!   filter on that column is set (the label column at once: the default view
//!   shows the bases), so a filter never loads the rows it does not show;
//! - `rows-<k>.js`: the rows themselves in chunks (id, thumbnail, base page,
//!   shapes, facts), loaded for the page on screen only;
//! - `ids.js`: every id, loaded on the first search.
//!
//! Rows are written as they come: a chunk file when it is full, `ids.js` as a
//! stream, each row's column codes to a spool file (4 bytes a code) that becomes
//! the column files at the end. What is held is one chunk and the value tables.

use crate::html::{escape, script_json};
use crate::output::atomic::AtomicFile;
use crate::output::dir::{Dir, Kind};
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};

/// The 64 digits of the column strings.
const DIGITS: &[u8; 64] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";

/// Key of a row without a value in a column (a depth on a relation item, …).
pub(super) const NONE: &str = "—";

/// The filter columns, in the order of the index's filters: the label first.
pub(super) const COLUMNS: [&str; 11] = [
    "label", "depth", "qtype", "task", "audit", "relation", "domain", "subset", "mode", "answer",
    "cbi",
];

/// One row of the index.
pub(super) struct IndexRow<'a> {
    pub id: &'a str,
    /// Thumbnail key and size; `None` when the image could not be read (the
    /// image's own size is given), and with no size on a text-only row.
    pub thumb: Option<&'a str>,
    pub width: Option<u32>,
    pub height: Option<u32>,
    /// Its card: `bases/<page>#<id>`.
    pub href: String,
    /// Its Problem's shapes (on a base row).
    pub shapes: String,
    /// What the cell says under the id.
    pub facts: String,
    /// Its value in each of [`COLUMNS`].
    pub values: [&'a str; COLUMNS.len()],
    /// The variant's axes (for the label's table).
    pub axes: &'a [String],
}

/// A column's distinct values in first-seen order, with counts.
#[derive(Default)]
struct Column {
    values: Vec<String>,
    counts: Vec<u64>,
    /// The axes of each value (the label column only).
    axes: Vec<Vec<String>>,
    index: HashMap<String, u32>,
}

impl Column {
    fn code(&mut self, value: &str, axes: &[String]) -> u32 {
        let code = match self.index.get(value) {
            Some(&c) => c,
            None => {
                let c = self.values.len() as u32;
                self.values.push(value.to_string());
                self.counts.push(0);
                self.axes.push(axes.to_vec());
                self.index.insert(value.to_string(), c);
                c
            }
        };
        self.counts[code as usize] += 1;
        code
    }

    /// Digits per row: enough for every code.
    fn width(&self) -> usize {
        let mut w = 1;
        while 64u64.saturating_pow(w as u32) < self.values.len() as u64 {
            w += 1;
        }
        w
    }

    fn table(&self, with_axes: bool) -> Value {
        (0..self.values.len())
            .map(|i| match with_axes {
                true => json!({"key": self.values[i], "axes": self.axes[i], "n": self.counts[i]}),
                false => json!({"key": self.values[i], "n": self.counts[i]}),
            })
            .collect()
    }
}

/// The index being written.
pub(super) struct IndexWriter {
    data: Dir,
    chunk: usize,
    rows: Vec<Value>,
    chunks: usize,
    count: u64,
    ids: AtomicFile,
    spool: BufWriter<File>,
    columns: Vec<Column>,
}

impl IndexWriter {
    pub(super) fn create(data: Dir, chunk: usize) -> std::io::Result<IndexWriter> {
        let mut ids = AtomicFile::create_in(&data, "ids.js")?;
        ids.write_all(b"GR.put(\"ids\",[")?;
        Ok(IndexWriter {
            spool: BufWriter::new(data.anonymous()?),
            ids,
            data,
            chunk: chunk.max(1),
            rows: Vec::new(),
            chunks: 0,
            count: 0,
            columns: COLUMNS.iter().map(|_| Column::default()).collect(),
        })
    }

    pub(super) fn push(&mut self, row: IndexRow) -> std::io::Result<()> {
        for (c, v) in row.values.iter().enumerate() {
            let code = self.columns[c].code(v, if c == 0 { row.axes } else { &[] });
            self.spool.write_all(&code.to_le_bytes())?;
        }
        if self.count > 0 {
            self.ids.write_all(b",")?;
        }
        self.ids.write_all(script_json(row.id).as_bytes())?;
        self.rows.push(json!([
            row.id, row.thumb, row.width, row.height, row.href, row.shapes, row.facts
        ]));
        self.count += 1;
        if self.rows.len() == self.chunk {
            self.write_chunk()?;
        }
        Ok(())
    }

    fn write_chunk(&mut self) -> std::io::Result<()> {
        let k = self.chunks;
        let body = format!("GR.put(\"rows\",{k},{});\n", script_json(&self.rows));
        self.data
            .write_atomic(&format!("rows-{k}.js"), body.as_bytes())?;
        self.rows.clear();
        self.chunks += 1;
        Ok(())
    }

    /// Writes the last chunk, `ids.js`, the column files and `meta.js` (with
    /// `extra`'s fields), and removes the data files an earlier gallery left;
    /// returns the filter columns with more than one value (the ones shown).
    pub(super) fn finish(mut self, extra: Value) -> std::io::Result<Vec<&'static str>> {
        if !self.rows.is_empty() {
            self.write_chunk()?;
        }
        self.ids.write_all(b"]);\n")?;
        self.ids.commit(false)?;
        let mut written: HashSet<String> =
            (0..self.chunks).map(|k| format!("rows-{k}.js")).collect();
        written.extend(["ids.js".to_string(), "meta.js".to_string()]);
        let mut spool = self.spool.into_inner().map_err(|e| e.into_error())?;
        let mut columns = json!({});
        for (c, name) in COLUMNS.iter().enumerate() {
            let col = &self.columns[c];
            let file = format!("col-{name}.js");
            write_column(&self.data, &file, name, col, c, &mut spool, self.count)?;
            written.insert(file);
            columns[name] = json!({"width": col.width(), "values": col.table(c == 0)});
        }
        let mut meta = json!({
            "rows": self.count,
            "chunk": self.chunk,
            "chunks": self.chunks,
            "columns": columns,
        });
        if let (Value::Object(m), Value::Object(e)) = (&mut meta, extra) {
            m.extend(e);
        }
        let body = format!("GR.put(\"meta\",{});\n", script_json(&meta));
        self.data.write_atomic("meta.js", body.as_bytes())?;
        for (name, kind) in self.data.entries()? {
            if kind == Kind::File && !written.contains(&name) {
                self.data.remove_file(&name)?;
            }
        }
        Ok((COLUMNS.iter().zip(&self.columns))
            .skip(1)
            .filter(|(_, c)| c.values.len() > 1)
            .map(|(name, _)| *name)
            .collect())
    }
}

/// `col-<name>.js`: column `c`'s codes read back from the spool (`COLUMNS.len()`
/// codes a row) as base-64 digits.
fn write_column(
    data: &Dir,
    file: &str,
    name: &str,
    col: &Column,
    c: usize,
    spool: &mut File,
    rows: u64,
) -> std::io::Result<()> {
    let w = col.width();
    let mut out = AtomicFile::create_in(data, file)?;
    write!(out, "GR.put(\"col\",{},\"", script_json(name))?;
    spool.seek(SeekFrom::Start(0))?;
    let mut reader = BufReader::with_capacity(1 << 16, &*spool);
    let mut record = [0u8; 4 * COLUMNS.len()];
    let mut digits = Vec::with_capacity(w);
    for _ in 0..rows {
        reader.read_exact(&mut record)?;
        let code = u32::from_le_bytes(record[4 * c..4 * c + 4].try_into().expect("4 bytes"));
        digits.clear();
        for j in (0..w).rev() {
            digits.push(DIGITS[((code as u64) >> (6 * j)) as usize & 63]);
        }
        out.write_all(&digits)?;
    }
    out.write_all(b"\");\n")?;
    out.commit(false)
}

/// What each filter column is called on the index.
const FILTER_TITLES: [(&str, &str); 10] = [
    ("depth", "Depth"),
    ("qtype", "Question type"),
    ("task", "Task"),
    ("audit", "Audit"),
    ("relation", "Relation"),
    ("domain", "Domain"),
    ("subset", "Subset"),
    ("mode", "Mode"),
    ("answer", "Answer"),
    ("cbi", "Cannot be inferred"),
];

/// `index.html`: the header with the counts, the filters (those of `filters`,
/// the columns with more than one value) and the grid the script fills.
pub(super) fn index_html(counts: &Counts, filters: &[&str]) -> String {
    let mut h = super::page::head("geomrender gallery", "gallery.css");
    h += "</head>\n<body data-page=\"index\">\n<a class=\"skip\" href=\"#grid\">Skip to the images</a>\n<header>\n<h1>geomrender gallery</h1>\n";
    h += &format!(
        "<p id=\"counts\"><span data-count=\"rows\">{}</span> images of <span data-count=\"bases\">{}</span> bases (<span data-count=\"variants\">{}</span> variants)",
        counts.rows, counts.bases, counts.variants
    );
    if counts.errors > 0 {
        h += &format!(
            "; <strong><span data-count=\"errors\">{}</span> lines or images could not be shown</strong> (the command listed them)",
            counts.errors
        );
    }
    match counts.audit {
        Err(why) => h += &format!("; no audit: {}", escape(why)),
        Ok(flagged) => {
            h += &format!(
                "; the audit flagged <span data-count=\"flagged\">{flagged}</span> (<a href=\"../audit.md\">audit.md</a>)"
            )
        }
    }
    h += ".</p>\n";
    if let Some(run) = &counts.run {
        h += &format!("<p id=\"run\">The run: {}</p>\n", escape(run));
    }
    h += r#"<form id="filters" role="search" aria-label="Filter the images">
<label>Axis <select id="f-axis"><option value="@base">bases only</option><option value="@all">all images</option></select></label>
<label>Value <select id="f-value" disabled><option value="">any value</option></select></label>
"#;
    for name in filters {
        let title = FILTER_TITLES
            .iter()
            .find(|(n, _)| n == name)
            .map_or(*name, |(_, t)| t);
        h += &format!(
            "<label>{title} <select id=\"f-{name}\"><option value=\"\">any</option></select></label>\n"
        );
    }
    h += r#"<label>Id <input id="f-id" type="search" placeholder="search by id (press /)" autocomplete="off" spellcheck="false"></label>
</form>
<p id="shown" aria-live="polite">Loading…</p>
</header>
<main>
"#;
    h += &format!(
        "<noscript><p>The index needs JavaScript to list the images; each base's page (<a href=\"bases/{}\">the first</a>) does not.</p></noscript>\n",
        escape(&crate::html::url_path(&counts.first_page))
    );
    h += r#"<ul id="grid" class="grid" aria-label="Images"></ul>
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

/// The counts the index's header states.
pub(super) struct Counts<'a> {
    pub rows: u64,
    pub bases: u64,
    pub variants: u64,
    pub errors: u64,
    /// Rows the audit flagged, or why there is no audit.
    pub audit: Result<u64, &'a str>,
    /// The first base's page.
    pub first_page: String,
    /// The run's provenance in one line, from its run record (none for a merged run).
    pub run: Option<String>,
}
