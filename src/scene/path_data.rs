//! SVG path data → lyon path.
//!
//! Our own small parser rather than lyon_extra's: that one turns arcs into
//! quadratic pieces of up to 45°, whose outline sits up to 0.3 % of the radius
//! outside the circle (0.6 px on a 200 px circle). Here arcs become cubic pieces
//! of at most 45° (error below 5·10⁻⁶ of the radius), computed in f64. Every
//! fault is an error, never a panic: syntax, drawing before a move-to, and
//! non-finite or huge coordinates.

use crate::scene::{Reason, limits};
use lyon::geom::{ArcFlags, SvgArc};
use lyon::math::{Point, point};
use lyon::path::Path;

/// Parses SVG path data (M L H V C S Q T A Z, absolute and relative, implicit
/// repeats, arcs per SVG 1.1 F.6 including out-of-range radii).
pub(crate) fn parse(d: &str) -> Result<Path, Reason> {
    Parser {
        src: d.as_bytes(),
        pos: 0,
    }
    .run()
}

struct Parser<'a> {
    src: &'a [u8],
    pos: usize,
}

/// Path construction state: where the pen is, the subpath start, the last control point.
struct Pen {
    builder: lyon::path::path::Builder,
    open: bool,
    current: Point,
    start: Point,
    /// Reflection source for S/s and T/t: (was the previous command cubic?, its second control).
    last_ctrl: Option<(bool, Point)>,
}

