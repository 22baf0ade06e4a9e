//! The run record, typed: what decides a run's bytes (the *recipe*) and where the run
//! came from (the *provenance*).
//!
//! A run writes its record to `DIR/.geomrender.run.json` (`RUN_RECORD`) before its
//! first row; a shard's `done.json` carries the shard's recipe (the command's options
//! around the run's) and provenance. Only the recipe decides anything: its SHA-256 is
//! the fingerprint that `--resume` and a run over an earlier one compare, and `merge`
//! compares the shards' recipes field by field. The provenance (version, cargo
//! features, backend and adapter, the embedded font's and the input's SHA-256, the
//! command line, the shard, the time) is informational: a run and its `--resume`
//! differ in time and command line, yet make the same bytes.
//!
//! Words, not Rust spellings: enums are written as the command line takes them
//! (`png`, `svg`, `auto`, `geomverse`), and an `f32` as its shortest decimal (`0.05`,
//! not `0.05000000074505806`). `version` is the record format (`VERSION`); a record
//! of another format is refused with an error naming its format and the version that
//! wrote it ([`RecordError::Version`]). `geomrender schema run` prints [`SCHEMA`].

use crate::digest::sha256_hex;
use crate::generate::Generator;
use crate::render::Requested;
use crate::variants::Plan;
use serde::{Deserialize, Serialize};
use std::time::{SystemTime, UNIX_EPOCH};

/// The record format this build writes and reads. Format 1 (no `version` field) was
/// an untyped `{"fingerprint", "options"}` object.
pub(crate) const VERSION: u32 = 2;

/// A run's record in its output directory.
pub(crate) const RUN_RECORD: &str = ".geomrender.run.json";

/// The JSON Schema of [`RunRecord`] (`geomrender schema run`).
pub const SCHEMA: &str = include_str!("../../schemas/run.schema.json");

/// `DIR/.geomrender.run.json`: a run's recipe, its fingerprint and its provenance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunRecord {
    /// The record format (`VERSION`).
    pub version: u32,
    /// The SHA-256 of the recipe's JSON ([`RunRecipe::fingerprint`]).
    pub fingerprint: String,
    pub recipe: RunRecipe,
    pub provenance: Provenance,
}

/// What decides a run's output bytes (batching, chunking and threads do not, and
/// are left out); the input is checked row by row (`input_sha256`), not here.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunRecipe {
    /// The geomrender version.
    pub geomrender: String,
    /// What rendered, as the manifest's `backend` column names it (the adapter, for
    /// the GPU).
    pub backend: String,
    /// The files per image (`--format`).
    pub formats: Vec<Format>,
    /// `--embed-font`.
    pub svg_embed_font: bool,
    /// `--tolerance`, in pixels.
    #[serde(with = "shortest_f32")]
    pub tolerance: f32,
    /// `--emit-problems`.
    pub emit_problems: bool,
    /// The variant plan (`--variants`, `--grid`).
    pub variants: Variants,
    /// `--probes`, with how many per image (absent without).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub probes: Option<crate::probe::ProbeOptions>,
}

/// A file format of the images (`--format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Rendered images (PNG, or JPEG for `jpeg` variants).
    Png,
    /// SVG files (no rendering needed).
    Svg,
}

crate::words!(Format, "format", {
    Png => "png",
    Svg => "svg",
});

/// A variant plan: its axes, each with its value labels, and whether it is a grid.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Variants {
    pub axes: Vec<AxisValues>,
    pub grid: bool,
}

/// One axis of a plan and its values, as `--variants` names them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AxisValues {
    pub axis: String,
    pub values: Vec<String>,
}

impl Variants {
    /// The plan's axes and values.
    pub(crate) fn of(plan: &Plan) -> Variants {
        Variants {
            axes: (plan.axes.iter())
                .map(|(a, values)| AxisValues {
                    axis: a.name().to_string(),
                    values: values.iter().map(|v| v.label()).collect(),
                })
                .collect(),
            grid: plan.grid,
        }
    }

    /// As `--variants` SPEC (`opacity=0.1,0.25;relabel=1`): what [`Plan::parse`]
    /// reads back as the plan (with [`Variants::grid`]).
    pub(crate) fn spec(&self) -> String {
        let parts: Vec<String> = (self.axes.iter())
            .map(|a| format!("{}={}", a.axis, a.values.join(",")))
            .collect();
        parts.join(";")
    }
}

