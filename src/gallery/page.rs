//! One static HTML page per base (`bases/<base id>.html`, the id made a file name
//! by `html::page_name`): the base image and every variant side by side, each card
//! with its question, answer, choices (the answer marked), solution (collapsed),
//! variant value and the audit's note. Images are the run's own files, linked
//! (`../../images/…`) and never copied; sizes are in the markup, so nothing moves
//! when they load.
//!
//! Cards are made as rows stream by. When each base's rows stand together (as a
//! run writes them) a page is written as soon as the next base begins, so only one
//! page is held; otherwise ([`Pages::spooled`]) cards go to a spool file, 16 bytes
//! a card are kept of where, and the pages are written at the end.

use super::AuditNote;
use super::entry::{Entry, Picture};
use crate::html::{escape, page_name, url_path};
use crate::output::dir::Dir;
use std::collections::HashMap;
use std::fmt::Write;
use std::fs::File;
use std::io::{BufWriter, Write as _};
use std::os::unix::fs::FileExt;

/// The id of the element that holds a page's cards: a `:` is in no row id, so no
/// card's anchor (its row id) can be it.
const CARDS: &str = "gallery:cards";

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

/// Where a row's card is, from the index: `bases/<page>#<id>`.
pub(super) fn href(e: &Entry) -> String {
    format!(
        "bases/{}#{}",
        url_path(&page_name(&e.base_id)),
        url_path(&e.id)
    )
}

/// What a relation item is, in a few words: `median · shape · basic · text`.
pub(super) fn relation_words(e: &Entry) -> Option<String> {
    let r = e.relation.as_ref()?;
    Some(format!(
        "{} · {} · {} · {}",
        r.relation, r.domain, r.subset, r.mode
    ))
}

/// The facts a page states of its base (from its first row): its task and, for a
/// GeomVerse problem, depth and question type, for a relation item its relation,
/// domain, subset and mode; the shapes when known.
pub(super) fn facts(e: &Entry, shapes: &[String]) -> String {
    let mut h = String::new();
    let mut fact = |k: &str, v: &str| {
        let _ = write!(h, "<div><dt>{k}</dt><dd>{}</dd></div>", escape(v));
    };
    fact("Task", &e.task);
    match &e.relation {
        Some(r) => {
            fact("Relation", &r.relation);
            fact("Domain", &r.domain);
            fact("Subset", &r.subset);
            fact("Mode", &r.mode);
        }
        None if e.question.is_some() => {
            fact("Depth", e.depth.as_deref().unwrap_or("—"));
            fact("Question type", e.question_type.as_deref().unwrap_or("—"));
        }
        None => {}
    }
    if !shapes.is_empty() {
        fact("Shapes", &shapes.join(", "));
    }
    h
}

/// A card's image (`readable`: its file was read and checked), or where it should be.
fn picture(h: &mut String, e: &Entry, f: &Picture, readable: bool) {
    let src = escape(&format!("../../{}", url_path(&f.image)));
    match readable {
        true => {
            let _ = writeln!(
                h,
                "<a class=\"full\" href=\"{src}\"><img src=\"{src}\" width=\"{}\" height=\"{}\" alt=\"Diagram {}, {}\" loading=\"lazy\"></a>",
                f.width,
                f.height,
                escape(&e.id),
                escape(&e.label)
            );
        }
        false => {
            let _ = writeln!(
                h,
                "<p class=\"missing\" style=\"aspect-ratio:{}/{}\">Image not readable: <a href=\"{src}\">{}</a></p>",
                f.width,
                f.height,
                escape(&f.image)
            );
        }
    }
}

