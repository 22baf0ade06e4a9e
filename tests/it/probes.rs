//! Issue 48's run, checked from its files: `render --probes --sink coco` on 80
//! problems (with two style variants). Each probe is checked against what the
//! image itself holds: its image is its row's (same file, same sha256), every
//! point it gives is a vertex of a drawn path in the image's SVG, and its answer
//! follows from its own point coordinates, outside the "too close to tell"
//! margins. The COCO file has one entry per image row and every point box is
//! centred on a drawn vertex. `geomrender audit` flags nothing.

use crate::support::cli::{bin, manifest, run_ok};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

/// Every vertex (segment ends, arc ends) of the `<path>` elements of an SVG file.
fn svg_vertices(path: &Path) -> Vec<[f64; 2]> {
    let svg = std::fs::read_to_string(path).unwrap();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let mut out = Vec::new();
    for d in doc
        .descendants()
        .filter(|n| n.has_tag_name("path"))
        .filter_map(|n| n.attribute("d"))
    {
        let mut tokens = d.split_whitespace().peekable();
        while let Some(t) = tokens.next() {
            let args = match t {
                "M" | "L" => 2,
                "A" => 7,
                "C" => 6,
                "Q" => 4,
                _ => continue,
            };
            let v: Vec<f64> = (0..args)
                .filter_map(|_| tokens.next().and_then(|x| x.parse().ok()))
                .collect();
            if v.len() == args {
                out.push([v[args - 2], v[args - 1]]);
            }
        }
    }
    out
}

fn near(v: &[[f64; 2]], p: [f64; 2], tol: f64) -> bool {
    v.iter().any(|q| (q[0] - p[0]).hypot(q[1] - p[1]) <= tol)
}

/// A probe's point by name.
fn at(points: &BTreeMap<String, [f64; 2]>, name: &str) -> [f64; 2] {
    *points
        .get(name)
        .unwrap_or_else(|| panic!("no point {name}"))
}

/// The two ends of a segment named by two point names ("AB").
fn ends(points: &BTreeMap<String, [f64; 2]>, name: &str) -> ([f64; 2], [f64; 2]) {
    let (a, b) = name.split_at(name.char_indices().nth(1).unwrap().0);
    (at(points, a), at(points, b))
}

fn len(a: [f64; 2], b: [f64; 2]) -> f64 {
    (b[0] - a[0]).hypot(b[1] - a[1])
}

/// The angle between two segments' directions, 0–90°.
fn between(s: ([f64; 2], [f64; 2]), t: ([f64; 2], [f64; 2])) -> f64 {
    let d1 = [s.1[0] - s.0[0], s.1[1] - s.0[1]];
    let d2 = [t.1[0] - t.0[0], t.1[1] - t.0[1]];
    let cos = (d1[0] * d2[0] + d1[1] * d2[1]).abs() / (len(s.0, s.1) * len(t.0, t.1));
    cos.clamp(0.0, 1.0).acos().to_degrees()
}

/// The answer a yes/no probe gives as a bool.
fn yes(row: &Value) -> bool {
    row["answer_text"] == "Yes"
}

