//! GeomVerse Algorithm 1, BackwardGenerate: a tree of shapes built from the asked element
//! down, with values assigned bottom-up.
//!
//! Each node picks a shape, then a formula of that shape whose output has the needed
//! type; with depth left it expands one connectable input (a second one with probability
//! `branch_prob`) into a child that derives it. Children are generated first, so when a
//! node assigns random values to its remaining inputs (the facts) it already knows the
//! derived ones and can keep the shape sensible (a leg shorter than its hypotenuse, a
//! cut-out that fits), re-drawing a few times before giving up.

use super::expr::round2;
use super::formulas::{FORMULAS, Formula};
use super::problem::QuestionType;
use super::rng::Rng;
use super::shapes::{self, Quantity, Role, ShapeKind};

/// Most nodes (shapes and connectors) in one problem: keeps diagrams readable and
/// colours distinct.
pub(crate) const MAX_NODES: usize = 12;

/// Tries at assigning a node's facts before the problem is discarded.
const VALUE_TRIES: usize = 30;

/// The reasoning a node needs from its shape.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Need {
    /// The asked element.
    Root(QuestionType),
    /// A side shared with the parent.
    Side,
    /// An angle of the parent: served by an angle connector.
    Angle,
    /// The new angle of a connector: served by a shape with that angle.
    ConnectorInput,
}

/// An element stated as `a·x + b` in a variablized node.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct VarPlan {
    pub x: i64,
    /// (role, a, b)
    pub terms: Vec<(Role, i64, i64)>,
}

/// One shape (or connector) with its formula and values.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub formula: &'static Formula,
    /// Shape parameters (see `shapes::role_value`); empty for connectors.
    pub params: Vec<f64>,
    /// Every input's value, in `formula.inputs` order, as the solution uses it.
    pub inputs: Vec<(Role, f64)>,
    /// The output as the solution computes it (rounded steps).
    pub output: f64,
    /// Expanded inputs and the node deriving each.
    pub children: Vec<(Role, usize)>,
    pub variable: Option<VarPlan>,
    /// The output is also given, which makes this subtree a distractor.
    pub revealed: bool,
    /// 1 for the root.
    pub level: u8,
}

impl Node {
    pub(super) fn kind(&self) -> ShapeKind {
        self.formula.kind
    }
}

/// Why one attempt produced no problem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reject {
    /// No formula fits the requested type and options.
    NoFormula,
    /// No sensible values could be found.
    Values,
}

/// What the tree is generated with.
#[derive(Clone, Debug)]
pub(crate) struct TreeConfig {
    /// Levels of the tree (reasoning depth, plus one with distractors).
    pub levels: u8,
    pub branch_prob: f64,
    pub variablized: f64,
    pub question: QuestionType,
    pub standard_only: bool,
    pub distractors: bool,
}

/// The generated tree; `nodes[0]` is the root.
#[derive(Clone, Debug)]
pub(crate) struct Tree {
    pub nodes: Vec<Node>,
}

/// Shape parameters, input values and the output of one node.
type Assigned = (Vec<f64>, Vec<(Role, f64)>, f64);

struct Builder<'a> {
    cfg: &'a TreeConfig,
    rng: &'a mut Rng,
    nodes: Vec<Option<Node>>,
    /// Nodes still allowed beyond the mandatory chain.
    budget: usize,
}

/// Runs Algorithm 1 once.
pub(crate) fn generate_tree(cfg: &TreeConfig, rng: &mut Rng) -> Result<Tree, Reject> {
    let levels = cfg.levels.max(1);
    let mut b = Builder {
        cfg,
        rng,
        nodes: Vec::new(),
        budget: MAX_NODES.saturating_sub(levels as usize),
    };
    b.grow(Need::Root(cfg.question), levels - 1, 1)?;
    let mut nodes: Vec<Node> = b
        .nodes
        .into_iter()
        .collect::<Option<_>>()
        .ok_or(Reject::Values)?;
    if cfg.distractors && levels > 1 {
        for node in nodes.iter_mut().filter(|n| n.level == levels) {
            node.revealed = true;
        }
    }
    Ok(Tree { nodes })
}

fn matches(f: &Formula, need: Need) -> bool {
    let out = f.output.quantity();
    match need {
        Need::Root(q) => {
            !f.kind.is_connector()
                && match q {
                    QuestionType::Side => matches!(out, Quantity::Side | Quantity::Length),
                    QuestionType::Angle => out == Quantity::Angle,
                    QuestionType::Area => out == Quantity::Area,
                    QuestionType::Perimeter => out == Quantity::Perimeter,
                    QuestionType::Any => true,
                    QuestionType::Relation => false,
                }
        }
        Need::Side => !f.kind.is_connector() && out == Quantity::Side,
        Need::Angle => f.kind.is_connector(),
        Need::ConnectorInput => !f.kind.is_connector() && out == Quantity::Angle,
    }
}

