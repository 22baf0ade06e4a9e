//! Property tests (proptest): whatever a line holds, `expand_line` and the CPU backend
//! never panic. Every failure is an `Err` (a `JobError` that formats and serialises as
//! a line error, or a `CpuError`), and every job that expands passes
//! `geomrender::scene::validate`.
//!
//! Three properties share the cases:
//!
//! - `arbitrary_lines`: arbitrary JSON values (objects keyed mostly by Scene and
//!   Problem field names, extreme numbers, odd strings, nesting past serde's limit),
//!   half of them Scene-shaped objects with arbitrary item fields, written as lines,
//!   some cut short or replaced by arbitrary text.
//! - `mutated_scenes`: valid Scenes (synthetic diagrams, the bundled examples, composed
//!   problems) with 1–6 mutations at random places in their JSON: delete, replace by an
//!   arbitrary value, duplicate (up to 300 times), numbers to extremes (0, negative,
//!   ±1e308, 5e-324, 2⁶⁴−1) or scaled, strings made long, deep nesting, wrong types,
//!   swapped elements.
//! - `mutated_problems`: the same mutations on generated Problems (depths 1–6, with
//!   branching, distractors and variables).
//!
//! Each case runs under a plan drawn from a small set (base only, font size 96,
//! rotation, annotation, info, relabel, extreme line width, opacity 0, palette, JPEG);
//! most plans include `resolution=128`. Rendering is the slow part, so each case renders
//! the jobs whose canvas is at most 256² and one case in eight renders all of them.
//!
//! `GEOMRENDER_PROPTEST_CASES` is the total number of cases of the three properties
//! (default 12,000: 4,000 each; 14 s in the test profile on 2 cores). A
//! million-case run (about 30 minutes on 2 cores: 300,000 cases took 8 min 20 s; proptest's own fork/timeout features
//! are off, so a hang shows as a test that does not end):
//!
//! ```sh
//! GEOMRENDER_PROPTEST_CASES=1000000 cargo test --release --features gpu,parquet --lib tests::properties
//! ```
//!
//! A failure is shrunk by proptest and its seed saved under `proptest-regressions/`.

use crate::tests::support::cpu::cpu;
use crate::tests::support::repo;
use geomrender::compose::compose;
use geomrender::generate::Annotation;
use geomrender::generate::{GenerateOptions, generate_one};
use geomrender::pipeline::{LineError, expand_line};
use geomrender::style::Style;
use geomrender::variants::Plan;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};

/// Cases of all three properties together, unless `GEOMRENDER_PROPTEST_CASES` says.
const DEFAULT_TOTAL_CASES: u32 = 12_000;

/// The config of one property: its share of the total cases.
fn config() -> Config {
    let total = std::env::var("GEOMRENDER_PROPTEST_CASES")
        .ok()
        .map(|v| {
            v.trim()
                .parse::<u32>()
                .unwrap_or_else(|_| panic!("GEOMRENDER_PROPTEST_CASES={v:?} is not a count"))
        })
        .unwrap_or(DEFAULT_TOTAL_CASES);
    Config {
        // Shrinking a failure of a case that takes milliseconds: bounded, not forever.
        max_shrink_iters: 4096,
        source_file: Some(file!()),
        ..Config::with_cases(total.div_ceil(3).max(1))
    }
}

/// What the cases of one property did, printed at its end (`--nocapture` shows it).
#[derive(Default)]
struct Tally {
    cases: AtomicU64,
    ok_lines: AtomicU64,
    jobs: AtomicU64,
    rendered: AtomicU64,
    render_errors: AtomicU64,
    errors: Mutex<BTreeMap<&'static str, u64>>,
}

impl Tally {
    fn add(n: &AtomicU64, k: u64) {
        n.fetch_add(k, Ordering::Relaxed);
    }