/// Re-derives the probe's answer from its own points: the answer text it must
/// have, or `None` for a kind these coordinates alone do not decide (arcs, counts).
fn rederived(row: &Value) -> Option<String> {
    let p: BTreeMap<String, [f64; 2]> =
        serde_json::from_value(row["probe"]["points"].clone()).unwrap();
    let el: Vec<String> = serde_json::from_value(row["probe"]["elements"].clone()).unwrap();
    let yes_no = |b: bool| Some(if b { "Yes" } else { "No" }.to_string());
    match row["probe"]["type"].as_str().unwrap() {
        "parallel" => {
            let deg = between(ends(&p, &el[0]), ends(&p, &el[1]));
            assert!(
                deg <= 1.0 || deg >= 10.0,
                "{row}: {deg}° is too close to tell"
            );
            yes_no(deg <= 1.0)
        }
        "perpendicular" => {
            let off = 90.0 - between(ends(&p, &el[0]), ends(&p, &el[1]));
            assert!(
                off <= 1.0 || off >= 10.0,
                "{row}: {off}° off is too close to tell"
            );
            yes_no(off <= 1.0)
        }
        "line_comparison" | "equal" => {
            let (a, b) = (ends(&p, &el[0]), ends(&p, &el[1]));
            let (la, lb) = (len(a.0, a.1), len(b.0, b.1));
            let (hi, lo) = (la.max(lb), la.min(lb));
            if row["probe"]["type"] == "equal" {
                // Equal to within rounding of the points (0.01 px), or 10 % apart.
                let same = hi - lo <= 0.005 * hi + 0.03;
                assert!(same || hi >= 1.1 * lo, "{row}: {la} and {lb}");
                yes_no(same)
            } else {
                assert!(hi >= 1.1 * lo, "{row}: {la} and {lb} are too close to tell");
                Some(if la > lb {
                    el[0].clone()
                } else {
                    el[1].clone()
                })
            }
        }
        "angle_classification" => {
            let name: Vec<char> = el[0].chars().collect();
            let (a, v, b) = (
                at(&p, &name[0].to_string()),
                at(&p, &name[1].to_string()),
                at(&p, &name[2].to_string()),
            );
            let u = [a[0] - v[0], a[1] - v[1]];
            let w = [b[0] - v[0], b[1] - v[1]];
            let deg = ((u[0] * w[0] + u[1] * w[1]) / (len(a, v) * len(b, v)))
                .clamp(-1.0, 1.0)
                .acos()
                .to_degrees();
            Some(
                if (deg - 90.0).abs() <= 0.6 {
                    "right"
                } else if deg <= 82.0 {
                    "acute"
                } else {
                    assert!(deg >= 98.0, "{row}: {deg}° is too close to 90° to tell");
                    "obtuse"
                }
                .to_string(),
            )
        }
        "point_on_line" => {
            let q = at(&p, &el[0]);
            let (a, b) = ends(&p, &el[1]);
            let l = len(a, b);
            let t = ((q[0] - a[0]) * (b[0] - a[0]) + (q[1] - a[1]) * (b[1] - a[1])) / (l * l);
            let c = [
                a[0] + t.clamp(0.0, 1.0) * (b[0] - a[0]),
                a[1] + t.clamp(0.0, 1.0) * (b[1] - a[1]),
            ];
            let off = len(q, c);
            assert!(off <= 1.05 || off >= 10.0, "{row}: {off} px");
            yes_no(off <= 1.05)
        }
        _ => None,
    }
}

