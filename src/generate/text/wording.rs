//! Wording: the sentences of the question and the solution in one annotation style,
//! from the names [`super::naming`] gave: each element's phrase, the question's facts
//! and asked quantity, and each step's worked explanation (GeomVerse's tables 3 and 4).

use super::ladder::{self, Kind};
use super::{TextError, bad, join};
use crate::generate::build::linear_text;
use crate::generate::expr::{Expr, add, fmt_num, mul, n, sub};
use crate::generate::formulas::{self, Ctx, Formula, StepWords, capitalise};
use crate::generate::problem::{
    Annotation, Diagram, ElementRef, Info, MeasureKind, Modality, Problem, SideKind, Status, Step,
};
use crate::generate::rewrite::phrasing;
use crate::generate::shapes::{Role, ShapeKind};

/// "the ABCD rectangle" / "the blue rectangle": shape `s` in style `a`.
fn shape_phrase(d: &Diagram, s: usize, a: Annotation) -> String {
    let Some(shape) = d.shapes.get(s) else {
        return "the shape".into();
    };
    let name = match a {
        Annotation::Coordinate => &shape.name.coordinate,
        Annotation::Individual => &shape.name.individual,
    };
    format!("the {name} {}", shape.kind.noun())
}

/// Words for one step in one style.
struct W<'a> {
    d: &'a Diagram,
    a: Annotation,
    shape: Option<usize>,
    kind: ShapeKind,
    binds: Vec<(Role, ElementRef)>,
}

impl<'a> W<'a> {
    fn new(d: &'a Diagram, a: Annotation, step: &Step) -> Self {
        let mut binds: Vec<(Role, ElementRef)> =
            step.inputs.iter().map(|b| (b.role, b.element)).collect();
        binds.push((step.output.role, step.output.element));
        W {
            d,
            a,
            shape: step.shape,
            kind: step.kind,
            binds,
        }
    }

    fn elem(&self, role: Role) -> Option<ElementRef> {
        self.binds.iter().find(|(r, _)| *r == role).map(|(_, e)| *e)
    }

    fn shape_of(&self) -> String {
        self.shape
            .map_or_else(|| "the angles".into(), |s| shape_phrase(self.d, s, self.a))
    }

    /// "side", "diameter", "radius", "base", "diagonal".
    fn noun(&self, role: Role, side: usize) -> &'static str {
        match self.d.sides[side].kind {
            SideKind::Diagonal => "diagonal",
            SideKind::Diameter => "diameter",
            _ => (self.kind.def().side_noun)(role),
        }
    }

    fn measure_phrase(&self, m: usize) -> String {
        let me = &self.d.measures[m];
        let shape = shape_phrase(self.d, me.shape, self.a);
        // "perimeter", or a circle's "circumference".
        let perimeter =
            (self.d.shapes.get(me.shape)).map_or("perimeter", |s| s.kind.def().perimeter);
        match me.kind {
            MeasureKind::Area => format!("the area of {shape}"),
            MeasureKind::Perimeter => format!("the {perimeter} of {shape}"),
            MeasureKind::ArcLength => format!("the arc length of {shape}"),
            MeasureKind::Height => format!("the length of the height of {shape}"),
        }
    }

    fn side_name(&self, role: Role, i: usize) -> String {
        let s = &self.d.sides[i];
        let noun = self.noun(role, i);
        match self.a {
            Annotation::Coordinate => format!("the {} {noun}", s.name.coordinate),
            // Named by its label: its value, or its `a·x + b` on vision-dominant.
            Annotation::Individual if s.shown => format!(
                "the {noun} with length {}",
                s.expr.clone().unwrap_or_else(|| fmt_num(s.value))
            ),
            Annotation::Individual if s.status == Status::Asked => {
                format!("the {noun} marked with \"?\"")
            }
            Annotation::Individual => format!("the {noun} marked with {}", s.name.individual),
        }
    }

    fn angle_name(&self, i: usize) -> String {
        let a = &self.d.angles[i];
        match self.a {
            Annotation::Coordinate => format!("the {} angle", a.name.coordinate),
            Annotation::Individual if a.shown => format!(
                "the angle with degree {}",
                a.expr.clone().unwrap_or_else(|| fmt_num(a.value))
            ),
            Annotation::Individual => format!("the {} angle", a.name.individual),
        }
    }

    /// One "X is v" clause; `with_shape` adds "of SHAPE" to side lengths.
    fn clause(&self, role: Role, value: &str, with_shape: bool) -> String {
        let shape = self.shape_of();
        match self.elem(role) {
            Some(ElementRef::Side(i)) => {
                let s = &self.d.sides[i];
                let noun = self.noun(role, i);
                let of = if with_shape {
                    format!(" of {shape}")
                } else {
                    String::new()
                };
                match self.a {
                    Annotation::Individual if s.shown => {
                        format!("the length of one {noun} of {shape} is {value}")
                    }
                    Annotation::Coordinate => {
                        format!(
                            "the length of the {} {noun}{of} is {value}",
                            s.name.coordinate
                        )
                    }
                    Annotation::Individual => {
                        format!("the length of {} is {value}", self.side_name(role, i))
                    }
                }
            }
            Some(ElementRef::Angle(i)) => {
                let a = &self.d.angles[i];
                if self.a == Annotation::Individual && a.shown {
                    match self.shape {
                        Some(_) => format!("the degree of one angle of {shape} is {value}"),
                        None => format!("the degree of one angle is {value}"),
                    }
                } else {
                    format!("the degree of {} is {value}", self.angle_name(i))
                }
            }
            Some(ElementRef::Measure(m)) => format!("{} is {value}", self.measure_phrase(m)),
            None => String::new(),
        }
    }
}

