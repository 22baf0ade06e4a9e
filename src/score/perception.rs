//! Perception: the probes of a run (`probes.jsonl` beside the manifest, written by
//! `render --probes`) scored per model and probe type, and joined with the
//! reasoning verdict on the same image: did the model that got the problem wrong
//! misread the picture?
//!
//! For each image whose reasoning item and every probe have a verdict, the 2×2 of
//! reasoning right or wrong against all its probes right or not; the reasoning
//! accuracy in each column; and Fisher's exact test of independence (two-sided:
//! the summed probability of every table with the same margins no more likely
//! than the observed one).

use super::error::{LineReason, RejectedLine};
use super::join::{Scored, Verdict};
use super::manifest::{Label, ManifestItem};
use super::report::{GroupRow, Perception};
use super::stats::{Z_95, wilson};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// A probe row as `score` reads it: the item to score, and what it is about.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ProbeItem {
    pub item: ManifestItem,
    /// The image row (a manifest id) it asks about.
    pub of: String,
    /// Its `probe.type`.
    pub kind: String,
    /// Its image's variant axis and value as the report names them (`base`, `base`;
    /// `fontsize`, `8`; `fontsize+opacity`, `8+0.25`).
    pub axis: String,
    pub value: String,
}

/// A variant object's axis and value as report rows name them (the datasets' own
/// naming, `output::datasets::row`).
fn axis_value(variant: Option<&Value>) -> (String, String) {
    match variant {
        Some(Value::Object(m)) => crate::output::datasets::variant_axis_value(m),
        _ => ("base".into(), "base".into()),
    }
}

/// Parses `probes.jsonl` (`file` names it in errors): the valid rows and one error
/// per rejected line.
pub(crate) fn parse_probes(text: &[u8], file: &str) -> (Vec<ProbeItem>, Vec<RejectedLine>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (line, raw) in crate::jsonl::split(text, crate::jsonl::MAX_LINE_BYTES) {
        let parsed = raw
            .map_err(LineReason::from)
            .and_then(|b| std::str::from_utf8(b).map_err(|_| LineReason::NotUtf8))
            .and_then(|s| parse_probe(s, line));
        match parsed {
            Ok(p) => out.push(p),
            Err(reason) => errors.push(RejectedLine {
                file: file.to_string(),
                line,
                reason,
            }),
        }
    }
    (out, errors)
}

fn parse_probe(text: &str, line: usize) -> Result<ProbeItem, LineReason> {
    let bad = |field: &str, message: String| LineReason::BadField {
        field: field.to_string(),
        message,
    };
    let missing = |field: &str| LineReason::MissingField {
        field: field.to_string(),
    };
    let v: Value = serde_json::from_str(text).map_err(|e| LineReason::Json {
        message: e.to_string(),
    })?;
    let s = |k: &str| {
        v.get(k)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| missing(k))
    };
    let (id, of, base_id) = (s("id")?, s("of")?, s("base_id")?);
    let kind = (v
        .get("probe")
        .and_then(|p| p.get("type"))
        .and_then(Value::as_str))
    .ok_or_else(|| missing("probe.type"))?
    .to_string();
    let choices: Option<Vec<String>> = match v.get("choices") {
        None | Some(Value::Null) => None,
        Some(c) => {
            Some(serde_json::from_value(c.clone()).map_err(|e| bad("choices", e.to_string()))?)
        }
    };
    let label = match (&choices, v.get("answer")) {
        (Some(choices), Some(Value::String(letter))) => {
            let index = (letter.len() == 1)
                .then(|| letter.as_bytes()[0].wrapping_sub(b'A') as usize)
                .filter(|&i| i < choices.len())
                .ok_or_else(|| bad("answer", format!("{letter:?} is no option's letter")))?;
            Label::Choice {
                index,
                choices: choices.clone(),
            }
        }
        (None, Some(Value::Number(n))) => Label::Number(n.as_f64().unwrap_or(f64::NAN)),
        _ => {
            return Err(bad(
                "answer",
                "neither an option's letter (with `choices`) nor a count".to_string(),
            ));
        }
    };
    let (axis, value) = axis_value(v.get("variant"));
    Ok(ProbeItem {
        axis,
        value,
        item: ManifestItem {
            id,
            base_id,
            variant: Vec::new(),
            label,
            depth: None,
            question_type: None,
            relation: None,
            image: v.get("image").and_then(Value::as_str).map(str::to_string),
            question: v
                .get("question")
                .and_then(Value::as_str)
                .map(str::to_string),
            size: None,
            line,
        },
        of,
        kind,
    })
}