    fn report(&self, name: &str, took: std::time::Duration) {
        let get = |n: &AtomicU64| n.load(Ordering::Relaxed);
        eprintln!(
            "{name}: {} cases in {took:.1?}: {} lines expanded to {} jobs ({} rendered, {} \
             render errors); line errors by kind {:?}",
            get(&self.cases),
            get(&self.ok_lines),
            get(&self.jobs),
            get(&self.rendered),
            get(&self.render_errors),
            self.errors.lock().unwrap()
        );
    }
}

/// Runs `test` on `strategy` for this property's share of the cases, then reports.
fn run<S: Strategy>(
    name: &str,
    strategy: S,
    test: impl Fn(S::Value, &Tally) -> Result<(), TestCaseError>,
) {
    let tally = Tally::default();
    let start = std::time::Instant::now();
    let mut runner = TestRunner::new(config());
    let result = runner.run(&strategy, |v| test(v, &tally));
    tally.report(name, start.elapsed());
    if let Err(e) = result {
        panic!("{name}: {e}");
    }
}

/// Plans the cases run under, by spec ("" = base image only).
const PLANS: [&str; 8] = [
    "",
    "resolution=128",
    "resolution=128;fontsize=96",
    "resolution=128;fontsize=4;rotation=90",
    "resolution=128;annotation;info=text",
    "resolution=128;relabel=2;info=image",
    "resolution=128;linewidth=32;opacity=0;palette=high-contrast",
    "resolution=128;jpeg=10;rotation=270",
];

fn plans() -> &'static [Plan] {
    static P: OnceLock<Vec<Plan>> = OnceLock::new();
    P.get_or_init(|| {
        PLANS
            .iter()
            .map(|s| match *s {
                "" => Plan::base_only(),
                s => Plan::parse(s, false).unwrap(),
            })
            .collect()
    })
}

/// The property itself: expand `line` under plan `plan`, check and render the jobs.
fn check_line(
    line: &str,
    plan: usize,
    render_all: bool,
    tally: &Tally,
) -> Result<(), TestCaseError> {
    Tally::add(&tally.cases, 1);
    match expand_line(line, &plans()[plan % PLANS.len()]) {
        Err(e) => {
            *tally
                .errors
                .lock()
                .unwrap()
                .entry(e.fault.kind())
                .or_default() += 1;
            // A line error: it formats and serialises like the CLI writes it.
            let le = LineError {
                file: "cases.jsonl".into(),
                line: 1,
                id: e.id,
                fault: e.fault,
            };
            let row = serde_json::to_value(&le).unwrap();
            prop_assert!(row["kind"].is_string() && row["message"].is_string());
            prop_assert!(!le.to_string().is_empty());
        }
        Ok(jobs) => {
            prop_assert!(!jobs.is_empty());
            Tally::add(&tally.ok_lines, 1);
            Tally::add(&tally.jobs, jobs.len() as u64);
            for job in &jobs {
                let s = &job.scene;
                if let Err(e) = geomrender::scene::validate(s) {
                    return Err(TestCaseError::fail(format!("job {:?}: {e}", s.id)));
                }
                let small = u64::from(s.width) * u64::from(s.height) <= 256 * 256;
                if small || render_all {
                    // Ok or a typed CpuError, never a panic.
                    Tally::add(&tally.rendered, 1);
                    match cpu().render(s) {
                        Ok(img) => prop_assert_eq!((img.width, img.height), (s.width, s.height)),
                        Err(_) => Tally::add(&tally.render_errors, 1),
                    }
                }
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------- arbitrary JSON

/// Keys a Scene or Problem has (with [`ITEM_KEYS`]), so that arbitrary objects often
/// reach deep checks.
const KEYS: [&str; 26] = [
    "id",
    "width",
    "height",
    "background",
    "items",
    "type",
    "diagram",
    "points",
    "shapes",
    "sides",
    "angles",
    "measures",
    "rays",
    "right_angles",
    "name",
    "seed",
    "params",
    "question",
    "cot",
    "answer",
    "steps",
    "outline",
    "segments",
    "vertices",
    "label",
    "coordinate",
];

/// Numbers at and past every boundary a field might have.
const EXTREMES: [f64; 22] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    4.0,
    63.0,
    64.0,
    128.0,
    129.0,
    8192.0,
    8193.0,
    1e6,
    -1e6,
    1e9,
    1e12,
    1e15,
    1e308,
    -1e308,
    f64::MAX,
    f64::MIN_POSITIVE,
    5e-324,
];

fn arb_number() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_map(Value::from), // NaN and ±∞ become null
        proptest::sample::select(&EXTREMES[..]).prop_map(Value::from),
        (-1000i64..1000).prop_map(Value::from),
    ]
}

fn arb_string() -> impl Strategy<Value = String> {
    prop_oneof![
        "\\PC{0,12}",
        "[A-Za-z0-9 ._#-]{0,16}",
        proptest::sample::select(vec![
            "",
            " ",
            "\u{feff}",
            "#ffffff",
            "#00000080",
            "red",
            "M 0 0 L 10 10 Z",
            "M 10 10 A 5 5 0 1 1 20 20",
            "M 0 0 C 1e308 1e308 -1e308 0 5 5",
            "path",
            "text",
            "middle",
            "central",
            "evenodd",
            "line",
            "arc",
            "triangle",
            "circle",
            "given",
            "edge",
            "α",
            "🎉",
            "\u{0}",
            "a\nb",
        ])
        .prop_map(str::to_string),
        (1usize..3000).prop_map(|n| "W".repeat(n)),
    ]
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        arb_number(),
        arb_string().prop_map(Value::from),
    ];
    let key = prop_oneof![
        3 => proptest::sample::select(KEYS.iter().chain(&ITEM_KEYS).copied().collect::<Vec<_>>())
            .prop_map(str::to_string),
        1 => "[a-z_]{0,8}",
    ];
    leaf.prop_recursive(5, 48, 8, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            proptest::collection::vec((key.clone(), inner), 0..8)
                .prop_map(|kv| Value::Object(kv.into_iter().collect::<Map<_, _>>())),
        ]
    })
}

