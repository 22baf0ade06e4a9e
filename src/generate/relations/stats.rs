//! A run's relation items counted as GeomRel's Table 3 counts its dataset: items
//! per relation and domain, basic and advanced, and the share answered "Cannot be
//! inferred".

use super::item::Subset;
use super::pool::{Domain, RELATIONS};
use crate::generate::Problem;

/// Counts per relation, in [`RELATIONS`] order.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Stats {
    /// (basic, advanced, indeterminate) per relation of [`RELATIONS`].
    counts: Vec<[u64; 3]>,
}

impl Stats {
    /// Counts `p` when it is a relation item of a known relation.
    pub(crate) fn add(&mut self, p: &Problem) {
        let (Some(item), crate::generate::Answer::Choice(letter)) =
            (p.relation.as_deref(), p.answer)
        else {
            return;
        };
        let Some(i) = RELATIONS.iter().position(|r| r.name == item.relation) else {
            return;
        };
        if self.counts.len() != RELATIONS.len() {
            self.counts = vec![[0; 3]; RELATIONS.len()];
        }
        let c = &mut self.counts[i];
        match item.subset {
            Subset::Basic => c[0] += 1,
            Subset::Advanced => c[1] += 1,
        }
        if item.indeterminate(letter) {
            c[2] += 1;
        }
    }

    /// Items counted.
    pub(crate) fn total(&self) -> u64 {
        self.counts.iter().map(|c| c[0] + c[1]).sum()
    }

    /// The table in Markdown: one row per relation, a subtotal per domain, the total.
    pub(crate) fn markdown(&self) -> String {
        let mut out = String::from(
            "| domain | relation | basic | advanced | total | cannot be inferred |\n\
             |---|---|---:|---:|---:|---:|\n",
        );
        let row = |out: &mut String, d: &str, name: &str, c: [u64; 3]| {
            let total = c[0] + c[1];
            let share = if total == 0 {
                "–".to_string()
            } else {
                format!("{} ({:.1} %)", c[2], 100.0 * c[2] as f64 / total as f64)
            };
            out.push_str(&format!(
                "| {d} | {name} | {} | {} | {total} | {share} |\n",
                c[0], c[1]
            ));
        };
        let mut all = [0u64; 3];
        for domain in [Domain::Line, Domain::Angle, Domain::Shape] {
            let word = format!("{domain:?}").to_lowercase();
            let mut sum = [0u64; 3];
            for (r, c) in RELATIONS
                .iter()
                .zip(self.counts.iter().chain(std::iter::repeat(&[0; 3])))
            {
                if r.domain == domain {
                    row(&mut out, &word, r.name, *c);
                    for k in 0..3 {
                        sum[k] += c[k];
                    }
                }
            }
            row(&mut out, &word, "**all**", sum);
            for k in 0..3 {
                all[k] += sum[k];
            }
        }
        row(&mut out, "**all**", "**all**", all);
        out
    }
}
