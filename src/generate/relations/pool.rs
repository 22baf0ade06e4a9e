//! GeomRel's relationship pool (§2.1, appendix C.1): every relation between
//! points, lines, angles and shapes that a relation-identification item can ask
//! about, in one table — its name, domain, the elements it relates, the family of
//! answer choices its question offers and the answers an item of it can have.

/// GeomRel's three domains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "lowercase")]
pub enum Domain {
    /// Points and lines only.
    Line,
    /// Angles formed by intersecting lines, and a quadrilateral's angles.
    Angle,
    /// Points, lines and segments against a figure.
    Shape,
}

impl Domain {
    /// The three domains, in report order.
    pub const ALL: [Domain; 3] = [Domain::Line, Domain::Angle, Domain::Shape];

    /// Its name in Problems, rows and reports.
    pub fn name(self) -> &'static str {
        match self {
            Domain::Line => "line",
            Domain::Angle => "angle",
            Domain::Shape => "shape",
        }
    }
}

impl crate::words::Words for Domain {
    const WHAT: &'static str = "domain";
    const ALL: &'static [Domain] = &Domain::ALL;
    fn name(self) -> &'static str {
        Domain::name(self)
    }
}

crate::words!(Domain);

/// The answer choices a question of one kind offers (its "Cannot be inferred"
/// option is added to every list: `CANNOT_BE_INFERRED`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// Three points.
    Collinearity,
    /// A point and a line.
    PointLine,
    /// Two lines.
    LineLine,
    /// Two angles, by their measures.
    AngleMeasures,
    /// Two angles where two lines meet a transversal (or two lines cross).
    AnglePositions,
    /// Two angles of a quadrilateral.
    QuadrilateralAngles,
    /// A point and a figure.
    PointFigure,
    /// A line and a circle.
    LineCircle,
    /// A segment and the triangle it is drawn in.
    TriangleSegment,
    /// A segment and the circle it is drawn in.
    CircleSegment,
}

/// The option every question has: the conditions do not settle the relation.
pub(crate) const CANNOT_BE_INFERRED: &str = "Cannot be inferred";

/// A chord that is not a diameter. GeomRel's plain "Chord" would also be true of
/// every diameter (a diameter is a chord), so a diameter item offering both would
/// have two right answers: the options of a family exclude each other.
pub(crate) const CHORD: &str = "Chord (not a diameter)";

impl Family {
    /// The choices, as GeomRel words them (appendix, table 23), without
    /// [`CANNOT_BE_INFERRED`]; each family's exclude each other ([`CHORD`]).
    pub(crate) fn choices(self) -> &'static [&'static str] {
        match self {
            Family::Collinearity => &["Collinear", "Not collinear"],
            Family::PointLine => &["On the line", "Not on the line"],
            Family::LineLine => &[
                "Parallel",
                "Perpendicular",
                "Intersecting but not perpendicular",
            ],
            Family::AngleMeasures => &["Complementary", "Supplementary", "Neither"],
            Family::AnglePositions => &[
                "Corresponding angles",
                "Alternate interior angles",
                "Consecutive interior angles",
                "Alternate exterior angles",
                "Consecutive exterior angles",
                "Vertical angles",
            ],
            Family::QuadrilateralAngles => &["Adjacent angles", "Opposite angles"],
            Family::PointFigure => &["Inside", "Outside", "On the boundary"],
            Family::LineCircle => &["Intersecting", "Tangent", "Disjoint"],
            Family::TriangleSegment => &["Median", "Altitude", "Angle bisector", "Midline"],
            Family::CircleSegment => &["Radius", "Diameter", CHORD],
        }
    }
}

/// One relation of the pool.
#[derive(Debug)]
pub struct Relation {
    /// Its name in Problems, reports and `--relation`.
    pub name: &'static str,
    pub domain: Domain,
    /// What it relates, as the question names them.
    pub elements: &'static str,
    /// The choices its question offers.
    pub family: Family,
    /// The choices an item of it can have as its answer (besides "Cannot be
    /// inferred"): each one of `family`'s.
    pub answers: &'static [&'static str],
}