#[test]
fn probes_ask_about_their_own_image_and_their_answers_rederive_from_its_points() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("problems.jsonl");
    run_ok(
        bin()
            .args([
                "generate", "--count", "80", "--seed", "48", "--depth", "2", "--out",
            ])
            .arg(&input),
    );
    let out = tmp.path().join("out");
    run_ok(
        bin()
            .arg("render")
            .arg(&input)
            .arg("--out")
            .arg(&out)
            .args([
                "--backend",
                "cpu",
                "--format",
                "png,svg",
                "--probes",
                "--sink",
                "coco",
                "--variants",
                "fontsize=10;rotation=90",
                "-q",
            ]),
    );
    let rows = manifest(&out);
    let by_id: HashMap<&str, &Value> = rows
        .iter()
        .map(|r| (r["id"].as_str().unwrap(), r))
        .collect();
    let probes: Vec<Value> = std::fs::read_to_string(out.join("probes.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    // Every image row has probes (all are in coordinate annotation), about six.
    let mut per_image: HashMap<&str, usize> = HashMap::new();
    for p in &probes {
        *per_image.entry(p["of"].as_str().unwrap()).or_default() += 1;
    }
    assert_eq!(per_image.len(), rows.len(), "every image is probed");
    assert!(
        per_image.values().all(|&n| (3..=6).contains(&n)),
        "{per_image:?}"
    );
    let kinds: BTreeSet<&str> = probes
        .iter()
        .map(|p| p["probe"]["type"].as_str().unwrap())
        .collect();
    assert!(kinds.len() >= 6, "probe types: {kinds:?}");

    let mut vertices: HashMap<String, Vec<[f64; 2]>> = HashMap::new();
    let (mut checked, mut yes_count, mut yes_no) = (0, 0, 0);
    let mut positions: BTreeMap<(usize, String), usize> = BTreeMap::new();
    for p in &probes {
        let of = by_id[p["of"].as_str().unwrap()];
        // Its own image: the row's file and sha256, and the base the row has.
        assert_eq!(p["image"], of["image"], "{p}");
        assert_eq!(p["sha256"], of["sha256"], "{p}");
        assert_eq!(p["base_id"], of["base_id"], "{p}");
        assert_eq!(p["variant"], of["variant"], "{p}");
        let bytes = std::fs::read(out.join(p["image"].as_str().unwrap())).unwrap();
        assert_eq!(geomrender_sha(&bytes), p["sha256"].as_str().unwrap());
        // Every point it names is a drawn vertex of that image.
        let svg = of["svg"].as_str().unwrap().to_string();
        let v = vertices
            .entry(svg.clone())
            .or_insert_with(|| svg_vertices(&out.join(&svg)));
        let points: BTreeMap<String, [f64; 2]> =
            serde_json::from_value(p["probe"]["points"].clone()).unwrap();
        for (name, q) in &points {
            assert!(
                near(v, *q, 1.5),
                "{}: point {name} {q:?} is no drawn vertex",
                p["id"]
            );
        }
        // The answer, from the points alone.
        if let Some(answer) = rederived(p) {
            assert_eq!(p["answer_text"].as_str().unwrap(), answer, "{p}");
            checked += 1;
        }
        // The letter names the answer text.
        if let Some(choices) = p["choices"].as_array() {
            let k = (p["answer"].as_str().unwrap().as_bytes()[0] - b'A') as usize;
            assert_eq!(choices[k], p["answer_text"], "{p}");
            let last = format!(
                "{}. {}",
                (b'A' + choices.len() as u8 - 1) as char,
                choices.last().unwrap().as_str().unwrap()
            );
            assert!(p["question"].as_str().unwrap().ends_with(&last), "{p}");
            if choices.len() == 2 && choices[0] == "Yes" {
                yes_no += 1;
                yes_count += usize::from(yes(p));
            } else if p["variant"] == serde_json::json!({}) {
                // Each base image's probes repeat on its variants: counted once.
                *positions
                    .entry((choices.len(), p["answer"].as_str().unwrap().to_string()))
                    .or_default() += 1;
            }
        } else {
            assert_eq!(p["probe"]["type"], "counting", "{p}");
            assert!(p["answer"].is_u64(), "{p}");
        }
    }
    assert!(
        checked * 10 >= probes.len() * 7,
        "{checked} of {} re-derived",
        probes.len()
    );
    // Yes/no balanced; the correct option spread over the positions.
    let share = yes_count as f64 / yes_no as f64;
    assert!(
        (share - 0.5).abs() <= 0.05,
        "{yes_count} of {yes_no} are Yes"
    );
    for n in [2usize, 3] {
        let total: usize = positions
            .iter()
            .filter(|((k, _), _)| *k == n)
            .map(|(_, c)| c)
            .sum();
        for ((k, letter), c) in positions.iter().filter(|((k, _), _)| *k == n) {
            let expected = total as f64 / *k as f64;
            assert!(
                (*c as f64 - expected).abs() <= 0.25 * expected + 4.0,
                "{n} options: {letter} is right {c} times of {total}"
            );
        }
    }

    // The same probes on a style variant of the same image: answers match the base's.
    for p in probes
        .iter()
        .filter(|p| p["variant"] == serde_json::json!({"fontsize": 10}))
    {
        let id = p["id"].as_str().unwrap().replace("__fontsize-10", "");
        let base = probes
            .iter()
            .find(|q| q["id"] == id.as_str())
            .expect("the base's probe");
        assert_eq!(
            (&p["question"], &p["answer"]),
            (&base["question"], &base["answer"])
        );
    }

    // COCO: an entry per image row, every point box centred on a drawn vertex.
    let coco: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("coco/annotations.json")).unwrap())
            .unwrap();
    let images = coco["images"].as_array().unwrap();
    assert_eq!(images.len(), rows.len());
    let mut file_of = HashMap::new();
    for (img, row) in images.iter().zip(&rows) {
        assert_eq!(img["file_name"], row["image"]);
        assert_eq!(img["sha256"], row["sha256"]);
        assert_eq!(img["geomrender_id"], row["id"]);
        file_of.insert(
            img["id"].as_u64().unwrap(),
            row["svg"].as_str().unwrap().to_string(),
        );
    }
    let categories: Vec<&str> = coco["categories"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(categories, ["point", "segment", "shape", "label"]);
    let mut seen = BTreeSet::new();
    for a in coco["annotations"].as_array().unwrap() {
        seen.insert(a["category_id"].as_u64().unwrap());
        assert!(a["name"].as_str().is_some_and(|n| !n.is_empty()), "{a}");
        if a["category_id"] == 1 {
            let b: [f64; 4] = serde_json::from_value(a["bbox"].clone()).unwrap();
            let c = [b[0] + b[2] / 2.0, b[1] + b[3] / 2.0];
            let svg = &file_of[&a["image_id"].as_u64().unwrap()];
            let v = vertices
                .entry(svg.clone())
                .or_insert_with(|| svg_vertices(&out.join(svg)));
            assert!(
                near(v, c, 1.5),
                "point box {a} is not centred on a drawn vertex"
            );
        }
    }
    assert_eq!(seen, BTreeSet::from([1, 2, 3, 4]));

    // The run passes its own audit.
    run_ok(bin().arg("audit").arg(&out));
}