impl RunRecipe {
    /// The SHA-256 of the recipe's JSON: what `--resume` compares.
    pub fn fingerprint(&self) -> String {
        sha256_hex(
            serde_json::to_string(self)
                .expect("serialisable")
                .as_bytes(),
        )
    }

    /// Whether raster images are rendered (`png` among the formats).
    pub(crate) fn raster(&self) -> bool {
        self.formats.contains(&Format::Png)
    }
}

/// A shard's recipe (in its `done.json`): the command's options around its run's
/// recipe. Shards of one run have equal recipes; `merge` names a field that differs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardRecipe {
    pub command: Command,
    /// `--backend` as given (`auto`, `gpu`, `cpu`, `resvg`): what `merge` draws a
    /// sweep's contact sheets with.
    pub backend_arg: Requested,
    pub run: RunRecipe,
}

/// The command a shard ran, with the options that decide its input.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "name", rename_all = "lowercase", deny_unknown_fields)]
pub enum Command {
    /// `render INPUT`: the input file as given, and its size.
    Render {
        input: String,
        input_bytes: Option<u64>,
    },
    /// `sweep`: the problems' count and generator (its options and seed), and
    /// `--sheet-problem`.
    Sweep {
        count: u64,
        generator: Generator,
        sheet_problem: Option<String>,
    },
}

/// Where a run came from: informational, never compared.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Provenance {
    /// The geomrender version.
    pub geomrender: String,
    /// The cargo features the library was built with (`cli`, `gpu`, `parquet`).
    pub features: Vec<String>,
    /// What drew: `gpu`, `cpu`, `resvg`, or `none` (SVG only).
    pub backend: String,
    /// The renderer's label: the GPU adapter and its API, or the CPU renderer and
    /// its version.
    pub adapter: String,
    /// The SHA-256 of the embedded font (`crate::font::FONT_DATA`).
    pub font_sha256: String,
    /// The input file as the run read it (none for a stream); for a sweep, the
    /// problems file it generated.
    pub input: Option<InputFile>,
    /// What generated the problems (a sweep's generator options and seed).
    pub generator: Option<Generator>,
    /// The process's command line.
    pub command_line: Vec<String>,
    /// The shard, for a sharded run.
    pub shard: Option<ShardOf>,
    /// When the record was written (the run's start), UTC, RFC 3339.
    pub time: String,
}

/// An input file: its path as given, size and SHA-256.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputFile {
    pub path: String,
    pub bytes: u64,
    pub sha256: String,
}

impl InputFile {
    /// Reads `path` (in bounded memory) for its size and SHA-256; `None` when it is
    /// not a regular file (a FIFO or device can be read only once: the run's).
    pub(crate) fn read(path: &std::path::Path) -> std::io::Result<Option<InputFile>> {
        use sha2::Digest;
        let mut file = std::fs::File::open(path)?;
        if !file.metadata()?.is_file() {
            return Ok(None);
        }
        let mut hasher = sha2::Sha256::new();
        let bytes = std::io::copy(&mut file, &mut hasher)?;
        Ok(Some(InputFile {
            path: path.display().to_string(),
            bytes,
            sha256: format!("{:x}", hasher.finalize()),
        }))
    }
}

/// Shard `index` (0-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardOf {
    pub index: u64,
    pub count: u64,
}

/// What the caller of a run knows of its provenance and the library does not.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Origin {
    /// The command line (the process's own, by default).
    pub command_line: Vec<String>,
    /// What generated the problems, for a run of generated problems.
    pub generator: Option<Generator>,
    pub shard: Option<ShardOf>,
}

impl Origin {
    /// The process's command line, nothing else.
    pub(crate) fn process() -> Origin {
        Origin {
            command_line: std::env::args_os()
                .map(|a| a.to_string_lossy().into_owned())
                .collect(),
            ..Origin::default()
        }
    }
}

impl Provenance {
    /// This build's provenance of a run drawn by `backend` (`gpu`, `cpu`, `resvg`,
    /// `none`) on `adapter`, of `input`, from `origin`, now.
    pub(crate) fn now(
        backend: &str,
        adapter: &str,
        input: Option<InputFile>,
        origin: &Origin,
    ) -> Self {
        Provenance {
            geomrender: env!("CARGO_PKG_VERSION").to_string(),
            features: features(),
            backend: backend.to_string(),
            adapter: adapter.to_string(),
            font_sha256: sha256_hex(crate::font::FONT_DATA),
            input,
            generator: origin.generator.clone(),
            command_line: origin.command_line.clone(),
            shard: origin.shard,
            time: rfc3339(SystemTime::now()),
        }
    }

