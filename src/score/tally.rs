//! Counting scored items into rows: which row each item belongs to ([`Key`],
//! [`Layout`]), the tallies of a row or a breakdown cell ([`Tally`],
//! [`tally_model`]), and a row's figures made from its tally ([`TallyRow`]). The report
//! and its parts (base set, baselines, consistency, relation breakdowns) all count
//! with these.

use super::MissingPolicy;
use super::join::Verdict;
use super::manifest::{BASE_AXIS, ManifestItem, VariantValue};
use super::stats::{Z_95, holm, mcnemar_exact, paired_bootstrap, wilson};
use serde::Serialize;
use std::cmp::Ordering;
use std::collections::{BTreeMap, HashMap, HashSet};

/// Accuracy of one model on one (axis, value), and the paired comparison with the
/// base images of the same problems. The base row (`axis` = `value` = "base")
/// compares with itself: no flips, p = 1.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TallyRow {
    pub model: String,
    pub axis: String,
    pub value: String,
    /// Items scored (with `missing_policy` = wrong, missing ones count here too).
    pub n: u64,
    /// Base problems (distinct `base_id`s) of those items: which problems the row
    /// describes, within the report's [`BaseSet`](super::BaseSet).
    pub bases: u64,
    pub correct: u64,
    pub accuracy: Option<f64>,
    pub ci_low: Option<f64>,
    pub ci_high: Option<f64>,
    /// Scored items whose answer was read and is not the label (with
    /// `missing_policy` = wrong, also the missing ones): `n = correct + wrong + unparsed`.
    pub wrong: u64,
    /// Scored items whose prediction held no readable answer (refused, hedged,
    /// too long, or nothing read): in n, not correct, and not counted in `wrong`.
    pub unparsed: u64,
    /// Items of this row with no prediction from this model.
    pub missing: u64,
    /// Items scored both here and on their base image.
    pub paired_n: u64,
    /// Right on the base image, wrong here.
    pub flips_to_wrong: u64,
    /// Wrong on the base image, right here.
    pub flips_to_right: u64,
    /// Accuracy here minus on the base, over the paired items.
    pub delta: Option<f64>,
    /// Paired bootstrap 95 % interval of `delta` (resampling problems, seeded by
    /// the row: see `stats::paired_bootstrap`); null when paired_n = 0.
    pub delta_ci_low: Option<f64>,
    pub delta_ci_high: Option<f64>,
    /// Exact McNemar test of the flips (two-sided).
    pub mcnemar_p: f64,
    /// `mcnemar_p` Holm-adjusted across this model's values of this axis.
    pub mcnemar_p_holm: f64,
}

/// The group name for items without the parameter.
pub(crate) const UNKNOWN_GROUP: &str = "unknown";

/// (axis, values) of an item: `("base", [])` for base images.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Key {
    pub(super) axis: String,
    pub(super) values: Vec<VariantValue>,
}

impl Key {
    pub(super) fn of(item: &ManifestItem) -> Key {
        if item.is_base() {
            return Key {
                axis: BASE_AXIS.to_string(),
                values: Vec::new(),
            };
        }
        Key {
            axis: item
                .variant
                .iter()
                .map(|(a, _)| a.as_str())
                .collect::<Vec<_>>()
                .join("+"),
            values: item.variant.iter().map(|(_, v)| v.clone()).collect(),
        }
    }

    pub(super) fn value_label(&self) -> String {
        if self.values.is_empty() {
            return BASE_AXIS.to_string();
        }
        self.values
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("+")
    }

    /// Base first, then axes by name, values in [`VariantValue::cmp_order`].
    fn cmp(&self, other: &Key) -> Ordering {
        let base = |k: &Key| k.values.is_empty();
        base(other)
            .cmp(&base(self))
            .then_with(|| self.axis.cmp(&other.axis))
            .then_with(|| {
                self.values
                    .iter()
                    .zip(&other.values)
                    .map(|(a, b)| a.cmp_order(b))
                    .find(|o| o.is_ne())
                    .unwrap_or(self.values.len().cmp(&other.values.len()))
            })
    }
}

/// Tallies for a row or a breakdown cell.
#[derive(Clone, Debug, Default)]
pub(super) struct Tally {
    pub(super) n: u64,
    /// The bases of the counted items, by [`Layout::base_index`].
    pub(super) bases: HashSet<u32>,
    pub(super) correct: u64,
    pub(super) missing: u64,
    pub(super) unparsed: u64,
    pub(super) paired_n: u64,
    pub(super) to_wrong: u64,
    pub(super) to_right: u64,
}