impl Parser<'_> {
    /// The command loop of the SVG path grammar; kept whole because each arm is one
    /// path command, as in the SVG specification's table.
    fn run(mut self) -> Result<Path, Reason> {
        let mut pen = Pen {
            builder: Path::builder(),
            open: false,
            current: point(0.0, 0.0),
            start: point(0.0, 0.0),
            last_ctrl: None,
        };
        let mut command: Option<u8> = None;
        let mut has_moved = false;
        loop {
            self.skip_separators();
            let Some(&c) = self.src.get(self.pos) else {
                break;
            };
            let cmd = if c.is_ascii_alphabetic() {
                self.pos += 1;
                c
            } else {
                match command {
                    // Numbers after M/m continue as implicit L/l.
                    Some(b'M') => b'L',
                    Some(b'm') => b'l',
                    Some(b'Z' | b'z') | None => {
                        return Err(self.error(format!("expected a command, got {:?}", c as char)));
                    }
                    Some(prev) => prev,
                }
            };
            if !b"MmLlHhVvCcSsQqTtAaZz".contains(&cmd) {
                return Err(
                    self.error_at(self.pos - 1, format!("unknown command {:?}", cmd as char))
                );
            }
            if !has_moved && cmd != b'M' && cmd != b'm' {
                return Err(self.error_at(
                    self.pos.saturating_sub(1),
                    "path data must start with a move-to (M or m)".into(),
                ));
            }
            has_moved = true;
            let rel = cmd.is_ascii_lowercase();
            let base = if rel { pen.current } else { point(0.0, 0.0) };
            let at = |x: f64, y: f64| point(base.x + x as f32, base.y + y as f32);
            match cmd.to_ascii_uppercase() {
                b'M' => {
                    let p = self.pair()?;
                    pen.move_to(at(p.0, p.1))?;
                }
                b'L' => {
                    let p = self.pair()?;
                    pen.line_to(at(p.0, p.1))?;
                }
                b'H' => {
                    let x = self.number()?;
                    let to = point(
                        if rel {
                            pen.current.x + x as f32
                        } else {
                            x as f32
                        },
                        pen.current.y,
                    );
                    pen.line_to(to)?;
                }
                b'V' => {
                    let y = self.number()?;
                    let to = point(
                        pen.current.x,
                        if rel {
                            pen.current.y + y as f32
                        } else {
                            y as f32
                        },
                    );
                    pen.line_to(to)?;
                }
                b'C' => {
                    let (c1, c2, to) = (self.pair()?, self.pair()?, self.pair()?);
                    pen.cubic_to(at(c1.0, c1.1), at(c2.0, c2.1), at(to.0, to.1))?;
                }
                b'S' => {
                    let (c2, to) = (self.pair()?, self.pair()?);
                    let c1 = pen.reflected(true);
                    pen.cubic_to(c1, at(c2.0, c2.1), at(to.0, to.1))?;
                }
                b'Q' => {
                    let (c, to) = (self.pair()?, self.pair()?);
                    pen.quad_to(at(c.0, c.1), at(to.0, to.1))?;
                }
                b'T' => {
                    let to = self.pair()?;
                    let c = pen.reflected(false);
                    pen.quad_to(c, at(to.0, to.1))?;
                }
                b'A' => {
                    let (rx, ry, rotation) = (self.number()?, self.number()?, self.number()?);
                    let (large_arc, sweep) = (self.flag()?, self.flag()?);
                    let to = self.pair()?;
                    pen.arc_to(rx, ry, rotation, large_arc, sweep, at(to.0, to.1))?;
                }
                _ => pen.close(),
            }
            command = Some(cmd);
        }
        if pen.open {
            pen.builder.end(false);
        }
        Ok(pen.builder.build())
    }

    fn skip_separators(&mut self) {
        while let Some(c) = self.src.get(self.pos) {
            if c.is_ascii_whitespace() || *c == b',' {
                self.pos += 1;
            } else {
                break;
            }
        }
    }

    fn pair(&mut self) -> Result<(f64, f64), Reason> {
        Ok((self.number()?, self.number()?))
    }

    /// An SVG number: sign, digits with optional point, optional exponent.
    fn number(&mut self) -> Result<f64, Reason> {
        self.skip_separators();
        let start = self.pos;
        let digits = |p: &mut Self| {
            let s = p.pos;
            while p.src.get(p.pos).is_some_and(u8::is_ascii_digit) {
                p.pos += 1;
            }
            p.pos - s
        };
        if matches!(self.src.get(self.pos), Some(b'+' | b'-')) {
            self.pos += 1;
        }
        let mut n = digits(self);
        if self.src.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            n += digits(self);
        }
        if n == 0 {
            self.pos = start;
            let got = self
                .src
                .get(start)
                .map_or("end of data".to_string(), |c| format!("{:?}", *c as char));
            return Err(self.error(format!("expected a number, got {got}")));
        }
        if matches!(self.src.get(self.pos), Some(b'e' | b'E')) {
            let save = self.pos;
            self.pos += 1;
            if matches!(self.src.get(self.pos), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            if digits(self) == 0 {
                self.pos = save;
            }
        }
        let text = std::str::from_utf8(&self.src[start..self.pos]).expect("ASCII");
        let v: f64 = text
            .parse()
            .map_err(|_| self.error_at(start, format!("bad number {text:?}")))?;
        if v.is_nan() || v.abs() > limits::MAX_COORDINATE {
            return Err(self.error_at(
                start,
                format!("number {text} is beyond ±{}", limits::MAX_COORDINATE),
            ));
        }
        Ok(v)
    }

    /// An arc flag: a single `0` or `1`, which may run into the next number.
    fn flag(&mut self) -> Result<bool, Reason> {
        self.skip_separators();
        match self.src.get(self.pos) {
            Some(b'0') => {
                self.pos += 1;
                Ok(false)
            }
            Some(b'1') => {
                self.pos += 1;
                Ok(true)
            }
            other => {
                let got = other.map_or("end of data".to_string(), |c| format!("{:?}", *c as char));
                Err(self.error(format!("expected an arc flag (0 or 1), got {got}")))
            }
        }
    }

    fn error(&self, message: String) -> Reason {
        self.error_at(self.pos, message)
    }

    fn error_at(&self, pos: usize, message: String) -> Reason {
        Reason::BadPathData(format!("{message} at column {}", pos + 1))
    }
}

