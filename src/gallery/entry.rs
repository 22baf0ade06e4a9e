//! One manifest row as the gallery shows it: the fields its index and pages use,
//! each checked (an image path inside the run, a base id that names a page, a
//! variant of known axes), from the row the manifest reader gives.

use crate::output::manifest::ManifestRow;
use crate::output::rows::RowError;
use serde::Serialize;

/// Task name of a row without a question (a Scene line drawn by `render`).
pub(crate) const SCENE_TASK: &str = "scene";

/// One image of the run, as the gallery shows it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Entry {
    /// 1-based manifest line.
    pub line: u64,
    pub id: String,
    /// The image file; `None` on a text-only row.
    pub file: Option<Picture>,
    pub base_id: String,
    /// `axis=value[;axis=value…]` as `Variant::label` writes it; `base` for a base.
    pub label: String,
    /// The variant's axes, in the manifest's order.
    pub axes: Vec<String>,
    pub question: Option<String>,
    /// The answer as the texts write it: a number (`225`) or an option letter.
    pub answer: Option<String>,
    pub cot: Option<String>,
    pub depth: Option<String>,
    pub question_type: Option<String>,
    /// `geomverse`, `relations`, or `scene` for a row without a question.
    pub task: String,
    /// A relation item's choices, answer and keys.
    pub relation: Option<Relation>,
    /// Shape kinds of the row's Problem, when the row carries it
    /// (`--emit-problems`); else the problems file gives them.
    pub shapes: Option<Vec<String>>,
}

/// A row's image file.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Picture {
    /// Path relative to the run directory, `/`-separated.
    pub image: String,
    pub width: u32,
    pub height: u32,
    pub sha256: String,
}

/// What a relation item's row adds.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Relation {
    /// The option texts in letter order.
    pub choices: Vec<String>,
    /// The correct option's index in `choices`.
    pub answer: Option<usize>,
    pub relation: String,
    pub domain: String,
    pub subset: String,
    pub mode: String,
}

impl Entry {
    pub(crate) fn is_base(&self) -> bool {
        self.id == self.base_id
    }

    /// The question without the option list the choices show again.
    pub(crate) fn question_text(&self) -> Option<&str> {
        let q = self.question.as_deref()?;
        Some(match &self.relation {
            Some(r) => crate::generate::relations::question_stem(q, &r.choices),
            None => q,
        })
    }

    /// Whether the correct option is "Cannot be inferred" (`None`: not multiple choice).
    pub(crate) fn cannot_be_inferred(&self) -> Option<bool> {
        let r = self.relation.as_ref()?;
        let text = r.choices.get(r.answer?)?;
        Some(text == crate::generate::relations::CANNOT_BE_INFERRED)
    }
}

/// The serde name of a value (`"shape"` for `Domain::Shape`).
fn word<T: Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        Ok(other) => other.to_string(),
        Err(_) => String::new(),
    }
}

/// A row's image file, checked: a relative path inside the run, a size the tool
/// draws, a SHA-256 of 64 hex digits.
fn picture(f: crate::output::manifest::ImageFile) -> Result<Picture, String> {
    let image = f.image;
    if image.starts_with('/')
        || image
            .split('/')
            .any(|p| p.is_empty() || p == "." || p == "..")
    {
        return Err(format!(
            "image {image:?} is not a relative path inside the run directory"
        ));
    }
    let max = crate::scene::limits::MAX_DIMENSION;
    for (name, v) in [("width", f.width), ("height", f.height)] {
        if !(1..=max).contains(&v) {
            return Err(format!(
                "{name} must be a whole number of pixels from 1 to {max}"
            ));
        }
    }
    let sha256 = f.sha256.to_ascii_lowercase();
    if sha256.len() != 64 || !sha256.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err("sha256 must be 64 hex digits".into());
    }
    Ok(Picture {
        image,
        width: f.width,
        height: f.height,
        sha256,
    })
}

/// The row as an entry, or why the gallery cannot show it.
pub(crate) fn entry(line: u64, row: ManifestRow) -> Result<Entry, RowError> {
    let id = row.image.id;
    let fail = |why: String| RowError {
        id: Some(id.clone()),
        why,
    };
    let file = match row.image.file {
        Some(f) => Some(picture(f).map_err(fail)?),
        None => None,
    };
    let (base_id, values) = match row.source {
        Some(s) => (s.base_id, s.variant),
        None => (id.clone(), serde_json::Map::new()),
    };
    if values.is_empty() != (id == base_id) {
        return Err(fail(
            "a base image (empty variant) must have id equal to base_id, a variant another id"
                .into(),
        ));
    }
    // The base id names its page.
    crate::scene::check_id(&base_id).map_err(|_| {
        fail(format!(
            "base_id {base_id:?} is not an id this tool writes (1 to 200 of A-Z a-z 0-9 . _ -, \
             not starting with .)"
        ))
    })?;
    let (variant, _) = crate::audit::parse_variant(&values).map_err(fail)?;
    let problem = row.problem;
    let relation = (problem.as_ref().and_then(|p| p.relation.as_ref())).map(|r| Relation {
        answer: r.choices.iter().position(|c| *c == r.answer_text),
        choices: r.choices.clone(),
        relation: r.relation.clone(),
        domain: word(&r.domain),
        subset: word(&r.subset),
        mode: word(&r.mode),
    });
    let task = match (&problem, &relation) {
        (_, Some(_)) => "relations",
        (Some(_), None) => "geomverse",
        (None, _) => SCENE_TASK,
    };
    let shapes = (problem.as_ref())
        .and_then(|p| p.problem.as_ref())
        .map(|p| p.diagram.shapes.iter().map(|s| word(&s.kind)).collect());
    Ok(Entry {
        line,
        file,
        base_id,
        label: variant.label(),
        axes: values.keys().cloned().collect(),
        question: problem.as_ref().map(|p| p.question.clone()),
        answer: problem.as_ref().map(|p| match p.answer {
            crate::generate::Answer::Number(n) => crate::decimal::json_number(n).to_string(),
            crate::generate::Answer::Choice(c) => c.to_string(),
        }),
        cot: problem.as_ref().map(|p| p.cot.clone()),
        depth: problem.as_ref().map(|p| p.params.depth.to_string()),
        question_type: problem.as_ref().map(|p| word(&p.params.question_type)),
        task: task.to_string(),
        relation,
        shapes,
        id,
    })
}