fn geomrender_sha(bytes: &[u8]) -> String {
    use sha2::Digest;
    format!("{:x}", sha2::Sha256::digest(bytes))
}

/// Probes name only letters the image draws: an `individual` image (no vertex
/// letters) gets at most a count of its shapes. `--resume` and `export --to coco`, which cannot make them
/// again, are refused with what to do instead, and nothing is left half made.
#[test]
fn probes_need_letters_and_cannot_be_resumed_or_exported() {
    use crate::support::cli::run;
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("problems.jsonl");
    run_ok(
        bin()
            .args(["generate", "--count", "6", "--seed", "3", "--out"])
            .arg(&input),
    );
    let out = tmp.path().join("out");
    let render = |extra: &[&str]| {
        let mut c = bin();
        c.arg("render").arg(&input).arg("--out").arg(&out);
        c.args([
            "--backend",
            "cpu",
            "-q",
            "--probes",
            "--variants",
            "annotation",
        ]);
        c.args(extra);
        c
    };
    run_ok(&mut render(&["--sink", "coco"]));
    let probes = std::fs::read_to_string(out.join("probes.jsonl")).unwrap();
    let rows: Vec<Value> = probes
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let ofs: BTreeSet<&str> = rows.iter().map(|r| r["of"].as_str().unwrap()).collect();
    assert!(ofs.len() >= 6, "every coordinate image is probed: {ofs:?}");
    // On an image without letters only a count of shapes may be asked: it names nothing.
    for r in rows
        .iter()
        .filter(|r| r["of"].as_str().unwrap().contains("annotation-individual"))
    {
        assert_eq!(r["probe"]["type"], "counting", "{r}");
        assert_ne!(r["probe"]["elements"][0], "points", "{r}");
        assert_eq!(r["probe"]["points"], serde_json::json!({}), "{r}");
    }

    let resumed = run(&mut render(&["--resume"]));
    assert_eq!(resumed.status.code(), Some(2), "{resumed:?}");
    let err = String::from_utf8_lossy(&resumed.stderr);
    assert!(err.contains("--resume cannot keep the probes"), "{err}");
    // The finished run is untouched.
    assert_eq!(
        std::fs::read_to_string(out.join("probes.jsonl")).unwrap(),
        probes
    );

    let exported = run(bin().arg("export").arg(&out).args(["--to", "coco"]));
    assert_ne!(exported.status.code(), Some(0));
    let err = String::from_utf8_lossy(&exported.stderr);
    assert!(err.contains("render again with --sink coco"), "{err}");
    assert!(out.join("coco/annotations.json").is_file());
}

