//! `--shard I/N` and `--shard auto`: the I-th of N contiguous slices of a run's
//! problem indices (or input lines), so that N machines together write exactly what
//! one run would, because problem k's seed depends only on (run seed, k).
//!
//! `auto` reads I and N from the engine that started the process:
//! - `GEOMRENDER_SHARD=I/N`, set by hand or by a launcher (the Ray recipe);
//! - a Slurm array task: `SLURM_ARRAY_TASK_ID`, with `SLURM_ARRAY_TASK_COUNT`, or
//!   `SLURM_ARRAY_TASK_MIN`/`MAX` when the count is absent (and `..._STEP` for
//!   `--array=0-15:4`), so `--array=1-8` works as well as `0-7`;
//! - a Kubernetes Indexed Job: `JOB_COMPLETION_INDEX`, with N from `--shards N`
//!   (the pod is not told the Job's completions).
//!
//! When several are set they must agree; `--shards N`, when given, must equal N.

//!
//! A sharded run writes under `OUT/shards/I-of-N/`: [`begin`] opens and locks that
//! folder and removes an earlier `done.json`; [`finish`] writes `done.json` last,
//! which `geomrender merge` ([`crate::output::merge`]) waits for.

use super::RunSummary;
use crate::output::datasets::DatasetOptions;
use crate::output::lock::{LockError, OutputLock};
use crate::output::merge::{MAX_SHARDS, ShardCounts, ShardDone, open_shard_dir, shard_dir};
use crate::output::record::{ShardOf, ShardRecipe};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::str::FromStr;

/// Shard `index` (0-based) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// The whole run as one shard.
    pub(crate) const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// As a run record names it.
    pub(crate) fn of(self) -> ShardOf {
        ShardOf {
            index: self.index,
            count: self.count,
        }
    }

    /// Its folder under a run's `--out`: `OUT/shards/I-of-N`.
    pub(crate) fn dir(self, out: &Path) -> PathBuf {
        shard_dir(out, self.index, self.count)
    }

    /// This shard's indices among `total`: `[⌊I·total/N⌋, ⌊(I+1)·total/N⌋)`.
    pub(crate) fn range(self, total: u64) -> Range<u64> {
        let at = |i: u64| (i as u128 * total as u128 / self.count as u128) as u64;
        at(self.index)..at(self.index + 1)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Why a `I/N` text is not a shard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ShardParseError {
    /// Not `I/N` with `0 ≤ I < N`.
    Syntax(String),
    /// N above [`MAX_SHARDS`] (`count` as written, which may not fit a `u64`).
    TooMany(String),
}

impl std::fmt::Display for ShardParseError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ShardParseError::Syntax(s) => {
                write!(f, "bad shard {s:?}: expected I/N with 0 ≤ I < N, e.g. 0/4")
            }
            ShardParseError::TooMany(n) => write!(f, "{}", too_many_shards(n)),
        }
    }
}

/// What a count above [`MAX_SHARDS`] gets.
pub(crate) fn too_many_shards(count: &str) -> String {
    format!(
        "{count} shards is more than the most a run may have ({MAX_SHARDS}); split the \
         work into at most {MAX_SHARDS} shards"
    )
}

impl FromStr for Shard {
    type Err = ShardParseError;