    /// One line for a page or a card: version, backend and time.
    pub(crate) fn line(&self) -> String {
        format!(
            "geomrender {} ({}), {}, {} UTC",
            self.geomrender,
            match self.features.is_empty() {
                true => "no optional features".to_string(),
                false => self.features.join(", "),
            },
            self.adapter,
            self.time.trim_end_matches('Z').replacen('T', " ", 1)
        )
    }
}

/// The provenance of the run in `dir`, from its record, when it has one this build
/// reads (a merged run of shards has none).
pub(crate) fn provenance_of(dir: &crate::output::dir::Dir) -> Option<Provenance> {
    let bytes = dir.read(RUN_RECORD, 1 << 20).ok()?;
    RunRecord::parse(&bytes).ok().map(|r| r.provenance)
}

/// The provenance in the run record beside `manifest` (`DIR/manifest.jsonl` →
/// `DIR/.geomrender.run.json`), when there is one this build reads: what `score`
/// puts in its report, read as [`provenance_of`] reads it; a missing, unreadable or
/// old record gives none (the provenance is informational; the scores do not depend on it).
pub(crate) fn provenance_beside(manifest: &std::path::Path) -> Option<Provenance> {
    let dir = match manifest.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    provenance_of(&crate::output::dir::Dir::open(dir).ok()?)
}

/// The cargo features this library was built with.
pub(crate) fn features() -> Vec<String> {
    let mut on = Vec::new();
    if cfg!(feature = "cli") {
        on.push("cli".to_string());
    }
    if cfg!(feature = "gpu") {
        on.push("gpu".to_string());
    }
    if cfg!(feature = "parquet") {
        on.push("parquet".to_string());
    }
    on
}

/// `time` as UTC RFC 3339 to the second: `2025-01-31T12:00:00Z` (1970 for a clock
/// before the epoch).
pub(crate) fn rfc3339(time: SystemTime) -> String {
    let secs = time.duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Howard Hinnant's civil_from_days, for days since 1970-01-01 (≥ 0).
    let z = days as i64 + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

impl RunRecord {
    /// The record of a run with `recipe` and `provenance`.
    pub(crate) fn new(recipe: RunRecipe, provenance: Provenance) -> RunRecord {
        RunRecord {
            version: VERSION,
            fingerprint: recipe.fingerprint(),
            recipe,
            provenance,
        }
    }

    /// The record as written: one JSON object and a newline.
    pub(crate) fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("serialisable") + "\n"
    }

    /// Reads a record; one of another format is refused naming its format and the
    /// version that wrote it.
    pub fn parse(bytes: &[u8]) -> Result<RunRecord, RecordError> {
        let value: serde_json::Value =
            serde_json::from_slice(bytes).map_err(|e| RecordError::Bad(e.to_string()))?;
        check_version(&value, &["/options/geomrender"])?;
        serde_json::from_value(value).map_err(|e| RecordError::Bad(e.to_string()))
    }
}

/// Why a record cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RecordError {
    #[error(
        "run record format {version} (geomrender {made_by}); this build reads format {VERSION}"
    )]
    Version { version: u64, made_by: String },
    #[error("not a run record: {0}")]
    Bad(String),
}

/// The record format of `value` (1 when it has no `version`) must be [`VERSION`];
/// the version that wrote it is read from one of `older` (JSON pointers into
/// format 1), else from `provenance.geomrender` or `recipe.geomrender`.
pub(crate) fn check_version(value: &serde_json::Value, older: &[&str]) -> Result<(), RecordError> {
    let version = match value.get("version") {
        None => 1,
        Some(v) => v
            .as_u64()
            .ok_or_else(|| RecordError::Bad(format!("version {v} is not a format number")))?,
    };
    if version == u64::from(VERSION) {
        return Ok(());
    }
    let made_by = (older.iter())
        .chain(&["/provenance/geomrender", "/recipe/geomrender"])
        .find_map(|p| value.pointer(p).and_then(|v| v.as_str()))
        .unwrap_or("unknown version")
        .to_string();
    Err(RecordError::Version { version, made_by })
}