/// What a reader of a probe's question alone sees of its two named elements: the
/// letters they share, the nearest letters of each, whether each is a named
/// shape's letter. A yes/no probe's "Yes" is paired with a "No" of the same
/// signature, and names are written alphabetically, so none of this tells it.
fn blind_features(p: &Value) -> Vec<String> {
    let t = p["probe"]["type"].as_str().unwrap();
    let el: Vec<&str> = (p["probe"]["elements"].as_array().unwrap().iter())
        .map(|e| e.as_str().unwrap())
        .collect();
    let letters = |s: &str| {
        s.chars()
            .filter(char::is_ascii_uppercase)
            .collect::<Vec<char>>()
    };
    let (a, b) = (letters(el[0]), letters(el.get(1).copied().unwrap_or("")));
    let shared = a.iter().filter(|c| b.contains(c)).count();
    let gap = (a.iter())
        .flat_map(|x| b.iter().map(move |y| (*x as i32 - *y as i32).abs()))
        .min()
        .unwrap_or(-1);
    let at = |c: &char| b.iter().position(|y| y == c).map_or(-1, |k| k as i32);
    vec![
        format!("{t}"),
        format!("{t}:shared={shared}"),
        format!("{t}:gap={gap}"),
        format!("{t}:at={}", a.first().map_or(-1, at)),
        format!("{t}:lens={}/{}", a.len(), b.len()),
    ]
}

/// A naive Bayes reader of those features, trained on half the bases and tested on
/// the other half, gets yes/no probes right about half the time.
#[test]
fn a_blind_reader_of_the_question_cannot_tell_the_answer() {
    let tmp = tempfile::tempdir().unwrap();
    let input = tmp.path().join("problems.jsonl");
    run_ok(
        bin()
            .args(["generate", "--count", "1500", "--seed", "7", "--out"])
            .arg(&input),
    );
    let out = tmp.path().join("out");
    run_ok(
        bin()
            .arg("render")
            .arg(&input)
            .arg("--out")
            .arg(&out)
            .args(["--backend", "cpu", "-q", "--probes"]),
    );
    let probes: Vec<Value> = std::fs::read_to_string(out.join("probes.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|p: &Value| p["choices"] == serde_json::json!(["Yes", "No"]))
        .collect();
    // Bases split by the parity of their number.
    let fold = |p: &Value| {
        p["base_id"]
            .as_str()
            .unwrap()
            .ends_with(['0', '2', '4', '6', '8'])
    };
    let mut by_kind: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut counts: HashMap<(String, bool), f64> = HashMap::new();
    let mut totals: HashMap<bool, f64> = HashMap::new();
    for p in probes.iter().filter(|p| fold(p)) {
        let y = p["answer"] == "A";
        *totals.entry(y).or_default() += 1.0;
        for f in blind_features(p) {
            *counts.entry((f, y)).or_default() += 1.0;
        }
    }
    for p in probes.iter().filter(|p| !fold(p)) {
        let score = |y: bool| {
            let n = totals.get(&y).copied().unwrap_or(0.0);
            (blind_features(p).iter())
                .map(|f| {
                    ((counts.get(&(f.clone(), y)).copied().unwrap_or(0.0) + 1.0) / (n + 2.0)).ln()
                })
                .sum::<f64>()
                + n.ln()
        };
        let guess = score(true) > score(false);
        let e = by_kind
            .entry(p["probe"]["type"].as_str().unwrap())
            .or_default();
        e.0 += usize::from(guess == (p["answer"] == "A"));
        e.1 += 1;
    }
    let mut fails = Vec::new();
    for (kind, (right, n)) in &by_kind {
        let acc = *right as f64 / *n as f64;
        // Chance is 0.5, and a matched pair with equal features is exactly half right.
        if *n < 30 || acc > 0.58 {
            fails.push(format!("{kind}: {right} of {n} ({acc:.3})"));
        }
    }
    assert!(
        fails.is_empty(),
        "a blind reader: {fails:?} (all: {by_kind:?})"
    );
}
