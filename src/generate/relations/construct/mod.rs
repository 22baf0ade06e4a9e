//! The constructions, in one table: each a small seeded program over points that
//! establishes one relation (a basic item: its definition or a property that
//! implies it) or chains two or three conditions across the pool (an advanced
//! item, GeomRel's Algorithm 1: the output element of one condition is the input
//! of the next). Each marks the conditions its answer needs ([`Sketch::key`]):
//! the indeterminate version of any construction replaces one of them
//! ([`super::indeterminate`]), so every construction has one.
//!
//! ```text
//! line    collinear, point on a line, parallel, perpendicular, intersecting
//! angle   complementary, supplementary, the angles at a transversal, vertical, a quadrilateral's
//! shape   point and figure, line and circle, a segment's role in a triangle or circle
//! chain   the advanced chains
//! ```

mod angle;
mod chain;
mod line;
mod shape;

use super::item::Subset;
use super::sketch::Built;
use crate::generate::rng::Rng;

/// One construction.
pub(crate) struct Construction {
    /// The relation its question is about ([`super::RELATIONS`]).
    pub relation: &'static str,
    /// Its name, unique within the relation.
    pub name: &'static str,
    pub subset: Subset,
    /// The relations the chain passes through, the asked one last (an advanced
    /// item); empty for a basic one.
    pub chain: &'static [&'static str],
    /// Builds one item, its key conditions marked. `None` when the random draw is
    /// unusable (the caller draws again).
    pub build: fn(&mut Rng) -> Option<Built>,
}

/// Every construction: the basic ones by domain, then the chains.
pub(crate) fn all() -> impl Iterator<Item = &'static Construction> {
    line::ALL
        .iter()
        .chain(angle::ALL)
        .chain(shape::ALL)
        .chain(chain::ALL)
}

/// A basic construction.
pub(super) const fn basic(
    relation: &'static str,
    name: &'static str,
    build: fn(&mut Rng) -> Option<Built>,
) -> Construction {
    Construction {
        relation,
        name,
        subset: Subset::Basic,
        chain: &[],
        build,
    }
}

use super::sketch::{P, Sketch, between, go, same_side, uniform};

/// A transversal frame whose lines AB and CD are parallel: `a` (the angle from
/// E→F to GA) a whole number of degrees in `lo..=hi` at least `gap` from 90.
/// Returns the frame and `a`.
pub(super) fn parallel_frame(rng: &mut Rng, lo: i64, hi: i64, gap: f64) -> Option<(Sketch, f64)> {
    let a = super::sketch::degrees(rng, lo, hi);
    if (a - 90.0).abs() < gap {
        return None;
    }
    Some((transversal(rng, a, a), a))
}

/// Lines AB and CD cut by the transversal EF at G and H: E, G, H, F in this order
/// along it, A and C on the same side of it. `a` and `b` are the angles (degrees,
/// within 0..180) from the transversal's direction E→F to GA and to HC, so the
/// lines are parallel exactly when `a == b`. States the incidences, order and
/// sides as conditions and draws the three lines.
pub(super) fn transversal(rng: &mut Rng, a: f64, b: f64) -> Sketch {
    let mut s = Sketch::default();
    let tau = uniform(rng, 55.0, 125.0) + if rng.chance(0.5) { 180.0 } else { 0.0 };
    let g: P = [uniform(rng, 4.0, 6.0), uniform(rng, 3.0, 5.0)];
    let h = go(g, tau, uniform(rng, 3.5, 5.0));
    s.pt("E", go(g, tau + 180.0, uniform(rng, 1.8, 2.6)));
    s.pt("G", g);
    s.pt("H", h);
    s.pt("F", go(h, tau, uniform(rng, 1.8, 2.6)));
    s.pt("A", go(g, tau + a, uniform(rng, 2.5, 3.5)));
    s.pt("B", go(g, tau + a + 180.0, uniform(rng, 2.5, 3.5)));
    s.pt("C", go(h, tau + b, uniform(rng, 2.5, 3.5)));
    s.pt("D", go(h, tau + b + 180.0, uniform(rng, 2.5, 3.5)));
    for l in ["EF", "AB", "CD"] {
        s.seg(l);
    }
    s.cond(between("G", "AB"));
    s.cond(between("H", "CD"));
    s.cond(between("G", "EH"));
    s.cond(between("H", "GF"));
    s.cond(same_side("AC", "EF"));
    s
}
