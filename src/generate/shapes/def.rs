//! [`ShapeDef`]: everything the generator knows about one shape kind, as consts and
//! functions, so that each kind is read in one place (its file) and code that works
//! over every kind reads its definition instead of matching on the kind.

use super::{Known, LocalGeometry, Role, ShapeKind};
use crate::generate::formulas::Formula;
use crate::generate::rng::Rng;

/// The definition of one shape kind (or angle connector).
pub(crate) struct ShapeDef {
    pub kind: ShapeKind,
    pub family: Family,
    /// What texts call it ("the ABCD rectangle"); composites are a "shape".
    pub noun: &'static str,
    /// What it is, for "the ABCD shape is …" sentences ("a sector").
    pub description: &'static str,
    /// Named in both annotation styles by colour ("the blue semi-circle"): two points
    /// do not name a round shape.
    pub named_by_colour: bool,
    /// The order in which its vertices spell its name, when it is not their own (a
    /// sector is named from its centre); empty: their own.
    pub name_order: &'static [usize],
    /// What texts call a side of it in a role: "side", "base", "radius", "diameter"
    /// (drawn diagonals and diameters are named by their own kind first).
    pub side_noun: fn(Role) -> &'static str,
    /// What texts call its perimeter: "perimeter", or a circle's "circumference".
    pub perimeter: &'static str,
    /// Its area, perimeter and arc length use π (the question then says "Assume π =
    /// 3.14" when a formula computes one of them).
    pub round: bool,
    /// Number of parameters (see `value` for what each is).
    pub params: usize,
    /// Edge groups: `Edge(i)` is any edge of group `i` (vertex index pairs, in outline
    /// order so the shape is on the left).
    pub edges: &'static [&'static [(usize, usize)]],
    /// Angle groups: `Angle(i)` is any angle (a, vertex, b) of group `i`.
    pub angles: &'static [&'static [(usize, usize, usize)]],
    /// The diagonal or diameter drawn inside, as a vertex pair.
    pub inner: Option<(usize, usize)>,
    /// The value of a role from the parameters (π = 3.14, as in the texts); `None`
    /// for a role it does not have or a value that is not finite.
    pub value: fn(&[f64], Role) -> Option<f64>,
    /// Fills parameters that the knowns (and parameters found so far) determine;
    /// `fit` runs it a few times over.
    pub derive: fn(&Known, &mut [Option<f64>]),
    /// The order in which free parameters are drawn.
    pub free: fn(&Known) -> &'static [usize],
    /// A nice value for free parameter `i`.
    pub draw: fn(usize, &[Option<f64>], &Known, &mut Rng) -> f64,
    /// Plausibility: angles that can be drawn, cut-outs that fit, no needle-thin
    /// shapes (positive finite parameters are checked before).
    pub valid: fn(&[f64]) -> bool,
    /// Vertices and outline drawn from the parameters at the origin.
    pub geometry: fn(&[f64]) -> LocalGeometry,
    /// Its formulas (`formulas::FORMULAS` gathers them, in table order).
    pub formulas: &'static [Formula],
    /// It shares no side or angle, so it can only be a problem's root (a circle).
    pub root_only: bool,
    /// The auxiliary lines `aux` variants may draw in it (`rewrite::aux`).
    pub aux: Aux,
}

/// Which family a kind belongs to.
pub(crate) enum Family {
    /// GeomVerse figure 2, top row.
    Standard,
    /// A rectangle or square with a part added or removed: called "shape" in texts
    /// and introduced by a sentence.
    Composite,
    /// Two angles at a vertex, not a shape.
    Connector(Connector),
}

/// What an angle connector is beyond its formula: how texts, the generator and the
/// placer treat it.
pub(crate) struct Connector {
    /// How texts say the two angles relate ("… are supplementary angles").
    pub word: &'static str,
    /// What the two angles sum to; `None`: they are equal.
    pub sum: Option<f64>,
    /// Its new angle can be a shape's (vertical angles: the shape fills the opposite
    /// angle); the others only take a plain angle.
    pub carries_shape: bool,
    /// The ways to draw it at a parent's corner (one is drawn at random).
    pub rays: &'static [Rays],
}

/// One way to draw a connector at the corner V of a parent angle A V B: new rays
/// from V, and which points make the connector's new angle.
pub(crate) struct Rays {
    /// A new point on each new ray.
    pub new: &'static [Ray],
    /// The new angle's end points: one of the parent's, or `None` for the next new
    /// point.
    pub ends: [Option<End>; 2],
    /// A right angle is marked from this end to the first new point.
    pub right: Option<End>,
}

/// A new ray from V.
#[derive(Clone, Copy)]
pub(crate) enum Ray {
    /// V→end extended backwards through V.
    Back(End),
    /// Perpendicular to V→end, turned toward the other end.
    Turn(End),
}

/// One end of the parent angle A V B.
#[derive(Clone, Copy)]
pub(crate) enum End {
    A,
    B,
}

/// The auxiliary lines a shape may get (`rewrite::aux`; a diagonal is tried on any
/// shape of four or more vertices).
pub(crate) struct Aux {
    /// A height, as an unrelated line.
    pub height: bool,
    /// Its formulas whose solution step works with a height: the line the solution
    /// uses when one of them is a step of the shape.
    pub height_formulas: &'static [&'static str],
    /// A radius (the solution's when it uses the shape).
    pub radius: bool,
    /// A median, as an unrelated line.
    pub median: bool,
    /// The chord of its arc, as an unrelated line.
    pub chord: bool,
}

impl Aux {
    /// No line of its own (only the diagonal every shape may get).
    pub(crate) const NONE: Aux = Aux {
        height: false,
        height_formulas: &[],
        radius: false,
        median: false,
        chord: false,
    };
}

impl ShapeDef {
    /// Its connector part, for an angle connector.
    pub(crate) fn connector(&self) -> Option<&Connector> {
        match &self.family {
            Family::Connector(c) => Some(c),
            _ => None,
        }
    }
}

/// A side is a "side" whatever its role.
pub(super) fn side(_: Role) -> &'static str {
    "side"
}
