//! The elements of a shape, relative to its kind ([`Role`]), and what quantity each is.

use serde::{Deserialize, Serialize};

/// An element of a shape, relative to its kind (see its definition's `edges` and
/// `angles` for what `Edge(i)` and `Angle(i)` are in each kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "role", content = "index")]
pub enum Role {
    /// A straight outline edge (one of a group of equal edges): connectable.
    Edge(u8),
    /// An angle at a vertex (one of a group of equal angles): connectable.
    Angle(u8),
    /// A drawn diagonal (square, rectangle).
    Diagonal,
    /// A drawn diameter inside a circle.
    Diameter,
    /// The height of a trapezoid (stated, not drawn).
    Height,
    Area,
    Perimeter,
    /// The arc length of a semi-circle or sector.
    ArcLength,
}

/// What kind of quantity a role is; question types select on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Quantity {
    /// A length that can be shared with another shape.
    Side,
    /// A length drawn inside the shape or only stated (diagonal, diameter, height).
    Length,
    Angle,
    Area,
    /// Perimeter, circumference or arc length.
    Perimeter,
}

impl Role {
    pub(crate) fn quantity(self) -> Quantity {
        match self {
            Role::Edge(_) => Quantity::Side,
            Role::Angle(_) => Quantity::Angle,
            Role::Diagonal | Role::Diameter | Role::Height => Quantity::Length,
            Role::Area => Quantity::Area,
            Role::Perimeter | Role::ArcLength => Quantity::Perimeter,
        }
    }

    /// Sides and angles can be shared with (derived from) another shape.
    pub(crate) fn connectable(self) -> bool {
        matches!(self, Role::Edge(_) | Role::Angle(_))
    }
}