    fn from_str(s: &str) -> Result<Self, ShardParseError> {
        let bad = || ShardParseError::Syntax(s.to_string());
        let (i, n) = s.split_once('/').ok_or_else(bad)?;
        let (i, n) = (i.trim(), n.trim());
        // N is checked first, and as digits: a count past u64 is too many, not a typo.
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        if !digits(i) || !digits(n) {
            return Err(bad());
        }
        let count = match n.parse::<u64>() {
            Ok(c) if c <= MAX_SHARDS => c,
            _ => return Err(ShardParseError::TooMany(n.to_string())),
        };
        let index: u64 = i.parse().map_err(|_| bad())?;
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// Why `--shard auto` found no shard.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[non_exhaustive]
pub(crate) enum AutoShardError {
    #[error(
        "--shard auto: no shard in the environment: set GEOMRENDER_SHARD=I/N, run as a Slurm \
         array task (sbatch --array=0-N), or as a Kubernetes Indexed Job with --shards N"
    )]
    NotFound,
    #[error("--shard auto: {name}={value:?} is {why}")]
    Bad {
        name: &'static str,
        value: String,
        why: String,
    },
    #[error(
        "--shard auto: JOB_COMPLETION_INDEX={0} (a Kubernetes Indexed Job) needs --shards N, the Job's completions"
    )]
    NeedsCount(u64),
    #[error("--shard auto: the sources disagree: {0}")]
    Disagree(String),
    /// A count above [`MAX_SHARDS`]; `from` names the variable(s), value(s) and count.
    #[error(
        "--shard auto: {from}, more than the most a run may have ({MAX_SHARDS}); split the \
         work into at most {MAX_SHARDS} shards"
    )]
    TooMany { from: String },
    #[error(
        "--shard auto: SLURM_ARRAY_TASK_MIN={min} is above SLURM_ARRAY_TASK_MAX={max}: a Slurm \
         array's tasks run from MIN up to MAX; submit it as --array=MIN-MAX with MIN ≤ MAX, \
         e.g. --array=0-7 for 8 shards"
    )]
    MinAboveMax { min: u64, max: u64 },
}

fn number(
    env: &impl Fn(&str) -> Option<String>,
    name: &'static str,
) -> Result<Option<u64>, AutoShardError> {
    match env(name) {
        None => Ok(None),
        Some(v) => v
            .trim()
            .parse()
            .map(Some)
            .map_err(|e: std::num::ParseIntError| {
                let why = match e.kind() {
                    std::num::IntErrorKind::PosOverflow => format!("above {}", u64::MAX),
                    _ => "not a whole number ≥ 0".into(),
                };
                AutoShardError::Bad {
                    name,
                    value: v,
                    why,
                }
            }),
    }
}

