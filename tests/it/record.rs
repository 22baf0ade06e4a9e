//! Issue 45: the typed run record. A real sweep's `.geomrender.run.json` and a
//! shard's `done.json` validate against `geomrender schema run` and round-trip
//! through the library's types; the provenance is what the run was (font, input,
//! command line, shard); `merge` refuses shards whose recipes differ naming the
//! field, for every field of the recipe; a record of the old format is refused
//! naming its format.

use crate::support::cli::{bin, run, run_ok};
use geomrender::output::merge::ShardDone;
use geomrender::output::record::{RunRecord, SCHEMA};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn sweep(out: &Path) -> Command {
    let mut cmd = bin();
    cmd.env_remove("GEOMRENDER_SHARD")
        .env_remove("SLURM_ARRAY_TASK_ID")
        .env_remove("JOB_COMPLETION_INDEX")
        .args([
            "sweep",
            "--count",
            "2",
            "--seed",
            "7",
            "--backend",
            "cpu",
            "-q",
        ])
        .args(["--variants", "opacity=0.25", "--sink", "webdataset"])
        .arg("--out")
        .arg(out);
    cmd
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// A validator for the schema's `$defs/NAME` (`None`: the whole record).
fn validator(def: Option<&str>) -> jsonschema::Validator {
    let mut schema: Value = serde_json::from_str(SCHEMA).unwrap();
    if let Some(def) = def {
        schema = serde_json::json!({
            "$schema": schema["$schema"],
            "$defs": schema["$defs"],
            "$ref": format!("#/$defs/{def}"),
        });
    }
    jsonschema::validator_for(&schema).expect("a valid JSON Schema")
}

fn valid(validator: &jsonschema::Validator, value: &Value) {
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{value:#}");
}

#[test]
fn a_runs_record_validates_round_trips_and_says_where_it_came_from() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    run_ok(&mut sweep(&out));
    let path = out.join(".geomrender.run.json");
    let value = json(&path);
    valid(&validator(None), &value);
    let record = RunRecord::parse(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(serde_json::to_value(&record).unwrap(), value);
    // Words and numbers as written.
    let recipe = &value["recipe"];
    assert_eq!(recipe["formats"], serde_json::json!(["png"]));
    assert_eq!(recipe["tolerance"].to_string(), "0.05");
    assert_eq!(
        recipe["variants"],
        serde_json::json!({"axes": [{"axis": "opacity", "values": ["0.25"]}], "grid": false})
    );
    assert_eq!(record.fingerprint, record.recipe.fingerprint());
    // Provenance: the font, the problems file, the generator, the command line.
    let p = &record.provenance;
    assert_eq!(
        p.font_sha256,
        crate::support::sha256_hex(&crate::support::font_bytes())
    );
    let problems = std::fs::read(out.join("problems.jsonl")).unwrap();
    let input = p.input.as_ref().expect("the problems file");
    assert_eq!(input.sha256, crate::support::sha256_hex(&problems));
    assert_eq!(input.bytes, problems.len() as u64);
    assert_eq!(value["provenance"]["generator"]["task"], "geomverse");
    assert_eq!(value["provenance"]["generator"]["seed"], 7);
    assert_eq!(p.command_line[1..3], ["sweep", "--count"]);
    assert_eq!((p.backend.as_str(), p.shard), ("cpu", None));
    assert!(p.features.contains(&"gpu".to_string()), "{:?}", p.features);
    // Shown where users look: the run's gallery.
    run_ok(bin().arg("gallery").arg(&out));
    let index = std::fs::read_to_string(out.join("gallery/index.html")).unwrap();
    assert!(
        index.contains("<p id=\"run\">The run: geomrender "),
        "{index}"
    );

    // A shard's done.json: its recipe and provenance validate and round-trip too.
    run_ok(sweep(&out).args(["--shard", "1/2"]));
    let done_path = out.join("shards/1-of-2/done.json");
    let done = json(&done_path);
    assert_eq!(done["version"], 2);
    valid(&validator(Some("shard_recipe")), &done["recipe"]);
    valid(&validator(Some("provenance")), &done["provenance"]);
    assert_eq!(
        done["provenance"]["shard"],
        serde_json::json!({"index": 1, "count": 2})
    );
    assert_eq!(done["recipe"]["command"]["name"], "sweep");
    assert_eq!(done["recipe"]["backend_arg"], "cpu");
    assert_eq!(done["sinks"], serde_json::json!(["webdataset"]));
    let typed: ShardDone = serde_json::from_value(done.clone()).unwrap();
    assert_eq!(serde_json::to_value(&typed).unwrap(), done);
}

/// The leaves of a JSON object, as dotted paths.
fn leaves(value: &Value, path: &str, out: &mut Vec<String>) {
    match value.as_object() {
        Some(map) => {
            for (k, v) in map {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                leaves(v, &p, out);
            }
        }
        None => out.push(path.to_string()),
    }
}

/// Another value of the same type for the leaf `field` (`None`: the field has one
/// possible value).
fn mutated(field: &str, v: &Value) -> Option<Value> {
    let last = field.rsplit('.').next().unwrap();
    Some(match (last, v) {
        ("name" | "task", _) => return None,
        ("backend_arg", _) => "resvg".into(),
        ("info", _) => "text".into(),
        ("question", _) => "side".into(),
        ("formats", _) => serde_json::json!(["png", "svg"]),
        ("axes", _) => serde_json::json!([{"axis": "linewidth", "values": ["4"]}]),
        (_, Value::Bool(b)) => (!b).into(),
        (_, Value::Null) if last == "input_bytes" => 1.into(),
        (_, Value::Null) => "x".into(),
        (_, Value::String(s)) => format!("{s}-other").into(),
        (_, Value::Number(n)) if n.is_u64() => (n.as_u64().unwrap() + 1).into(),
        (_, Value::Number(n)) => (n.as_f64().unwrap() / 2.0 + 0.25).into(),
        _ => panic!("{field}: no mutation for {v}"),
    })
}

fn set(value: &mut Value, field: &str, to: Value) {
    let pointer = format!("/{}", field.replace('.', "/"));
    *value.pointer_mut(&pointer).unwrap() = to;
}

/// `merge` compares the shards' typed recipes: changing any one field of shard 1's
/// recipe is refused naming that field, and nothing is written.
#[test]
fn merge_names_each_recipe_field_that_differs() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    run_ok(sweep(&out).args(["--shard", "0/2"]));
    run_ok(sweep(&out).args(["--shard", "1/2"]));
    let done_path = out.join("shards/1-of-2/done.json");
    let original = std::fs::read(&done_path).unwrap();
    let done: Value = serde_json::from_slice(&original).unwrap();
    let mut fields = Vec::new();
    leaves(&done["recipe"], "recipe", &mut fields);
    let mut tried = 0;
    for field in &fields {
        let Some(to) = mutated(
            field,
            done.pointer(&format!("/{}", field.replace('.', "/")))
                .unwrap(),
        ) else {
            continue;
        };
        let mut changed = done.clone();
        set(&mut changed, field, to);
        std::fs::write(&done_path, serde_json::to_vec(&changed).unwrap()).unwrap();
        let o = run(bin().arg("merge").arg(&out));
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{field}: {stderr}");
        let named = field.strip_prefix("recipe.").unwrap();
        assert!(
            stderr.contains(&format!(
                "shard 1's recipe differs from shard 0's in `{named}`: "
            )),
            "{field}: {stderr}"
        );
        assert!(!out.join("manifest.jsonl").exists(), "{field}");
        tried += 1;
    }
    // command.{count, generator.*, sheet_problem}, backend_arg, run.*.
    assert!(tried >= 18, "{tried} fields of {fields:?}");

    // A done.json of the old format is refused naming it.
    let mut old = done.clone();
    let map = old.as_object_mut().unwrap();
    map.remove("version");
    map.insert("geomrender".into(), "0.0.9".into());
    std::fs::write(&done_path, serde_json::to_vec(&old).unwrap()).unwrap();
    let o = run(bin().arg("merge").arg(&out));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains(
            "run record format 1 (geomrender 0.0.9); this build reads format 2: re-run that shard"
        ),
        "{stderr}"
    );
    std::fs::write(&done_path, &original).unwrap();
    run_ok(bin().arg("merge").arg(&out));
}

/// A run record of the old format (no `version`, untyped options) is refused by
/// `--resume` and by a run over it, naming its format and version; `--force`
/// replaces it.
#[test]
fn an_old_run_record_is_refused_naming_its_format() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("run");
    run_ok(&mut sweep(&out));
    let old = r#"{"fingerprint":"00","options":{"geomrender":"0.0.9","outputs":"Raster","tolerance":0.05000000074505806}}"#;
    std::fs::write(out.join(".geomrender.run.json"), old).unwrap();
    let o = run(sweep(&out).arg("--resume"));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "run record format 1 (geomrender 0.0.9); this build reads format 2: rerun with --force"
        ),
        "{stderr}"
    );
    let o = run(&mut sweep(&out));
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("run record format 1 (geomrender 0.0.9)"),
        "{stderr}"
    );
    run_ok(sweep(&out).arg("--force"));
    assert_eq!(json(&out.join(".geomrender.run.json"))["version"], 2);
}
