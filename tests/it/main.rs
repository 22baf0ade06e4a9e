//! The integration tests: one binary, one module per area.

mod backends;
mod batch;
mod cli;
mod compose_layout;
mod generate_cli;
mod generate_corpus;
mod generate_formulas;
mod generate_paper;
mod generate_solutions;
mod generate_transforms;
mod layering;
mod manifest_row;
mod oracle;
mod pixels;
mod reference;
mod resume;
mod score_end_to_end;
mod score_extraction;
mod score_stats;
mod shaders;
mod support;
mod svg_export;
mod variants;
