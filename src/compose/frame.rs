//! From diagram units to canvas pixels: rotation, scale and centring.

use crate::generate::Problem;
use crate::style::Rotation;

/// A 2-D point in px.
pub(crate) type Px = [f32; 2];

/// The diagram's drawable geometry, sampled (arcs included) for fitting.
pub(crate) struct Geometry {
    /// Points to fit: every named point and samples along every arc.
    pub samples: Vec<[f64; 2]>,
}

/// Every contour of the problem's shapes as polylines (diagram units).
pub(crate) fn outline_polylines(p: &Problem) -> Vec<(usize, Vec<[f64; 2]>)> {
    let per_shape = p.diagram.shapes.iter().enumerate();
    per_shape
        .flat_map(|(i, s)| s.outline.iter().map(move |c| (i, c.polyline(ARC_PER_TURN))))
        .collect()
}

/// Points a full turn of an outline arc is sampled with (as `Diagram::bounds` is
/// asked for by a variant that keeps its base's frame).
pub(crate) const ARC_PER_TURN: usize = crate::generate::ARC_SAMPLES_PER_TURN;

/// Why a diagram cannot be drawn.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DiagramError {
    #[error("the diagram has no points")]
    NoPoints,
    #[error("coordinate {0:?} is not finite")]
    NotFinite([f64; 2]),
    #[error("an element refers to a point that does not exist")]
    MissingPoint,
    #[error("its frame {0:?} is not a box of finite [min, max] corners")]
    BadFrame([[f64; 2]; 2]),
}

impl Geometry {
    /// Checks the diagram has finite coordinates and something to draw.
    pub(super) fn of(p: &Problem) -> Result<Geometry, DiagramError> {
        let mut samples: Vec<[f64; 2]> = p.diagram.points.iter().map(|q| [q.x, q.y]).collect();
        for (_, poly) in outline_polylines(p) {
            samples.extend(poly);
        }
        if samples.is_empty() {
            return Err(DiagramError::NoPoints);
        }
        if let Some(bad) = samples
            .iter()
            .find(|q| !(q[0].is_finite() && q[1].is_finite()))
        {
            return Err(DiagramError::NotFinite(*bad));
        }
        let n = p.diagram.points.len();
        let refs_ok = p
            .diagram
            .shapes
            .iter()
            .all(|s| s.vertices.iter().all(|&v| v < n))
            && p.diagram
                .sides
                .iter()
                .all(|s| s.points.iter().all(|&v| v < n))
            && p.diagram
                .angles
                .iter()
                .all(|a| a.points.iter().all(|&v| v < n))
            && p.diagram
                .rays
                .iter()
                .all(|r| r.points.iter().all(|&v| v < n))
            && p.diagram
                .right_angles
                .iter()
                .all(|r| r.iter().all(|&v| v < n))
            && p.diagram
                .marks
                .iter()
                .all(|m| m.points.iter().all(|&v| v < n));
        if !refs_ok {
            return Err(DiagramError::MissingPoint);
        }
        // A set frame replaces the diagram's bounds: its corners are what is
        // fitted (the bounds' extremes are exactly the frame's when it is a base's).
        if let Some(f @ [lo, hi]) = p.diagram.frame {
            let finite = lo.iter().chain(&hi).all(|v| v.is_finite());
            if !finite || lo[0] > hi[0] || lo[1] > hi[1] {
                return Err(DiagramError::BadFrame(f));
            }
            samples = vec![lo, [lo[0], hi[1]], hi, [hi[0], lo[1]]];
        }
        Ok(Geometry { samples })
    }
}

/// The fit of a diagram to the canvas: diagram units → px (rotation, scale, centring).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Fit {
    rotation: Rotation,
    /// px per diagram unit.
    pub scale: f64,
    offset: [f64; 2],
}

fn rotate(r: Rotation, p: [f64; 2]) -> [f64; 2] {
    // Clockwise on a y-down screen.
    match r {
        Rotation::R0 => p,
        Rotation::R90 => [-p[1], p[0]],
        Rotation::R180 => [-p[0], -p[1]],
        Rotation::R270 => [p[1], -p[0]],
    }
}

impl Fit {
    /// Fits the geometry into the canvas, leaving `margin` px on every side, then
    /// shrinks it to `share` of that size about the canvas centre.
    pub(super) fn new(
        geo: &Geometry,
        rotation: Rotation,
        canvas: u32,
        margin: f64,
        share: f64,
    ) -> Fit {
        let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
        for &s in &geo.samples {
            let q = rotate(rotation, s);
            for i in 0..2 {
                lo[i] = lo[i].min(q[i]);
                hi[i] = hi[i].max(q[i]);
            }
        }
        let size = (hi[0] - lo[0]).max(hi[1] - lo[1]).max(1e-9);
        let avail = (canvas as f64 - 2.0 * margin).max(canvas as f64 * 0.2);
        let scale = avail / size * share;
        let c = canvas as f64 / 2.0;
        let mid = [(lo[0] + hi[0]) / 2.0, (lo[1] + hi[1]) / 2.0];
        Fit {
            rotation,
            scale,
            offset: [c - mid[0] * scale, c - mid[1] * scale],
        }
    }

    /// A diagram point in px.
    pub(super) fn px(&self, p: [f64; 2]) -> Px {
        let q = rotate(self.rotation, p);
        [
            (q[0] * self.scale + self.offset[0]) as f32,
            (q[1] * self.scale + self.offset[1]) as f32,
        ]
    }

    /// A named point in px.
    pub(super) fn point(&self, p: &Problem, i: usize) -> Px {
        let q = &p.diagram.points[i];
        self.px([q.x, q.y])
    }
}