/// Keys of Scene items.
const ITEM_KEYS: [&str; 17] = [
    "d",
    "fill",
    "fill_opacity",
    "fill_rule",
    "stroke",
    "stroke_width",
    "stroke_opacity",
    "dash",
    "line_join",
    "line_cap",
    "text",
    "x",
    "y",
    "size",
    "color",
    "anchor",
    "baseline",
];

/// An object shaped like a Scene (id, a small canvas, items of both types) whose item
/// fields are arbitrary, so that arbitrary values reach validation and rendering.
fn arb_scene_like() -> impl Strategy<Value = Value> {
    let field = (
        proptest::sample::select(&ITEM_KEYS[..]),
        prop_oneof![
            2 => arb_number(),
            2 => arb_string().prop_map(Value::from),
            1 => proptest::collection::vec(arb_number(), 0..6).prop_map(Value::Array),
            1 => arb_json(),
        ],
    );
    let item = (
        proptest::sample::select(vec!["path", "text", "circle"]),
        proptest::collection::vec(field, 0..7),
    )
        .prop_map(|(ty, fields)| {
            let mut m = Map::new();
            m.insert("type".into(), Value::from(ty));
            for (k, v) in fields {
                m.insert(k.into(), v);
            }
            Value::Object(m)
        });
    (
        "[a-z0-9_-]{1,12}",
        prop_oneof![4 => 1u64..200, 1 => any::<u64>()],
        prop_oneof![4 => 1u64..200, 1 => any::<u64>()],
        proptest::collection::vec(item, 0..6),
    )
        .prop_map(|(id, w, h, items)| {
            serde_json::json!({"id": id, "width": w, "height": h, "items": items})
        })
}

/// A line from a JSON value: as it is, cut short, or nested past serde's limit.
#[derive(Clone, Debug)]
enum Shape {
    Whole,
    Cut(usize),
    Nested(usize),
}

