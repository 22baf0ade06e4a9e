//! Issue 16: the fills of one diagram can be told apart by name and by eye. Over
//! 5,000 generated diagrams (default options) every pair of fills, as rendered over
//! white at the scene's fill opacity, differs by at least CIEDE2000 ΔE 20, and no
//! diagram names two near-synonyms. The ΔE formula is the library's, checked against
//! Sharma, Wu & Dalal's reference pairs in its unit tests.

use geomrender::compose::{DOT_COLOR, compose};
use geomrender::generate::colours::{MIN_DELTA_E, SYNONYMS, ciede2000, lab, over_white};
use geomrender::generate::{Annotation, GenerateOptions, generate_range};
use geomrender::scene::Item;
use geomrender::style::Style;
use rayon::prelude::*;

/// The smallest ΔE over a diagram's fill pairs, and which pair it is.
type Closest = (f64, String);

/// The closest pair of each diagram with two or more shapes, and every diagram
/// naming two synonyms.
fn survey(opts: &GenerateOptions, n: u64) -> (Vec<Closest>, Vec<String>) {
    let problems: Vec<_> = generate_range(opts, 0, n)
        .into_iter()
        .map(|p| p.unwrap())
        .collect();
    let style = Style::default();
    let rows: Vec<(Option<Closest>, Option<String>)> = problems
        .par_iter()
        .map(|p| {
            let scene = compose(p, &style, Annotation::Individual).unwrap().scene;
            let fills: Vec<[f64; 3]> = scene
                .items
                .iter()
                .filter_map(|i| match i {
                    // The shapes' fills, not the point dots.
                    Item::Path(path) if path.fill != Some(DOT_COLOR) => path
                        .fill
                        .map(|c| lab(over_white([c.r, c.g, c.b], f64::from(path.fill_opacity)))),
                    _ => None,
                })
                .collect();
            let names: Vec<&str> = p.diagram.shapes.iter().map(|s| s.colour.as_str()).collect();
            assert_eq!(fills.len(), names.len(), "{}", p.id);
            let mut min: Option<Closest> = None;
            for i in 0..fills.len() {
                for j in i + 1..fills.len() {
                    let d = ciede2000(fills[i], fills[j]);
                    if min.as_ref().is_none_or(|m| d < m.0) {
                        min = Some((d, format!("{} {}/{}", p.id, names[i], names[j])));
                    }
                }
            }
            let synonyms = SYNONYMS
                .iter()
                .any(|(a, b)| names.contains(a) && names.contains(b))
                .then(|| format!("{}: {names:?}", p.id));
            (min, synonyms)
        })
        .collect();
    let mins = rows.iter().filter_map(|r| r.0.clone()).collect();
    let synonyms = rows.into_iter().filter_map(|r| r.1).collect();
    (mins, synonyms)
}

#[test]
fn fills_of_one_diagram_differ_by_name_and_by_eye() {
    let (mins, synonyms) = survey(&GenerateOptions::default(), 5_000);
    assert!(
        mins.len() > 2_000,
        "{} diagrams with two or more shapes",
        mins.len()
    );
    let lowest = mins.iter().min_by(|a, b| a.0.total_cmp(&b.0)).unwrap();
    eprintln!(
        "palette: {} diagrams with 2+ shapes, smallest ΔE00 {:.1} ({})",
        mins.len(),
        lowest.0,
        lowest.1
    );
    assert!(lowest.0 >= MIN_DELTA_E, "{lowest:?}");
    assert!(synonyms.is_empty(), "{synonyms:?}");
}

/// Deep diagrams (up to 12 shapes) still get distinct names; up to 8 shapes also keep
/// every pair at ΔE ≥ 20 and free of synonyms.
#[test]
fn deep_diagrams_keep_distinct_colours_up_to_eight_shapes() {
    let opts = GenerateOptions {
        depth: 4..=6,
        branch_prob: 0.6,
        ..GenerateOptions::default()
    };
    let problems: Vec<_> = generate_range(&opts, 0, 500)
        .into_iter()
        .map(|p| p.unwrap())
        .collect();
    let (mins, synonyms) = survey(&opts, 500);
    for p in &problems {
        let mut names: Vec<&str> = p.diagram.shapes.iter().map(|s| s.colour.as_str()).collect();
        let n = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), n.min(12), "{}: repeated colour names", p.id);
    }
    let small: Vec<&String> = problems
        .iter()
        .filter(|p| p.diagram.shapes.len() <= 8)
        .map(|p| &p.id)
        .collect();
    for (d, what) in &mins {
        let id = what.split(' ').next().unwrap().to_string();
        if small.contains(&&id) {
            assert!(*d >= MIN_DELTA_E, "{what}: ΔE {d:.1}");
        }
    }
    for s in &synonyms {
        let id = s.split(':').next().unwrap().to_string();
        assert!(!small.contains(&&id), "{s}");
    }
}

/// Issue 15 (no variant that contradicts its image) and issue 25 (grey names one
/// shade too dark): over 300 problems and every palette × annotation × opacity
/// combination of `--grid`, each colour named in the question or the CoT is one the
/// Scene shows: under `grayscale` the grey name nearest to the shade of one of its
/// fills composited over white at the fill's opacity, otherwise a colour name whose
/// palette colour is a fill. Checked from the Scene's fill items and the texts, not
/// from compose's bookkeeping.
#[test]
fn texts_name_only_colours_the_scene_shows() {
    use geomrender::pipeline::Job;
    use geomrender::variants::Plan;
    let plan = Plan::parse(
        "palette=color,grayscale,high-contrast;annotation=coordinate,individual;\
         opacity=0.1,0.25,0.5,0.75,1",
        true,
    )
    .unwrap();
    let opts = GenerateOptions {
        seed: 11,
        depth: 1..=3,
        ..GenerateOptions::default()
    };
    let problems = generate_range(&opts, 0, 300);
    let (mut checked, mut grey_rows, mut not_made) = (0, 0, 0);
    for p in problems {
        let p = p.unwrap();
        let line = serde_json::to_string(&p).unwrap();
        let expanded = Job::expand(&line, &plan).unwrap();
        assert!(
            expanded.failed.is_empty(),
            "{}: {:?}",
            p.id,
            expanded.failed
        );
        for s in &expanded.skipped {
            // Only grayscale at an opacity that shows too few greys is not made (and
            // a variant equal to its base, e.g. a lone teal shape's high contrast, skipped).
            match s.not_made() {
                Some((axis, _)) => {
                    assert_eq!(axis.name(), "palette", "{:?}", s.error);
                    not_made += 1;
                }
                None => assert_eq!(s.reason(), geomrender::pipeline::SkipReason::Identical),
            }
        }
        for job in expanded.jobs {
            grey_rows += usize::from(job.scene.id.contains("palette-grayscale"));
            checked += crate::tests::support::drawn::check(&job)
                .unwrap_or_else(|e| panic!("{e}"))
                .colours;
        }
    }
    eprintln!(
        "{checked} colour names checked in {grey_rows} grayscale rows; \
         {not_made} grayscale variants not made"
    );
    assert!(
        checked > 10_000 && grey_rows > 2_000,
        "{checked} {grey_rows}"
    );
}
