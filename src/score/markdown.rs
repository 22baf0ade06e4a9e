//! `report.md`: the report as tables a person reads.

use super::MissingPolicy;
use super::base_set::BaseSetKind;
use super::blind::BlindBaseline;
use super::relation_report::PairedGroupRow;
use super::report::{GroupRow, Report};
use super::tally::{TallyRow, UNKNOWN_GROUP};
use std::collections::BTreeMap;
use std::fmt::Write;

/// How many rejected lines and missing ids the markdown lists (report.json has all).
const LIST_LIMIT: usize = 50;

/// Renders the report as markdown.
pub(super) fn render(r: &Report) -> String {
    let mut s = String::new();
    header(&mut s, r);
    base_set(&mut s, r);
    models(&mut s, r);
    axes(&mut s, r);
    blind(&mut s, r);
    consistency(&mut s, r);
    modality(&mut s, r);
    perception(&mut s, r);
    not_drawn(&mut s, r);
    relations(&mut s, r);
    for (what, rows) in [
        ("depth", &r.breakdowns.depth),
        ("question type", &r.breakdowns.question_type),
    ] {
        // A breakdown with one group repeats the rows above: one line says so, and
        // nothing in a relation run (its items' depth and question type are fixed).
        match one_group(rows.iter().map(|g| g.group.as_str())) {
            Some(_) if !r.breakdowns.relation.is_empty() => {}
            Some(UNKNOWN_GROUP) => {}
            Some(group) => {
                let _ = writeln!(
                    s,
                    "Every item has {what} {}: no breakdown by it.\n",
                    cell(group)
                );
            }
            None => breakdown(&mut s, what, rows),
        }
    }
    problems(&mut s, r);
    s
}

/// The one group all `groups` are, or `None` when there are several (or none).
fn one_group<'a>(mut groups: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let first = groups.next()?;
    groups.all(|g| g == first).then_some(first)
}

/// What "correct" means, worded for the kinds of items the run holds: a numeric
/// answer (relaxed accuracy), an option (multiple choice), or both.
fn correctness(r: &Report) -> String {
    let t = &r.tolerance;
    let numeric = r.counts.items - r.counts.multiple_choice;
    let relaxed = format!(
        "a prediction p is correct when |p − label| ≤ {} · |label| ({}); a zero label \
         needs |p| ≤ {}",
        t.relative,
        pct(t.relative),
        t.absolute_at_zero
    );
    let choice = "a prediction is correct when the one option it names — by its letter, \
                  its text, or a number within the tolerance of a numeric option — is the \
                  item's answer";
    let said = match (numeric, r.counts.multiple_choice) {
        (_, 0) => format!("Relaxed accuracy: {relaxed}."),
        (0, _) => format!("Multiple choice: {choice}."),
        _ => {
            format!("Numeric items, relaxed accuracy: {relaxed}. Multiple-choice items: {choice}.")
        }
    };
    format!(
        "{said} A prediction from which no answer is read — a refusal, an answer naming \
         several options, an output too long to read, or nothing readable — is \
         *unparsed*: counted in n, never correct, and apart from *wrong*."
    )
}