impl Pen {
    fn check(&self, p: Point) -> Result<Point, Reason> {
        let max = limits::MAX_COORDINATE as f32;
        if p.x.abs() <= max && p.y.abs() <= max {
            Ok(p)
        } else {
            Err(Reason::BadPathData(format!(
                "coordinate ({}, {}) is not finite or beyond ±{max}",
                p.x, p.y
            )))
        }
    }

    fn move_to(&mut self, to: Point) -> Result<(), Reason> {
        let to = self.check(to)?;
        if self.open {
            self.builder.end(false);
        }
        self.builder.begin(to);
        self.open = true;
        self.current = to;
        self.start = to;
        self.last_ctrl = None;
        Ok(())
    }

    /// After `Z`, SVG continues from the subpath start without an explicit move-to.
    fn ensure_open(&mut self) {
        if !self.open {
            self.builder.begin(self.current);
            self.open = true;
            self.start = self.current;
        }
    }

    fn line_to(&mut self, to: Point) -> Result<(), Reason> {
        let to = self.check(to)?;
        self.ensure_open();
        self.builder.line_to(to);
        self.current = to;
        self.last_ctrl = None;
        Ok(())
    }

    fn cubic_to(&mut self, c1: Point, c2: Point, to: Point) -> Result<(), Reason> {
        let (c1, c2, to) = (self.check(c1)?, self.check(c2)?, self.check(to)?);
        self.ensure_open();
        self.builder.cubic_bezier_to(c1, c2, to);
        self.current = to;
        self.last_ctrl = Some((true, c2));
        Ok(())
    }

    fn quad_to(&mut self, c: Point, to: Point) -> Result<(), Reason> {
        let (c, to) = (self.check(c)?, self.check(to)?);
        self.ensure_open();
        self.builder.quadratic_bezier_to(c, to);
        self.current = to;
        self.last_ctrl = Some((false, c));
        Ok(())
    }

    /// The first control point of S (cubic) or T (quadratic): the previous control
    /// reflected about the current point when the previous command was of the same kind.
    fn reflected(&self, cubic: bool) -> Point {
        match self.last_ctrl {
            Some((was_cubic, c)) if was_cubic == cubic => {
                point(2.0 * self.current.x - c.x, 2.0 * self.current.y - c.y)
            }
            _ => self.current,
        }
    }

    fn arc_to(
        &mut self,
        rx: f64,
        ry: f64,
        rotation: f64,
        large_arc: bool,
        sweep: bool,
        to: Point,
    ) -> Result<(), Reason> {
        let to = self.check(to)?;
        let from = self.current;
        let arc = SvgArc {
            from: lyon::geom::point(from.x as f64, from.y as f64),
            to: lyon::geom::point(to.x as f64, to.y as f64),
            radii: lyon::geom::vector(rx, ry),
            x_rotation: lyon::geom::Angle::degrees(rotation),
            flags: ArcFlags { large_arc, sweep },
        };
        // SVG: zero radii or coincident end points make a straight line (or nothing).
        if arc.is_straight_line() || rx.abs() < 1e-9 || ry.abs() < 1e-9 {
            return self.line_to(to);
        }
        let arc = arc.to_arc();
        let pieces = (arc.sweep_angle.radians.abs() / std::f64::consts::FRAC_PI_4)
            .ceil()
            .max(1.0) as usize;
        let mut segments = Vec::with_capacity(pieces);
        for i in 0..pieces {
            let sub = arc.split_range(i as f64 / pieces as f64..(i + 1) as f64 / pieces as f64);
            sub.for_each_cubic_bezier(&mut |c| segments.push(*c));
        }
        let f = |p: lyon::geom::Point<f64>| point(p.x as f32, p.y as f32);
        let n = segments.len();
        for (i, c) in segments.into_iter().enumerate() {
            // End exactly on the requested point, not on its f64 reconstruction.
            let end = if i + 1 == n { to } else { f(c.to) };
            self.cubic_to(f(c.ctrl1), f(c.ctrl2), end)?;
        }
        self.last_ctrl = None;
        Ok(())
    }

