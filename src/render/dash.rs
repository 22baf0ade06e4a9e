//! SVG dashing (`stroke-dasharray`, `stroke-dashoffset`): cuts a path into its
//! "on" pieces before stroking, since lyon strokes only solid lines.
//!
//! Curves are flattened first (with the stroke tolerance), so a dash is a polyline
//! whose interior corners still get the path's line join. The pattern restarts at
//! every subpath, as in SVG.

use crate::scene::{Reason, limits};
use lyon::math::Point;
use lyon::path::iterator::PathIterator;
use lyon::path::{Path, PathEvent};

/// The "on" pieces of `path` under `pattern` starting `offset` into the pattern.
/// An empty or all-zero pattern returns the path unchanged.
pub(super) fn dash(
    path: &Path,
    pattern: &[f32],
    offset: f32,
    tolerance: f32,
) -> Result<Path, Reason> {
    // SVG: an odd number of values is repeated to make it even.
    let pattern: Vec<f32> = if pattern.len() % 2 == 1 {
        pattern.iter().chain(pattern.iter()).copied().collect()
    } else {
        pattern.to_vec()
    };
    let period: f32 = pattern.iter().sum();
    if pattern.is_empty() || period <= 0.0 {
        return Ok(path.clone());
    }
    let mut out = Path::builder();
    let mut dashes = 0usize;
    let mut poly: Vec<Point> = Vec::new();
    for event in path.iter().flattened(tolerance) {
        match event {
            PathEvent::Begin { at } => {
                poly.clear();
                poly.push(at);
            }
            PathEvent::Line { to, .. } => poly.push(to),
            PathEvent::End { close, first, .. } => {
                if close && poly.last() != Some(&first) {
                    poly.push(first);
                }
                dashes += dash_polyline(&poly, &pattern, period, offset, &mut out);
                if dashes > limits::MAX_DASHES {
                    return Err(Reason::TooManyDashes {
                        max: limits::MAX_DASHES,
                        got: dashes,
                    });
                }
            }
            _ => unreachable!("flattened paths contain only lines"),
        }
    }
    Ok(out.build())
}