fn header(s: &mut String, r: &Report) {
    let _ = writeln!(s, "# geomrender score report\n");
    let _ = writeln!(
        s,
        "{} Intervals are {} % Wilson score intervals; \
         flips compare each variant with the base image of the same problem, tested \
         with the exact McNemar test. Every value of an axis is paired with the same \
         base images, so their comparisons share the base's sampling noise and are not \
         independent. Each table gives both p-values: \"McNemar p\" for the one \
         comparison, uncorrected, and \"Holm p\" adjusted (Holm–Bonferroni) across \
         the values of that axis for that model, which keeps the chance of any false \
         positive on the axis at or below the level chosen; the stars of flips.png \
         mark Holm p < 0.05. Missing predictions are {}.\n",
        correctness(r),
        r.confidence * 100.0,
        match r.missing_policy {
            MissingPolicy::Exclude => "left out of n (and counted below)",
            MissingPolicy::Wrong => "counted as wrong",
        }
    );
    let _ = writeln!(
        s,
        "## Inputs\n\n| file | sha256 | lines | accepted |\n|---|---|---:|---:|"
    );
    let m = &r.inputs.manifest;
    let files = std::iter::once(m).chain(&r.inputs.predictions);
    for f in files {
        let _ = writeln!(
            s,
            "| {} | `{}` | {} | {} |",
            cell(&f.path),
            &f.sha256[..f.sha256.len().min(16)],
            f.lines,
            f.accepted
        );
    }
    if let Some(run) = &r.run {
        let _ = writeln!(
            s,
            "\nThe run that drew the images: {} (its record, `.geomrender.run.json`, \
             holds the input's and the font's SHA-256 and the command line).",
            cell(&run.line())
        );
    }
    let c = &r.counts;
    let _ = writeln!(
        s,
        "\n{} items ({} base images, {} variants without a base image); {} predictions; \
         {} missing, {} unknown ids, {} duplicate ids, {} malformed lines.\n",
        c.items,
        c.base_items,
        c.variants_without_base,
        c.predictions,
        c.missing,
        c.unknown_ids,
        c.duplicate_ids,
        c.malformed_lines
    );
}

/// Which base problems the rows count.
fn base_set(s: &mut String, r: &Report) {
    let b = &r.base_set;
    let conditions = format!(
        "{} condition{} (axis values, the base image included)",
        b.conditions,
        if b.conditions == 1 { "" } else { "s" }
    );
    let needs = match r.missing_policy {
        MissingPolicy::Exclude => " and every model's prediction on each",
        MissingPolicy::Wrong => "",
    };
    match b.set {
        BaseSetKind::All => {
            let _ = write!(
                s,
                "**Base set: all** — {} base problems; each row counts the problems that \
                 have its variant and a scored prediction (column `bases`), so rows of a \
                 variant not made for every problem describe a subset.",
                b.bases
            );
            if b.matched < b.bases {
                let _ = write!(
                    s,
                    " {} of them have an image of every one of the {conditions}{needs}: \
                     `--matched` counts only those.",
                    b.matched
                );
            }
            s.push_str("\n\n");
        }
        BaseSetKind::Matched => {
            let _ = writeln!(
                s,
                "**Base set: matched** — the {} base problems with an image of every one of \
                 the {conditions}{needs}; {} left out ({} lacking a variant, {} lacking a \
                 prediction). Every row, comparison, consistency figure, breakdown and \
                 baseline below counts only their images.\n",
                b.bases, b.left_out, b.lacking_variant, b.lacking_prediction
            );
        }
    }
}

fn models(s: &mut String, r: &Report) {
    let _ = writeln!(
        s,
        "## Models\n\n| model | predictions | missing | unparsed | extraction rules |\n|---|---:|---:|---:|---|"
    );
    for m in &r.models {
        let rules: Vec<String> = m.rules.iter().map(|(k, v)| format!("{k} {v}")).collect();
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} |",
            cell(&m.model),
            m.predictions,
            m.missing,
            m.unparsed,
            rules.join(", ")
        );
    }
    s.push('\n');
}