impl Builder<'_> {
    /// Picks a shape uniformly, then a formula of it uniformly, among those that fit.
    fn pick(&mut self, need: Need, expand: bool) -> Result<&'static Formula, Reject> {
        let fits = |f: &&Formula| {
            matches(f, need)
                && (!self.cfg.standard_only || f.kind.is_standard())
                && (!expand || f.inputs.iter().any(|r| r.connectable()))
                // A circle shares nothing, so it can only be the root.
                && (!f.kind.def().root_only || matches!(need, Need::Root(_)))
                // Only vertical angles carry a shape (it fills the opposite angle).
                && (need != Need::Angle
                    || !expand
                    || f.kind.def().connector().is_some_and(|c| c.carries_shape))
        };
        let candidates: Vec<&'static Formula> = FORMULAS.iter().copied().filter(fits).collect();
        let mut kinds: Vec<ShapeKind> = candidates.iter().map(|f| f.kind).collect();
        kinds.dedup();
        kinds.sort();
        kinds.dedup();
        if kinds.is_empty() {
            return Err(Reject::NoFormula);
        }
        let kind = kinds[self.rng.index(kinds.len())];
        let of_kind: Vec<&'static Formula> =
            candidates.into_iter().filter(|f| f.kind == kind).collect();
        Ok(of_kind[self.rng.index(of_kind.len())])
    }

    fn grow(&mut self, need: Need, depth: u8, level: u8) -> Result<usize, Reject> {
        let formula = self.pick(need, depth > 0)?;
        let id = self.nodes.len();
        self.nodes.push(None);
        let mut children = Vec::new();
        if depth > 0 {
            let mut open: Vec<Role> = formula
                .inputs
                .iter()
                .copied()
                .filter(|r| r.connectable())
                .collect();
            self.rng.shuffle(&mut open);
            let mut chosen = vec![open[0]];
            if open.len() > 1
                && self.budget >= depth as usize
                && self.rng.chance(self.cfg.branch_prob)
            {
                self.budget -= depth as usize;
                chosen.push(open[1]);
            }
            // Keep the formula's input order so texts read naturally.
            chosen.sort_by_key(|r| formula.inputs.iter().position(|x| x == r));
            for role in chosen {
                let child_need = match (role, formula.kind.is_connector()) {
                    (Role::Edge(_), _) => Need::Side,
                    (_, true) => Need::ConnectorInput,
                    (_, false) => Need::Angle,
                };
                let child = self.grow(child_need, depth - 1, level + 1)?;
                children.push((role, child));
            }
        }
        let node = self.assign(formula, children, level)?;
        self.nodes[id] = Some(node);
        Ok(id)
    }

    fn derived(&self, children: &[(Role, usize)]) -> Vec<(Role, f64)> {
        children
            .iter()
            .map(|&(r, c)| (r, self.nodes[c].as_ref().map_or(0.0, |n| n.output)))
            .collect()
    }

    /// Assigns the facts of a node whose children are done (re-drawing until sensible).
    fn assign(
        &mut self,
        formula: &'static Formula,
        children: Vec<(Role, usize)>,
        level: u8,
    ) -> Result<Node, Reject> {
        self.assign_as(formula, children, level, None)
    }

    /// [`Self::assign`], where `variable` is `Some(stated)` for a node redrawn with
    /// other values ([`revalue`]): variablized exactly when its original was.
    fn assign_as(
        &mut self,
        formula: &'static Formula,
        children: Vec<(Role, usize)>,
        level: u8,
        stated: Option<bool>,
    ) -> Result<Node, Reject> {
        let derived = self.derived(&children);
        for _ in 0..VALUE_TRIES {
            let Some((params, inputs, output)) = self.try_values(formula, &derived) else {
                continue;
            };
            let variable = match stated {
                None if children.is_empty()
                    && formula.linear.is_some()
                    && self.rng.chance(self.cfg.variablized) =>
                {
                    plan_variable(formula, &inputs, output, self.rng)
                }
                None | Some(false) => None,
                Some(true) => match plan_variable(formula, &inputs, output, self.rng) {
                    Some(plan) => Some(plan),
                    None => continue,
                },
            };
            return Ok(Node {
                formula,
                params,
                inputs,
                output,
                children,
                variable,
                revealed: false,
                level,
            });
        }
        Err(Reject::Values)
    }

    fn try_values(
        &mut self,
        formula: &'static Formula,
        derived: &[(Role, f64)],
    ) -> Option<Assigned> {
        let kind = formula.kind;
        let known = |r: Role| derived.iter().find(|(x, _)| *x == r).map(|(_, v)| *v);
        let (params, inputs) = if kind.is_connector() {
            let input = match known(Role::Angle(0)) {
                Some(v) => v,
                None => {
                    let out = self.rng.int(25, 80) as f64;
                    // The angles sum to 180° or 90°, or are equal.
                    match kind.def().connector().and_then(|c| c.sum) {
                        Some(sum) => sum - out,
                        None => out,
                    }
                }
            };
            (Vec::new(), vec![(Role::Angle(0), input)])
        } else {
            let target = shapes::fit(kind, derived, self.rng)?;
            let inputs: Vec<(Role, f64)> = formula
                .inputs
                .iter()
                .map(|&r| {
                    let v = known(r)
                        .or_else(|| shapes::role_value(kind, &target, r).map(|v| nice(r, v)));
                    v.map(|v| (r, v))
                })
                .collect::<Option<_>>()?;
            (target, inputs)
        };
        let output = formula.rounded(&inputs).ok()?;
        let exact = formula.exact(&inputs).ok()?;
        // Each step's rounding must stay within GeomVerse's 3 % too, not just the answer.
        if !sensible(formula.output, output)
            || !sensible(formula.output, exact)
            || (output - exact).abs() > 0.03 * exact.abs()
        {
            return None;
        }
        if kind.is_connector() {
            return Some((params, inputs, output));
        }
        // Draw the shape from the values the texts state.
        let mut all = inputs.clone();
        all.push((formula.output, output));
        let params = shapes::fit(kind, &all, self.rng)?;
        Some((params, inputs, output))
    }
}

