//! Options that do not apply to the command's task, mode, backend or outputs:
//! one table ([`RULES`]), checked on the parsed command line before any work. An
//! option given where it changes nothing is an error naming both (exit 2, as
//! clap's usage errors), or, for the GPU's tuning options under a CPU backend
//! (which never change an image, and which scripts pass to every backend), a
//! warning; nothing is ignored in silence.

use crate::generate::relations::RelationOptions;
use clap::ArgMatches;
use clap::parser::ValueSource;

/// Options (clap ids: the fields' names) that do not apply when `when` holds.
struct Rule {
    /// The subcommands whose command line is checked.
    commands: &'static [&'static str],
    /// The options that do not apply, checked when given on the command line.
    options: &'static [&'static str],
    /// Whether they do not apply: the setting that rules them out as the command
    /// line says it (`--task relations`), or `None`.
    when: fn(&ArgMatches) -> Option<String>,
    /// What they are for instead (ends the message).
    because: &'static str,
    /// Said on stderr while the run goes on; otherwise the command is refused
    /// (exit 2) before any work.
    warning: bool,
    /// Also said (as a warning) when the first option is left at a default
    /// that `when` rules out.
    default_too: bool,
}

/// The flags that shape GeomVerse problems (`generate`).
const GEOMVERSE: &[&str] = &[
    "depth",
    "branch_prob",
    "distractors",
    "variablized",
    "info",
    "question",
    "standard_only",
];

/// The flags that shape relation items (`generate`, `sweep`, `bench`).
const RELATIONS: &[&str] = &["subset", "domain", "indeterminate", "mode"];

/// Every option that applies only to some tasks, modes, backends or outputs.
const RULES: &[Rule] = &[
    Rule {
        commands: &["generate"],
        options: GEOMVERSE,
        when: task_relations,
        because: "it shapes GeomVerse problems (--task geomverse)",
        warning: false,
        default_too: false,
    },
    Rule {
        commands: &["generate", "sweep", "bench"],
        options: RELATIONS,
        when: task_geomverse,
        because: "it shapes relation items (--task relations)",
        warning: false,
        default_too: false,
    },
    Rule {
        commands: &["generate", "sweep", "bench"],
        options: &["indeterminate"],
        when: no_indeterminate_construction,
        because: "no construction these options draw has a version whose answer is \
                  \"Cannot be inferred\" (in the visual mode only those whose key a mark \
                  carries do; `--indeterminate 0` says none are wanted)",
        warning: false,
        default_too: true,
    },
    Rule {
        commands: &["bench"],
        options: &[
            "task",
            "subset",
            "domain",
            "indeterminate",
            "mode",
            "emit_problems",
            "probes",
            "probes_per_image",
            "probes_per_kind",
        ],
        when: input_is_scenes,
        because: "it applies to generated problems (--input problems, the default)",
        warning: false,
        default_too: false,
    },
    Rule {
        commands: &["render", "sweep", "bench"],
        options: &["frame_size", "max_tiles", "tolerance"],
        when: no_gpu_backend,
        because: "it sets how the GPU backend draws; ignored",
        warning: true,
        default_too: false,
    },
    Rule {
        commands: &["render", "sweep", "bench"],
        options: &["embed_font"],
        when: no_svg,
        because: "it embeds the font in SVG files (--format svg or png,svg)",
        warning: false,
        default_too: false,
    },
    Rule {
        commands: &["sweep"],
        options: &["sheet_problem"],
        when: no_raster,
        because: "it picks the problem of the contact sheets, which are drawn from \
                  rendered images (--format png)",
        warning: false,
        default_too: false,
    },
    Rule {
        commands: &["render", "sweep", "export"],
        options: &["shard_rows", "shard_mib"],
        when: no_sharded_sink,
        because: "it sizes Parquet and WebDataset shards (--sink/--to parquet, \
                  webdataset or lmms-eval)",
        warning: false,
        default_too: false,
    },
    Rule {
        commands: &["render", "sweep", "export"],
        options: &["parquet_compression"],
        when: no_parquet_sink,
        because: "it sets the Parquet shards' codec (--sink/--to parquet or lmms-eval)",
        warning: false,
        default_too: false,
    },
];

/// One option that does not apply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Finding {
    /// A warning (the run goes on), else an error.
    pub warning: bool,
    pub message: String,
}