fn axes(s: &mut String, r: &Report) {
    let _ = writeln!(
        s,
        "## Accuracy per axis\n\n![accuracy per axis](accuracy.png)\n"
    );
    let _ = writeln!(s, "![flip rates](flips.png)\n");
    if !r.baselines.methods.is_empty() {
        let _ = writeln!(
            s,
            "Rows `blind:…` are the blind baselines: the question text alone, no image \
             (see Blind baselines).\n"
        );
    }
    let mut by_axis: BTreeMap<&str, Vec<&TallyRow>> = BTreeMap::new();
    for row in &r.rows {
        by_axis.entry(row.axis.as_str()).or_default().push(row);
    }
    let mut blind_by_axis: BTreeMap<&str, Vec<&TallyRow>> = BTreeMap::new();
    for row in r.baselines.methods.iter().flat_map(|m| &m.rows) {
        blind_by_axis
            .entry(row.axis.as_str())
            .or_default()
            .push(row);
    }
    let order = std::iter::once("base").chain(r.axes.iter().map(|a| a.axis.as_str()));
    for axis in order {
        let Some(rows) = by_axis.get(axis) else {
            continue;
        };
        let _ = writeln!(
            s,
            "### {}\n\n| model | value | n | bases | accuracy | 95 % CI | wrong | unparsed | missing | paired | Δ vs base | Δ 95 % CI (bootstrap) | → wrong | → right | McNemar p | Holm p |\n|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|",
            cell(axis)
        );
        let mut rows = rows.clone();
        rows.sort_by_key(|r| r.model.as_str());
        rows.extend(blind_by_axis.get(axis).into_iter().flatten());
        for row in rows {
            let base = row.axis == "base";
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                cell(&row.model),
                cell(&row.value),
                row.n,
                row.bases,
                opt_pct(row.accuracy),
                ci(row.ci_low, row.ci_high),
                row.wrong,
                row.unparsed,
                row.missing,
                if base {
                    "–".into()
                } else {
                    row.paired_n.to_string()
                },
                if base { "–".into() } else { pp(row.delta) },
                if base {
                    "–".into()
                } else {
                    match (row.delta_ci_low, row.delta_ci_high) {
                        (Some(l), Some(h)) => format!("{} … {}", pp(Some(l)), pp(Some(h))),
                        _ => "–".into(),
                    }
                },
                if base {
                    "–".into()
                } else {
                    row.flips_to_wrong.to_string()
                },
                if base {
                    "–".into()
                } else {
                    row.flips_to_right.to_string()
                },
                if base {
                    "–".into()
                } else {
                    pvalue(row.mcnemar_p)
                },
                if base {
                    "–".into()
                } else {
                    pvalue(row.mcnemar_p_holm)
                },
            );
        }
        s.push('\n');
    }
}

/// The blind baselines: how they answer, the folds, and their pooled accuracy.
fn blind(s: &mut String, r: &Report) {
    let b = &r.baselines;
    let folds: Vec<String> = (b.folds.iter())
        .map(|f| format!("{} problems / {} images", f.bases, f.items))
        .collect();
    let _ = writeln!(
        s,
        "## Blind baselines\n\nWhat a model could get without the image, from the manifest \
         alone: each item is answered from its question text and the answers of other \
         problems, by 2-fold cross-fitting split by base problem (the fold is a hash of \
         `base_id`, so every image of a problem is in one fold: {}); each fold is \
         predicted by what was learnt on the other. A question's template is its text \
         with point names (runs of capitals, as in `∠ABC`) as `@`, numbers as `#`, and \
         without its option list.\n\n\
         - `{}`: the training fold's most frequent answer of the item's template (multiple \
         choice: the most frequent answer text that the item offers, as its letter); a \
         template the fold lacks gets the fold's overall majority.\n\
         - `{}`: logistic regression on the template's words and pairs of adjacent words, \
         choosing among the item's options ({} full-batch gradient steps; deterministic). \
         Multiple-choice items only: a numeric GeomVerse answer is not a choice among \
         classes, so GeomVerse items have the template majority only.{}\n",
        folds.join(" and "),
        BlindBaseline::TemplateMajority.model(),
        BlindBaseline::TextClassifier.model(),
        super::blind::CLASSIFIER_ITERATIONS,
        if b.methods
            .iter()
            .any(|m| m.name == BlindBaseline::TextClassifier)
        {
            ""
        } else {
            " This manifest has no multiple-choice item, so it is not reported."
        }
    );
    let _ = writeln!(
        s,
        "Their rows stand beside the models' in the tables above and below. Pooled over \
         every image counted (a problem's images mostly share its question, so these \
         intervals, which treat the images as independent, are narrower than the number \
         of problems allows):\n\n\
         | baseline | group | n | bases | accuracy | 95 % CI |\n|---|---|---:|---:|---:|---|"
    );
    for m in &b.methods {
        for g in &m.summary {
            let group = match g.dimension {
                "all" => "all".to_string(),
                d => format!("{d} = {}", g.group),
            };
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} |",
                cell(m.model),
                cell(&group),
                g.n,
                g.bases,
                opt_pct(g.accuracy),
                ci(g.ci_low, g.ci_high)
            );
        }
    }
    s.push('\n');
}