impl StepWords for W<'_> {
    fn shape(&self) -> String {
        self.shape_of()
    }

    fn name(&self, role: Role) -> String {
        match self.elem(role) {
            Some(ElementRef::Side(i)) => self.side_name(role, i),
            Some(ElementRef::Angle(i)) => self.angle_name(i),
            Some(ElementRef::Measure(m)) => self.measure_phrase(m),
            None => String::new(),
        }
    }

    fn quantity(&self, role: Role) -> String {
        match self.elem(role) {
            Some(ElementRef::Side(i)) => format!("the length of {}", self.side_name(role, i)),
            Some(ElementRef::Angle(i)) => format!("the degree of {}", self.angle_name(i)),
            Some(ElementRef::Measure(m)) => self.measure_phrase(m),
            None => String::new(),
        }
    }

    fn given(&self, roles: &[Role], values: &[f64]) -> String {
        let mut clauses = Vec::new();
        let mut shape_said = false;
        let mut i = 0;
        while i < roles.len() {
            // A run of plain sides is stated together (paper table 3 (a)).
            let run: Vec<usize> = (i..roles.len())
                .take_while(|&j| match self.elem(roles[j]) {
                    Some(ElementRef::Side(s)) => self.noun(roles[j], s) == "side",
                    _ => false,
                })
                .collect();
            if run.len() >= 2 {
                let vals: Vec<String> = run.iter().map(|&j| fmt_num(values[j])).collect();
                let sides: Vec<usize> = run
                    .iter()
                    .filter_map(|&j| match self.elem(roles[j]) {
                        Some(ElementRef::Side(s)) => Some(s),
                        _ => None,
                    })
                    .collect();
                let shape = self.shape_of();
                let text = match self.a {
                    Annotation::Coordinate => {
                        let names: Vec<String> = sides
                            .iter()
                            .map(|&s| format!("the {}", self.d.sides[s].name.coordinate))
                            .collect();
                        format!(
                            "the lengths of {} sides of {shape} are {}",
                            join(&names),
                            join(&vals)
                        )
                    }
                    // Values tell the sides apart (paper table 4 (h)).
                    Annotation::Individual => {
                        let count = ["two", "three", "four"][(sides.len() - 2).min(2)];
                        format!(
                            "the lengths of {count} sides of {shape} are {}",
                            join(&vals)
                        )
                    }
                };
                clauses.push(text);
                shape_said = true;
                i += run.len();
                continue;
            }
            let with_shape = !shape_said && self.shape.is_some();
            if matches!(self.elem(roles[i]), Some(ElementRef::Side(_))) {
                shape_said = true;
            }
            clauses.push(self.clause(roles[i], &fmt_num(values[i]), with_shape));
            i += 1;
        }
        join(&clauses)
    }
}