/// The card of one row.
pub(super) fn card(
    e: &Entry,
    readable: bool,
    note: Option<&AuditNote>,
    audit_unavailable: Option<&str>,
) -> String {
    let mut h = String::new();
    let _ = writeln!(
        h,
        "<article class=\"card{}\" id=\"{}\" data-label=\"{}\">\n<h2>{}</h2>",
        if e.is_base() { " base" } else { "" },
        escape(&e.id),
        escape(&e.label),
        escape(&e.label)
    );
    match &e.file {
        None => h.push_str("<p class=\"missing\">Text only: this row has no image.</p>\n"),
        Some(f) => picture(&mut h, e, f, readable),
    }
    let _ = writeln!(
        h,
        "<dl>\n<div><dt>Id</dt><dd><bdi>{}</bdi></dd></div>",
        escape(&e.id)
    );
    if let Some(words) = relation_words(e) {
        let _ = writeln!(
            h,
            "<div><dt>Item</dt><dd class=\"item\">{}</dd></div>",
            escape(&words)
        );
    }
    if let Some(a) = &e.answer {
        // A relation item's letter with the option it names.
        let text = (e.relation.as_ref())
            .and_then(|r| r.answer.and_then(|i| r.choices.get(i)))
            .map_or(a.clone(), |t| format!("{a}. {t}"));
        let _ = writeln!(
            h,
            "<div><dt>Answer</dt><dd class=\"answer\">{}</dd></div>",
            escape(&text)
        );
    }
    if let Some(f) = &e.file {
        let _ = writeln!(
            h,
            "<div><dt>Size</dt><dd>{}×{}</dd></div>",
            f.width, f.height
        );
    }
    if !e.is_base() {
        h.push_str("<div><dt>Audit</dt>");
        audit_cell(&mut h, note, audit_unavailable);
        h.push_str("</div>\n");
    }
    h.push_str("</dl>\n");
    if let Some(q) = e.question_text() {
        let _ = writeln!(h, "<p class=\"question\">{}</p>", escape(q));
    }
    if let Some(r) = &e.relation {
        h.push_str("<ol class=\"choices\" type=\"A\">");
        for (i, c) in r.choices.iter().enumerate() {
            match r.answer == Some(i) {
                true => {
                    let _ = write!(
                        h,
                        "<li class=\"answer\"><strong>{}</strong> <span class=\"mark\">✓ the answer</span></li>",
                        escape(c)
                    );
                }
                false => {
                    let _ = write!(h, "<li>{}</li>", escape(c));
                }
            }
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
    h
}

fn audit_cell(h: &mut String, note: Option<&AuditNote>, audit_unavailable: Option<&str>) {
    let Some(note) = note else {
        let why = match audit_unavailable {
            Some(_) => "not audited",
            None => "not audited (see audit.md)",
        };
        let _ = write!(h, "<dd class=\"audit\">{why}</dd>");
        return;
    };
    let _ = write!(
        h,
        "<dd class=\"audit{}\">",
        if note.flagged() { " flag" } else { "" }
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

/// One base's page being gathered.
struct Open {
    id: String,
    facts: String,
    /// Cards, the base's own first.
    cards: Vec<String>,
}

/// Where a spooled base's facts and cards are in the spool: `(offset, length)`.
struct Spooled {
    facts: (u64, u32),
    cards: Vec<(u64, u32)>,
}

enum Store {
    /// The page of the current base (rows of a base stand together).
    Current(Option<Open>),
    Spool {
        file: BufWriter<File>,
        at: u64,
        /// Per base page name's fingerprint.
        bases: HashMap<u128, Spooled>,
        /// Base ids in the order they first appear.
        order: Vec<Box<str>>,
    },
}

/// The base pages being written into `bases/`.
pub(super) struct Pages {
    dir: Dir,
    /// Bases in all (the first pass counted them).
    total: u64,
    /// Pages written so far.
    written: u64,
    /// The id of the last page written (its successor's "previous").
    prev: Option<String>,
    audit_unavailable: Option<String>,
    store: Store,
}

impl Pages {
    /// Pages written as each base's rows end (they stand together).
    pub(super) fn streamed(dir: Dir, total: u64, audit_unavailable: Option<String>) -> Pages {
        Pages {
            dir,
            total,
            written: 0,
            prev: None,
            audit_unavailable,
            store: Store::Current(None),
        }
    }

    /// Pages written at the end from a spool of cards (a base's rows are apart).
    pub(super) fn spooled(
        dir: Dir,
        total: u64,
        audit_unavailable: Option<String>,
    ) -> std::io::Result<Pages> {
        let file = BufWriter::new(dir.anonymous()?);
        let mut pages = Pages::streamed(dir, total, audit_unavailable);
        pages.store = Store::Spool {
            file,
            at: 0,
            bases: HashMap::new(),
            order: Vec::new(),
        };
        Ok(pages)
    }

    /// Adds a row's card; `facts` is asked for when the row is its base's first.
    pub(super) fn add(
        &mut self,
        e: &Entry,
        card: String,
        facts: impl FnOnce() -> String,
    ) -> std::io::Result<()> {
        match &mut self.store {
            Store::Current(current) => {
                if current.as_ref().is_some_and(|o| o.id != e.base_id) {
                    let done = current.take().expect("checked");
                    self.write(done, Some(&e.base_id))?;
                }
                let Store::Current(current) = &mut self.store else {
                    unreachable!("the store does not change")
                };
                let open = current.get_or_insert_with(|| Open {
                    id: e.base_id.clone(),
                    facts: facts(),
                    cards: Vec::new(),
                });
                match e.is_base() {
                    true => open.cards.insert(0, card),
                    false => open.cards.push(card),
                }
            }
            Store::Spool {
                file,
                at,
                bases,
                order,
            } => {
                let mut put = |text: &str| -> std::io::Result<(u64, u32)> {
                    file.write_all(text.as_bytes())?;
                    let place = (*at, text.len() as u32);
                    *at += text.len() as u64;
                    Ok(place)
                };
                let key = crate::digest::fingerprint(&page_name(&e.base_id));
                if let std::collections::hash_map::Entry::Vacant(slot) = bases.entry(key) {
                    let facts = put(&facts())?;
                    order.push(e.base_id.as_str().into());
                    slot.insert(Spooled {
                        facts,
                        cards: Vec::new(),
                    });
                }
                let place = put(&card)?;
                let cards = &mut bases.get_mut(&key).expect("inserted above").cards;
                match e.is_base() {
                    true => cards.insert(0, place),
                    false => cards.push(place),
                }
            }
        }
        Ok(())
    }

    /// Writes the pages not written yet.
    pub(super) fn finish(mut self) -> std::io::Result<()> {
        match std::mem::replace(&mut self.store, Store::Current(None)) {
            Store::Current(current) => {
                if let Some(open) = current {
                    self.write(open, None)?;
                }
            }
            Store::Spool {
                file, bases, order, ..
            } => {
                let file = file.into_inner().map_err(|e| e.into_error())?;
                let read = |(at, len): (u64, u32)| -> std::io::Result<String> {
                    let mut buf = vec![0u8; len as usize];
                    file.read_exact_at(&mut buf, at)?;
                    String::from_utf8(buf)
                        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
                };
                for (k, id) in order.iter().enumerate() {
                    let s = &bases[&crate::digest::fingerprint(&page_name(id))];
                    let open = Open {
                        id: id.to_string(),
                        facts: read(s.facts)?,
                        cards: s.cards.iter().map(|&c| read(c)).collect::<Result<_, _>>()?,
                    };
                    self.write(open, order.get(k + 1).map(|n| &**n))?;
                }
            }
        }
        Ok(())
    }

    fn write(&mut self, open: Open, next: Option<&str>) -> std::io::Result<()> {
        let html = render(
            &open,
            self.written,
            self.total,
            self.prev.as_deref(),
            next,
            self.audit_unavailable.as_deref(),
        );
        self.dir
            .write_atomic(&page_name(&open.id), html.as_bytes())?;
        self.written += 1;
        self.prev = Some(open.id);
        Ok(())
    }
}

/// The page of base number `k` (from 0) of `total`.
fn render(
    open: &Open,
    k: u64,
    total: u64,
    prev: Option<&str>,
    next: Option<&str>,
    audit_unavailable: Option<&str>,
) -> String {
    let mut h = head(
        &format!("{} · geomrender gallery", open.id),
        "../gallery.css",
    );
    let to = |id: &str| escape(&url_path(&page_name(id)));
    for (rel, id) in [("prev", prev), ("next", next)] {
        if let Some(id) = id {
            let _ = writeln!(h, "<link rel=\"{rel}\" href=\"{}\">", to(id));
        }
    }
    let _ = write!(
        h,
        "</head>\n<body data-page=\"base\">\n<a class=\"skip\" href=\"#{CARDS}\">Skip to the images</a>\n<header>\n<nav aria-label=\"Bases\"><a href=\"../index.html\">All images</a>"
    );
    for (label, rel, id) in [
        ("← previous base", "prev", prev),
        ("next base →", "next", next),
    ] {
        let _ = match id {
            Some(id) => write!(h, " · <a rel=\"{rel}\" href=\"{}\">{label}</a>", to(id)),
            None => write!(h, " · <span class=\"off\">{label}</span>"),
        };
    }
    let _ = write!(
        h,
        " <span class=\"hint\">(keys ← →)</span></nav>\n<h1>Base <bdi>{}</bdi> <small>{} of {}</small></h1>\n<dl class=\"facts\">{}",
        escape(&open.id),
        k + 1,
        total,
        open.facts
    );
    let n = open.cards.len();
    let _ = writeln!(
        h,
        "<div><dt>Images</dt><dd>{n} (base and {} variants)</dd></div></dl>",
        n.saturating_sub(1)
    );
    if let Some(why) = audit_unavailable {
        let _ = writeln!(h, "<p class=\"note\">No audit: {}</p>", escape(why));
    }
    let _ = writeln!(h, "</header>\n<main id=\"{CARDS}\" class=\"variants\">");
    for c in &open.cards {
        h.push_str(c);
    }
    h.push_str("</main>\n<script src=\"../gallery.js\"></script>\n</body>\n</html>\n");
    h
}
