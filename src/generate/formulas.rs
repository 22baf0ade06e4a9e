//! The formula catalogue: for each shape, the relations GeomVerse reasons with.
//!
//! A formula computes one element (`output`) of a shape from others (`inputs`) and
//! explains itself in the solution text. The same `explain` function runs in two modes:
//! with words it writes the sentence and rounds every step to two decimals; without, it
//! only computes the exact value (used for the 3 % rounding filter). Formulas that are a
//! linear relation between their elements carry a `Linear` form so that the generator
//! can state them with a variable x (GeomVerse's "variablized inputs").

use super::expr::{self, Expr, ExprError, Func, PI, add, call, div, mul, n, sq, sqrt, sub};
use super::shapes::{Role, ShapeKind};

/// Phrases for the elements of one step in one annotation style (built by `text`).
pub trait StepWords {
    /// "the ABCD rectangle" / "the blue rectangle".
    fn shape(&self) -> String;
    /// "the AB side", "the BAC angle", "the side marked with a", "the α angle"; for
    /// aggregates "the area of the ABCD rectangle".
    fn name(&self, role: Role) -> String;
    /// "the length of the AB side", "the degree of the BAC angle", "the area of …".
    fn quantity(&self, role: Role) -> String;
    /// Inputs stated with their values: "the lengths of the AD and the AB sides of the
    /// ABCD parallelogram are 10 and 12".
    fn given(&self, roles: &[Role], values: &[f64]) -> String;
}

/// One evaluation of a formula: input values, a rounding mode, and words when text is
/// wanted.
pub struct Ctx<'a> {
    pub formula: &'a Formula,
    values: &'a [(Role, f64)],
    round: bool,
    words: Option<&'a dyn StepWords>,
    /// The sentence(s) written so far.
    pub text: String,
}

impl<'a> Ctx<'a> {
    /// Exact mode: no text, no intermediate rounding.
    pub fn exact(formula: &'a Formula, values: &'a [(Role, f64)]) -> Self {
        Ctx {
            formula,
            values,
            round: false,
            words: None,
            text: String::new(),
        }
    }

    /// Rounded mode without text: the value the solution arrives at.
    pub(crate) fn rounded(formula: &'a Formula, values: &'a [(Role, f64)]) -> Self {
        Ctx {
            formula,
            values,
            round: true,
            words: None,
            text: String::new(),
        }
    }

    /// Text mode: writes the explanation, rounding every step.
    pub fn with_words(
        formula: &'a Formula,
        values: &'a [(Role, f64)],
        words: &'a dyn StepWords,
    ) -> Self {
        Ctx {
            formula,
            values,
            round: true,
            words: Some(words),
            text: String::new(),
        }
    }

    /// The value of an input role (0 when absent; `run` checks presence first).
    pub(crate) fn x(&self, r: Role) -> f64 {
        self.values
            .iter()
            .find(|(role, _)| *role == r)
            .map_or(0.0, |(_, v)| *v)
    }

    /// The value of an input role as an expression leaf.
    pub(crate) fn v(&self, r: Role) -> Expr {
        n(self.x(r))
    }

    /// Evaluates `e`: in text mode writes its chain and returns the rounded result.
    pub(crate) fn calc(&mut self, e: Expr) -> Result<f64, ExprError> {
        if !self.round {
            return e.eval();
        }
        let (chain, v) = e.chain()?;
        if self.words.is_some() {
            self.text.push_str(&chain);
        }
        Ok(v)
    }

    /// Appends words (text mode only).
    pub(crate) fn say(&mut self, s: &str) {
        if self.words.is_some() {
            self.text.push_str(s);
        }
    }

    /// Runs `f` with the words, when in text mode.
    pub(crate) fn with<R: Default>(&self, f: impl FnOnce(&dyn StepWords) -> R) -> R {
        self.words.map(f).unwrap_or_default()
    }

    fn given_inputs(&self) -> String {
        let roles = self.formula.inputs;
        let vals: Vec<f64> = roles.iter().map(|r| self.x(*r)).collect();
        self.with(|w| w.given(roles, &vals))
    }
}

/// How a formula computes and explains its output.
pub(crate) type Explain = fn(&mut Ctx) -> Result<f64, ExprError>;

/// Σ coefficient · element = rhs, the form in which a formula can be variablized.
#[derive(Clone, Copy)]
pub struct Linear {
    /// Elements that can be given as `a·x + b`, with their coefficients (all positive).
    pub terms: &'static [(Role, f64)],
    /// The other side, from the inputs that stay numbers (`180`, the perimeter, …).
    pub rhs: fn(&Ctx) -> Expr,
}