/// What the table finds on the command line of subcommand `name` (its matches
/// and its clap definition, for the options' names).
pub(crate) fn findings(name: &str, cmd: &clap::Command, m: &ArgMatches) -> Vec<Finding> {
    let mut out = Vec::new();
    for rule in RULES.iter().filter(|r| r.commands.contains(&name)) {
        let given: Vec<&str> = (rule.options.iter().copied())
            .filter(|id| given(m, id))
            .collect();
        let defaulted = rule.default_too
            && given.is_empty()
            && source(m, rule.options[0]) == Some(ValueSource::DefaultValue);
        if given.is_empty() && !defaulted {
            continue;
        }
        let Some(setting) = (rule.when)(m) else {
            continue;
        };
        if defaulted {
            let flag = flag(cmd, rule.options[0]);
            let value = raw(m, rule.options[0]).join(",");
            out.push(Finding {
                warning: true,
                message: format!(
                    "{flag} (default {value}) does not apply to {setting}: {}; no item will be \
                     \"Cannot be inferred\"",
                    rule.because
                ),
            });
            continue;
        }
        for id in given {
            out.push(Finding {
                warning: rule.warning,
                message: format!(
                    "{} does not apply to {setting}: {}",
                    flag(cmd, id),
                    rule.because
                ),
            });
        }
    }
    out
}

/// Prints the warnings, and exits with a usage error (status 2) naming every
/// option that does not apply, if any.
pub(crate) fn check(root: &clap::Command, matches: &ArgMatches) {
    let Some((name, m)) = matches.subcommand() else {
        return;
    };
    let mut root = root.clone();
    root.build();
    let Some(cmd) = root.find_subcommand_mut(name) else {
        return;
    };
    let found = findings(name, cmd, m);
    for f in found.iter().filter(|f| f.warning) {
        eprintln!("warning: {}", f.message);
    }
    let errors: Vec<&str> = (found.iter())
        .filter(|f| !f.warning)
        .map(|f| f.message.as_str())
        .collect();
    if !errors.is_empty() {
        let text = errors.join("\n       ");
        cmd.error(clap::error::ErrorKind::ArgumentConflict, text)
            .exit();
    }
}

/// Whether option `id` was given on the command line (or by the environment).
fn given(m: &ArgMatches, id: &str) -> bool {
    matches!(
        source(m, id),
        Some(ValueSource::CommandLine | ValueSource::EnvVariable)
    )
}

/// Where option `id`'s value came from; `None` when the command has no such
/// option in this build (the GPU's flags without the `gpu` feature), where clap's
/// own `value_source` panics in a debug build.
fn source(m: &ArgMatches, id: &str) -> Option<ValueSource> {
    m.try_get_raw(id).ok()?;
    m.value_source(id)
}

/// `--long` of option `id`.
fn flag(cmd: &clap::Command, id: &str) -> String {
    (cmd.get_arguments())
        .find(|a| a.get_id() == id)
        .and_then(|a| a.get_long())
        .map_or_else(
            || format!("--{}", id.replace('_', "-")),
            |l| format!("--{l}"),
        )
}

/// The values of option `id` as given or defaulted (none when it has none, or
/// the command has no such option).
fn raw(m: &ArgMatches, id: &str) -> Vec<String> {
    match m.try_get_raw(id) {
        Ok(Some(values)) => values.map(|v| v.to_string_lossy().into_owned()).collect(),
        _ => Vec::new(),
    }
}

/// `--flag value` as the command line has it, with "(the default)" when it was
/// not given.
fn setting(m: &ArgMatches, id: &str, flag: &str) -> String {
    let values = raw(m, id).join(",");
    match given(m, id) {
        true => format!("{flag} {values}"),
        false => format!("{flag} {values} (the default)"),
    }
}

/// `--task relations`.
fn task_relations(m: &ArgMatches) -> Option<String> {
    (raw(m, "task") == ["relations"]).then(|| setting(m, "task", "--task"))
}

/// `--task geomverse`.
fn task_geomverse(m: &ArgMatches) -> Option<String> {
    (raw(m, "task") == ["geomverse"]).then(|| setting(m, "task", "--task"))
}

