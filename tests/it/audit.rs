//! `geomrender audit` (issue 25): a clean run of every axis passes it, and defects
//! planted in a run's files — a variant equal to its base, a given lost from the
//! text and the image, a variant redrawn at another scale, a change of the wrong
//! kind — are each found, with the row named.

use crate::support::cli::{bin, run};
use serde_json::Value;
use std::path::{Path, PathBuf};

const EVERY_AXIS: &str = "opacity;linewidth;fontsize;annotation;info;resolution;palette;\
                          relabel;rotation;jpeg;phrasing;backward;aux;unrelated;scale";

fn rows(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// `count` problems of `seed` (into `tmp/p.jsonl`) rendered on the CPU with
/// `args` into `tmp/run`; the problems, the run and what render said.
fn run_of(tmp: &Path, seed: u64, count: u32, args: &[&str]) -> (PathBuf, PathBuf, String) {
    let problems = tmp.join("p.jsonl");
    let g = run(bin()
        .args([
            "generate",
            "--seed",
            &seed.to_string(),
            "--count",
            &count.to_string(),
        ])
        .arg("--out")
        .arg(&problems));
    assert!(g.status.success(), "{}", String::from_utf8_lossy(&g.stderr));
    let dir = tmp.join("run");
    let r = run(bin()
        .arg("render")
        .arg(&problems)
        .arg("--out")
        .arg(&dir)
        .args(["--backend", "cpu", "--quiet"])
        .args(args));
    let stderr = String::from_utf8_lossy(&r.stderr).to_string();
    assert!(r.status.success(), "{stderr}");
    (problems, dir, stderr)
}

fn audit(dir: &Path) -> (std::process::Output, Vec<Value>) {
    let out = run(bin().arg("audit").arg(dir));
    let rows = rows(&dir.join("audit.jsonl"));
    (out, rows)
}

#[test]
fn a_clean_run_of_every_axis_passes_and_planted_defects_are_found() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, dir, stderr) = run_of(
        tmp.path(),
        11,
        24,
        &["--format", "png,svg", "--variants", EVERY_AXIS],
    );
    assert!(
        stderr.contains("variants skipped as identical to their base: info=image"),
        "{stderr}"
    );

    // No variant equal to its base is emitted; each is listed in skipped.jsonl.
    let manifest = rows(&dir.join("manifest.jsonl"));
    let skipped = rows(&dir.join("skipped.jsonl"));
    let identical: Vec<&Value> = skipped
        .iter()
        .filter(|r| r["reason"] == "identical")
        .collect();
    assert!(identical.len() >= 24, "{}", identical.len()); // info=image, at least
    for s in &identical {
        assert!(manifest.iter().all(|r| r["id"] != s["id"]), "{s}");
    }

    // Rows as their published schema says.
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(crate::support::repo().join("schemas/skipped.schema.json"))
            .unwrap(),
    )
    .unwrap();
    let v = jsonschema::validator_for(&schema).unwrap();
    for r in &skipped {
        assert!(v.is_valid(r), "{r}");
    }

    // score reports the values not drawn, per reason, from skipped.jsonl.
    let predictions = tmp.path().join("model.jsonl");
    let lines: String = manifest
        .iter()
        .map(|r| format!("{{\"id\":{},\"prediction\":\"1\"}}\n", r["id"]))
        .collect();
    std::fs::write(&predictions, lines).unwrap();
    let report_dir = tmp.path().join("report");
    let s =
        crate::support::cli::run_score(&dir.join("manifest.jsonl"), &[&predictions], &report_dir);
    assert!(s.status.success(), "{}", String::from_utf8_lossy(&s.stderr));
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(report_dir.join("report.json")).unwrap())
            .unwrap();
    let info_image = report["not_drawn"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["variant"] == "info=image" && n["reason"] == "identical")
        .unwrap();
    assert_eq!(
        info_image["count"],
        identical
            .iter()
            .filter(|r| r["variant"]["info"] == "image")
            .count()
    );
    let md = std::fs::read_to_string(report_dir.join("report.md")).unwrap();
    assert!(md.contains("## Variants not drawn"), "{md}");

    let (out, audited) = audit(&dir);
    let audit_schema: Value = serde_json::from_str(geomrender::audit::SCHEMA).unwrap();
    let v = jsonschema::validator_for(&audit_schema).unwrap();
    for r in &audited {
        assert!(v.is_valid(r), "{r}");
    }
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let variants = manifest
        .iter()
        .filter(|r| r["variant"] != serde_json::json!({}));
    assert_eq!(audited.len(), variants.count());
    for r in &audited {
        assert_eq!(r["undeclared"], serde_json::json!([]), "{r}");
        assert_eq!(r["identical"], false, "{r}");
        assert_eq!(r["source"], "svg");
    }
    // What each axis changes, as counted from the files.
    let changed = |label: &str, kind: &str| {
        audited
            .iter()
            .filter(|r| r["label"] == label && r["changes"].get(kind).is_some())
            .count()
    };
    let made = |label: &str| audited.iter().filter(|r| r["label"] == label).count();
    assert_eq!(changed("opacity=0.25", "fills"), 24);
    assert_eq!(changed("rotation=90", "paths_moved"), 24);
    assert_eq!(changed("jpeg=50", "encoding"), 24);
    assert_eq!(changed("phrasing=1", "question"), 24);
    assert!(made("unrelated=1") > 0);
    assert_eq!(changed("unrelated=1", "paths_added"), made("unrelated=1"));
    assert_eq!(changed("unrelated=1", "paths_moved"), 0);
    // Only the axes that scale the drawing change its scale.
    for r in &audited {
        let scaled = ["resolution", "scale"]
            .iter()
            .any(|a| r["variant"].get(a).is_some());
        assert_eq!(r["scale_ratio"].is_null(), !scaled, "{r}");
    }

    // Plant defects in a copy of the run's manifest and files.
    let find = |id: &str| manifest.iter().find(|r| r["id"] == id).unwrap().clone();
    let mut planted = manifest.clone();
    // 1. A variant equal to its base: the base's files under a variant's row.
    let base = find("s11-000000");
    let mut dup = base.clone();
    dup["id"] = "s11-000000__info-image".into();
    dup["variant"] = serde_json::json!({"info": "image"});
    planted.push(dup);
    // 2. An unrelated variant re-fitted smaller, as main at 3ba8814 drew it: its
    //    SVG's coordinates scaled by 0.8 about the centre.
    let unrelated = audited
        .iter()
        .find(|r| r["label"] == "unrelated=1")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    //    (Its row records the new file's SHA-256, as the run that drew it would:
    //    a file changed after the run is not audited.)
    let row = find(&unrelated);
    let svg_path = dir.join(row["svg"].as_str().unwrap());
    let svg = shrink_paths(&std::fs::read_to_string(&svg_path).unwrap(), 0.8);
    std::fs::write(&svg_path, &svg).unwrap();
    let shrunk_sha = crate::support::sha256_hex(svg.as_bytes());
    // 3. A fill change under a font-size row: opacity's SVG in fontsize's row.
    let opacity = find("s11-000001__opacity-0.25");
    for r in planted.iter_mut() {
        if r["id"] == "s11-000001__fontsize-24" {
            r["svg"] = opacity["svg"].clone();
            r["svg_sha256"] = opacity["svg_sha256"].clone();
        }
        if r["id"] == unrelated.as_str() {
            r["svg_sha256"] = shrunk_sha.clone().into();
        }
    }
    // 4. A given lost on its way into the text: an `info=text` row whose question
    //    states a value no longer (its image does not draw it either).
    let stated = (manifest.iter())
        .filter(|r| r["variant"]["info"] == "text")
        .find_map(|r| {
            let q = r["question"].as_str()?;
            let at = q.find(" is ")? + 4;
            let len = q[at..].find(|c: char| !c.is_ascii_digit() && c != '.')?;
            (len > 0).then(|| {
                (
                    r["id"].as_str().unwrap().to_string(),
                    q.to_string(),
                    at,
                    len,
                )
            })
        })
        .expect("an info=text row states a value");
    for r in planted.iter_mut() {
        if r["id"] == stated.0.as_str() {
            let (q, at, len) = (&stated.1, stated.2, stated.3);
            r["question"] = format!("{}unknown{}", &q[..at], &q[at + len..]).into();
        }
    }
    let text: String = planted.iter().map(|r| format!("{r}\n")).collect();
    std::fs::write(dir.join("manifest.jsonl"), text).unwrap();

    let (out, audited) = audit(&dir);
    assert_eq!(out.status.code(), Some(1));
    let flagged: Vec<(&str, &Value)> = audited
        .iter()
        .filter(|r| r["identical"] == true || r["undeclared"] != serde_json::json!([]))
        .map(|r| (r["id"].as_str().unwrap(), &r["undeclared"]))
        .collect();
    let undeclared = |id: &str| {
        audited.iter().find(|r| r["id"] == id).unwrap()["undeclared"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(flagged.len(), 4, "{flagged:?}");
    assert_eq!(undeclared(&stated.0), ["values_lost"], "{}", stated.1);
    let dup = audited
        .iter()
        .find(|r| r["id"] == "s11-000000__info-image")
        .unwrap();
    assert_eq!(dup["identical"], true);
    assert!(undeclared(&unrelated).contains(&"paths_moved".to_string()));
    assert!(undeclared("s11-000001__fontsize-24").contains(&"fills".to_string()));
    let md = std::fs::read_to_string(dir.join("audit.md")).unwrap();
    // Each flagged row links to its card on its base's page in the gallery.
    assert!(
        md.contains(
            "[`s11-000000__info-image`](gallery/bases/s11-000000.html#s11-000000__info-image): \
             identical to its base"
        ),
        "{md}"
    );
    let base_id = unrelated.split("__").next().unwrap();
    assert!(
        md.contains(&format!(
            "[`{unrelated}`](gallery/bases/{base_id}.html#{unrelated}): undeclared: paths_moved"
        )),
        "{md}"
    );
    // Every audit row names its manifest line.
    for r in &audited {
        let line = r["line"].as_u64().unwrap() as usize;
        assert_eq!(planted[line - 1]["id"], r["id"], "{r}");
    }
}

/// `svg` with every number of every path's `d` scaled by `k` about (256, 256).
fn shrink_paths(svg: &str, k: f64) -> String {
    let re = regex::Regex::new(r#"d="([^"]*)""#).unwrap();
    re.replace_all(svg, |c: &regex::Captures| {
        let d: Vec<String> = c[1]
            .split(' ')
            .map(|t| match t.parse::<f64>() {
                Ok(v) => format!("{:.2}", 256.0 + (v - 256.0) * k),
                Err(_) => t.to_string(),
            })
            .collect();
        format!("d=\"{}\"", d.join(" "))
    })
    .into_owned()
}

#[test]
fn without_svg_files_the_scenes_are_composed_again_from_the_problems() {
    let tmp = tempfile::tempdir().unwrap();
    let (problems, dir, _) = run_of(
        tmp.path(),
        5,
        6,
        &["--variants", "fontsize=24;unrelated=1;aux"],
    );
    // Without the problems: bytes only, and it says so per row.
    let out = run(bin().arg("audit").arg(&dir));
    assert!(out.status.success());
    assert!(
        rows(&dir.join("audit.jsonl"))
            .iter()
            .all(|r| r["source"] == "bytes")
    );
    let out = run(bin()
        .arg("audit")
        .arg(&dir)
        .arg("--problems")
        .arg(&problems));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let audited = rows(&dir.join("audit.jsonl"));
    assert!(audited.iter().all(|r| r["source"] == "recomposed"));
    assert!(
        audited
            .iter()
            .filter(|r| r["label"] == "fontsize=24")
            .all(|r| r["changes"]["label_size"].as_u64() > Some(0))
    );
    // A problem file that is not the run's: rows it lacks are reported, not guessed.
    let other = tmp.path().join("other.jsonl");
    std::fs::write(&other, "{\"id\": 1}\n").unwrap();
    let out = run(bin().arg("audit").arg(&dir).arg("--problems").arg(&other));
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("other.jsonl:1"), "{stderr}");
    assert!(stderr.contains("is not in the problems file"), "{stderr}");
}

#[test]
fn audit_of_a_directory_without_a_run_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let out = run(bin().arg("audit").arg(tmp.path()));
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no manifest.jsonl"), "{stderr}");
}