/// One rule of geometry: `output` of a `kind` shape from its `inputs`.
pub struct Formula {
    /// Stable identifier, `shape.what`.
    pub id: &'static str,
    pub kind: ShapeKind,
    pub inputs: &'static [Role],
    pub output: Role,
    pub explain: Explain,
    pub linear: Option<Linear>,
}

impl Formula {
    /// The exact output for the given input values.
    pub fn exact(&self, values: &[(Role, f64)]) -> Result<f64, ExprError> {
        (self.explain)(&mut Ctx::exact(self, values))
    }

    /// The output as the solution computes it, every step rounded to two decimals.
    pub fn rounded(&self, values: &[(Role, f64)]) -> Result<f64, ExprError> {
        (self.explain)(&mut Ctx::rounded(self, values))
    }

    /// Whether the computation uses π (the question then says "Assume π = 3.14"):
    /// round shapes, whenever an area, perimeter or arc length is involved.
    pub(crate) fn uses_pi(&self) -> bool {
        let round = matches!(
            self.kind,
            ShapeKind::Circle
                | ShapeKind::Semicircle
                | ShapeKind::Sector
                | ShapeKind::RectanglePlusSemicircle
                | ShapeKind::RectangleMinusSemicircle
                | ShapeKind::SquareMinusCircle
        );
        round
            && self
                .inputs
                .iter()
                .chain([&self.output])
                .any(|r| !r.connectable())
    }
}

/// "{given}, so {output} is {chain}."
fn generic(c: &mut Ctx, e: Expr) -> Result<f64, ExprError> {
    let given = c.given_inputs();
    let out = c.with(|w| w.quantity(c.formula.output));
    c.say(&format!("{}, so {out} is ", capitalise(&given)));
    let v = c.calc(e)?;
    c.say(".");
    Ok(v)
}

/// Upper-cases the first letter of a sentence.
pub(crate) fn capitalise(s: &str) -> String {
    let mut cs = s.chars();
    match cs.next() {
        Some(f) => f.to_uppercase().chain(cs).collect(),
        None => String::new(),
    }
}

/// Composite "other side" from area: `OtherSide * d ± k = A` (paper table 3 (c)).
fn composite_side_from_area(c: &mut Ctx, extra: Expr, plus: bool) -> Result<f64, ExprError> {
    let (a, d) = (c.x(Role::Area), c.x(Role::Edge(1)));
    let given = c.given_inputs();
    let (op, inv) = if plus {
        ("+", sub as fn(Expr, Expr) -> Expr)
    } else {
        ("-", add as fn(Expr, Expr) -> Expr)
    };
    c.say(&format!(
        "{}, so OtherSide * {} {op} {extra} = {}, so OtherSide * {} = ",
        capitalise(&given),
        expr::fmt_num(d),
        expr::fmt_num(a),
        expr::fmt_num(d)
    ));
    let rest = c.calc(inv(n(a), extra))?;
    let out = c.with(|w| w.quantity(Role::Edge(0)));
    c.say(&format!(". Therefore, {out} is "));
    let v = c.calc(div(n(rest), n(d)))?;
    c.say(".");
    Ok(v)
}

/// Composite "other side" from perimeter: `2 * OtherSide + k = P` (table 3 (e)).
fn composite_side_from_perimeter(c: &mut Ctx, semi: bool) -> Result<f64, ExprError> {
    let (p, d) = (c.x(Role::Perimeter), c.x(Role::Edge(1)));
    let ds = expr::fmt_num(d);
    let shape = c.with(|w| w.shape());
    let known: Expr = if semi {
        add(n(d), div(mul(n(d), n(PI)), n(2.0)))
    } else {
        mul(n(3.0), n(d))
    };
    if semi {
        c.say(&format!(
            "The diameter of the semi-circle in {shape} is equal to the side of the rectangle with length {ds} so the shape has two sides with equal but unknown lengths, one side with length {ds}, and one semi-circle arc with diameter {ds}. So the perimeter is 2 * OtherSide + {known} = {}. So 2 * OtherSide = ",
            expr::fmt_num(p)
        ));
    } else {
        c.say(&format!(
            "The side of the equilateral triangle in {shape} is equal to the side of the rectangle with length {ds} so the shape has two rectangle sides with equal but unknown lengths, one rectangle side with length {ds}, and two triangle sides with length {ds}. The perimeter of the shape is {} so 2 * OtherSide + {known} = {}. So 2 * OtherSide = ",
            expr::fmt_num(p),
            expr::fmt_num(p)
        ));
    }
    let rest_expr = if semi {
        sub(sub(n(p), n(d)), div(mul(n(d), n(PI)), n(2.0)))
    } else {
        sub(n(p), mul(n(3.0), n(d)))
    };
    let rest = c.calc(rest_expr)?;
    let out = c.with(|w| w.quantity(Role::Edge(0)));
    c.say(&format!(". Therefore, {out} is "));
    let v = c.calc(div(n(rest), n(2.0)))?;
    c.say(".");
    Ok(v)
}