/// Per model: the blank control's gap and the vision gain (absent without
/// `modality` rows they need).
fn modality(s: &mut String, r: &Report) {
    if r.modality.is_empty() {
        return;
    }
    let ci = |l: Option<f64>, h: Option<f64>| match (l, h) {
        (Some(l), Some(h)) => format!("{} … {}", pp(Some(l)), pp(Some(h))),
        _ => "–".into(),
    };
    let _ = writeln!(
        s,
        "## Does the score need the diagram?\n\nBlank gap: accuracy on the base images \
         minus on blank canvases of the same size with the same texts (`modality=blank`). \
         Vision gain: accuracy on `modality=text-dominant` (every fact in the text, and the \
         image) minus on `text-only` (the same text, no image), MathVerse's comparison. \
         Each over the problems scored on both, with a paired bootstrap 95 % interval and \
         the exact McNemar test of the problems right on one side only. Near zero: the \
         model answers from the words.\n\n\
         | model | problems | blank gap | 95 % CI | right only with the diagram | right only blank | McNemar p \
         | problems | vision gain | 95 % CI | right only with the image | right only text-only | McNemar p |\n\
         |---|---:|---:|---|---:|---:|---:|---:|---:|---|---:|---:|---:|"
    );
    for m in &r.modality {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(&m.model),
            m.blank_pairs,
            pp(m.blank_gap),
            ci(m.blank_gap_ci_low, m.blank_gap_ci_high),
            m.right_only_with_diagram,
            m.right_only_blank,
            pvalue(m.blank_mcnemar_p),
            m.vision_pairs,
            pp(m.vision_gain),
            ci(m.vision_gain_ci_low, m.vision_gain_ci_high),
            m.right_only_with_image,
            m.right_only_text_only,
            pvalue(m.vision_mcnemar_p),
        );
    }
    s.push('\n');
}

/// The probes per type, and the reasoning verdict against them on the same image.
fn perception(s: &mut String, r: &Report) {
    if r.perception.is_empty() {
        return;
    }
    let _ = writeln!(
        s,
        "## Does the model see it? Perception probes\n\nProbes ask about the very image \
         the question is asked with (`probes.jsonl`, `render --probes`), each decided by the \
         image's own geometry; per probe type over all images, then per variant.\n\n\
         | model | images | probe type | n | accuracy | 95 % CI |\n\
         |---|---|---|---:|---:|---|"
    );
    for m in &r.perception {
        for p in &m.probes {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {} | {} |",
                cell(&m.model),
                match p.axis.as_str() {
                    "all" => "all".to_string(),
                    _ => cell(&axis_value(&p.axis, &p.value)),
                },
                cell(&p.group),
                p.n,
                opt_pct(p.accuracy),
                ci(p.ci_low, p.ci_high)
            );
        }
    }
    let _ = writeln!(
        s,
        "\nEach image whose reasoning item and every probe were answered: reasoning right \
         or wrong, against every probe right (seen) or some probe wrong (misread), with \
         Fisher's exact test of the two being independent. A model that reasons wrong where \
         it misreads has a low p and a lower accuracy when misread.\n\n\
         | model | images | right, seen | right, misread | wrong, seen | wrong, misread \
         | accuracy when seen | accuracy when misread | Fisher p |\n\
         |---|---:|---:|---:|---:|---:|---:|---:|---:|"
    );
    for m in &r.perception {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(&m.model),
            m.images,
            m.right_seen,
            m.right_misread,
            m.wrong_seen,
            m.wrong_misread,
            opt_pct(m.accuracy_when_seen),
            opt_pct(m.accuracy_when_misread),
            pvalue(m.fisher_p)
        );
    }
    s.push('\n');
}