/// The perception block of every model with a prediction on some probe.
pub(crate) fn perception(
    items: &[ManifestItem],
    scored: &Scored,
    probes: &[ProbeItem],
    probe_scored: &Scored,
) -> Vec<Perception> {
    let index: HashMap<&str, usize> = (items.iter().enumerate())
        .map(|(i, it)| (it.id.as_str(), i))
        .collect();
    let mut out = Vec::new();
    for (m, model) in probe_scored.models.iter().enumerate() {
        let verdicts = &probe_scored.verdicts[m];
        // (axis, value, type) → (answered, right, base problems).
        type Cell<'a> = (u64, u64, BTreeSet<&'a str>);
        let mut kinds: BTreeMap<(&str, &str, &str), Cell<'_>> = BTreeMap::new();
        // Per image row: every probe right so far, and whether all were answered.
        let mut per_image: BTreeMap<usize, (bool, bool)> = BTreeMap::new();
        for (p, v) in probes.iter().zip(verdicts) {
            for key in [
                (p.axis.as_str(), p.value.as_str(), p.kind.as_str()),
                ("all", "all", p.kind.as_str()),
            ] {
                let k = kinds.entry(key).or_default();
                if let Some(v) = v {
                    k.0 += 1;
                    k.1 += u64::from(v.correct);
                    k.2.insert(p.item.base_id.as_str());
                }
            }
            if let Some(&i) = index.get(p.of.as_str()) {
                let e = per_image.entry(i).or_insert((true, true));
                e.0 &= v.is_some_and(|v| v.correct);
                e.1 &= v.is_some();
            }
        }
        let reasoning: Option<&Vec<Option<Verdict>>> = (scored.models.iter())
            .position(|x| x == model)
            .map(|r| &scored.verdicts[r]);
        let [mut rs, mut rm, mut ws, mut wm] = [0u64; 4];
        for (&i, &(seen, answered)) in &per_image {
            let Some(Some(r)) = reasoning.map(|v| v[i]) else {
                continue;
            };
            if !answered {
                continue;
            }
            match (r.correct, seen) {
                (true, true) => rs += 1,
                (true, false) => rm += 1,
                (false, true) => ws += 1,
                (false, false) => wm += 1,
            }
        }
        let ratio = |a: u64, b: u64| (a + b > 0).then(|| a as f64 / (a + b) as f64);
        out.push(Perception {
            model: model.clone(),
            probes: (kinds.into_iter())
                .map(|((axis, value, kind), (n, correct, bases))| {
                    let ci = wilson(correct, n, Z_95);
                    GroupRow {
                        model: model.clone(),
                        axis: axis.to_string(),
                        value: value.to_string(),
                        group: kind.to_string(),
                        n,
                        bases: bases.len() as u64,
                        correct,
                        accuracy: (n > 0).then(|| correct as f64 / n as f64),
                        ci_low: ci.map(|c| c.low),
                        ci_high: ci.map(|c| c.high),
                    }
                })
                .collect(),
            images: rs + rm + ws + wm,
            right_seen: rs,
            right_misread: rm,
            wrong_seen: ws,
            wrong_misread: wm,
            accuracy_when_seen: ratio(rs, ws),
            accuracy_when_misread: ratio(rm, wm),
            fisher_p: fisher_exact([[rs, rm], [ws, wm]]),
        });
    }
    out
}

/// Adds to each flip the model's probes on the flipped image.
pub(crate) fn annotate_flips(flips: &mut [super::Flip], probes: &[ProbeItem], scored: &Scored) {
    if probes.is_empty() {
        return;
    }
    let mut on: HashMap<&str, Vec<usize>> = HashMap::new();
    for (k, p) in probes.iter().enumerate() {
        on.entry(p.of.as_str()).or_default().push(k);
    }
    for f in flips.iter_mut() {
        let (Some(ks), Some(m)) = (
            on.get(f.id.as_str()),
            scored.models.iter().position(|x| *x == f.model),
        ) else {
            continue;
        };
        f.probes = ks
            .iter()
            .map(|&k| {
                let p = &probes[k];
                let mark = match scored.verdicts[m][k] {
                    Some(v) if v.correct => "✓",
                    Some(_) => "✗",
                    None => "–",
                };
                let gold = match &p.item.label {
                    Label::Choice { index, choices } => choices[*index].clone(),
                    Label::Number(n) => crate::decimal::fmt_shortest_f64(*n),
                };
                let question = p.item.question.as_deref().unwrap_or_default();
                format!("{mark} {}: {question} (gold: {gold})", p.kind)
            })
            .collect();
    }
}

/// ln(k!) for k in 0..=n.
fn ln_factorials(n: u64) -> Vec<f64> {
    let mut f = Vec::with_capacity(n as usize + 1);
    let mut acc = 0.0f64;
    f.push(0.0);
    for k in 1..=n {
        acc += (k as f64).ln();
        f.push(acc);
    }
    f
}

/// Fisher's exact test on a 2×2 table, two-sided: the summed probability of every
/// table with the observed margins that is no more likely than the observed one
/// (with a relative tolerance of 1e-7 for ties, as R's `fisher.test`). 1 for a
/// table with an empty row or column.
pub(crate) fn fisher_exact(t: [[u64; 2]; 2]) -> f64 {
    let (r0, r1) = (t[0][0] + t[0][1], t[1][0] + t[1][1]);
    let (c0, n) = (t[0][0] + t[1][0], r0 + r1);
    if r0 == 0 || r1 == 0 || c0 == 0 || c0 == n {
        return 1.0;
    }
    let lf = ln_factorials(n);
    let c1 = n - c0;
    // P(a) for the top-left cell a, margins fixed (hypergeometric).
    let ln_p = |a: u64| {
        let (b, c) = (r0 - a, c0 - a);
        let d = r1 - c;
        lf[r0 as usize] + lf[r1 as usize] + lf[c0 as usize] + lf[c1 as usize]
            - lf[n as usize]
            - lf[a as usize]
            - lf[b as usize]
            - lf[c as usize]
            - lf[d as usize]
    };
    let lo = c0.saturating_sub(r1);
    let hi = r0.min(c0);
    let observed = ln_p(t[0][0]);
    let mut p = 0.0;
    for a in lo..=hi {
        let l = ln_p(a);
        if l <= observed + 1e-7f64.ln_1p() {
            p += l.exp();
        }
    }
    p.min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fisher_matches_r() {
        // R: fisher.test(matrix(c(3, 1, 1, 3), 2))$p.value = 0.4857143
        assert!((fisher_exact([[3, 1], [1, 3]]) - 0.485_714_3).abs() < 1e-6);
        // R: fisher.test(matrix(c(10, 0, 2, 8), 2))$p.value = 0.0007144
        assert!((fisher_exact([[10, 2], [0, 8]]) - 0.000_714_4).abs() < 1e-6);
        assert_eq!(fisher_exact([[5, 0], [0, 0]]), 1.0);
    }
}