/// The same tree (shapes, formulas, expansions, distractors, variablized nodes)
/// with every fact drawn again from `rng`, under the rules the first draw obeyed:
/// each node's facts are assigned once its children's outputs are known, and
/// re-drawn until sensible (`Reject::Values` when they never are).
pub(crate) fn revalue(tree: &Tree, cfg: &TreeConfig, rng: &mut Rng) -> Result<Tree, Reject> {
    let mut b = Builder {
        cfg,
        rng,
        nodes: vec![None; tree.nodes.len()],
        budget: 0,
    };
    // A node's children come after it (`grow` numbers a node before its children),
    // so from the last node back every child is assigned before its parent.
    for (id, old) in tree.nodes.iter().enumerate().rev() {
        let mut node = b.assign_as(
            old.formula,
            old.children.clone(),
            old.level,
            Some(old.variable.is_some()),
        )?;
        node.revealed = old.revealed;
        b.nodes[id] = Some(node);
    }
    let nodes = b
        .nodes
        .into_iter()
        .collect::<Option<_>>()
        .ok_or(Reject::Values)?;
    Ok(Tree { nodes })
}

/// Values as a problem would state them: whole lengths and degrees, whole areas and
/// perimeters unless small.
fn nice(role: Role, v: f64) -> f64 {
    match role.quantity() {
        Quantity::Side | Quantity::Length if v >= 3.0 => v.round(),
        Quantity::Angle => v.round(),
        Quantity::Area | Quantity::Perimeter if v >= 10.0 => v.round(),
        _ => round2(v),
    }
}

fn sensible(role: Role, v: f64) -> bool {
    v.is_finite()
        && match role.quantity() {
            Quantity::Angle => (8.0..=172.0).contains(&v),
            _ => v >= 0.5,
        }
}

/// States a linear formula's elements as `a·x + b` with a whole x; `None` when the values
/// are not whole numbers (the problem then stays numeric).
fn plan_variable(
    formula: &Formula,
    inputs: &[(Role, f64)],
    output: f64,
    rng: &mut Rng,
) -> Option<VarPlan> {
    let linear = formula.linear?;
    let value = |r: Role| {
        if r == formula.output {
            Some(output)
        } else {
            inputs.iter().find(|(x, _)| *x == r).map(|(_, v)| *v)
        }
    };
    let x = rng.int(2, 9);
    let mut terms = Vec::new();
    for &(role, _) in linear.terms {
        let v = value(role)?;
        if (v - v.round()).abs() > 1e-9 {
            return None;
        }
        let a = rng.int(1, 5);
        let b = v.round() as i64 - a * x;
        terms.push((role, a, b));
    }
    Some(VarPlan { x, terms })
}

/// The answer computed without rounding any intermediate step, from the same facts.
pub(crate) fn exact_value(tree: &Tree, node: usize) -> Option<f64> {
    let n = &tree.nodes[node];
    if n.revealed && node != 0 {
        return Some(n.output);
    }
    let mut values = n.inputs.clone();
    for &(role, child) in &n.children {
        let v = exact_value(tree, child)?;
        if let Some(slot) = values.iter_mut().find(|(r, _)| *r == role) {
            slot.1 = v;
        }
    }
    n.formula.exact(&values).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg(levels: u8, q: QuestionType) -> TreeConfig {
        TreeConfig {
            levels,
            branch_prob: 0.5,
            variablized: 0.0,
            question: q,
            standard_only: false,
            distractors: false,
        }
    }

    #[test]
    fn trees_have_the_requested_depth_and_type() {
        for levels in 1..=4u8 {
            for q in [
                QuestionType::Side,
                QuestionType::Angle,
                QuestionType::Area,
                QuestionType::Perimeter,
            ] {
                let mut made = 0;
                for seed in 0..40 {
                    let mut rng = Rng::for_attempt(seed, 0);
                    let Ok(tree) = generate_tree(&cfg(levels, q), &mut rng) else {
                        continue;
                    };
                    made += 1;
                    assert!(tree.nodes.iter().all(|n| n.level <= levels));
                    assert!(tree.nodes.iter().any(|n| n.level == levels));
                    assert!(tree.nodes.len() <= MAX_NODES);
                    assert!(matches(tree.nodes[0].formula, Need::Root(q)));
                }
                assert!(made >= 10, "levels {levels} {q:?}: {made}/40");
            }
        }
    }
}