/// Composite: the side carrying the cut/added part from perimeter and the other side.
fn composite_d_from_perimeter(c: &mut Ctx, semi: bool) -> Result<f64, ExprError> {
    let (p, l) = (c.x(Role::Perimeter), c.x(Role::Edge(0)));
    let given = c.given_inputs();
    let out = c.with(|w| w.quantity(Role::Edge(1)));
    let k = if semi {
        add(n(1.0), div(n(PI), n(2.0)))
    } else {
        n(3.0)
    };
    let what = if semi {
        "the perimeter is 2 * OtherSide + Side + Side * 3.14 / 2"
    } else {
        "the perimeter is 2 * OtherSide + 3 * Side"
    };
    c.say(&format!("{}; {what}, so {out} is ", capitalise(&given)));
    let v = c.calc(div(sub(n(p), mul(n(2.0), n(l))), k))?;
    c.say(".");
    Ok(v)
}

fn heron(c: &mut Ctx) -> Result<f64, ExprError> {
    let (ab, bc, ca) = (c.x(Role::Edge(0)), c.x(Role::Edge(1)), c.x(Role::Edge(2)));
    let given = c.given_inputs();
    c.say(&format!(
        "{}, so the semi-perimeter is ",
        capitalise(&given)
    ));
    let s = c.calc(div(add(add(n(ab), n(bc)), n(ca)), n(2.0)))?;
    let out = c.with(|w| w.quantity(Role::Area));
    c.say(&format!(" and {out} is "));
    let e = sqrt(mul(
        mul(mul(n(s), sub(n(s), n(ab))), sub(n(s), n(bc))),
        sub(n(s), n(ca)),
    ));
    let v = c.calc(e)?;
    c.say(".");
    Ok(v)
}

fn connector(c: &mut Ctx, e: fn(Expr) -> Expr, word: &str) -> Result<f64, ExprError> {
    let (inn, out) = (Role::Angle(0), Role::Angle(1));
    let given = c.with(|w| w.given(&[inn], &[c.x(inn)]));
    let (a, b) = c.with(|w| (w.name(inn), w.name(out)));
    let q = c.with(|w| w.quantity(out));
    c.say(&format!(
        "{}, and {a} and {b} are {word}, so {q} is ",
        capitalise(&given)
    ));
    let v = c.calc(e(c.v(inn)))?;
    c.say(".");
    Ok(v)
}

fn sin(e: Expr) -> Expr {
    call(Func::Sin, e)
}
fn cos(e: Expr) -> Expr {
    call(Func::Cos, e)
}
fn tan(e: Expr) -> Expr {
    call(Func::Tan, e)
}

const E0: Role = Role::Edge(0);
const E1: Role = Role::Edge(1);
const E2: Role = Role::Edge(2);
const E3: Role = Role::Edge(3);
const A0: Role = Role::Angle(0);
const A1: Role = Role::Angle(1);
const AREA: Role = Role::Area;
const PERIM: Role = Role::Perimeter;
const ARC: Role = Role::ArcLength;
const DIAG: Role = Role::Diagonal;
const DIAM: Role = Role::Diameter;
const HEIGHT: Role = Role::Height;

use ShapeKind as K;

macro_rules! formula {
    ($id:literal, $kind:expr, [$($i:expr),*] => $o:expr, $explain:expr) => {
        Formula { id: $id, kind: $kind, inputs: &[$($i),*], output: $o, explain: $explain, linear: None }
    };
    ($id:literal, $kind:expr, [$($i:expr),*] => $o:expr, $explain:expr, linear $terms:expr, $rhs:expr) => {
        Formula {
            id: $id, kind: $kind, inputs: &[$($i),*], output: $o, explain: $explain,
            linear: Some(Linear { terms: $terms, rhs: $rhs }),
        }
    };
}