fn consistency(s: &mut String, r: &Report) {
    let _ = writeln!(
        s,
        "## Consistency per axis\n\nBase problems answered the same way — right on the base \
         image and on every variant of the axis, or wrong on all of them — among those whose \
         images on the axis were all scored. The same way means the same verdict, not the \
         same number: a backward question changes the answer itself, and readings within \
         the tolerance are one answer. Worst case is DynaMath's worst-case accuracy (right \
         on the base and every variant of the axis; MMBench's CircularEval on `choices`) \
         and robustness its reasoning robustness (worst case over the mean accuracy of \
         those rows), each with a 95 % bootstrap interval over base problems.\n\n\
         | model | axis | problems | consistent | 95 % CI | all right | all wrong | worst case | 95 % CI | robustness | 95 % CI |\n\
         |---|---|---:|---:|---|---:|---:|---:|---|---:|---|"
    );
    // The blind baselines' rows after the models' (`blind:…`).
    let blind = r.baselines.methods.iter().flat_map(|m| &m.consistency);
    for c in r.consistency.iter().chain(blind) {
        let ratio = |v: Option<f64>| v.map_or("–".into(), |v| format!("{v:.3}"));
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {}–{} |",
            cell(&c.model),
            cell(&c.axis),
            c.n,
            match c.share {
                Some(share) => format!("{} ({})", pct(share), c.consistent),
                None => "–".into(),
            },
            ci(c.ci_low, c.ci_high),
            c.all_right,
            c.consistent - c.all_right,
            opt_pct(c.worst_case),
            ci(c.worst_case_low, c.worst_case_high),
            ratio(c.robustness),
            ratio(c.robustness_low),
            ratio(c.robustness_high),
        );
    }
    s.push('\n');
}

/// (model, axis, value) of a breakdown table row.
type RowKey<'a> = (&'a str, &'a str, &'a str);

/// The run's variants not drawn, per value and reason (`skipped.jsonl`).
fn not_drawn(s: &mut String, r: &Report) {
    if r.not_drawn.is_empty() {
        return;
    }
    s.push_str(
        "\n## Variants not drawn\n\nVariants the run did not draw, so their conditions have \
         fewer images than the base: `not_made` where the problem has no such variant, \
         `identical` where it would equal its base (from `skipped.jsonl`).\n\n\
         | variant | reason | count |\n|---|---|---:|\n",
    );
    for n in &r.not_drawn {
        s.push_str(&format!(
            "| `{}` | {} | {} |\n",
            n.variant, n.reason, n.count
        ));
    }
}

