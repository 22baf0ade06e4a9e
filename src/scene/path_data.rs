//! SVG path data → lyon path, with every coordinate checked.

use crate::scene::{Reason, limits};
use lyon::extra::parser::{ParserOptions, PathParser, Source};
use lyon::math::Point;
use lyon::path::builder::PathBuilder;
use lyon::path::{Attributes, EndpointId, Path};

/// Parses SVG path data (absolute and relative M L H V C S Q T A Z; arcs become
/// quadratic Béziers). Fails on syntax errors, on drawing before a move-to and on
/// non-finite or huge coordinates — never panics.
pub fn parse(d: &str) -> Result<Path, Reason> {
    let mut checked = Checked {
        inner: Path::builder(),
        open: false,
        error: None,
    };
    let mut source = Source::new(d.chars());
    let parsed = PathParser::new().parse(&ParserOptions::DEFAULT, &mut source, &mut checked);
    if let Some(reason) = checked.error {
        return Err(reason);
    }
    parsed.map_err(|e| Reason::BadPathData(describe(&e)))?;
    Ok(checked.inner.build())
}

/// Forwards to lyon's builder only what it accepts: finite, bounded points, and
/// edges after a `begin`. The first fault is kept and everything after it dropped.
struct Checked {
    inner: lyon::path::path::Builder,
    open: bool,
    error: Option<Reason>,
}

impl Checked {
    fn ok(&mut self, points: &[Point], edge: bool) -> bool {
        if self.error.is_some() {
            return false;
        }
        let max = limits::MAX_COORDINATE as f32;
        if let Some(p) = points
            .iter()
            .find(|p| !(p.x.abs() <= max && p.y.abs() <= max))
        {
            self.error = Some(Reason::BadPathData(format!(
                "coordinate ({}, {}) is not finite or beyond ±{max}",
                p.x, p.y
            )));
            return false;
        }
        if edge && !self.open {
            self.error = Some(Reason::BadPathData(
                "path data must start with a move-to (M or m)".into(),
            ));
            return false;
        }
        true
    }
}

impl PathBuilder for Checked {
    fn num_attributes(&self) -> usize {
        0
    }
    fn begin(&mut self, at: Point, _: Attributes) -> EndpointId {
        if self.ok(&[at], false) {
            if self.open {
                self.inner.end(false);
            }
            self.open = true;
            return self.inner.begin(at);
        }
        EndpointId::INVALID
    }
    fn end(&mut self, close: bool) {
        if self.error.is_none() && self.open {
            self.inner.end(close);
            self.open = false;
        }
    }
    fn line_to(&mut self, to: Point, _: Attributes) -> EndpointId {
        if self.ok(&[to], true) {
            return self.inner.line_to(to);
        }
        EndpointId::INVALID
    }
    fn quadratic_bezier_to(&mut self, ctrl: Point, to: Point, _: Attributes) -> EndpointId {
        if self.ok(&[ctrl, to], true) {
            return self.inner.quadratic_bezier_to(ctrl, to);
        }
        EndpointId::INVALID
    }
    fn cubic_bezier_to(&mut self, c1: Point, c2: Point, to: Point, _: Attributes) -> EndpointId {
        if self.ok(&[c1, c2, to], true) {
            return self.inner.cubic_bezier_to(c1, c2, to);
        }
        EndpointId::INVALID
    }
}

/// lyon reports "Line 0 Column 7"; our data is one line, so keep only the column.
fn describe(e: &lyon::extra::parser::ParseError) -> String {
    use lyon::extra::parser::ParseError as E;
    match e {
        E::Number { src, column, .. } => {
            format!("expected a number at column {}, got {src:?}", column + 1)
        }
        E::Flag { src, column, .. } => format!(
            "expected an arc flag (0 or 1) at column {}, got {src:?}",
            column + 1
        ),
        E::Command {
            command, column, ..
        } => format!("unknown command {command:?} at column {}", column + 1),
        E::MissingMoveTo {
            command, column, ..
        } => {
            format!(
                "expected a move-to (M/m) before {command:?} at column {}",
                column + 1
            )
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_all_commands() {
        let p = parse("M10 10 L20 10 H30 V20 l5 5 h1 v1 C 1 2 3 4 5 6 S 7 8 9 10 Q 1 1 2 2 T 3 3 A 5 5 0 0 1 10 10 a 2 3 0 1 0 4 4 Z m 1 1 z").unwrap();
        assert!(p.iter().count() > 10);
    }

    #[test]
    fn empty_data_is_an_empty_path() {
        assert_eq!(parse("").unwrap().iter().count(), 0);
    }

    #[test]
    fn rejects_garbage_and_huge_values() {
        assert!(
            matches!(parse("M 0 0 L x 3"), Err(Reason::BadPathData(m)) if m.contains("column"))
        );
        assert!(parse("M 0 0 L 1e7 0").is_err());
        assert!(parse("M 0 0 L 1e39 0").is_err());
        assert!(parse("M 0 0 L 1e38 1e38 L 3e38 0").is_err());
        assert!(parse("L 1 1").is_err());
        assert!(parse("M 0 0 Z L 4 4").is_err());
    }
}
