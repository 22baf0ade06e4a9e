//! A shape drawn at the origin ([`LocalGeometry`]): vertices and outline,
//! counter-clockwise in y-up units, and the pieces the definitions build it from.

/// Outline piece in local coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Seg {
    Line([f64; 2]),
    /// Circular arc to a point, around `center`, counter-clockwise when `ccw`.
    Arc {
        to: [f64; 2],
        center: [f64; 2],
        ccw: bool,
    },
}

/// A closed outline: start point and pieces back to it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LocalContour {
    pub start: [f64; 2],
    pub segs: Vec<Seg>,
}

/// A shape drawn at the origin.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LocalGeometry {
    pub vertices: Vec<[f64; 2]>,
    /// First contour is the outer boundary (CCW); further ones are holes.
    pub contours: Vec<LocalContour>,
    /// Vertex triples (a, corner, b) drawn with a right-angle mark.
    pub right_angles: Vec<[usize; 3]>,
}

/// A polygon: its vertices, outlined in order, with these right-angle marks.
pub(super) fn poly(v: Vec<[f64; 2]>, right: Vec<[usize; 3]>) -> LocalGeometry {
    LocalGeometry {
        contours: vec![polygon(&v)],
        vertices: v,
        right_angles: right,
    }
}

/// The closed outline through `v`.
pub(super) fn polygon(v: &[[f64; 2]]) -> LocalContour {
    LocalContour {
        start: v[0],
        segs: v[1..]
            .iter()
            .chain(std::iter::once(&v[0]))
            .map(|&q| Seg::Line(q))
            .collect(),
    }
}

/// A whole circle around `c`, as two half arcs.
pub(super) fn circle_contour(c: [f64; 2], r: f64) -> LocalContour {
    let a = [c[0] + r, c[1]];
    let b = [c[0] - r, c[1]];
    LocalContour {
        start: a,
        segs: vec![
            Seg::Arc {
                to: b,
                center: c,
                ccw: true,
            },
            Seg::Arc {
                to: a,
                center: c,
                ccw: true,
            },
        ],
    }
}