fn breakdown(s: &mut String, what: &str, rows: &[GroupRow]) {
    let mut groups: Vec<&str> = Vec::new();
    for g in rows {
        if !groups.contains(&g.group.as_str()) {
            groups.push(&g.group);
        }
    }
    let _ = writeln!(s, "## Accuracy by {what}\n");
    if rows.is_empty() {
        let _ = writeln!(s, "No scored items.\n");
        return;
    }
    let _ = write!(s, "| model | axis = value |");
    for g in &groups {
        let _ = write!(s, " {} |", cell(g));
    }
    let _ = write!(s, "\n|---|---|");
    s.push_str(&"---:|".repeat(groups.len()));
    s.push('\n');
    let mut table: Vec<(RowKey<'_>, BTreeMap<&str, &GroupRow>)> = Vec::new();
    for g in rows {
        let key = (g.model.as_str(), g.axis.as_str(), g.value.as_str());
        match table.last_mut() {
            Some((k, cells)) if *k == key => {
                cells.insert(&g.group, g);
            }
            _ => table.push((key, BTreeMap::from([(g.group.as_str(), g)]))),
        }
    }
    for ((model, axis, value), cells) in table {
        let label = if axis == "base" {
            "base".to_string()
        } else {
            format!("{axis} = {value}")
        };
        let _ = write!(s, "| {} | {} |", cell(model), cell(&label));
        for g in &groups {
            let text = cells.get(g).map_or("–".to_string(), |c| {
                format!("{} ({})", opt_pct(c.accuracy), c.n)
            });
            let _ = write!(s, " {text} |");
        }
        s.push('\n');
    }
    s.push('\n');
}

/// GeomRel relation items: the four breakdowns and the "Cannot be inferred" class;
/// nothing without relation items.
fn relations(s: &mut String, r: &Report) {
    let b = &r.breakdowns;
    if b.relation.is_empty() && r.cannot_be_inferred.is_empty() {
        return;
    }
    // Paired columns only where some variant is compared with its base.
    let paired = !r.axes.is_empty();
    let _ = writeln!(
        s,
        "## Relation identification\n\nGeomRel's multiple-choice relation items only. An \
         answer is read from its option's letter or its text; accuracy has a {} % Wilson \
         interval{}.\n",
        r.confidence * 100.0,
        if paired {
            ", and a variant is compared with the base image of the same items as above \
             (Holm across the axis's values within each group)"
        } else {
            ""
        }
    );
    let blind = &r.baselines.methods;
    for (what, rows, of_blind) in [
        (
            "relation",
            &b.relation,
            blind.iter().map(|m| &m.relation).collect::<Vec<_>>(),
        ),
        (
            "domain",
            &b.domain,
            blind.iter().map(|m| &m.domain).collect(),
        ),
        (
            "subset",
            &b.subset,
            blind.iter().map(|m| &m.subset).collect(),
        ),
        ("mode", &b.mode, blind.iter().map(|m| &m.mode).collect()),
    ] {
        match one_group(rows.iter().map(|g| g.group.as_str())) {
            Some(group) => {
                let _ = writeln!(
                    s,
                    "Every item has {what} {}: no breakdown by it.\n",
                    cell(group)
                );
            }
            None => {
                let rows: Vec<&PairedGroupRow> =
                    rows.iter().chain(of_blind.into_iter().flatten()).collect();
                relation_table(s, what, &rows, paired);
            }
        }
    }
    let _ = writeln!(
        s,
        "### \"Cannot be inferred\"\n\nPrecision: of the items answered \"Cannot be \
         inferred\", the share whose answer it is; recall: of the items whose answer it \
         is, the share answered so; F1 = 2·TP / (answered + gold). An output naming no \
         option, or another one, is an answer other than \"Cannot be inferred\"; a \
         missing prediction is {}. – where a denominator is 0.\n\n\
         | model | axis = value | n | bases | gold | answered | TP | precision | 95 % CI | recall | 95 % CI | F1 |\n\
         |---|---|---:|---:|---:|---:|---:|---:|---|---:|---|---:|",
        match r.missing_policy {
            MissingPolicy::Exclude => "left out",
            MissingPolicy::Wrong => "such an answer",
        }
    );
    let blind = r
        .baselines
        .methods
        .iter()
        .flat_map(|m| &m.cannot_be_inferred);
    for c in r.cannot_be_inferred.iter().chain(blind) {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(&c.model),
            cell(&axis_value(&c.axis, &c.value)),
            c.n,
            c.bases,
            c.gold,
            c.predicted,
            c.true_positive,
            opt_pct(c.precision),
            ci(c.precision_ci_low, c.precision_ci_high),
            opt_pct(c.recall),
            ci(c.recall_ci_low, c.recall_ci_high),
            opt_pct(c.f1)
        );
    }
    s.push('\n');
}

