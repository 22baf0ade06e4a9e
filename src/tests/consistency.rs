//! No text contradicts its image (issue 15): over 500 problems × every axis's
//! default sweep × both annotations, and a grid of palette × annotation × relabel,
//! every colour name, vertex letter and "marked with" symbol in the question and
//! CoT is one the Scene draws (`support::drawn`, from the Scene's fills and text
//! items alone). Only `palette=grayscale` may refuse a problem (more shapes than
//! the grey ladder names), and it must say so. The blank control
//! (`modality=blank`) keeps its base's texts and draws nothing: it is checked to be
//! empty instead.

use crate::tests::support::drawn::{Checked, check};
use geomrender::generate::{GenerateOptions, generate_range};
use geomrender::pipeline::expand_line;
use geomrender::variants::{AXES, Plan};
use rayon::prelude::*;

#[test]
fn every_name_in_the_texts_is_drawn_under_every_axis() {
    let mut specs: Vec<(String, bool)> = AXES
        .iter()
        .filter(|a| a.name != "annotation")
        .map(|a| (format!("{};annotation=coordinate,individual", a.name), true))
        .collect();
    specs.push(("annotation".into(), false));
    specs.push((
        "palette;annotation=coordinate,individual;relabel".into(),
        true,
    ));
    let plans: Vec<(String, Plan)> = specs
        .into_iter()
        .map(|(s, grid)| {
            let plan = Plan::parse(&s, grid).unwrap();
            (s, plan)
        })
        .collect();
    let opts = GenerateOptions {
        seed: 21,
        depth: 1..=3,
        ..GenerateOptions::default()
    };
    let problems = generate_range(&opts, 0, 500);
    let totals = problems
        .par_iter()
        .map(|p| {
            let p = p.as_ref().unwrap();
            let line = serde_json::to_string(p).unwrap();
            let (mut n, mut jobs, mut refused) = (Checked::default(), 0usize, 0usize);
            for (spec, plan) in &plans {
                let expanded = match expand_line(&line, plan) {
                    Ok(j) => j,
                    Err(e) => {
                        let e = format!("{e:?}");
                        assert!(
                            spec.starts_with("palette") && e.contains("TooManyGrays"),
                            "{}: {spec}: {e}",
                            p.id
                        );
                        refused += 1;
                        continue;
                    }
                };
                for job in &expanded {
                    if job.scene.id.contains("__modality-blank") {
                        // The blank control keeps its base's texts on purpose, and
                        // draws nothing at all.
                        assert!(job.scene.items.is_empty(), "{}", job.scene.id);
                        jobs += 1;
                        continue;
                    }
                    let c = check(job).unwrap_or_else(|e| panic!("{spec}: {e}"));
                    n.colours += c.colours;
                    n.letters += c.letters;
                    n.marks += c.marks;
                    jobs += 1;
                }
            }
            (n, jobs, refused)
        })
        .reduce(
            || (Checked::default(), 0, 0),
            |(a, ja, ra), (b, jb, rb)| {
                let n = Checked {
                    colours: a.colours + b.colours,
                    letters: a.letters + b.letters,
                    marks: a.marks + b.marks,
                };
                (n, ja + jb, ra + rb)
            },
        );
    let (n, jobs, refused) = totals;
    eprintln!(
        "{jobs} jobs of 500 problems: {} colour names, {} vertex letters, {} marks checked; \
         {refused} palette plans refused",
        n.colours, n.letters, n.marks
    );
    assert!(jobs > 500 * 60, "{jobs} jobs");
    assert!(
        n.colours > 10_000 && n.letters > 10_000 && n.marks > 10_000,
        "{n:?}"
    );
}
