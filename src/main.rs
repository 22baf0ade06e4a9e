//! The `geomrender` command line: a thin layer over the library.
//!
//! The command line is the library's `cli` module (behind the `cli` feature), so
//! that its plumbing does not widen the library's public API; the work is the
//! stages'.

fn main() -> std::process::ExitCode {
    geomrender::cli::main()
}