/// Hostile manifests: a row naming a file outside the run, a line that is not JSON,
/// a variant of an unknown axis. Each is a line the audit names and skips; the
/// others are audited; the exit status says so.
#[test]
fn bad_manifest_lines_are_named_and_the_rest_is_audited() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, dir, _) = run_of(
        tmp.path(),
        2,
        2,
        &["--format", "png,svg", "--variants", "opacity=0.25"],
    );
    std::fs::write(tmp.path().join("secret.svg"), "<svg/>").unwrap();
    let mut rows = rows(&dir.join("manifest.jsonl"));
    rows[1]["svg"] = "../secret.svg".into();
    let mut text: String = rows.iter().map(|r| format!("{r}\n")).collect();
    text.push_str("{not json\n");
    let mut unknown = rows[3].clone();
    unknown["id"] = "s2-000001__tilt-3".into();
    unknown["variant"] = serde_json::json!({"tilt": 3});
    text.push_str(&format!("{unknown}\n"));
    std::fs::write(dir.join("manifest.jsonl"), text).unwrap();
    let out = run(bin().arg("audit").arg(&dir));
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    for needle in [
        "manifest.jsonl:2 (s2-000000__opacity-0.25): its svg \"../secret.svg\"",
        "manifest.jsonl:5: ",
        "manifest.jsonl:6 (s2-000001__tilt-3): unknown axis \"tilt\"",
        "audited 1 variant rows of 2 bases: 0 flagged, 3 lines not audited",
    ] {
        assert!(stderr.contains(needle), "{needle:?} not in\n{stderr}");
    }
}