/// A field in which two records differ: its path (`run.variants.axes`) and the two
/// values as JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Difference {
    pub field: String,
    pub a: String,
    pub b: String,
}

/// The fields in which `a` and `b` differ, objects walked field by field (other
/// values compared whole), in the order of `a`'s fields then `b`'s new ones.
pub(crate) fn differences<T: Serialize>(a: &T, b: &T) -> Vec<Difference> {
    let a = serde_json::to_value(a).expect("serialisable");
    let b = serde_json::to_value(b).expect("serialisable");
    let mut out = Vec::new();
    walk("", &a, &b, &mut out);
    out
}

fn walk(path: &str, a: &serde_json::Value, b: &serde_json::Value, out: &mut Vec<Difference>) {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys = x.keys().chain(y.keys().filter(|k| !x.contains_key(*k)));
            for key in keys {
                let field = match path {
                    "" => key.clone(),
                    p => format!("{p}.{key}"),
                };
                let (va, vb) = (x.get(key), y.get(key));
                match (va, vb) {
                    (Some(va), Some(vb)) => walk(&field, va, vb, out),
                    _ => {
                        let show = |v: Option<&Value>| v.map_or("none".into(), Value::to_string);
                        out.push(Difference {
                            field,
                            a: show(va),
                            b: show(vb),
                        });
                    }
                }
            }
        }
        _ if a != b => out.push(Difference {
            field: path.to_string(),
            a: a.to_string(),
            b: b.to_string(),
        }),
        _ => {}
    }
}

/// An `f32` as its shortest decimal (`0.05`), read back as the same `f32`.
mod shortest_f32 {
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(v: &f32, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(crate::decimal::shortest_f32_as_f64(*v))
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
        Ok(f64::deserialize(d)? as f32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn recipe() -> RunRecipe {
        RunRecipe {
            geomrender: "0.1.0".into(),
            backend: "cpu".into(),
            formats: vec![Format::Png],
            svg_embed_font: false,
            tolerance: 0.05,
            emit_problems: false,
            probes: None,
            variants: Variants::of(&Plan::parse("opacity=0.25;fontsize=8", false).unwrap()),
        }
    }

    #[test]
    fn floats_are_written_as_typed_and_enums_as_words() {
        let json = serde_json::to_string(&recipe()).unwrap();
        assert!(json.contains("\"tolerance\":0.05,"), "{json}");
        assert!(json.contains("\"formats\":[\"png\"]"), "{json}");
        let back: RunRecipe = serde_json::from_str(&json).unwrap();
        assert_eq!(back, recipe());
        assert_eq!(back.variants.spec(), "opacity=0.25;fontsize=8");
    }

    #[test]
    fn a_record_round_trips_and_an_old_one_names_its_format() {
        let record = RunRecord::new(
            recipe(),
            Provenance::now("cpu", "x", None, &Origin::process()),
        );
        let json = record.to_json();
        assert_eq!(RunRecord::parse(json.as_bytes()).unwrap(), record);
        let old = br#"{"fingerprint":"ab","options":{"geomrender":"0.0.9","outputs":"Raster"}}"#;
        let e = RunRecord::parse(old).unwrap_err();
        assert_eq!(
            e.to_string(),
            "run record format 1 (geomrender 0.0.9); this build reads format 2"
        );
        let unknown = json.replacen("\"version\": 2,", "\"version\": 2, \"extra\": 1,", 1);
        assert!(matches!(
            RunRecord::parse(unknown.as_bytes()),
            Err(RecordError::Bad(_))
        ));
    }

    #[test]
    fn differences_name_the_field() {
        let mut other = recipe();
        other.tolerance = 0.1;
        other.variants.grid = true;
        let d = differences(&recipe(), &other);
        let fields: Vec<&str> = d.iter().map(|d| d.field.as_str()).collect();
        assert_eq!(fields, ["tolerance", "variants.grid"]);
        assert_eq!((d[0].a.as_str(), d[0].b.as_str()), ("0.05", "0.1"));
    }

    #[test]
    fn rfc3339_dates() {
        let at = |s: u64| rfc3339(UNIX_EPOCH + std::time::Duration::from_secs(s));
        assert_eq!(at(0), "1970-01-01T00:00:00Z");
        assert_eq!(at(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(at(1_735_689_599), "2024-12-31T23:59:59Z");
    }
}