/// The catalogue: 91 formulas over 15 shapes, plus the 3 angle connectors.
pub static FORMULAS: &[Formula] = &[
    // Square.
    formula!("square.area", K::Square, [E0] => AREA, |c| generic(c, sq(c.v(E0)))),
    formula!("square.perimeter", K::Square, [E0] => PERIM, |c| generic(c, mul(n(4.0), c.v(E0)))),
    formula!("square.diagonal", K::Square, [E0] => DIAG, |c| generic(c, sqrt(mul(n(2.0), sq(c.v(E0)))))),
    formula!("square.side_from_area", K::Square, [AREA] => E0, |c| generic(c, sqrt(c.v(AREA)))),
    formula!("square.side_from_perimeter", K::Square, [PERIM] => E0,
        |c| generic(c, div(c.v(PERIM), n(4.0))), linear &[(E0, 4.0)], |c| c.v(PERIM)),
    formula!("square.side_from_diagonal", K::Square, [DIAG] => E0, |c| generic(c, sqrt(div(sq(c.v(DIAG)), n(2.0))))),
    formula!("square.area_from_diagonal", K::Square, [DIAG] => AREA, |c| generic(c, div(sq(c.v(DIAG)), n(2.0)))),
    // Rectangle: Edge(0) and Edge(1) are its two side lengths.
    formula!("rectangle.area", K::Rectangle, [E0, E1] => AREA, |c| generic(c, mul(c.v(E0), c.v(E1)))),
    formula!("rectangle.perimeter", K::Rectangle, [E0, E1] => PERIM, |c| generic(c, mul(n(2.0), add(c.v(E0), c.v(E1))))),
    formula!("rectangle.diagonal", K::Rectangle, [E0, E1] => DIAG, |c| generic(c, sqrt(add(sq(c.v(E0)), sq(c.v(E1)))))),
    formula!("rectangle.side_from_area", K::Rectangle, [AREA, E1] => E0, |c| generic(c, div(c.v(AREA), c.v(E1)))),
    formula!("rectangle.side_from_perimeter", K::Rectangle, [PERIM, E1] => E0,
        |c| generic(c, sub(div(c.v(PERIM), n(2.0)), c.v(E1))), linear &[(E0, 2.0), (E1, 2.0)], |c| c.v(PERIM)),
    formula!("rectangle.side_from_diagonal", K::Rectangle, [DIAG, E1] => E0, |c| generic(c, sqrt(sub(sq(c.v(DIAG)), sq(c.v(E1)))))),
    // Right triangle: legs AB = Edge(0), BC = Edge(1), hypotenuse CA = Edge(2); Angle(0) at A
    // (opposite BC), Angle(1) at C.
    formula!("right_triangle.hypotenuse", K::RightTriangle, [E0, E1] => E2, |c| generic(c, sqrt(add(sq(c.v(E0)), sq(c.v(E1)))))),
    formula!("right_triangle.leg_from_hypotenuse", K::RightTriangle, [E2, E1] => E0, |c| generic(c, sqrt(sub(sq(c.v(E2)), sq(c.v(E1)))))),
    formula!("right_triangle.area", K::RightTriangle, [E0, E1] => AREA, |c| generic(c, div(mul(c.v(E0), c.v(E1)), n(2.0)))),
    formula!("right_triangle.leg_from_area", K::RightTriangle, [AREA, E1] => E0, |c| generic(c, div(mul(c.v(AREA), n(2.0)), c.v(E1)))),
    formula!("right_triangle.perimeter", K::RightTriangle, [E0, E1] => PERIM,
        |c| generic(c, add(add(c.v(E0), c.v(E1)), sqrt(add(sq(c.v(E0)), sq(c.v(E1))))))),
    formula!("right_triangle.angle_from_opposite_hypotenuse", K::RightTriangle, [E1, E2] => A0, |c| generic(c, call(Func::Asin, div(c.v(E1), c.v(E2))))),
    formula!("right_triangle.angle_from_adjacent_hypotenuse", K::RightTriangle, [E0, E2] => A0, |c| generic(c, call(Func::Acos, div(c.v(E0), c.v(E2))))),
    formula!("right_triangle.angle_from_legs", K::RightTriangle, [E1, E0] => A0, |c| generic(c, call(Func::Atan, div(c.v(E1), c.v(E0))))),
    formula!("right_triangle.opposite_from_hypotenuse", K::RightTriangle, [E2, A0] => E1, |c| generic(c, mul(c.v(E2), sin(c.v(A0))))),
    formula!("right_triangle.adjacent_from_hypotenuse", K::RightTriangle, [E2, A0] => E0, |c| generic(c, mul(c.v(E2), cos(c.v(A0))))),
    formula!("right_triangle.opposite_from_adjacent", K::RightTriangle, [E0, A0] => E1, |c| generic(c, mul(c.v(E0), tan(c.v(A0))))),
    formula!("right_triangle.adjacent_from_opposite", K::RightTriangle, [E1, A0] => E0, |c| generic(c, div(c.v(E1), tan(c.v(A0))))),
    formula!("right_triangle.hypotenuse_from_opposite", K::RightTriangle, [E1, A0] => E2, |c| generic(c, div(c.v(E1), sin(c.v(A0))))),
    formula!("right_triangle.hypotenuse_from_adjacent", K::RightTriangle, [E0, A0] => E2, |c| generic(c, div(c.v(E0), cos(c.v(A0))))),
    formula!("right_triangle.other_acute_angle", K::RightTriangle, [A0] => A1,
        |c| generic(c, sub(n(90.0), c.v(A0))), linear &[(A0, 1.0), (A1, 1.0)], |_| n(90.0)),
    // Triangle: AB = Edge(0), BC = Edge(1), CA = Edge(2); angles at A, B, C.
    formula!("triangle.perimeter", K::Triangle, [E0, E1, E2] => PERIM, |c| generic(c, add(add(c.v(E0), c.v(E1)), c.v(E2)))),
    formula!("triangle.side_from_perimeter", K::Triangle, [PERIM, E0, E1] => E2,
        |c| generic(c, sub(sub(c.v(PERIM), c.v(E0)), c.v(E1))), linear &[(E0, 1.0), (E1, 1.0), (E2, 1.0)], |c| c.v(PERIM)),
    formula!("triangle.angle_sum", K::Triangle, [A0, A1] => Role::Angle(2),
        |c| generic(c, sub(sub(n(180.0), c.v(A0)), c.v(A1))), linear &[(A0, 1.0), (A1, 1.0), (Role::Angle(2), 1.0)], |_| n(180.0)),
    formula!("triangle.area_from_two_sides_and_angle", K::Triangle, [E0, E2, A0] => AREA,
        |c| generic(c, div(mul(mul(c.v(E0), c.v(E2)), sin(c.v(A0))), n(2.0)))),
    formula!("triangle.law_of_cosines", K::Triangle, [E0, E2, A0] => E1,
        |c| generic(c, sqrt(sub(add(sq(c.v(E0)), sq(c.v(E2))), mul(mul(mul(n(2.0), c.v(E0)), c.v(E2)), cos(c.v(A0))))))),
    formula!("triangle.side_from_area", K::Triangle, [AREA, E0, A0] => E2,
        |c| generic(c, div(mul(n(2.0), c.v(AREA)), mul(c.v(E0), sin(c.v(A0)))))),
    formula!("triangle.heron_area", K::Triangle, [E0, E1, E2] => AREA, heron),
    // Equilateral triangle.
    formula!("equilateral_triangle.perimeter", K::EquilateralTriangle, [E0] => PERIM, |c| generic(c, mul(n(3.0), c.v(E0)))),
    formula!("equilateral_triangle.area", K::EquilateralTriangle, [E0] => AREA, |c| generic(c, mul(div(sqrt(n(3.0)), n(4.0)), sq(c.v(E0))))),
    formula!("equilateral_triangle.side_from_perimeter", K::EquilateralTriangle, [PERIM] => E0,
        |c| generic(c, div(c.v(PERIM), n(3.0))), linear &[(E0, 3.0)], |c| c.v(PERIM)),
    formula!("equilateral_triangle.side_from_area", K::EquilateralTriangle, [AREA] => E0,
        |c| generic(c, sqrt(div(mul(c.v(AREA), n(4.0)), sqrt(n(3.0)))))),
    // Parallelogram: AB = Edge(0), AD = Edge(1), DAB = Angle(0), ABC = Angle(1).
    formula!("parallelogram.perimeter", K::Parallelogram, [E0, E1] => PERIM, |c| generic(c, mul(n(2.0), add(c.v(E0), c.v(E1))))),
    formula!("parallelogram.side_from_perimeter", K::Parallelogram, [PERIM, E1] => E0,
        |c| generic(c, sub(div(c.v(PERIM), n(2.0)), c.v(E1))), linear &[(E0, 2.0), (E1, 2.0)], |c| c.v(PERIM)),
    formula!("parallelogram.area", K::Parallelogram, [E0, E1, A0] => AREA, |c| generic(c, mul(mul(c.v(E0), c.v(E1)), sin(c.v(A0))))),
    formula!("parallelogram.side_from_area", K::Parallelogram, [AREA, E1, A0] => E0,
        |c| generic(c, div(c.v(AREA), mul(c.v(E1), sin(c.v(A0)))))),
    formula!("parallelogram.angle_from_area", K::Parallelogram, [AREA, E0, E1] => A0,
        |c| generic(c, call(Func::Asin, div(c.v(AREA), mul(c.v(E0), c.v(E1)))))),
    formula!("parallelogram.adjacent_angle", K::Parallelogram, [A0] => A1,
        |c| generic(c, sub(n(180.0), c.v(A0))), linear &[(A0, 1.0), (A1, 1.0)], |_| n(180.0)),
    // Trapezoid: bases Edge(0) (bottom) and Edge(1) (top), legs Edge(2), Edge(3).
    formula!("trapezoid.area", K::Trapezoid, [E0, E1, HEIGHT] => AREA, |c| generic(c, div(mul(add(c.v(E0), c.v(E1)), c.v(HEIGHT)), n(2.0)))),
    formula!("trapezoid.base_from_area", K::Trapezoid, [AREA, E1, HEIGHT] => E0,
        |c| generic(c, sub(div(mul(n(2.0), c.v(AREA)), c.v(HEIGHT)), c.v(E1)))),
    formula!("trapezoid.height_from_area", K::Trapezoid, [AREA, E0, E1] => HEIGHT,
        |c| generic(c, div(mul(n(2.0), c.v(AREA)), add(c.v(E0), c.v(E1))))),
    formula!("trapezoid.perimeter", K::Trapezoid, [E0, E1, E2, E3] => PERIM,
        |c| generic(c, add(add(add(c.v(E0), c.v(E1)), c.v(E2)), c.v(E3)))),
    formula!("trapezoid.side_from_perimeter", K::Trapezoid, [PERIM, E0, E1, E2] => E3,
        |c| generic(c, sub(sub(sub(c.v(PERIM), c.v(E0)), c.v(E1)), c.v(E2))),
        linear &[(E0, 1.0), (E1, 1.0), (E2, 1.0), (E3, 1.0)], |c| c.v(PERIM)),
    // Circle (the diameter is drawn inside).
    formula!("circle.area", K::Circle, [DIAM] => AREA, |c| generic(c, div(mul(n(PI), sq(c.v(DIAM))), n(4.0)))),
    formula!("circle.circumference", K::Circle, [DIAM] => PERIM, |c| generic(c, mul(n(PI), c.v(DIAM)))),
    formula!("circle.diameter_from_area", K::Circle, [AREA] => DIAM, |c| generic(c, sqrt(div(mul(n(4.0), c.v(AREA)), n(PI))))),
    formula!("circle.diameter_from_circumference", K::Circle, [PERIM] => DIAM, |c| generic(c, div(c.v(PERIM), n(PI)))),
    // Semi-circle: Edge(0) is the diameter.
    formula!("semicircle.area", K::Semicircle, [E0] => AREA, |c| generic(c, div(mul(n(PI), sq(c.v(E0))), n(8.0)))),
    formula!("semicircle.perimeter", K::Semicircle, [E0] => PERIM, |c| generic(c, add(c.v(E0), div(mul(c.v(E0), n(PI)), n(2.0))))),
    formula!("semicircle.arc_length", K::Semicircle, [E0] => ARC, |c| generic(c, div(mul(c.v(E0), n(PI)), n(2.0)))),
    formula!("semicircle.diameter_from_area", K::Semicircle, [AREA] => E0, |c| generic(c, sqrt(div(mul(n(8.0), c.v(AREA)), n(PI))))),
    formula!("semicircle.diameter_from_perimeter", K::Semicircle, [PERIM] => E0, |c| generic(c, div(c.v(PERIM), add(n(1.0), div(n(PI), n(2.0)))))),
    formula!("semicircle.diameter_from_arc_length", K::Semicircle, [ARC] => E0, |c| generic(c, div(mul(c.v(ARC), n(2.0)), n(PI)))),
    // Sector: Edge(0) is a radius, Angle(0) the central angle.
    formula!("sector.area", K::Sector, [E0, A0] => AREA, |c| generic(c, mul(mul(div(c.v(A0), n(360.0)), n(PI)), sq(c.v(E0))))),
    formula!("sector.arc_length", K::Sector, [E0, A0] => ARC, |c| generic(c, mul(mul(mul(div(c.v(A0), n(360.0)), n(2.0)), n(PI)), c.v(E0)))),
    formula!("sector.perimeter", K::Sector, [E0, A0] => PERIM,
        |c| generic(c, add(mul(n(2.0), c.v(E0)), mul(mul(mul(div(c.v(A0), n(360.0)), n(2.0)), n(PI)), c.v(E0))))),
    formula!("sector.radius_from_area", K::Sector, [AREA, A0] => E0,
        |c| generic(c, sqrt(div(c.v(AREA), mul(div(c.v(A0), n(360.0)), n(PI)))))),
    formula!("sector.radius_from_arc_length", K::Sector, [ARC, A0] => E0,
        |c| generic(c, div(c.v(ARC), mul(mul(div(c.v(A0), n(360.0)), n(2.0)), n(PI))))),
    formula!("sector.angle_from_area", K::Sector, [AREA, E0] => A0,
        |c| generic(c, mul(div(c.v(AREA), mul(n(PI), sq(c.v(E0)))), n(360.0)))),
    formula!("sector.angle_from_arc_length", K::Sector, [ARC, E0] => A0,
        |c| generic(c, mul(div(c.v(ARC), mul(mul(n(2.0), n(PI)), c.v(E0))), n(360.0)))),
    // Rectangle + semi-circle: Edge(0) the other side, Edge(1) the side whose parallel
    // carries the semi-circle.
    formula!("rectangle_plus_semicircle.area", K::RectanglePlusSemicircle, [E0, E1] => AREA,
        |c| generic(c, add(mul(c.v(E0), c.v(E1)), div(mul(n(PI), sq(c.v(E1))), n(8.0))))),
    formula!("rectangle_plus_semicircle.perimeter", K::RectanglePlusSemicircle, [E0, E1] => PERIM,
        |c| generic(c, add(add(mul(n(2.0), c.v(E0)), c.v(E1)), div(mul(c.v(E1), n(PI)), n(2.0))))),
    formula!("rectangle_plus_semicircle.side_from_area", K::RectanglePlusSemicircle, [AREA, E1] => E0,
        |c| { let e = div(mul(n(PI), sq(c.v(E1))), n(8.0)); composite_side_from_area(c, e, true) }),
    formula!("rectangle_plus_semicircle.side_from_perimeter", K::RectanglePlusSemicircle, [PERIM, E1] => E0,
        |c| composite_side_from_perimeter(c, true), linear &[(E0, 2.0)],
        |c| sub(sub(c.v(PERIM), c.v(E1)), div(mul(c.v(E1), n(PI)), n(2.0)))),
    formula!("rectangle_plus_semicircle.diameter_from_perimeter", K::RectanglePlusSemicircle, [PERIM, E0] => E1,
        |c| composite_d_from_perimeter(c, true)),
    // Rectangle − semi-circle.
    formula!("rectangle_minus_semicircle.area", K::RectangleMinusSemicircle, [E0, E1] => AREA,
        |c| generic(c, sub(mul(c.v(E0), c.v(E1)), div(mul(n(PI), sq(c.v(E1))), n(8.0))))),
    formula!("rectangle_minus_semicircle.perimeter", K::RectangleMinusSemicircle, [E0, E1] => PERIM,
        |c| generic(c, add(add(mul(n(2.0), c.v(E0)), c.v(E1)), div(mul(c.v(E1), n(PI)), n(2.0))))),
    formula!("rectangle_minus_semicircle.side_from_area", K::RectangleMinusSemicircle, [AREA, E1] => E0,
        |c| { let e = div(mul(n(PI), sq(c.v(E1))), n(8.0)); composite_side_from_area(c, e, false) }),
    formula!("rectangle_minus_semicircle.side_from_perimeter", K::RectangleMinusSemicircle, [PERIM, E1] => E0,
        |c| composite_side_from_perimeter(c, true), linear &[(E0, 2.0)],
        |c| sub(sub(c.v(PERIM), c.v(E1)), div(mul(c.v(E1), n(PI)), n(2.0)))),
    formula!("rectangle_minus_semicircle.diameter_from_perimeter", K::RectangleMinusSemicircle, [PERIM, E0] => E1,
        |c| composite_d_from_perimeter(c, true)),
    // Rectangle + equilateral triangle.
    formula!("rectangle_plus_equilateral.area", K::RectanglePlusEquilateral, [E0, E1] => AREA,
        |c| generic(c, add(mul(c.v(E0), c.v(E1)), mul(div(sqrt(n(3.0)), n(4.0)), sq(c.v(E1)))))),
    formula!("rectangle_plus_equilateral.perimeter", K::RectanglePlusEquilateral, [E0, E1] => PERIM,
        |c| generic(c, add(mul(n(2.0), c.v(E0)), mul(n(3.0), c.v(E1))))),
    formula!("rectangle_plus_equilateral.side_from_area", K::RectanglePlusEquilateral, [AREA, E1] => E0,
        |c| { let e = mul(div(sqrt(n(3.0)), n(4.0)), sq(c.v(E1))); composite_side_from_area(c, e, true) }),
    formula!("rectangle_plus_equilateral.side_from_perimeter", K::RectanglePlusEquilateral, [PERIM, E1] => E0,
        |c| composite_side_from_perimeter(c, false), linear &[(E0, 2.0), (E1, 3.0)], |c| c.v(PERIM)),
    formula!("rectangle_plus_equilateral.triangle_side_from_perimeter", K::RectanglePlusEquilateral, [PERIM, E0] => E1,
        |c| composite_d_from_perimeter(c, false), linear &[(E0, 2.0), (E1, 3.0)], |c| c.v(PERIM)),
    // Rectangle − equilateral triangle.
    formula!("rectangle_minus_equilateral.area", K::RectangleMinusEquilateral, [E0, E1] => AREA,
        |c| generic(c, sub(mul(c.v(E0), c.v(E1)), mul(div(sqrt(n(3.0)), n(4.0)), sq(c.v(E1)))))),
    formula!("rectangle_minus_equilateral.perimeter", K::RectangleMinusEquilateral, [E0, E1] => PERIM,
        |c| generic(c, add(mul(n(2.0), c.v(E0)), mul(n(3.0), c.v(E1))))),
    formula!("rectangle_minus_equilateral.side_from_area", K::RectangleMinusEquilateral, [AREA, E1] => E0,
        |c| { let e = mul(div(sqrt(n(3.0)), n(4.0)), sq(c.v(E1))); composite_side_from_area(c, e, false) }),
    formula!("rectangle_minus_equilateral.side_from_perimeter", K::RectangleMinusEquilateral, [PERIM, E1] => E0,
        |c| composite_side_from_perimeter(c, false), linear &[(E0, 2.0), (E1, 3.0)], |c| c.v(PERIM)),
    formula!("rectangle_minus_equilateral.triangle_side_from_perimeter", K::RectangleMinusEquilateral, [PERIM, E0] => E1,
        |c| composite_d_from_perimeter(c, false), linear &[(E0, 2.0), (E1, 3.0)], |c| c.v(PERIM)),
    // Square − circle (the circle is inscribed).
    formula!("square_minus_circle.area", K::SquareMinusCircle, [E0] => AREA,
        |c| generic(c, sub(sq(c.v(E0)), mul(div(n(PI), n(4.0)), sq(c.v(E0)))))),
    formula!("square_minus_circle.perimeter", K::SquareMinusCircle, [E0] => PERIM,
        |c| generic(c, add(mul(n(4.0), c.v(E0)), mul(n(PI), c.v(E0))))),
    formula!("square_minus_circle.side_from_area", K::SquareMinusCircle, [AREA] => E0,
        |c| generic(c, sqrt(div(c.v(AREA), sub(n(1.0), div(n(PI), n(4.0))))))),
    formula!("square_minus_circle.side_from_perimeter", K::SquareMinusCircle, [PERIM] => E0,
        |c| generic(c, div(c.v(PERIM), add(n(4.0), n(PI))))),
    // Connectors: Angle(0) is the new angle, Angle(1) the angle of the shape it serves.
    formula!("angles.supplementary", K::SupplementaryAngles, [A0] => A1,
        |c| connector(c, |e| sub(n(180.0), e), "supplementary"), linear &[(A0, 1.0), (A1, 1.0)], |_| n(180.0)),
    formula!("angles.complementary", K::ComplementaryAngles, [A0] => A1,
        |c| connector(c, |e| sub(n(90.0), e), "complementary"), linear &[(A0, 1.0), (A1, 1.0)], |_| n(90.0)),
    formula!("angles.vertical", K::VerticalAngles, [A0] => A1, |c| connector(c, |e| e, "vertical angles")),
];

/// The formula with this id.
pub fn by_id(id: &str) -> Option<&'static Formula> {
    FORMULAS.iter().find(|f| f.id == id)
}

/// Number of formulas over real shapes (the connectors not counted), for documentation
/// and tests: GeomVerse has 68.
pub fn shape_formula_count() -> usize {
    FORMULAS.iter().filter(|f| !f.kind.is_connector()).count()
}

impl std::fmt::Debug for Formula {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id)
    }
}