/// One relation breakdown as a long table: a line per (model, group, axis value).
fn relation_table(s: &mut String, what: &str, rows: &[&PairedGroupRow], paired: bool) {
    let _ = write!(
        s,
        "### Accuracy by {what}\n\n| model | {what} | axis = value | n | bases | accuracy | 95 % CI | wrong | unparsed | missing |"
    );
    let _ = write!(
        s,
        "{}",
        if paired {
            " paired | Δ vs base | Δ 95 % CI (bootstrap) | → wrong | → right | McNemar p | Holm p |\n|---|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|\n"
        } else {
            "\n|---|---|---|---:|---:|---:|---|---:|---:|---:|\n"
        }
    );
    for g in rows {
        let row = &g.row;
        let _ = write!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            cell(&row.model),
            cell(&g.group),
            cell(&axis_value(&row.axis, &row.value)),
            row.n,
            row.bases,
            opt_pct(row.accuracy),
            ci(row.ci_low, row.ci_high),
            row.wrong,
            row.unparsed,
            row.missing
        );
        if paired {
            let _ = write!(s, "{}", paired_cells(row));
        }
        s.push('\n');
    }
    s.push('\n');
}

/// `axis = value`, or `base`.
fn axis_value(axis: &str, value: &str) -> String {
    if axis == "base" {
        "base".to_string()
    } else {
        format!("{axis} = {value}")
    }
}

/// The paired cells of a row (`–` for the base row), each followed by ` |`.
fn paired_cells(row: &TallyRow) -> String {
    if row.axis == "base" {
        return " – | – | – | – | – | – | – |".into();
    }
    let delta_ci = match (row.delta_ci_low, row.delta_ci_high) {
        (Some(l), Some(h)) => format!("{} … {}", pp(Some(l)), pp(Some(h))),
        _ => "–".into(),
    };
    format!(
        " {} | {} | {} | {} | {} | {} | {} |",
        row.paired_n,
        pp(row.delta),
        delta_ci,
        row.flips_to_wrong,
        row.flips_to_right,
        pvalue(row.mcnemar_p),
        pvalue(row.mcnemar_p_holm)
    )
}

fn problems(s: &mut String, r: &Report) {
    let _ = writeln!(s, "## Rejected lines ({})\n", r.errors.len());
    for e in r.errors.iter().take(LIST_LIMIT) {
        let _ = writeln!(s, "- `{}`", e.to_string().replace('`', "'"));
    }
    if r.errors.len() > LIST_LIMIT {
        let _ = writeln!(s, "- … {} more in report.json", r.errors.len() - LIST_LIMIT);
    }
    let _ = writeln!(s, "\n## Missing predictions\n");
    for m in &r.models {
        let shown: Vec<&str> = m
            .missing_ids
            .iter()
            .take(LIST_LIMIT)
            .map(String::as_str)
            .collect();
        let more = m.missing_ids.len().saturating_sub(LIST_LIMIT);
        let _ = writeln!(
            s,
            "- {}: {} missing{}{}",
            cell(&m.model),
            m.missing,
            if shown.is_empty() {
                String::new()
            } else {
                format!(": {}", shown.join(", "))
            },
            if more > 0 {
                format!(" … and {more} more (report.json)")
            } else {
                String::new()
            }
        );
    }
}

/// A table cell (or heading) of text from the inputs (model names, variant keys):
/// HTML escaped, since Markdown passes raw HTML through, and on one line.
fn cell(s: &str) -> String {
    crate::html::escape(s)
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
}

fn pct(v: f64) -> String {
    format!("{:.1} %", v * 100.0)
}

fn opt_pct(v: Option<f64>) -> String {
    v.map_or("–".into(), pct)
}

fn ci(low: Option<f64>, high: Option<f64>) -> String {
    match (low, high) {
        (Some(l), Some(h)) => format!("{:.1}–{:.1} %", l * 100.0, h * 100.0),
        _ => "–".into(),
    }
}

fn pp(delta: Option<f64>) -> String {
    delta.map_or("–".into(), |d| format!("{:+.1} pp", d * 100.0))
}

fn pvalue(p: f64) -> String {
    if p >= 0.001 {
        format!("{p:.3}")
    } else {
        format!("{p:.1e}")
    }
}