impl Tally {
    /// Counts item `i` for one model: missing or scored (under `policy`), and paired
    /// with its base image when both are scored.
    pub(super) fn add(
        &mut self,
        i: usize,
        layout: &Layout<'_>,
        items: &[ManifestItem],
        verdicts: &[Option<Verdict>],
        policy: MissingPolicy,
    ) {
        let item = &items[i];
        let v = verdicts[i].as_ref();
        self.missing += u64::from(v.is_none());
        let Some(ok) = counted(v, policy) else {
            return;
        };
        self.n += 1;
        self.bases.insert(layout.base_index[i]);
        self.correct += u64::from(ok);
        self.unparsed += u64::from(v.is_some_and(|v| v.answer.is_none()));
        let base = layout.base_of.get(item.base_id.as_str()).copied();
        if let Some(b) = base.filter(|_| !item.is_base())
            && let Some(base_ok) = counted(verdicts[b].as_ref(), policy)
        {
            self.paired_n += 1;
            self.to_wrong += u64::from(base_ok && !ok);
            self.to_right += u64::from(!base_ok && ok);
        }
    }
}

/// How an item counts for a model: `None` = left out (missing, policy exclude).
pub(super) fn counted(v: Option<&Verdict>, policy: MissingPolicy) -> Option<bool> {
    match (v, policy) {
        (Some(v), _) => Some(v.correct),
        (None, MissingPolicy::Wrong) => Some(false),
        (None, MissingPolicy::Exclude) => None,
    }
}

/// Which row each item belongs to, and where each problem's base image is.
pub(super) struct Layout<'a> {
    /// One key per distinct (axis, value), in report order.
    pub(super) keys: Vec<Key>,
    /// `slot[i]`: index into `keys` of item i.
    pub(super) slot: Vec<usize>,
    /// base_id → index of the base item.
    pub(super) base_of: HashMap<&'a str, usize>,
    /// `base_index[i]`: item i's base problem, numbered from 0 by first appearance.
    pub(super) base_index: Vec<u32>,
    /// Distinct base problems (`base_id`s, with or without a base image).
    pub(super) bases: usize,
}

impl<'a> Layout<'a> {
    pub(super) fn new(items: &'a [ManifestItem]) -> Self {
        let item_keys: Vec<Key> = items.iter().map(Key::of).collect();
        let mut keys: Vec<Key> = Vec::new();
        let mut sorted: Vec<&Key> = item_keys.iter().collect();
        sorted.sort_by(|a, b| a.cmp(b));
        for k in sorted {
            if keys.last().is_none_or(|last| last.cmp(k).is_ne()) {
                keys.push(k.clone());
            }
        }
        let slot = item_keys
            .iter()
            .map(|k| keys.binary_search_by(|probe| probe.cmp(k)).unwrap_or(0))
            .collect();
        let base_of = items
            .iter()
            .enumerate()
            .filter(|(_, it)| it.is_base())
            .map(|(i, it)| (it.base_id.as_str(), i))
            .collect();
        let mut numbers: HashMap<&str, u32> = HashMap::new();
        let base_index = (items.iter())
            .map(|it| {
                let next = numbers.len() as u32;
                *numbers.entry(it.base_id.as_str()).or_insert(next)
            })
            .collect();
        Layout {
            keys,
            slot,
            base_of,
            base_index,
            bases: numbers.len(),
        }
    }
}

/// One model's tallies: per row, and per (row, group) for each breakdown.
pub(super) struct ModelTallies {
    pub(super) rows: Vec<Tally>,
    pub(super) depth: BTreeMap<(usize, GroupKey), Tally>,
    pub(super) question_type: BTreeMap<(usize, GroupKey), Tally>,
}

