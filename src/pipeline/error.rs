//! Why an input line produced no images: a typed fault per stage, located by file,
//! line and id, and written to `errors.jsonl` with a machine-readable `kind`.

use crate::compose::ComposeError;
use crate::generate::LimitError;
use crate::jsonl::LineReadError;
use crate::render::CpuError;
#[cfg(feature = "gpu")]
use crate::render::gpu::GpuError;
use crate::scene::SceneError;
use crate::variants::VariantError;
use serde::ser::SerializeMap;
use std::fmt;

/// What went wrong with one line (or one of its images).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LineFault {
    /// The line could not be read as text (not UTF-8, or too long).
    #[error(transparent)]
    Read(#[from] LineReadError),
    /// The line is not a JSON value.
    #[error("malformed JSON: {message}")]
    Json { message: String },
    /// A Problem line that does not match the Problem schema.
    #[error("problem: {path}: {source}")]
    Problem {
        /// JSON path of the offending value.
        path: String,
        source: serde_json::Error,
    },
    /// A Problem line that parses but has a field past a limit (`generate::limits`):
    /// too many points, a name too long, a coordinate out of range. Same `kind` as
    /// [`LineFault::Problem`]: the Problem is refused, and the message names the field.
    #[error("problem: {0}")]
    ProblemLimit(#[from] LimitError),
    /// A Scene that breaks a Scene v1 rule (bad input, or a composed scene past a limit).
    #[error("{}", scene_message(.0))]
    Scene(#[from] SceneError),
    /// A variant that cannot be applied to this line.
    #[error(transparent)]
    Variant(#[from] VariantError),
    /// The diagram could not be composed.
    #[error(transparent)]
    Compose(#[from] ComposeError),
    /// The CPU backend could not render the scene.
    #[error(transparent)]
    Render(#[from] CpuError),
    /// The GPU backend could not render the scene, even alone in its frame (the
    /// other scenes of its frame were rendered without it).
    #[cfg(feature = "gpu")]
    #[error("{0} (the scene failed on the GPU even when rendered alone)")]
    Gpu(#[from] GpuError),
    /// An id met before, in this line or an earlier one.
    #[error("duplicate id {id:?}: an earlier item has the same id")]
    DuplicateId { id: String },
}

/// A Scene error without its id (the line error names the id).
fn scene_message(e: &SceneError) -> String {
    match e.path.as_str() {
        "" => e.reason.to_string(),
        p => format!("{p}: {}", e.reason),
    }
}

impl LineFault {
    /// The machine-readable kind written to `errors.jsonl`.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            LineFault::Read(LineReadError::NotUtf8 { .. }) => "not_utf8",
            LineFault::Read(LineReadError::TooLong { .. }) => "too_long",
            LineFault::Json { .. } => "json",
            LineFault::Problem { .. } | LineFault::ProblemLimit(_) => "problem",
            LineFault::Scene(_) => "scene",
            LineFault::Variant(_) => "variant",
            LineFault::Compose(_) => "compose",
            LineFault::Render(_) => "render",
            #[cfg(feature = "gpu")]
            LineFault::Gpu(_) => "gpu",
            LineFault::DuplicateId { .. } => "duplicate_id",
        }
    }
}

/// A fault and the id of the item it belongs to, when known (boxed: errors are rare
/// and `Result`s of jobs stay small).
#[derive(Debug)]
pub struct JobError {
    pub id: Option<String>,
    pub fault: Box<LineFault>,
}

impl JobError {
    /// A fault of the item `id`.
    pub(crate) fn of(id: impl Into<String>, fault: impl Into<LineFault>) -> Self {
        JobError {
            id: Some(id.into()),
            fault: Box::new(fault.into()),
        }
    }
}

/// `"id": fault`, as a line error shows it after `file:line: `.
impl fmt::Display for JobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(id) = &self.id {
            write!(f, "{id:?}: ")?;
        }
        write!(f, "{}", self.fault)
    }
}

impl From<LineFault> for JobError {
    /// A fault of the line as a whole (a Scene error keeps the id it names).
    fn from(fault: LineFault) -> Self {
        let id = match &fault {
            LineFault::Scene(s) => s.id.clone(),
            _ => None,
        };
        JobError {
            id,
            fault: Box::new(fault),
        }
    }
}

impl From<SceneError> for JobError {
    fn from(e: SceneError) -> Self {
        LineFault::from(e).into()
    }
}

impl From<LineReadError> for JobError {
    fn from(e: LineReadError) -> Self {
        LineFault::from(e).into()
    }
}

/// A bad input line, located. Serialised as `{file, line, id?, kind, message}`.
#[derive(Debug)]
pub struct LineError {
    /// Input file name, or `<stdin>`.
    pub file: String,
    /// 1-based line number.
    pub line: u64,
    pub id: Option<String>,
    pub fault: Box<LineFault>,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: ", self.file, self.line)?;
        if let Some(id) = &self.id {
            write!(f, "{id:?}: ")?;
        }
        write!(f, "{}", self.fault)
    }
}

impl serde::Serialize for LineError {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("file", &self.file)?;
        m.serialize_entry("line", &self.line)?;
        if let Some(id) = &self.id {
            m.serialize_entry("id", id)?;
        }
        m.serialize_entry("kind", self.fault.kind())?;
        m.serialize_entry("message", &self.fault.to_string())?;
        m.end()
    }
}
