//! The variants a run did not draw (`skipped.jsonl` beside the manifest), counted
//! per variant value and reason, so that a report says which conditions are smaller
//! than others and why: a problem with no such variant (`not_made`), or one equal to
//! its base (`identical`).

use super::error::{LineReason, RejectedLine};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::BufReader;
use std::path::Path;

/// How many variants of one value a run did not draw, for one reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct NotDrawn {
    /// As SPEC writes it: `info=image`, `opacity=0.1;palette=grayscale`.
    pub variant: String,
    /// `not_made` or `identical`.
    pub reason: String,
    pub count: u64,
}

/// The counts of `skipped.jsonl` in the manifest's directory (none when the run
/// skipped nothing, or wrote no such file), with its unreadable lines.
pub(crate) fn read_not_drawn(
    manifest: &Path,
) -> std::io::Result<(Vec<NotDrawn>, Vec<RejectedLine>)> {
    let path = manifest.with_file_name("skipped.jsonl");
    let file = match std::fs::File::open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Default::default()),
        Err(e) => return Err(e),
    };
    let name = path.display().to_string();
    let mut counts: BTreeMap<(String, String), u64> = BTreeMap::new();
    let mut rejected = Vec::new();
    let mut lines = crate::jsonl::Lines::new(BufReader::new(file));
    loop {
        let chunk = lines.next_chunk(1024)?;
        if chunk.is_empty() {
            break;
        }
        for line in chunk {
            let reject = |reason| RejectedLine {
                file: name.clone(),
                line: line.number as usize,
                reason,
            };
            let row: Value = match line.text.as_deref().map(serde_json::from_str) {
                Ok(Ok(v)) => v,
                Ok(Err(e)) => {
                    rejected.push(reject(LineReason::Json {
                        message: e.to_string(),
                    }));
                    continue;
                }
                Err(_) => {
                    rejected.push(reject(LineReason::NotUtf8));
                    continue;
                }
            };
            let (Some(variant), Some(reason)) = (
                row.get("variant").and_then(Value::as_object),
                row.get("reason").and_then(Value::as_str),
            ) else {
                rejected.push(reject(LineReason::MissingField {
                    field: "variant or reason".into(),
                }));
                continue;
            };
            let label: Vec<String> = variant
                .iter()
                .map(|(axis, v)| match v {
                    Value::String(s) => format!("{axis}={s}"),
                    other => format!("{axis}={other}"),
                })
                .collect();
            *counts
                .entry((label.join(";"), reason.to_string()))
                .or_insert(0) += 1;
        }
    }
    let out = counts
        .into_iter()
        .map(|((variant, reason), count)| NotDrawn {
            variant,
            reason,
            count,
        })
        .collect();
    Ok((out, rejected))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_per_value_and_reason_and_bad_lines_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let manifest = dir.path().join("manifest.jsonl");
        assert_eq!(read_not_drawn(&manifest).unwrap(), Default::default());
        std::fs::write(
            dir.path().join("skipped.jsonl"),
            concat!(
                r#"{"variant":{"info":"image"},"reason":"identical"}"#,
                "\n",
                r#"{"variant":{"info":"image"},"reason":"identical"}"#,
                "\n",
                r#"{"variant":{"opacity":0.1,"palette":"grayscale"},"reason":"not_made"}"#,
                "\n{\n",
            ),
        )
        .unwrap();
        let (counts, bad) = read_not_drawn(&manifest).unwrap();
        let got: Vec<(&str, &str, u64)> = counts
            .iter()
            .map(|c| (c.variant.as_str(), c.reason.as_str(), c.count))
            .collect();
        assert_eq!(
            got,
            [
                ("info=image", "identical", 2),
                ("opacity=0.1;palette=grayscale", "not_made", 1)
            ]
        );
        assert_eq!(bad.len(), 1);
        assert_eq!(bad[0].line, 4);
    }
}