#[test]
fn arbitrary_lines() {
    let shape = prop_oneof![
        6 => Just(Shape::Whole),
        1 => any::<usize>().prop_map(Shape::Cut),
        1 => (100usize..300).prop_map(Shape::Nested),
    ];
    let strategy = (
        prop_oneof![arb_json(), arb_scene_like()],
        shape,
        "\\PC{0,40}",
        proptest::bool::weighted(0.1),
        0..PLANS.len(),
        proptest::bool::weighted(0.125),
    );
    run(
        "arbitrary_lines",
        strategy,
        |(v, shape, text, raw, plan, render_all), tally| {
            let line = if raw {
                text
            } else {
                let s = serde_json::to_string(&v).unwrap();
                match shape {
                    Shape::Whole => s,
                    Shape::Cut(n) => {
                        let mut k = n % (s.len() + 1);
                        while !s.is_char_boundary(k) {
                            k -= 1;
                        }
                        s[..k].to_string()
                    }
                    Shape::Nested(depth) => {
                        format!("{}{s}{}", "[".repeat(depth), "]".repeat(depth))
                    }
                }
            };
            check_line(&line, plan, render_all, tally)
        },
    );
}

// ---------------------------------------------------------------- mutations

/// One step of a path into a JSON value.
#[derive(Clone, Debug)]
enum Seg {
    Key(String),
    Index(usize),
}

/// Every node's path, in pre-order (the root first), with the node's JSON type.
fn paths(v: &Value) -> Vec<(Vec<Seg>, Kind)> {
    fn walk(v: &Value, here: &mut Vec<Seg>, out: &mut Vec<(Vec<Seg>, Kind)>) {
        let kind = match v {
            Value::Number(_) => Kind::Number,
            Value::String(_) => Kind::String,
            _ => Kind::Other,
        };
        out.push((here.clone(), kind));
        match v {
            Value::Array(a) => {
                for (i, x) in a.iter().enumerate() {
                    here.push(Seg::Index(i));
                    walk(x, here, out);
                    here.pop();
                }
            }
            Value::Object(m) => {
                for (k, x) in m {
                    here.push(Seg::Key(k.clone()));
                    walk(x, here, out);
                    here.pop();
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(v, &mut Vec::new(), &mut out);
    out
}

/// What a node is, for mutations that make most sense on one kind of node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Number,
    String,
    Other,
}

fn node_mut<'a>(v: &'a mut Value, path: &[Seg]) -> &'a mut Value {
    path.iter().fold(v, |v, s| match s {
        Seg::Key(k) => &mut v[k.as_str()],
        Seg::Index(i) => &mut v[*i],
    })
}

/// What a mutation does to the node it lands on.
#[derive(Clone, Debug)]
enum Op {
    Delete,
    Replace(Value),
    Duplicate(usize),
    Extreme(f64),
    Scale(f64),
    Long(usize),
    Nest(usize),
    WrongType,
    Swap(usize),
}

fn arb_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        2 => Just(Op::Delete),
        2 => arb_json().prop_map(Op::Replace),
        3 => prop_oneof![1usize..4, 100usize..300].prop_map(Op::Duplicate),
        6 => proptest::sample::select(&EXTREMES[..]).prop_map(Op::Extreme),
        4 => proptest::sample::select(vec![-1.0, 0.0, 1e-9, 3.0, 1e6, 1e300]).prop_map(Op::Scale),
        3 => prop_oneof![2usize..30, 60usize..61, 1000usize..70_000].prop_map(Op::Long),
        1 => prop_oneof![1usize..8, 120usize..140].prop_map(Op::Nest),
        2 => Just(Op::WrongType),
        2 => any::<usize>().prop_map(Op::Swap),
    ]
}