/// The Slurm array task's shard, if this is one.
fn slurm(env: &impl Fn(&str) -> Option<String>) -> Result<Option<(Shard, String)>, AutoShardError> {
    let Some(id) = number(env, "SLURM_ARRAY_TASK_ID")? else {
        return Ok(None);
    };
    let min = number(env, "SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
    let step = number(env, "SLURM_ARRAY_TASK_STEP")?.unwrap_or(1).max(1);
    let max = number(env, "SLURM_ARRAY_TASK_MAX")?;
    if let Some(max) = max.filter(|&max| max < min) {
        return Err(AutoShardError::MinAboveMax { min, max });
    }
    let count = match (number(env, "SLURM_ARRAY_TASK_COUNT")?, max) {
        (Some(0), _) => {
            return Err(AutoShardError::Bad {
                name: "SLURM_ARRAY_TASK_COUNT",
                value: "0".into(),
                why: "0 tasks, but an array task runs: an array has 1 or more tasks; submit \
                      it as --array=0-N (N+1 tasks), e.g. --array=0-7 for 8 shards"
                    .into(),
            });
        }
        (Some(c), _) if c > MAX_SHARDS => {
            return Err(AutoShardError::TooMany {
                from: format!("SLURM_ARRAY_TASK_COUNT={c} asks for {c} shards"),
            });
        }
        (Some(c), _) => c,
        (None, Some(max)) => {
            // In u128: MIN=0, MAX=2^64-1, STEP=1 is 2^64 tasks.
            let tasks = u128::from((max - min) / step) + 1;
            if tasks > u128::from(MAX_SHARDS) {
                return Err(AutoShardError::TooMany {
                    from: format!(
                        "SLURM_ARRAY_TASK_MIN={min}, SLURM_ARRAY_TASK_MAX={max} and \
                         SLURM_ARRAY_TASK_STEP={step} make {tasks} tasks"
                    ),
                });
            }
            tasks as u64
        }
        (None, None) => {
            return Err(AutoShardError::Bad {
                name: "SLURM_ARRAY_TASK_ID",
                value: id.to_string(),
                why: "set without SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MIN/MAX".into(),
            });
        }
    };
    let offset = id.checked_sub(min).filter(|o| o % step == 0);
    let index = offset.map(|o| o / step).filter(|&i| i < count);
    let Some(index) = index else {
        return Err(AutoShardError::Bad {
            name: "SLURM_ARRAY_TASK_ID",
            value: id.to_string(),
            why: format!(
                "not one of {count} evenly spaced tasks from {min} (step {step}): submit the \
                 array as --array=0-{}",
                count - 1
            ),
        });
    };
    let said = format!("Slurm array task {id}, {count} tasks from {min}");
    Ok(Some((Shard { index, count }, said)))
}

/// Finds the shard in `env`, with `shards` from `--shards`; returns it and a
/// description of where it came from.
pub(crate) fn from_env(
    env: impl Fn(&str) -> Option<String>,
    shards: Option<u64>,
) -> Result<(Shard, String), AutoShardError> {
    // Checked here too, for callers that did not parse it with clap.
    if let Some(n) = shards.filter(|&n| n > MAX_SHARDS) {
        return Err(AutoShardError::TooMany {
            from: format!("--shards {n} asks for {n} shards"),
        });
    }
    let mut found: Vec<(Shard, String)> = Vec::new();
    if let Some(v) = env("GEOMRENDER_SHARD") {
        let shard = v.parse().map_err(|e| match e {
            ShardParseError::TooMany(count) => AutoShardError::TooMany {
                from: format!("GEOMRENDER_SHARD={v} asks for {count} shards"),
            },
            e => AutoShardError::Bad {
                name: "GEOMRENDER_SHARD",
                value: v.clone(),
                why: e.to_string(),
            },
        })?;
        found.push((shard, format!("GEOMRENDER_SHARD={v}")));
    }
    found.extend(slurm(&env)?);
    if let Some(index) = number(&env, "JOB_COMPLETION_INDEX")? {
        let count = shards.ok_or(AutoShardError::NeedsCount(index))?;
        if index >= count {
            return Err(AutoShardError::Bad {
                name: "JOB_COMPLETION_INDEX",
                value: index.to_string(),
                why: format!("not below --shards {count}"),
            });
        }
        let said = format!("Kubernetes JOB_COMPLETION_INDEX={index}, --shards {count}");
        found.push((Shard { index, count }, said));
    }
    let Some((shard, said)) = found.first().cloned() else {
        return Err(AutoShardError::NotFound);
    };
    if let Some((other, other_said)) = found.iter().find(|(s, _)| *s != shard) {
        return Err(AutoShardError::Disagree(format!(
            "{said} gives {shard}, {other_said} gives {other}"
        )));
    }
    if let Some(n) = shards.filter(|&n| n != shard.count) {
        return Err(AutoShardError::Disagree(format!(
            "{said} gives {shard}, --shards {n}"
        )));
    }
    let all: Vec<&str> = found.iter().map(|(_, s)| s.as_str()).collect();
    Ok((shard, all.join("; ")))
}

/// Why a shard could not be started or recorded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum ShardError {
    #[error("opening {path}: {source}")]
    Open {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Lock(#[from] LockError),
    #[error("{what} {path}/done.json: {source}")]
    Done {
        what: &'static str,
        path: PathBuf,
        source: std::io::Error,
    },
}

/// Starts shard `shard` of the run in `out`: opens `OUT/shards/I-of-N/` (real
/// folders only), takes its lock, and removes an earlier `done.json` (the shard is
/// not finished until this run says so).
pub(crate) fn begin(out: &Path, shard: Shard) -> Result<OutputLock, ShardError> {
    let path = shard.dir(out);
    let dir = open_shard_dir(out, shard.index, shard.count).map_err(|source| ShardError::Open {
        path: path.clone(),
        source,
    })?;
    let lock = OutputLock::acquire(dir)?;
    ShardDone::remove(lock.dir()).map_err(|source| ShardError::Done {
        what: "removing",
        path,
        source,
    })?;
    Ok(lock)
}

/// Records a finished shard: `done.json` (its recipe, its run's provenance, sinks
/// and counts), the last file it writes.
pub(crate) fn finish(
    lock: &OutputLock,
    shard: Shard,
    recipe: ShardRecipe,
    datasets: &DatasetOptions,
    summary: &RunSummary,
) -> Result<(), ShardError> {
    let dir = lock.dir();
    let counts = ShardCounts {
        lines: summary.lines,
        images: summary.images,
        failed: summary.failed,
        skipped: summary.skipped.iter().map(|c| c.count).sum(),
    };
    let availability = summary.availability.clone();
    ShardDone::new(
        dir,
        shard.index,
        shard.count,
        (recipe, summary.record.provenance.clone()),
        datasets,
        counts,
        availability,
    )
    .and_then(|done| done.write(dir))
    .map_err(|source| ShardError::Done {
        what: "writing",
        path: dir.path().to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_tile_the_run_exactly() {
        for total in [0u64, 1, 7, 100, 1001] {
            for n in 1..=9u64 {
                let mut next = 0;
                for i in 0..n {
                    let r = Shard { index: i, count: n }.range(total);
                    assert_eq!(r.start, next, "total {total}, {i}/{n}");
                    assert!(r.end - r.start <= total.div_ceil(n));
                    next = r.end;
                }
                assert_eq!(next, total);
            }
        }
    }

    #[test]
    fn parses_and_rejects() {
        assert_eq!("2/5".parse(), Ok(Shard { index: 2, count: 5 }));
        for bad in ["5/5", "1/0", "x/2", "3", "-1/2", ""] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    fn env(vars: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| vars.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
    }

    fn shard(index: u64, count: u64) -> Shard {
        Shard { index, count }
    }

    #[test]
    fn each_source_gives_its_shard() {
        let got = |vars: &[(&str, &str)], n| from_env(env(vars), n).map(|(s, _)| s);
        assert_eq!(got(&[("GEOMRENDER_SHARD", "2/5")], None), Ok(shard(2, 5)));
        let slurm = [
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(got(&slurm, None), Ok(shard(3, 4)));
        // --array=1-8 without a count: MIN/MAX.
        let one_based = [
            ("SLURM_ARRAY_TASK_ID", "1"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
            ("SLURM_ARRAY_TASK_MAX", "8"),
        ];
        assert_eq!(got(&one_based, None), Ok(shard(0, 8)));
        // --array=0-15:4 → tasks 0, 4, 8, 12.
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "8"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "12"),
            ("SLURM_ARRAY_TASK_STEP", "4"),
        ];
        assert_eq!(got(&stepped, None), Ok(shard(2, 4)));
        assert_eq!(
            got(&[("JOB_COMPLETION_INDEX", "0")], Some(3)),
            Ok(shard(0, 3))
        );
        // Two sources that agree, and --shards that agrees.
        let both = [
            ("GEOMRENDER_SHARD", "3/4"),
            ("SLURM_ARRAY_TASK_ID", "3"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        let (s, said) = from_env(env(&both), Some(4)).unwrap();
        assert_eq!(s, shard(3, 4));
        assert!(
            said.contains("GEOMRENDER_SHARD=3/4") && said.contains("Slurm"),
            "{said}"
        );
    }

    #[test]
    fn missing_bad_and_disagreeing_sources_are_errors() {
        let err = |vars: &[(&str, &str)], n| from_env(env(vars), n).unwrap_err();
        assert_eq!(err(&[], None), AutoShardError::NotFound);
        assert_eq!(
            err(&[("JOB_COMPLETION_INDEX", "2")], None),
            AutoShardError::NeedsCount(2)
        );
        for (vars, n) in [
            (&[("GEOMRENDER_SHARD", "4/4")][..], None),
            (&[("GEOMRENDER_SHARD", "x")][..], None),
            (
                &[
                    ("SLURM_ARRAY_TASK_ID", "two"),
                    ("SLURM_ARRAY_TASK_COUNT", "4"),
                ][..],
                None,
            ),
            (
                &[
                    ("SLURM_ARRAY_TASK_ID", "4"),
                    ("SLURM_ARRAY_TASK_COUNT", "4"),
                ][..],
                None,
            ),
            (&[("SLURM_ARRAY_TASK_ID", "1")][..], None),
            (&[("JOB_COMPLETION_INDEX", "3")][..], Some(3)),
        ] {
            assert!(
                matches!(err(vars, n), AutoShardError::Bad { .. }),
                "{vars:?}: {}",
                err(vars, n)
            );
        }
        let disagree = [
            ("GEOMRENDER_SHARD", "1/4"),
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert!(matches!(err(&disagree, None), AutoShardError::Disagree(_)));
        let count = [
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        let e = err(&count, Some(8)).to_string();
        assert!(e.contains("--shards 8"), "{e}");
    }

    #[test]
    fn shard_counts_above_the_maximum_are_refused_from_every_source() {
        let max = MAX_SHARDS;
        // --shard I/N, also past u64.
        assert_eq!("0/100000".parse(), Ok(shard(0, max)));
        for n in ["100001", "100000000000", "100000000000000000000000"] {
            let e = format!("0/{n}").parse::<Shard>().unwrap_err().to_string();
            assert_eq!(
                e,
                format!(
                    "{n} shards is more than the most a run may have (100000); split the \
                     work into at most 100000 shards"
                )
            );
        }
        let err = |vars: &[(&str, &str)], n| from_env(env(vars), n).unwrap_err().to_string();
        let e = err(&[("JOB_COMPLETION_INDEX", "0")], Some(max + 1));
        assert!(e.contains("--shards 100001 asks for 100001 shards"), "{e}");
        // GEOMRENDER_SHARD.
        let e = err(&[("GEOMRENDER_SHARD", "0/100000000000")], None);
        assert_eq!(
            e,
            "--shard auto: GEOMRENDER_SHARD=0/100000000000 asks for 100000000000 shards, more \
             than the most a run may have (100000); split the work into at most 100000 shards"
        );
        // Slurm: a count, or MIN/MAX/STEP (2^64 tasks, which must not overflow).
        let top = u64::MAX.to_string();
        let e = err(
            &[
                ("SLURM_ARRAY_TASK_ID", "0"),
                ("SLURM_ARRAY_TASK_COUNT", &top),
            ],
            None,
        );
        assert!(
            e.starts_with(&format!(
                "--shard auto: SLURM_ARRAY_TASK_COUNT={top} asks for {top} shards, more than \
                 the most a run may have (100000)"
            )),
            "{e}"
        );
        let e = err(
            &[
                ("SLURM_ARRAY_TASK_ID", "0"),
                ("SLURM_ARRAY_TASK_MIN", "0"),
                ("SLURM_ARRAY_TASK_MAX", &top),
            ],
            None,
        );
        assert!(
            e.contains("SLURM_ARRAY_TASK_MAX=18446744073709551615 and SLURM_ARRAY_TASK_STEP=1 make 18446744073709551616 tasks, more than"),
            "{e}"
        );
        let stepped = [
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_MIN", "0"),
            ("SLURM_ARRAY_TASK_MAX", "399996"),
            ("SLURM_ARRAY_TASK_STEP", "4"),
        ];
        assert_eq!(
            from_env(env(&stepped), None).map(|(s, _)| s),
            Ok(shard(0, max))
        );
        // The first of a name wins in `env`: STEP=2 instead of 4.
        let halved = [&[("SLURM_ARRAY_TASK_STEP", "2")][..], &stepped[..]].concat();
        let e = err(&halved, None);
        assert!(e.contains("make 199999 tasks"), "{e}");
    }

    #[test]
    fn slurm_min_above_max_and_a_zero_count_say_what_is_wrong() {
        let err = |vars: &[(&str, &str)]| from_env(env(vars), None).unwrap_err().to_string();
        let e = err(&[
            ("SLURM_ARRAY_TASK_ID", "5"),
            ("SLURM_ARRAY_TASK_MIN", "8"),
            ("SLURM_ARRAY_TASK_MAX", "3"),
        ]);
        assert_eq!(
            e,
            "--shard auto: SLURM_ARRAY_TASK_MIN=8 is above SLURM_ARRAY_TASK_MAX=3: a Slurm \
             array's tasks run from MIN up to MAX; submit it as --array=MIN-MAX with MIN ≤ MAX, \
             e.g. --array=0-7 for 8 shards"
        );
        let e = err(&[
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "0"),
        ]);
        assert_eq!(
            e,
            "--shard auto: SLURM_ARRAY_TASK_COUNT=\"0\" is 0 tasks, but an array task runs: an \
             array has 1 or more tasks; submit it as --array=0-N (N+1 tasks), e.g. --array=0-7 \
             for 8 shards"
        );
        assert!(!e.contains("--array=0-0"), "{e}");
        let e = err(&[
            ("SLURM_ARRAY_TASK_ID", "0"),
            ("SLURM_ARRAY_TASK_COUNT", "18446744073709551616"),
        ]);
        assert!(e.contains("is above 18446744073709551615"), "{e}");
    }
}