/// Question and solution in one style.
///
/// GeomVerse's own split (`Modality::Base`) states the non-standard shapes' kinds
/// and the givens not on the image (with the givens in the text, connectors and
/// every other shape's kind too). A rung of the modality ladder gathers every fact
/// (every kind, connector and given, and with `text-dominant` the descriptive
/// sentences first) and keeps those of the kinds its text holds
/// ([`ladder::keeps`]).
pub(super) fn write(p: &Problem, a: Annotation) -> Result<(String, String), TextError> {
    let d = &p.diagram;
    let modality = p.params.modality;
    let every = modality != Modality::Base;
    let mut facts = Facts {
        every,
        text_only: !modality.has_image(),
        ..Facts::default()
    };
    facts.of_steps(p, a);
    facts.of_unused_givens(p, a);
    let root_step = p.steps.last().ok_or_else(|| bad("no steps".into()))?;
    // The asked phrase names the root shape, except for angles ("the BCA angle").
    if let (Some(s), false) = (
        root_step.shape,
        matches!(root_step.output.element, ElementRef::Angle(_)),
    ) {
        facts.mentioned.push(s);
    }
    if p.params.info == Info::Text || every {
        facts.of_unmentioned_shapes(p, a);
    }
    let mut kept: Vec<(Kind, String)> = facts
        .facts
        .into_iter()
        .filter(|(kind, _)| ladder::keeps(modality, *kind))
        .collect();
    if every {
        // A rung states the properties before the conditions.
        kept.sort_by_key(|(kind, _)| *kind == Kind::Condition);
    }
    let kept: Vec<String> = kept.into_iter().map(|(_, text)| text).collect();
    let asked = asked_phrase(d, a, root_step);
    let cot = solution(p, a)?;
    let mut question = phrasing::question_of(p, &join(&kept), &asked, &cot);
    if ladder::keeps(modality, Kind::Descriptive) && every {
        // The descriptive information leads, in sentences of its own.
        let lead: Vec<String> = ladder::descriptive(d, a)
            .iter()
            .map(|s| format!("{}.", capitalise(s)))
            .collect();
        question = format!("{} {question}", lead.join(" "));
    }
    Ok((question, cot))
}

/// The question's facts as they are gathered, and what they have named so far.
#[derive(Default)]
struct Facts {
    /// Each fact with its kind.
    facts: Vec<(Kind, String)>,
    /// Gather every fact of every kind (a rung of the modality ladder), not only
    /// those GeomVerse's own split states.
    every: bool,
    /// No image (`text-only`): what only a drawing shows is stated too.
    text_only: bool,
    /// Elements whose given value is stated.
    stated: Vec<ElementRef>,
    /// Shapes whose kind is stated.
    introduced: Vec<usize>,
    /// Shapes a fact names.
    mentioned: Vec<usize>,
}

impl Facts {
    /// The fact that shape `s` is of its kind.
    fn kind_of(&mut self, d: &Diagram, a: Annotation, s: usize, description: &str) {
        // Without a drawing, where a composite's part sits is said too.
        let part = (self.text_only)
            .then(|| ladder::unseen_part(d, a, s))
            .flatten()
            .map_or_else(String::new, |p| format!(" ({p})"));
        let name = match a {
            Annotation::Coordinate => &d.shapes[s].name.coordinate,
            Annotation::Individual => &d.shapes[s].name.individual,
        };
        let marked = ladder::kind_is_marked(d, s);
        self.facts.push((
            Kind::Property { marked },
            format!("the {name} shape is {description}{part}"),
        ));
    }

    /// From the root down (steps are stored children first): each non-standard
    /// shape's kind, connectors when givens are in the text, and every given value
    /// not on the image (every one, on a rung of the ladder).
    fn of_steps(&mut self, p: &Problem, a: Annotation) {
        let d = &p.diagram;
        let info = p.params.info;
        for step in p.steps.iter().rev() {
            let w = W::new(d, a, step);
            if let Some(s) = step.shape {
                if !step.kind.is_standard() && !self.introduced.contains(&s) {
                    self.introduced.push(s);
                    self.mentioned.push(s);
                    self.kind_of(d, a, s, step.kind.description());
                }
            }
            if let Some(c) = step.kind.def().connector() {
                if info == Info::Text || self.every {
                    // Shown by the drawing: the two angles' lines meet as the
                    // connector says (GeomVerse states it only with the givens in the
                    // text), and a complementary pair's right angle is marked.
                    self.facts.push((
                        Kind::Property { marked: true },
                        format!(
                            "{} and {} are {}",
                            w.name(Role::Angle(0)),
                            w.name(Role::Angle(1)),
                            c.word
                        ),
                    ));
                }
            }
            let mut bindings: Vec<&crate::generate::problem::Binding> =
                step.inputs.iter().collect();
            bindings.push(&step.output);
            for b in bindings {
                if self.stated.contains(&b.element) {
                    continue;
                }
                let (status, shown, expr) = element_state(d, b.element);
                let given = status == Status::Given || expr.is_some();
                if !given || (shown && !self.every) {
                    continue;
                }
                self.stated.push(b.element);
                let value = expr.unwrap_or_else(|| fmt_num(b.value));
                self.facts.push((
                    Kind::Condition,
                    w.clause(b.role, &value, info == Info::Text || self.every),
                ));
                if let (Some(s), ElementRef::Measure(_) | ElementRef::Side(_)) =
                    (step.shape, b.element)
                {
                    self.mentioned.push(s);
                }
            }
        }
    }

