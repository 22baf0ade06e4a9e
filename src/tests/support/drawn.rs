//! What a job's texts may name, checked against what its Scene draws: colour names
//! against the Scene's fills, vertex letters and "marked with" symbols against its
//! text items. Independent of compose's bookkeeping: only the Scene and the texts.

use geomrender::generate::colours::{COLOURS, GRAYS, gray_name_of, over_white, rgb};
use geomrender::pipeline::Job;
use geomrender::scene::Item;
use std::collections::HashSet;

/// Counts of names checked in one job's question and CoT.
#[derive(Default, Debug, Clone, Copy)]
pub(crate) struct Checked {
    pub colours: usize,
    pub letters: usize,
    pub marks: usize,
}

/// The strings of a Scene's text items.
pub(crate) fn texts(scene: &geomrender::scene::Scene) -> HashSet<&str> {
    scene
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Text(t) => Some(t.text.as_str()),
            _ => None,
        })
        .collect()
}

/// Over problems `0..count` of `seed` (depths 1–3), every job of `spec` (a `--grid`
/// plan) has no overlapping and no off-canvas label; returns how many were checked.
pub(crate) fn assert_layout_guarantees(spec: &str, seed: u64, count: u64) -> usize {
    let plan = geomrender::variants::Plan::parse(spec, true).unwrap();
    let opts = geomrender::generate::GenerateOptions {
        seed,
        depth: 1..=3,
        ..Default::default()
    };
    let mut checked = 0;
    for p in geomrender::generate::generate_range(&opts, 0, count) {
        let line = serde_json::to_string(&p.unwrap()).unwrap();
        for job in geomrender::pipeline::expand_line(&line, &plan).unwrap() {
            let l = &job.problem.as_ref().unwrap().layout;
            assert_eq!(
                (l.overlaps, l.off_canvas),
                (0, 0),
                "{}: {l:?}",
                job.scene.id
            );
            checked += 1;
        }
    }
    checked
}

/// Every colour name, vertex letter and "marked with" symbol of `job`'s question
/// and CoT is drawn by its Scene; the first one that is not is the error.
pub(crate) fn check(job: &Job) -> Result<Checked, String> {
    let fields = job.problem.as_ref().ok_or("a Problem job has texts")?;
    let id = &job.scene.id;
    // A caption is a question too: what it names must be drawn as well.
    let caption = fields.caption.as_deref().unwrap_or_default();
    let text = format!(" {} {caption} {} ", fields.question, fields.cot);
    let why = |what: String| format!("{id}: {what}\n  question: {}", fields.question);
    let mut n = Checked::default();
    let drawn = texts(&job.scene);
    let fills: Vec<[u8; 3]> = job
        .scene
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Path(p) => p.fill.map(|c| [c.r, c.g, c.b]),
            _ => None,
        })
        .collect();
    // The greys a reader sees: each fill over the white ground at its opacity
    // (and its alpha), named by the nearest grey.
    let shown_greys: Vec<(&str, u8)> = job
        .scene
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Path(p) => p.fill.map(|c| {
                let alpha = f64::from(p.fill_opacity) * f64::from(c.a) / 255.0;
                let shade = over_white([c.r, c.g, c.b], alpha);
                (gray_name_of(shade[0]), shade[0])
            }),
            _ => None,
        })
        .collect();

    // Colours, longest names first ("light gray" is not also read as "gray").
    let grayscale = id.contains("palette-grayscale");
    let vivid = id.contains("palette-high-contrast");
    let mut words: Vec<&str> = COLOURS
        .iter()
        .copied()
        .chain(GRAYS.iter().map(|g| g.0))
        .collect();
    words.sort_by_key(|w| std::cmp::Reverse(w.len()));
    words.dedup();
    let mut rest = text.clone();
    for w in &words {
        let pattern = format!(" {w} ");
        while let Some(at) = rest.find(&pattern) {
            let want = if grayscale {
                if !shown_greys.iter().any(|(name, _)| name == w) {
                    return Err(why(format!(
                        "names {w:?}, but the fills show {shown_greys:?} (composited over white)"
                    )));
                }
                rest.replace_range(at..at + pattern.len(), " ");
                n.colours += 1;
                continue;
            } else {
                let (c, h) = rgb(w).ok_or_else(|| why(format!("{w:?} is no palette colour")))?;
                if vivid { h } else { c }
            };
            if !fills.contains(&want) {
                return Err(why(format!("names {w:?} ({want:?}) but fills {fills:?}")));
            }
            rest.replace_range(at..at + pattern.len(), " ");
            n.colours += 1;
        }
    }

    // Vertex names: runs of capitals (with a point's digit suffix, A1), each
    // letter a text item of the Scene.
    for token in text.split(|c: char| !c.is_alphanumeric()) {
        let caps = !token.is_empty()
            && token.starts_with(|c: char| c.is_ascii_uppercase())
            && token
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
        if !caps {
            continue;
        }
        let mut names: Vec<String> = Vec::new();
        for c in token.chars() {
            match (c.is_ascii_digit(), names.last_mut()) {
                (true, Some(last)) => last.push(c),
                _ => names.push(c.to_string()),
            }
        }
        for name in names {
            if !drawn.contains(name.as_str()) {
                return Err(why(format!(
                    "names vertex {name} of {token}, not drawn; drawn: {drawn:?}"
                )));
            }
            n.letters += 1;
        }
    }

    // "marked with X": X is drawn ("question mark" is the drawn "?").
    for (at, _) in text.match_indices("marked with ") {
        let after = &text[at + "marked with ".len()..];
        let symbol = if after.starts_with("question mark") {
            "?"
        } else if let Some(quoted) = after.strip_prefix('"') {
            // The CoT quotes it: `marked with "?"`.
            quoted.split('"').next().unwrap_or_default()
        } else {
            after.split([' ', ',', '.', '?']).next().unwrap_or_default()
        };
        if !drawn.contains(symbol) {
            return Err(why(format!(
                "refers to the mark {symbol:?}, not drawn; drawn: {drawn:?}"
            )));
        }
        n.marks += 1;
    }
    Ok(n)
}
