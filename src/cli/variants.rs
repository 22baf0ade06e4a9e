//! `geomrender variants --list [--json]`: every axis, its base value and default
//! sweep; as JSON, the table `geomrender schema variants` describes.

use crate::variants::{ALL, AXES, GEOMVERSE_SWEEP, RELATION_SWEEP};
use std::process::ExitCode;

#[derive(clap::Args)]
pub(crate) struct Args {
    /// List the axes (the only action for now; also the default).
    #[arg(long)]
    list: bool,
    /// The list as one JSON object on stdout (`geomrender schema variants`): every
    /// axis with its values, default sweep, what it changes and which bases it
    /// applies to, and the default sweeps of `sweep`.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(args: Args) -> anyhow::Result<ExitCode> {
    if args.json {
        let mut text = serde_json::to_string_pretty(&crate::variants::list_json())?;
        text.push('\n');
        print!("{text}");
        return Ok(ExitCode::SUCCESS);
    }
    println!(
        "Variant axes for `--variants SPEC` (SPEC: `axis` for its default sweep, `axis=v1,v2`, several joined by `;`)."
    );
    println!("Each variant changes only what its axis names; ids are <base_id>__<axis>-<value>.");
    println!(
        "The diagram is fitted once per problem: every axis but resolution, rotation and scale keeps its paths \
         byte for byte, and those three transform them exactly (src/tests/label_fidelity.rs)."
    );
    println!(
        "Line widths and font sizes are px on the 512 px reference canvas (scaled with `resolution`)."
    );
    println!(
        "A variant whose image and texts would equal its base's is not drawn (a row of skipped.jsonl); \
         `geomrender audit DIR` checks each row changes only what its axes may change."
    );
    println!(
        "`{ALL}` stands for every axis not named elsewhere in SPEC, each at its default sweep \
         (`--variants all`, `--variants 'resolution=256;all'`); for relation items \
         (`sweep`/`bench --task relations`) the axes that apply to them."
    );
    println!(
        "`sweep` draws \"{GEOMVERSE_SWEEP}\" by default, and \"{RELATION_SWEEP}\" with --task relations."
    );
    println!("`--json` prints this list as JSON (`geomrender schema variants`).");
    println!();
    for a in AXES {
        println!("{}", a.name);
        println!("  changes:  {}", a.changes);
        println!("  from:     {}", a.from);
        println!("  base:     {}", a.base);
        println!("  sweep:    {}", a.sweep.join(", "));
        println!("  accepts:  {}", a.accepts());
        println!("  scenes:   {}", a.on_scenes());
        let relations = match (a.relations, a.relations_sweep) {
            (false, _) => "not made".to_string(),
            (true, None) => "yes".to_string(),
            (true, Some(values)) => format!("{} (the others not made)", values.join(", ")),
        };
        println!("  relation items: {relations}");
        let may: Vec<&str> = a.may_change.iter().map(|c| c.name()).collect();
        println!("  may change (audit): {}", may.join(", "));
        println!();
    }
    println!("The GeomVerse study's four: opacity, linewidth, fontsize, annotation.");
    Ok(ExitCode::SUCCESS)
}