/// Applies `op` to the node `pick` selects (modulo the node count).
/// Numbers, strings and array elements are picked from their own kind (so that most
/// mutations keep the line parseable and reach compose and render); the other
/// mutations pick from all nodes.
fn mutate(v: &mut Value, pick: usize, op: &Op) {
    let all = paths(v);
    let fits = |p: &[Seg], k: Kind| match op {
        Op::Extreme(_) | Op::Scale(_) => k == Kind::Number,
        Op::Long(_) => k == Kind::String,
        Op::Duplicate(_) | Op::Swap(_) => matches!(p.last(), Some(Seg::Index(_))),
        _ => true,
    };
    let mut some: Vec<&Vec<Seg>> = all
        .iter()
        .filter(|(p, k)| fits(p, *k))
        .map(|(p, _)| p)
        .collect();
    if some.is_empty() {
        some = all.iter().map(|(p, _)| p).collect();
    }
    let path = some[pick % some.len()];
    let (last, parent_path) = match path.split_last() {
        Some((l, p)) => (Some(l.clone()), p),
        None => (None, &[][..]),
    };
    match op {
        Op::Delete => match (node_mut(v, parent_path), last) {
            (Value::Object(m), Some(Seg::Key(k))) => {
                m.shift_remove(&k);
            }
            (Value::Array(a), Some(Seg::Index(i))) => {
                a.remove(i);
            }
            (root, _) => *root = Value::Null,
        },
        Op::Duplicate(n) => match (node_mut(v, parent_path), last) {
            (Value::Object(m), Some(Seg::Key(k))) => {
                let x = m[&k].clone();
                m.insert(format!("{k}_{n}"), x);
            }
            (Value::Array(a), Some(Seg::Index(i))) => {
                let x = a[i].clone();
                for _ in 0..*n {
                    a.insert(i, x.clone());
                }
            }
            (root, _) => *root = Value::Array(vec![root.clone(); (*n).min(3)]),
        },
        Op::Swap(j) => {
            if let (Value::Array(a), Some(Seg::Index(i))) = (node_mut(v, parent_path), last) {
                let j = j % a.len();
                a.swap(i, j);
            }
        }
        op => {
            let node = node_mut(v, path);
            *node = match (op, &*node) {
                (Op::Replace(x), _) => x.clone(),
                (Op::Extreme(x), Value::Number(_) | Value::Null) => Value::from(*x),
                (Op::Extreme(x), Value::Array(a)) if !a.is_empty() => {
                    Value::Array(a.iter().map(|_| Value::from(*x)).collect())
                }
                (Op::Extreme(x), _) => Value::from(*x),
                (Op::Scale(k), Value::Number(n)) => Value::from(n.as_f64().unwrap_or(0.0) * k),
                (Op::Scale(_), other) => other.clone(),
                (Op::Long(n), Value::String(s)) if !s.is_empty() => {
                    Value::from(s.chars().cycle().take(*n).collect::<String>())
                }
                (Op::Long(n), _) => Value::from("W".repeat(*n)),
                (Op::Nest(depth), x) => {
                    let mut x = x.clone();
                    for d in 0..*depth {
                        x = match d % 2 {
                            0 => Value::Array(vec![x]),
                            _ => serde_json::json!({ "items": x }),
                        };
                    }
                    x
                }
                (Op::WrongType, x) => wrong_type(x),
                (Op::Delete | Op::Duplicate(_) | Op::Swap(_), _) => unreachable!(),
            };
        }
    }
}

/// The same content in another JSON type.
fn wrong_type(x: &Value) -> Value {
    match x {
        Value::Null => Value::from(0),
        Value::Bool(b) => Value::from(b.to_string()),
        Value::Number(n) => Value::from(n.to_string()),
        Value::String(s) => s
            .parse::<f64>()
            .map(Value::from)
            .unwrap_or(Value::Bool(s.is_empty())),
        Value::Array(a) => Value::Object(
            a.iter()
                .enumerate()
                .map(|(i, x)| (i.to_string(), x.clone()))
                .collect(),
        ),
        Value::Object(m) => Value::Array(m.values().cloned().collect()),
    }
}