/// Tallies the items `scope` marks.
pub(super) fn tally_model(
    layout: &Layout<'_>,
    items: &[ManifestItem],
    verdicts: &[Option<Verdict>],
    policy: MissingPolicy,
    scope: &[bool],
) -> ModelTallies {
    let mut out = ModelTallies {
        rows: vec![Tally::default(); layout.keys.len()],
        depth: BTreeMap::new(),
        question_type: BTreeMap::new(),
    };
    for (i, item) in items.iter().enumerate().filter(|(i, _)| scope[*i]) {
        let slot = layout.slot[i];
        out.rows[slot].add(i, layout, items, verdicts, policy);
        if counted(verdicts[i].as_ref(), policy).is_none() {
            // A breakdown has a cell only where an item was scored.
            continue;
        }
        for (map, group) in [
            (&mut out.depth, item.depth.as_deref()),
            (&mut out.question_type, item.question_type.as_deref()),
        ] {
            let g: &mut Tally = map.entry((slot, GroupKey::of(group))).or_default();
            g.add(i, layout, items, verdicts, policy);
        }
    }
    out
}

/// Sort key of a breakdown group: integers numerically, then text, then "unknown".
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum GroupKey {
    Int(i64),
    Text(String),
    Unknown,
}

impl GroupKey {
    fn of(group: Option<&str>) -> GroupKey {
        match group {
            None => GroupKey::Unknown,
            Some(g) => g
                .parse()
                .map_or_else(|_| GroupKey::Text(g.to_string()), GroupKey::Int),
        }
    }

    pub(super) fn label(&self) -> String {
        match self {
            GroupKey::Int(i) => i.to_string(),
            GroupKey::Text(s) => s.clone(),
            GroupKey::Unknown => UNKNOWN_GROUP.to_string(),
        }
    }
}

pub(super) fn ratio(a: u64, n: u64) -> Option<f64> {
    (n > 0).then(|| a as f64 / n as f64)
}

/// One model's rows in report order, Holm-adjusted per axis.
pub(super) fn make_rows(model: &str, layout: &Layout<'_>, tallies: &[Tally]) -> Vec<TallyRow> {
    let mut rows: Vec<TallyRow> = (layout.keys.iter().zip(tallies))
        .map(|(key, tally)| make_row(model, key, tally))
        .collect();
    holm_per_axis(&mut rows);
    rows
}

fn make_row(model: &str, key: &Key, t: &Tally) -> TallyRow {
    // Seeded by the row itself, so a row's interval does not depend on the others.
    let seed_text = format!("{model}\n{}\n{}", key.axis, key.value_label());
    make_row_seeded(model, key, t, &seed_text)
}

/// A row whose bootstrap is seeded by `seed_text` (what names the row uniquely).
pub(super) fn make_row_seeded(model: &str, key: &Key, t: &Tally, seed_text: &str) -> TallyRow {
    let ci = wilson(t.correct, t.n, Z_95);
    let digest = crate::digest::sha256_hex(seed_text.as_bytes());
    let seed = u64::from_str_radix(&digest[..16], 16).unwrap_or(0);
    let boot = paired_bootstrap(t.to_wrong, t.to_right, t.paired_n, seed);
    TallyRow {
        model: model.to_string(),
        axis: key.axis.clone(),
        value: key.value_label(),
        n: t.n,
        bases: t.bases.len() as u64,
        correct: t.correct,
        accuracy: ratio(t.correct, t.n),
        ci_low: ci.map(|c| c.low),
        ci_high: ci.map(|c| c.high),
        wrong: t.n - t.correct - t.unparsed,
        unparsed: t.unparsed,
        missing: t.missing,
        paired_n: t.paired_n,
        flips_to_wrong: t.to_wrong,
        flips_to_right: t.to_right,
        delta: (t.paired_n > 0)
            .then(|| (t.to_right as f64 - t.to_wrong as f64) / t.paired_n as f64),
        delta_ci_low: boot.map(|b| b.0),
        delta_ci_high: boot.map(|b| b.1),
        mcnemar_p: mcnemar_exact(t.to_wrong, t.to_right),
        // Set per axis once all of the model's rows are made.
        mcnemar_p_holm: 1.0,
    }
}

/// Holm-adjusts the McNemar p-values of one model's rows across each axis's values
/// (the base row keeps 1).
pub(super) fn holm_per_axis(rows: &mut [TallyRow]) {
    let mut axes: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, r) in rows.iter().enumerate().filter(|(_, r)| r.axis != "base") {
        axes.entry(r.axis.clone()).or_default().push(i);
    }
    for idx in axes.values() {
        let p: Vec<f64> = idx.iter().map(|&i| rows[i].mcnemar_p).collect();
        for (&i, adj) in idx.iter().zip(holm(&p)) {
            rows[i].mcnemar_p_holm = adj;
        }
    }
}