/// Emits the dashes of one polyline; returns how many were emitted.
fn dash_polyline(
    poly: &[Point],
    pattern: &[f32],
    period: f32,
    offset: f32,
    out: &mut lyon::path::path::Builder,
) -> usize {
    // Where in the pattern the subpath starts. A dash ending exactly at the start is
    // skipped, but a zero-length one there is kept: with round or square caps it is
    // a dot (as in Skia/resvg and browsers).
    let mut index = 0;
    let mut left = offset.rem_euclid(period);
    while left > pattern[index] || (left == pattern[index] && pattern[index] > 0.0) {
        left -= pattern[index];
        index = (index + 1) % pattern.len();
    }
    let mut remaining = pattern[index] - left; // of the current entry
    let mut on = index % 2 == 0;
    let mut open = false;
    let mut count = 0;
    if on && poly.len() > 1 {
        out.begin(poly[0]);
        open = true;
        count += 1;
    }
    for seg in poly.windows(2) {
        let (a, b) = (seg[0], seg[1]);
        let len = (b - a).length();
        let mut t = 0.0; // distance done along this segment
        while len - t > remaining {
            t += remaining;
            let p = a.lerp(b, t / len);
            if on {
                out.line_to(p);
                out.end(false);
                open = false;
            } else {
                out.begin(p);
                open = true;
                count += 1;
            }
            on = !on;
            index = (index + 1) % pattern.len();
            remaining = pattern[index];
            if count > limits::MAX_DASHES {
                break;
            }
        }
        remaining -= len - t;
        if on && open {
            out.line_to(b);
        }
    }
    if open {
        out.end(false);
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use lyon::math::point;

    fn segments(path: &Path) -> Vec<(Point, Point)> {
        let mut out = Vec::new();
        let mut start = None;
        let mut last = point(0.0, 0.0);
        for e in path.iter() {
            match e {
                PathEvent::Begin { at } => {
                    start = Some(at);
                    last = at;
                }
                PathEvent::Line { to, .. } => last = to,
                PathEvent::End { .. } => out.push((start.take().unwrap(), last)),
                _ => {}
            }
        }
        out
    }

    fn line(len: f32) -> Path {
        let mut b = Path::builder();
        b.begin(point(0.0, 0.0));
        b.line_to(point(len, 0.0));
        b.end(false);
        b.build()
    }

    #[test]
    fn cuts_a_line_into_dashes() {
        let d = dash(&line(20.0), &[6.0, 4.0], 0.0, 0.1).unwrap();
        let xs: Vec<(f32, f32)> = segments(&d).iter().map(|(a, b)| (a.x, b.x)).collect();
        assert_eq!(xs, vec![(0.0, 6.0), (10.0, 16.0)]);
    }

    #[test]
    fn offset_and_odd_patterns() {
        // Offset 3 into [6, 4]: 3 on, 4 off, 6 on, 4 off, 3 on.
        let d = dash(&line(20.0), &[6.0, 4.0], 3.0, 0.1).unwrap();
        let xs: Vec<(f32, f32)> = segments(&d).iter().map(|(a, b)| (a.x, b.x)).collect();
        assert_eq!(xs, vec![(0.0, 3.0), (7.0, 13.0), (17.0, 20.0)]);
        // [5] means [5, 5].
        let d = dash(&line(20.0), &[5.0], 0.0, 0.1).unwrap();
        assert_eq!(segments(&d).len(), 2);
        // Negative offsets wrap around the period.
        let d = dash(&line(10.0), &[6.0, 4.0], -4.0, 0.1).unwrap();
        let xs: Vec<(f32, f32)> = segments(&d).iter().map(|(a, b)| (a.x, b.x)).collect();
        assert_eq!(xs, vec![(4.0, 10.0)]);
    }

    #[test]
    fn zero_length_dashes_include_the_one_at_the_start() {
        // [0, 6] with round caps is a row of dots, the first at the very start
        // (issue 5: the GPU dropped it while resvg drew it).
        let d = dash(&line(20.0), &[0.0, 6.0], 0.0, 0.1).unwrap();
        let xs: Vec<(f32, f32)> = segments(&d).iter().map(|(a, b)| (a.x, b.x)).collect();
        assert_eq!(xs, vec![(0.0, 0.0), (6.0, 6.0), (12.0, 12.0), (18.0, 18.0)]);
        // An offset landing exactly on the end of a dash starts with the gap.
        let d = dash(&line(20.0), &[6.0, 4.0], 6.0, 0.1).unwrap();
        let xs: Vec<(f32, f32)> = segments(&d).iter().map(|(a, b)| (a.x, b.x)).collect();
        assert_eq!(xs, vec![(4.0, 10.0), (14.0, 20.0)]);
    }

    #[test]
    fn dashes_continue_around_corners() {
        let mut b = Path::builder();
        b.begin(point(0.0, 0.0));
        b.line_to(point(4.0, 0.0));
        b.line_to(point(4.0, 4.0));
        b.end(false);
        let d = dash(&b.build(), &[6.0, 1.0], 0.0, 0.1).unwrap();
        // The first dash turns the corner: begin, corner, end point.
        let first: Vec<_> = d.iter().take(4).collect();
        assert!(matches!(first[1], PathEvent::Line { to, .. } if to == point(4.0, 0.0)));
        assert!(matches!(first[2], PathEvent::Line { to, .. } if to == point(4.0, 2.0)));
    }

    #[test]
    fn zero_pattern_is_solid_and_fine_patterns_are_refused() {
        let d = dash(&line(20.0), &[0.0, 0.0], 0.0, 0.1).unwrap();
        assert_eq!(segments(&d), vec![(point(0.0, 0.0), point(20.0, 0.0))]);
        let e = dash(&line(1.0e6), &[0.001, 0.001], 0.0, 0.1).unwrap_err();
        assert!(matches!(e, Reason::TooManyDashes { .. }));
    }

    #[test]
    fn the_dash_estimate_is_never_below_the_dashes_cut() {
        let cases: [(&str, &[f32], f32); 5] = [
            ("M 0 0 L 100 0", &[6.0, 4.0], 0.0),
            ("M 0 0 L 100 0", &[5.0], 3.0),
            ("M 0 0 H 30 V 30 H 0 Z M 50 50 L 60 60", &[0.0, 6.0], 0.0),
            (
                "M 50 100 A 50 50 0 1 0 150 100 A 50 50 0 1 0 50 100 Z",
                &[1.0, 2.0, 3.0],
                1.5,
            ),
            ("M 0 0 C 10 40 90 40 100 0 Q 50 -40 0 0", &[0.25, 0.25], 0.0),
        ];
        for (d, pattern, offset) in cases {
            let path = crate::scene::path_data::parse(d).unwrap();
            let cut = segments(&dash(&path, pattern, offset, 0.05).unwrap()).len();
            let estimate = crate::scene::dash_estimate(&path, pattern);
            assert!(
                estimate >= cut && estimate <= cut * 5 / 4 + 8,
                "{d} {pattern:?}: {estimate} vs {cut}"
            );
        }
    }
}
