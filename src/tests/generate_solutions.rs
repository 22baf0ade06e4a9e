//! Every equation in thousands of generated solutions, parsed and re-evaluated with an
//! evaluator of the tests' own (`support::solutions`, independent of the generator's),
//! and the final answer checked against the last computed value.

use crate::tests::support::solutions::{assert_solution_re_evaluates, chains};
use geomrender::generate::{GenerateOptions, Info, generate_range};

#[test]
fn every_equation_of_2000_solutions_re_evaluates() {
    let mut checked_problems = 0;
    let mut equations = 0;
    for (k, opts) in [
        GenerateOptions {
            seed: 21,
            depth: 1..=3,
            ..Default::default()
        },
        GenerateOptions {
            seed: 22,
            depth: 1..=4,
            branch_prob: 0.6,
            variablized: 0.6,
            ..Default::default()
        },
        GenerateOptions {
            seed: 23,
            depth: 1..=3,
            distractors: true,
            info: Info::Text,
            variablized: 1.0,
            ..Default::default()
        },
        GenerateOptions {
            seed: 24,
            depth: 4..=6,
            branch_prob: 0.3,
            ..Default::default()
        },
    ]
    .iter()
    .enumerate()
    {
        let n = if k == 3 { 200 } else { 600 };
        for p in generate_range(opts, 0, n) {
            let p = p.unwrap();
            equations += assert_solution_re_evaluates(&p);
            checked_problems += 1;
        }
    }
    assert!(checked_problems >= 2000);
    assert!(equations >= 8000, "{equations} equations");
}

#[test]
fn the_checker_catches_a_wrong_equation() {
    assert_eq!(
        chains("so the area is 2 * (10 + 12) = 2 * 22 = 44.").len(),
        1
    );
    let c = chains("so 2 * (10 + 12) = 2 * 23 = 46.");
    let bad = c[0]
        .windows(2)
        .any(|w| (w[0].1 - w[1].1).abs() > 0.02 + 0.03 * w[1].1.abs());
    assert!(bad);
    // Symbolic left sides are skipped, their numeric right sides kept.
    let c = chains("So 2 * OtherSide = 62 - 10 - 15.7 = 36.3. so 9x + 135 = 180");
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].len(), 2);
}
