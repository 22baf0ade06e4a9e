//! The formula catalogue: for each shape, the relations GeomVerse reasons with. Each
//! shape's formulas are in its definition (`shapes/<kind>.rs`); `FORMULAS` gathers
//! them, in table order.
//!
//! A formula computes one element (`output`) of a shape from others (`inputs`) and
//! explains itself in the solution text. The same `explain` function runs in two modes:
//! with words it writes the sentence and rounds every step to two decimals; without, it
//! only computes the exact value (used for the 3 % rounding filter). Formulas that are a
//! linear relation between their elements carry a `Linear` form so that the generator
//! can state them with a variable x (GeomVerse's "variablized inputs").

use super::expr::{Expr, ExprError, Func, call, n};
use super::shapes::{self, Role, ShapeKind};
use std::sync::LazyLock;

/// Phrases for the elements of one step in one annotation style (built by `text`).
pub(crate) trait StepWords {
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
pub(crate) struct Ctx<'a> {
    pub formula: &'a Formula,
    values: &'a [(Role, f64)],
    round: bool,
    words: Option<&'a dyn StepWords>,
    /// The sentence(s) written so far.
    pub text: String,
}

impl<'a> Ctx<'a> {
    /// Exact mode: no text, no intermediate rounding.
    pub(crate) fn exact(formula: &'a Formula, values: &'a [(Role, f64)]) -> Self {
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
    pub(crate) fn with_words(
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

    /// The inputs stated with their values (text mode only).
    pub(super) fn given_inputs(&self) -> String {
        let roles = self.formula.inputs;
        let vals: Vec<f64> = roles.iter().map(|r| self.x(*r)).collect();
        self.with(|w| w.given(roles, &vals))
    }
}

/// How a formula computes and explains its output.
pub(crate) type Explain = fn(&mut Ctx) -> Result<f64, ExprError>;

/// Σ coefficient · element = rhs, the form in which a formula can be variablized.
#[derive(Clone, Copy)]
pub(crate) struct Linear {
    /// Elements that can be given as `a·x + b`, with their coefficients (all positive).
    pub terms: &'static [(Role, f64)],
    /// The other side, from the inputs that stay numbers (`180`, the perimeter, …).
    pub rhs: fn(&Ctx) -> Expr,
}

/// One rule of geometry: `output` of a `kind` shape from its `inputs`.
pub(crate) struct Formula {
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
    pub(crate) fn exact(&self, values: &[(Role, f64)]) -> Result<f64, ExprError> {
        (self.explain)(&mut Ctx::exact(self, values))
    }

    /// The output as the solution computes it, every step rounded to two decimals.
    pub(crate) fn rounded(&self, values: &[(Role, f64)]) -> Result<f64, ExprError> {
        (self.explain)(&mut Ctx::rounded(self, values))
    }

    /// Whether the computation uses π (the question then says "Assume π = 3.14"):
    /// round shapes, whenever an area, perimeter or arc length is involved.
    pub(crate) fn uses_pi(&self) -> bool {
        self.kind.def().round
            && self
                .inputs
                .iter()
                .chain([&self.output])
                .any(|r| !r.connectable())
    }
}

/// "{given}, so {output} is {chain}."
pub(super) fn generic(c: &mut Ctx, e: Expr) -> Result<f64, ExprError> {
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

pub(super) fn sin(e: Expr) -> Expr {
    call(Func::Sin, e)
}
pub(super) fn cos(e: Expr) -> Expr {
    call(Func::Cos, e)
}
pub(super) fn tan(e: Expr) -> Expr {
    call(Func::Tan, e)
}

// Short names for the roles, for the formula tables of `shapes/`.
pub(super) const E0: Role = Role::Edge(0);
pub(super) const E1: Role = Role::Edge(1);
pub(super) const E2: Role = Role::Edge(2);
pub(super) const E3: Role = Role::Edge(3);
pub(super) const A0: Role = Role::Angle(0);
pub(super) const A1: Role = Role::Angle(1);
pub(super) const A2: Role = Role::Angle(2);
pub(super) const AREA: Role = Role::Area;
pub(super) const PERIM: Role = Role::Perimeter;
pub(super) const ARC: Role = Role::ArcLength;
pub(super) const DIAG: Role = Role::Diagonal;
pub(super) const DIAM: Role = Role::Diameter;
pub(super) const HEIGHT: Role = Role::Height;

/// `formula!(id, kind, [inputs] => output, explain)`, with `linear terms, rhs` after
/// it for a formula that can be variablized.
macro_rules! formula {
    ($id:literal, $kind:expr, [$($i:expr),*] => $o:expr, $explain:expr) => {
        $crate::generate::formulas::Formula {
            id: $id, kind: $kind, inputs: &[$($i),*], output: $o, explain: $explain, linear: None,
        }
    };
    ($id:literal, $kind:expr, [$($i:expr),*] => $o:expr, $explain:expr, linear $terms:expr, $rhs:expr) => {
        $crate::generate::formulas::Formula {
            id: $id, kind: $kind, inputs: &[$($i),*], output: $o, explain: $explain,
            linear: Some($crate::generate::formulas::Linear { terms: $terms, rhs: $rhs }),
        }
    };
}
pub(super) use formula;

/// The catalogue: every shape's formulas (91 over 15 shapes), then the 3 angle
/// connectors', in the order of `shapes::SHAPES` and `shapes::CONNECTORS`.
pub(crate) static FORMULAS: LazyLock<Vec<&'static Formula>> = LazyLock::new(|| {
    (shapes::SHAPES.iter().chain(shapes::CONNECTORS.iter()))
        .flat_map(|def| def.formulas)
        .collect()
});

/// The formula with this id.
pub(crate) fn by_id(id: &str) -> Option<&'static Formula> {
    FORMULAS.iter().copied().find(|f| f.id == id)
}

/// Number of formulas over real shapes (the connectors not counted), for documentation
/// and tests: GeomVerse has 68.
#[cfg(test)]
pub(crate) fn shape_formula_count() -> usize {
    FORMULAS.iter().filter(|f| !f.kind.is_connector()).count()
}

impl std::fmt::Debug for Formula {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.id)
    }
}
