//! Which bases each variant value is made for (issue 43): counted per kind of base
//! (GeomVerse problems, settled relation items, "Cannot be inferred" ones) the way
//! a run counts it, printed by the run, recorded in `done.json`, summed by
//! `merge`, and written in the README by a test (this one), not by hand.

use geomrender::generate::relations::{RelationOptions, generate_relations};
use geomrender::generate::{GenerateOptions, Problem, generate_range};
use geomrender::output::availability::{Availability, Bases};
use geomrender::pipeline::Job;
use geomrender::variants::{AXES, Plan};

/// Every axis with its default sweep.
fn every_axis() -> Plan {
    let spec: Vec<&str> = AXES.iter().map(|a| a.name()).collect();
    Plan::parse(&spec.join(";"), false).unwrap()
}

fn count(problems: &[Problem], plan: &Plan) -> Availability {
    let mut a = Availability::default();
    for p in problems {
        let e = Job::expand_problem(p, plan).unwrap();
        a.add(e.bases.unwrap(), &e.outcomes);
    }
    a
}

/// The problems the README's table counts: 300 GeomVerse problems at depths 1–3
/// (seed 77) and 300 relation items (seed 43).
fn readme_problems() -> Vec<Problem> {
    let geomverse = GenerateOptions {
        seed: 77,
        depth: 1..=3,
        ..GenerateOptions::default()
    };
    let relations = RelationOptions {
        seed: 43,
        ..Default::default()
    };
    let mut out: Vec<Problem> = (generate_range(&geomverse, 0, 300).into_iter())
        .map(|p| p.unwrap())
        .collect();
    out.extend(
        generate_relations(&relations, 0, 300)
            .into_iter()
            .map(|p| p.unwrap()),
    );
    out
}

const BEGIN: &str = "<!-- availability table: src/tests/availability.rs -->\n";
const END: &str = "<!-- end of availability table -->";

/// The README's table is what a run of every axis counts on its problems
/// (`GEOMRENDER_UPDATE_README=1` writes it); and the counts meet the issue's
/// bars: `unrelated=1` for at least 270 and `unrelated=2` for 240 of the 300
/// GeomVerse problems, and GeomRel's operations for at least 80 % of relation
/// items of either kind.
#[test]
fn the_readme_table_is_what_a_run_counts() {
    let a = count(&readme_problems(), &every_axis());
    crate::tests::support::readme_table(BEGIN, END, &a.markdown(), "availability");
    let made = |variant: &str, bases: Bases| {
        let r = (a.rows().into_iter())
            .find(|r| r.variant == variant && r.bases == bases)
            .unwrap_or_else(|| panic!("no row {variant} {bases:?}"));
        (r.counts.made, r.counts.bases)
    };
    let (one, of) = made("unrelated=1", Bases::Geomverse);
    assert!(one >= 270 && of == 300, "unrelated=1: {one} of {of}");
    assert!(made("unrelated=2", Bases::Geomverse).0 >= 240);
    for bases in [Bases::Relations, Bases::RelationsCannotBeInferred] {
        for v in ["unrelated=1", "unrelated=2", "relabel=1"] {
            let (m, of) = made(v, bases);
            assert!(m * 10 >= of * 8, "{v} {bases:?}: {m} of {of}");
        }
    }
}