/// The pool, by domain. The issue that asked for it lists 5 line, 9 angle and, as
/// its bullets enumerate them, 13 shape relations (it says 12, and GeomRel 26 in
/// all; the paper's own Table 2 is not in our copy): all 27 are here.
#[rustfmt::skip]
pub static RELATIONS: &[Relation] = &[
    // Line-based (5).
    rel("collinear", Domain::Line, "three points", Family::Collinearity, &["Collinear", "Not collinear"]),
    rel("point_on_line", Domain::Line, "a point and a line", Family::PointLine, &["On the line", "Not on the line"]),
    rel("parallel", Domain::Line, "two lines", Family::LineLine, &["Parallel"]),
    rel("perpendicular", Domain::Line, "two lines", Family::LineLine, &["Perpendicular"]),
    rel("intersecting", Domain::Line, "two lines", Family::LineLine, &["Intersecting but not perpendicular"]),
    // Angle-based (9).
    rel("complementary", Domain::Angle, "two angles", Family::AngleMeasures, &["Complementary", "Neither"]),
    rel("supplementary", Domain::Angle, "two angles", Family::AngleMeasures, &["Supplementary"]),
    rel("corresponding", Domain::Angle, "two angles at a transversal", Family::AnglePositions, &["Corresponding angles"]),
    rel("alternate_interior", Domain::Angle, "two angles at a transversal", Family::AnglePositions, &["Alternate interior angles"]),
    rel("consecutive_interior", Domain::Angle, "two angles at a transversal", Family::AnglePositions, &["Consecutive interior angles"]),
    rel("alternate_exterior", Domain::Angle, "two angles at a transversal", Family::AnglePositions, &["Alternate exterior angles"]),
    rel("consecutive_exterior", Domain::Angle, "two angles at a transversal", Family::AnglePositions, &["Consecutive exterior angles"]),
    rel("vertical", Domain::Angle, "two angles where two lines cross", Family::AnglePositions, &["Vertical angles"]),
    rel("quadrilateral_angles", Domain::Angle, "two angles of a quadrilateral", Family::QuadrilateralAngles, &["Adjacent angles", "Opposite angles"]),
    // Shape-based (13).
    rel("point_inside", Domain::Shape, "a point and a figure", Family::PointFigure, &["Inside"]),
    rel("point_outside", Domain::Shape, "a point and a figure", Family::PointFigure, &["Outside"]),
    rel("point_on_boundary", Domain::Shape, "a point and a figure", Family::PointFigure, &["On the boundary"]),
    rel("line_circle_intersecting", Domain::Shape, "a line and a circle", Family::LineCircle, &["Intersecting"]),
    rel("line_circle_tangent", Domain::Shape, "a line and a circle", Family::LineCircle, &["Tangent"]),
    rel("line_circle_disjoint", Domain::Shape, "a line and a circle", Family::LineCircle, &["Disjoint"]),
    rel("median", Domain::Shape, "a segment and a triangle", Family::TriangleSegment, &["Median"]),
    rel("altitude", Domain::Shape, "a segment and a triangle", Family::TriangleSegment, &["Altitude"]),
    rel("angle_bisector", Domain::Shape, "a segment and a triangle", Family::TriangleSegment, &["Angle bisector"]),
    rel("midline", Domain::Shape, "a segment and a triangle", Family::TriangleSegment, &["Midline"]),
    rel("radius", Domain::Shape, "a segment and a circle", Family::CircleSegment, &["Radius"]),
    rel("diameter", Domain::Shape, "a segment and a circle", Family::CircleSegment, &["Diameter"]),
    rel("chord", Domain::Shape, "a segment and a circle", Family::CircleSegment, &[CHORD]),
];

const fn rel(
    name: &'static str,
    domain: Domain,
    elements: &'static str,
    family: Family,
    answers: &'static [&'static str],
) -> Relation {
    Relation {
        name,
        domain,
        elements,
        family,
        answers,
    }
}

/// The relation named `name`.
pub(crate) fn relation(name: &str) -> Option<&'static Relation> {
    RELATIONS.iter().find(|r| r.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_consistent() {
        let count = |d: Domain| RELATIONS.iter().filter(|r| r.domain == d).count();
        assert_eq!(
            (
                count(Domain::Line),
                count(Domain::Angle),
                count(Domain::Shape)
            ),
            (5, 9, 13)
        );
        let mut names: Vec<&str> = RELATIONS.iter().map(|r| r.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), RELATIONS.len(), "names are unique");
        for r in RELATIONS {
            let choices = r.family.choices();
            assert!(!r.answers.is_empty(), "{}", r.name);
            for a in r.answers {
                assert!(choices.contains(a), "{}: {a} is no choice", r.name);
            }
            assert!(!choices.contains(&CANNOT_BE_INFERRED));
            let mut c = choices.to_vec();
            c.sort_unstable();
            c.dedup();
            assert_eq!(c.len(), choices.len(), "{}: repeated choices", r.name);
            assert_eq!(relation(r.name).map(|x| x.name), Some(r.name));
        }
        // Every answer of every family is some relation's.
        for r in RELATIONS {
            for c in r.family.choices().iter().filter(|c| **c != "Neither") {
                assert!(
                    RELATIONS
                        .iter()
                        .any(|o| o.family == r.family && o.answers.contains(c)),
                    "{c}"
                );
            }
        }
    }
}
