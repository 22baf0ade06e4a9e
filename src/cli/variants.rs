//! `geomrender variants --list`: every axis, its base value and default sweep.

use geomrender::variants::AXES;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// List the axes (the only action for now; also the default).
    #[arg(long)]
    list: bool,
}

pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    println!(
        "Variant axes for `--variants SPEC` (SPEC: `axis` for its default sweep, `axis=v1,v2`, several joined by `;`)."
    );
    println!("Each variant changes only what its axis names; ids are <base_id>__<axis>-<value>.");
    println!(
        "The diagram is fitted once per problem: every axis but resolution, rotation and scale keeps its paths \
         byte for byte, and those three transform them exactly (tests/it/label_fidelity.rs)."
    );
    println!(
        "Line widths and font sizes are px on the 512 px reference canvas (scaled with `resolution`)."
    );
    println!(
        "A variant whose image and texts would equal its base's is not drawn (a row of skipped.jsonl); \
         `geomrender audit DIR` checks each row changes only what its axes may change."
    );
    println!();
    for a in AXES {
        println!("{}", a.name);
        println!("  changes:  {}", a.changes);
        println!("  from:     {}", a.from);
        println!("  base:     {}", a.base);
        println!("  sweep:    {}", a.sweep.join(", "));
        println!("  accepts:  {}", a.accepts());
        println!("  scenes:   {}", a.on_scenes());
        let may: Vec<&str> = a.may_change.iter().map(|c| c.name()).collect();
        println!("  may change (audit): {}", may.join(", "));
        println!();
    }
    println!("The GeomVerse study's four: opacity, linewidth, fontsize, annotation.");
    Ok(ExitCode::SUCCESS)
}
