//! The `geomrender` command line: a thin layer over the library.
//!
//! Everything is in `cli` (one file per subcommand); the work is the library's.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