/// The audit passes every relabel row of 50 GeomVerse problems and of an
/// 80-item text and visual relation run: a renamed letter keeps its place and
/// leader (issue 44 found a few relabel rows flagged as labels removed and added;
/// relabel now declares label text only).
#[test]
fn relabel_rows_of_problems_and_relation_items_pass_the_audit() {
    let tmp = tempfile::tempdir().unwrap();
    let (_, dir, _) = run_of(
        tmp.path(),
        3,
        50,
        &["--format", "png,svg", "--variants", "relabel=1,2,3"],
    );
    let (out, audited) = audit(&dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(audited.len(), 150);
    for mode in ["text", "visual"] {
        let dir = tmp.path().join(format!("relations-{mode}"));
        let r = run(bin()
            .args([
                "sweep",
                "--task",
                "relations",
                "--mode",
                mode,
                "--count",
                "80",
            ])
            .args([
                "--seed",
                "5",
                "--backend",
                "cpu",
                "-q",
                "--format",
                "png,svg",
            ])
            .args(["--variants", "relabel=1,2,3", "--out"])
            .arg(&dir));
        assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
        let (out, audited) = audit(&dir);
        assert!(
            out.status.success(),
            "{mode}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(audited.len(), 240, "{mode}");
    }
}

/// Issue 44: the streaming audit passes (exit 0, nothing flagged) an every-axis
/// sweep of 50 problems whose rows carry their Problems (`--emit-problems`), made
/// into a gallery as well, and a relation sweep of every axis that applies to
/// relation items (`relabel` and `unrelated` among them). Seeds 0 and 1: before
/// letters were placed with one box size, s0-000016 and r1-000038 moved a
/// relabelled label, which the audit rightly flagged.
#[test]
fn every_axis_sweeps_of_problems_and_relation_items_pass_the_audit() {
    let tmp = tempfile::tempdir().unwrap();
    for (name, task, seed) in [
        ("geomverse", "geomverse", "0"),
        ("relations", "relations", "1"),
    ] {
        let dir = tmp.path().join(name);
        let r = run(bin()
            .args(["sweep", "--task", task, "--count", "50", "--seed", seed])
            .args(["--variants", "all", "--emit-problems", "--gallery"])
            .args(["--backend", "cpu", "-q", "--out"])
            .arg(&dir));
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(r.status.success(), "{name}: {err}");
        assert!(
            err.contains(": 0 flagged, 0 lines not audited"),
            "{name}: {err}"
        );
        let (out, audited) = audit(&dir);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let variants = (rows(&dir.join("manifest.jsonl")).iter())
            .filter(|r| r["variant"] != serde_json::json!({}))
            .count();
        assert_eq!(audited.len(), variants, "{name}");
        // Composed again from the Problems, but a text-only row's, which has no image.
        assert!(
            audited.iter().all(|r| r["source"] == "recomposed"
                || (r["source"] == "none" && r["label"] == "modality=text-only")),
            "{name}"
        );
        let labels: std::collections::BTreeSet<&str> = audited
            .iter()
            .map(|r| r["label"].as_str().unwrap())
            .collect();
        assert!(
            labels.iter().any(|l| l.starts_with("relabel=")),
            "{labels:?}"
        );
        assert!(
            labels.iter().any(|l| l.starts_with("unrelated=")),
            "{labels:?}"
        );
    }
}