    /// Given values that no step uses (unrelated shapes,
    /// `generate::rewrite::unrelated`): stated like the others when they are not on
    /// the image. Base problems have none.
    fn of_unused_givens(&mut self, p: &Problem, a: Annotation) {
        let d = &p.diagram;
        let bound: Vec<ElementRef> = p
            .steps
            .iter()
            .flat_map(|s| s.inputs.iter().chain([&s.output]))
            .map(|b| b.element)
            .collect();
        for (i, side) in d.sides.iter().enumerate() {
            let free = side.status == Status::Given
                && (!side.shown || self.every)
                && side.expr.is_none()
                && !bound.contains(&ElementRef::Side(i));
            if !free {
                continue;
            }
            let value = fmt_num(side.value);
            let shape = side.shapes.last().copied().unwrap_or(0);
            let fact = match a {
                Annotation::Coordinate => format!(
                    "the length of the {} side of {} is {value}",
                    side.name.coordinate,
                    shape_phrase(d, shape, a)
                ),
                Annotation::Individual => format!(
                    "the length of the side marked with {} is {value}",
                    side.name.individual
                ),
            };
            self.facts.push((Kind::Condition, fact));
            self.mentioned.push(shape);
        }
    }

    /// With the givens in the text, every shape no fact names yet, by its kind; on
    /// a rung of the ladder, every shape whose kind is not stated yet.
    fn of_unmentioned_shapes(&mut self, p: &Problem, a: Annotation) {
        for (s, shape) in p.diagram.shapes.iter().enumerate() {
            let said = match self.every {
                true => self.introduced.contains(&s),
                false => self.mentioned.contains(&s),
            };
            if !said {
                self.kind_of(&p.diagram, a, s, shape.kind.description());
            }
        }
    }
}

fn element_state(d: &Diagram, e: ElementRef) -> (Status, bool, Option<String>) {
    match e {
        ElementRef::Side(i) => (d.sides[i].status, d.sides[i].shown, d.sides[i].expr.clone()),
        ElementRef::Angle(i) => (
            d.angles[i].status,
            d.angles[i].shown,
            d.angles[i].expr.clone(),
        ),
        ElementRef::Measure(i) => (d.measures[i].status, false, d.measures[i].expr.clone()),
    }
}

fn asked_phrase(d: &Diagram, a: Annotation, root: &Step) -> String {
    let w = W::new(d, a, root);
    let shape = w.shape_of();
    match root.output.element {
        ElementRef::Side(i) => {
            let noun = w.noun(root.output.role, i);
            match a {
                Annotation::Coordinate => {
                    format!(
                        "the length of the {} {noun} of {shape}",
                        d.sides[i].name.coordinate
                    )
                }
                Annotation::Individual => {
                    format!("the length of the {noun} of {shape} marked with question mark")
                }
            }
        }
        ElementRef::Angle(i) => match a {
            Annotation::Coordinate => {
                format!("the degree of the {} angle", d.angles[i].name.coordinate)
            }
            Annotation::Individual => format!(
                "the degree of the angle marked with {}",
                d.angles[i].name.individual
            ),
        },
        ElementRef::Measure(m) => w.measure_phrase(m),
    }
}

/// The chain of thought: every needed step, then "Therefore the final answer is N."
fn solution(p: &Problem, a: Annotation) -> Result<String, TextError> {
    let mut parts = Vec::new();
    for step in p.steps.iter().filter(|s| !s.distractor) {
        let Some(f) = formulas::by_id(&step.formula) else {
            return Err(bad(format!("unknown formula {}", step.formula)));
        };
        let w = W::new(&p.diagram, a, step);
        let values: Vec<(Role, f64)> = step.inputs.iter().map(|b| (b.role, b.value)).collect();
        let text = match &step.variable {
            Some(v) => variable_text(f, step, v, &values, &w)?.0,
            None => {
                let mut ctx = Ctx::with_words(f, &values, &w);
                (f.explain)(&mut ctx)?;
                ctx.text
            }
        };
        parts.push(text);
    }
    parts.push(format!("Therefore the final answer is {}.", p.answer));
    Ok(parts.join(" "))
}