    fn close(&mut self) {
        if self.open {
            self.builder.end(true);
            self.open = false;
        }
        self.current = self.start;
        self.last_ctrl = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lyon::path::PathEvent;

    fn events(d: &str) -> Vec<PathEvent> {
        parse(d).unwrap().iter().collect()
    }

    #[test]
    fn parses_all_commands() {
        let p = parse("M10 10 L20 10 H30 V20 l5 5 h1 v1 C 1 2 3 4 5 6 S 7 8 9 10 Q 1 1 2 2 T 3 3 A 5 5 0 0 1 10 10 a 2 3 0 1 0 4 4 Z m 1 1 z").unwrap();
        assert!(p.iter().count() > 10);
    }

    #[test]
    fn implicit_commands_and_compact_numbers() {
        // After M, pairs are line-tos; "-5-5" and ".5.5" split into two numbers.
        let e = events("M0,0 10,0 10-5.5.5.5");
        assert_eq!(e.len(), 5, "{e:?}");
        assert!(matches!(e[2], PathEvent::Line { to, .. } if to == point(10.0, -5.5)));
        assert!(matches!(e[3], PathEvent::Line { to, .. } if to == point(0.5, 0.5)));
        // Relative m after z starts from the subpath start.
        let e = events("M 10 10 l 5 0 z m 1 1 l 1 0");
        assert!(
            e.iter()
                .any(|ev| matches!(ev, PathEvent::Begin { at } if *at == point(11.0, 11.0)))
        );
    }

    #[test]
    fn arc_flags_without_separators() {
        let e = events("M0 0a5 5 0 1110 0");
        assert!(matches!(e.last(), Some(PathEvent::End { last, .. }) if *last == point(10.0, 0.0)));
    }

    #[test]
    fn arcs_stay_on_the_circle() {
        // Semicircle of radius 50 around (50, 0): sample every cubic piece densely.
        let path = parse("M 0 0 A 50 50 0 0 1 100 0").unwrap();
        let mut worst = 0.0f32;
        for e in path.iter() {
            if let PathEvent::Cubic {
                from,
                ctrl1,
                ctrl2,
                to,
            } = e
            {
                let c = lyon::geom::CubicBezierSegment {
                    from,
                    ctrl1,
                    ctrl2,
                    to,
                };
                for i in 0..=32 {
                    let p = c.sample(i as f32 / 32.0);
                    worst = worst.max(((p - point(50.0, 0.0)).length() - 50.0).abs());
                }
            }
        }
        assert!(worst < 5e-3, "{worst}");
    }

    #[test]
    fn smooth_curves_reflect_the_previous_control() {
        let e = events("M 0 0 C 0 10 10 10 10 0 S 20 -10 20 0");
        let PathEvent::Cubic { ctrl1, .. } = e[2] else {
            panic!("{e:?}")
        };
        assert_eq!(ctrl1, point(10.0, -10.0));
    }

    #[test]
    fn empty_data_is_an_empty_path() {
        assert_eq!(parse("").unwrap().iter().count(), 0);
        assert_eq!(parse("  ").unwrap().iter().count(), 0);
    }

    #[test]
    fn rejects_garbage_and_huge_values() {
        for (d, needle) in [
            ("M 0 0 L x 3", "expected a number, got 'x' at column 9"),
            ("L 1 1", "must start with a move-to"),
            ("M 0 0 Q 1", "expected a number, got end of data"),
            ("M 0 0 A 5 5 0 2 0 9 9", "arc flag"),
            ("M 0 0 K 3 3", "unknown command 'K'"),
            ("M 0 0 L 1e7 0", "beyond"),
            ("M 0 0 L 1e39 0", "beyond"),
            ("M 0 0 L NaN 0", "expected a number"),
            ("M 0 0 Z 5 5", "expected a command"),
        ] {
            match parse(d) {
                Err(Reason::BadPathData(m)) => assert!(m.contains(needle), "{d}: {m}"),
                other => panic!("{d}: {other:?}"),
            }
        }
    }
}