/// Valid Scenes as JSON: synthetic diagrams, the bundled examples and composed problems
/// on small canvases.
fn scene_pool() -> &'static [Value] {
    static P: OnceLock<Vec<Value>> = OnceLock::new();
    P.get_or_init(|| {
        let mut out: Vec<Value> = (0..12)
            .map(|i| {
                let s =
                    geomrender::scene::synthetic::diagram_scene(i, [64, 128, 200][i as usize % 3]);
                serde_json::to_value(s).unwrap()
            })
            .collect();
        let examples =
            std::fs::read_to_string(repo().join("assets/examples/scenes.jsonl")).unwrap();
        out.extend(
            examples
                .lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap()),
        );
        for (i, p) in problem_structs().iter().take(8).enumerate() {
            let style = Style {
                canvas: [128, 256][i % 2],
                font_size: 8.0,
                ..Style::default()
            };
            let a = Annotation::ALL[i % 2];
            let c = compose(p, &style, a).unwrap();
            out.push(serde_json::to_value(c.scene).unwrap());
        }
        for v in &out {
            let line = v.to_string();
            geomrender::scene::parse_scene(&line).expect("pool scenes are valid");
        }
        out
    })
}

fn problem_structs() -> &'static [geomrender::generate::Problem] {
    static P: OnceLock<Vec<geomrender::generate::Problem>> = OnceLock::new();
    P.get_or_init(|| {
        let mut out = Vec::new();
        for (k, depth) in [(0u64, 1..=3), (1, 4..=6), (2, 6..=6)].into_iter() {
            let opts = GenerateOptions {
                seed: 11 + k,
                depth,
                branch_prob: [0.0, 0.5, 1.0][k as usize],
                distractors: k > 0,
                variablized: [0.0, 0.5, 1.0][k as usize],
                ..GenerateOptions::default()
            };
            out.extend((0..6).map(|i| generate_one(&opts, i).unwrap()));
        }
        out
    })
}

fn problem_pool() -> &'static [Value] {
    static P: OnceLock<Vec<Value>> = OnceLock::new();
    P.get_or_init(|| {
        problem_structs()
            .iter()
            .map(|p| serde_json::to_value(p).unwrap())
            .collect()
    })
}

fn mutated(pool: &[Value], base: usize, muts: &[(usize, Op)]) -> String {
    let mut v = pool[base % pool.len()].clone();
    for (pick, op) in muts {
        mutate(&mut v, *pick, op);
    }
    serde_json::to_string(&v).unwrap()
}

/// A base from `pool`, the mutations, the plan and whether to render every job.
fn mutation_cases() -> impl Strategy<Value = (usize, Vec<(usize, Op)>, usize, bool)> {
    (
        any::<usize>(),
        prop_oneof![3 => 1usize..2, 2 => 2usize..4, 1 => 4usize..7]
            .prop_flat_map(|n| proptest::collection::vec((any::<usize>(), arb_op()), n)),
        0..PLANS.len(),
        proptest::bool::weighted(0.125),
    )
}

#[test]
fn mutated_scenes() {
    run(
        "mutated_scenes",
        mutation_cases(),
        |(base, muts, plan, render_all), tally| {
            check_line(&mutated(scene_pool(), base, &muts), plan, render_all, tally)
        },
    );
}

#[test]
fn mutated_problems() {
    run(
        "mutated_problems",
        mutation_cases(),
        |(base, muts, plan, render_all), tally| {
            check_line(
                &mutated(problem_pool(), base, &muts),
                plan,
                render_all,
                tally,
            )
        },
    );
}

#[test]
fn the_pools_expand_and_render_unmutated() {
    // The property's starting points are themselves good lines.
    for v in scene_pool().iter().chain(problem_pool()) {
        let jobs = expand_line(&v.to_string(), &plans()[1]).unwrap();
        for j in &jobs {
            cpu().render(&j.scene).unwrap();
        }
    }
}