/// `bench --input scenes`.
fn input_is_scenes(m: &ArgMatches) -> Option<String> {
    (raw(m, "input") == ["scenes"]).then(|| setting(m, "input", "--input"))
}

/// Neither `--backend` nor `bench --against` is the GPU or `auto` (which may be).
fn no_gpu_backend(m: &ArgMatches) -> Option<String> {
    let cpu = |id: &str| raw(m, id).iter().all(|b| b == "cpu" || b == "resvg");
    if !(cpu("backend") && cpu("against")) {
        return None;
    }
    let mut said = setting(m, "backend", "--backend");
    if let [against] = raw(m, "against").as_slice() {
        said.push_str(&format!(" --against {against}"));
    }
    Some(said)
}

/// `--format` without `svg`.
fn no_svg(m: &ArgMatches) -> Option<String> {
    (!raw(m, "format").iter().any(|f| f == "svg")).then(|| setting(m, "format", "--format"))
}

/// `--format` without `png`.
fn no_raster(m: &ArgMatches) -> Option<String> {
    (!raw(m, "format").iter().any(|f| f == "png")).then(|| setting(m, "format", "--format"))
}

/// `--sink` (render, sweep) or `--to` (export) naming none of `sinks`.
fn no_sink_of(m: &ArgMatches, sinks: &[&str]) -> Option<String> {
    // `export` names its sinks with --to, `render` and `sweep` with --sink. Which
    // command has which is read from the values, not from `try_get_raw`'s error:
    // clap checks an id exists only in debug builds, so a release build answers
    // Ok(None) for an option the command lacks.
    let (named, flag) = match raw(m, "to") {
        to if !to.is_empty() => (to, "--to"),
        _ => (raw(m, "sinks"), "--sink"),
    };
    if named.iter().any(|s| sinks.contains(&s.as_str())) {
        return None;
    }
    Some(match named.is_empty() {
        true => format!("a run without {flag}"),
        false => format!("{flag} {}", named.join(",")),
    })
}

/// No sink that is cut into shards.
fn no_sharded_sink(m: &ArgMatches) -> Option<String> {
    no_sink_of(m, &["parquet", "webdataset", "lmms-eval"])
}

/// No sink that writes Parquet.
fn no_parquet_sink(m: &ArgMatches) -> Option<String> {
    no_sink_of(m, &["parquet", "lmms-eval"])
}

/// `--task relations` whose `--mode`, `--subset` and `--domain` leave no
/// construction with an indeterminate version, while `--indeterminate` asks for
/// some: "--mode visual --subset advanced".
fn no_indeterminate_construction(m: &ArgMatches) -> Option<String> {
    if raw(m, "task") != ["relations"] {
        return None;
    }
    let share: f64 = raw(m, "indeterminate").first()?.parse().ok()?;
    if share <= 0.0 {
        return None;
    }
    let one = |id: &str| raw(m, id).into_iter().next().unwrap_or_default();
    let opts = RelationOptions {
        mode: one("mode").parse().unwrap_or_default(),
        subset: one("subset").parse().ok(),
        domain: one("domain").parse().ok(),
        ..RelationOptions::default()
    };
    // Options that draw nothing at all are refused with their own error.
    if opts.validate().is_err() || opts.can_be_indeterminate() {
        return None;
    }
    let said: Vec<String> = (["mode", "subset", "domain"].iter())
        .map(|id| format!("--{id} {}", one(id)))
        .collect();
    Some(said.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A build without the `gpu` feature has no `--frame-size` or `--max-tiles`:
    /// the table still names them, and asking clap about them must not panic (it
    /// did in debug builds: `sweep` of a default build stopped at once).
    #[test]
    fn options_this_build_lacks_are_not_given() {
        let cmd = clap::Command::new("render")
            .arg(
                clap::Arg::new("backend")
                    .long("backend")
                    .default_value("cpu"),
            )
            .arg(clap::Arg::new("tolerance").long("tolerance"));
        let m = cmd
            .clone()
            .try_get_matches_from(["render", "--tolerance", "0.1"])
            .unwrap();
        assert!(!given(&m, "frame_size"));
        assert_eq!(source(&m, "max_tiles"), None);
        assert!(given(&m, "tolerance"));
        let found = findings("render", &cmd, &m);
        assert!(
            found.iter().all(|f| !f.message.contains("frame")),
            "{found:?}"
        );
    }
}