/// A variablized step: solve the 1-d linear equation for x, then compute the output
/// (paper table 3 (b)). Returns the text and the rounded output.
///
/// Kept whole: the sentences of one worked example follow each other in the order
/// the paper's table shows; splitting would scatter one template over helpers.
fn variable_text(
    f: &Formula,
    step: &Step,
    v: &crate::generate::problem::Variable,
    values: &[(Role, f64)],
    w: &dyn StepWords,
) -> Result<(String, f64), TextError> {
    let linear = f
        .linear
        .ok_or_else(|| bad(format!("{} cannot be variablized", f.id)))?;
    let term_of = |role: Role| {
        let e = if role == step.output.role {
            step.output.element
        } else {
            step.inputs
                .iter()
                .find(|b| b.role == role)
                .map_or(step.output.element, |b| b.element)
        };
        v.terms.iter().find(|t| t.element == e).map(|t| (t.a, t.b))
    };
    let mut text = String::new();
    let numeric: Vec<Role> = f
        .inputs
        .iter()
        .copied()
        .filter(|r| !linear.terms.iter().any(|(t, _)| t == r))
        .collect();
    let numeric_vals: Vec<f64> = numeric
        .iter()
        .map(|r| values.iter().find(|(x, _)| x == r).map_or(0.0, |(_, v)| *v))
        .collect();
    if !numeric.is_empty() {
        text.push_str(&capitalise(&w.given(&numeric, &numeric_vals)));
        text.push_str(". ");
    }
    let mut names = Vec::new();
    let mut exprs = Vec::new();
    let (mut big_a, mut big_b) = (0i64, 0i64);
    let mut lhs = Vec::new();
    for &(role, c) in linear.terms {
        let (ta, tb) =
            term_of(role).ok_or_else(|| bad(format!("{}: no a·x + b for {role:?}", f.id)))?;
        names.push(w.quantity(role));
        let e = linear_text(ta, tb);
        exprs.push(e.clone());
        let c = c as i64;
        big_a += c * ta;
        big_b += c * tb;
        lhs.push(if c == 1 { e } else { format!("{c} * ({e})") });
    }
    let be = if exprs.len() == 1 { "is" } else { "are" };
    text.push_str(&format!(
        "{} {be} {}. ",
        capitalise(&join(&names)),
        join(&exprs)
    ));
    let ctx = Ctx::with_words(f, values, w);
    let rhs: Expr = (linear.rhs)(&ctx);
    let (rhs_chain, r) = rhs.chain()?;
    text.push_str(&format!("Therefore, {} = {rhs_chain}", lhs.join(" + ")));
    let ax = if big_a == 1 {
        "x".to_string()
    } else {
        format!("{big_a}x")
    };
    let q = if big_b != 0 {
        text.push_str(&format!(
            ", so {} = {}",
            linear_text(big_a, big_b),
            fmt_num(r)
        ));
        let e = if big_b > 0 {
            sub(n(r), n(big_b as f64))
        } else {
            add(n(r), n(-big_b as f64))
        };
        let (chain, q) = e.chain()?;
        text.push_str(&format!(", so {ax} = {chain}"));
        q
    } else {
        r
    };
    let x = if big_a == 1 {
        q
    } else {
        let (chain, x) = crate::generate::expr::div(n(q), n(big_a as f64)).chain()?;
        text.push_str(&format!(", so x = {chain}"));
        x
    };
    let (oa, ob) = term_of(step.output.role)
        .ok_or_else(|| bad(format!("{}: no a·x + b for the output", f.id)))?;
    let ax_expr = if oa == 1 {
        n(x)
    } else {
        mul(n(oa as f64), n(x))
    };
    let e = match ob {
        0 => ax_expr,
        b if b > 0 => add(ax_expr, n(b as f64)),
        b => sub(ax_expr, n(-b as f64)),
    };
    let (chain, out) = e.chain()?;
    text.push_str(&format!(
        ". {} is {chain}.",
        capitalise(&w.quantity(step.output.role))
    ));
    let _ = v.x;
    Ok((text, out))
}
