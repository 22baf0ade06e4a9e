//! `--shard I/N|auto` and `--shards N`: the flags; the shard itself, its slice of
//! the run, `auto`'s reading of the environment and the begin/finish protocol are
//! the library's (`crate::pipeline::shard`).

use crate::output::merge::MAX_SHARDS;
use crate::pipeline::shard::{Shard, ShardParseError, from_env, too_many_shards};
use std::path::Path;
use std::str::FromStr;

/// `--shard` as given: a shard, or `auto`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ShardSpec {
    Given(Shard),
    Auto,
}

impl FromStr for ShardSpec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "auto" => Ok(ShardSpec::Auto),
            _ => s.parse().map(ShardSpec::Given).map_err(|e| match e {
                ShardParseError::Syntax(_) => format!("{e}, or auto"),
                ShardParseError::TooMany(_) => e.to_string(),
            }),
        }
    }
}

/// `--shard` and `--shards`, shared by `generate`, `render` and `sweep`.
#[derive(clap::Args, Clone, Copy, Debug)]
pub(crate) struct ShardArgs {
    /// Run only shard I of N (0-based, N at most 100000): the I-th of N contiguous
    /// slices of the work, with the ids and bytes the whole run would give it. `auto`: I and N from the
    /// environment: GEOMRENDER_SHARD=I/N, a Slurm array task (SLURM_ARRAY_TASK_ID
    /// and _COUNT or _MIN/_MAX) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX,
    /// with --shards N).
    #[arg(long, value_name = "I/N|auto")]
    shard: Option<ShardSpec>,
    /// The number of shards (1 to 100000), for `--shard auto` where the environment
    /// does not say it (Kubernetes); checked against it where it does.
    #[arg(long, value_name = "N", value_parser = shards_arg)]
    shards: Option<u64>,
}

/// `--shards N`: 1 to [`MAX_SHARDS`].
fn shards_arg(s: &str) -> Result<u64, String> {
    let t = s.trim();
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "expected a whole number of shards from 1 to {MAX_SHARDS}"
        ));
    }
    match t.parse::<u64>() {
        Ok(0) => Err("0 shards: a run has at least one shard".into()),
        Ok(n) if n <= MAX_SHARDS => Ok(n),
        _ => Err(too_many_shards(t)),
    }
}

impl ShardArgs {
    /// The shard this process runs (`None`: the whole run), from the flags and the
    /// process environment; logs where an `auto` shard came from.
    pub(crate) fn resolve(&self) -> anyhow::Result<Option<Shard>> {
        let (shard, from) = match self.shard {
            None if self.shards.is_some() => {
                anyhow::bail!("--shards N needs --shard auto (or give --shard I/N alone)")
            }
            None => return Ok(None),
            Some(ShardSpec::Given(s)) => {
                if let Some(n) = self.shards.filter(|&n| n != s.count) {
                    anyhow::bail!("--shard {s} and --shards {n} disagree");
                }
                return Ok(Some(s));
            }
            Some(ShardSpec::Auto) => from_env(|k| std::env::var(k).ok(), self.shards)?,
        };
        eprintln!("shard {shard} (--shard auto: {from})");
        Ok(Some(shard))
    }
}

/// Says how to merge the run in `out` once every shard is done.
pub(crate) fn finished(out: &Path, shard: Shard) {
    eprintln!(
        "shard {shard} finished; when all {} are: geomrender merge {}",
        shard.count,
        out.display()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_flags_parse_and_reject() {
        assert_eq!(
            "2/5".parse(),
            Ok(ShardSpec::Given(Shard { index: 2, count: 5 }))
        );
        assert_eq!("auto".parse(), Ok(ShardSpec::Auto));
        assert!("automatic".parse::<ShardSpec>().is_err());
        let e = "0/100000000000".parse::<ShardSpec>().unwrap_err();
        assert!(e.starts_with("100000000000 shards is more than"), "{e}");
        assert_eq!(shards_arg("100000"), Ok(MAX_SHARDS));
        let e = shards_arg("100000000000").unwrap_err();
        assert!(e.starts_with("100000000000 shards is more than"), "{e}");
        assert!(shards_arg("0").is_err());
    }
}
