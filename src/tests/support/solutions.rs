//! The solution checker: every equation of a solution's text parsed and re-evaluated
//! with an evaluator written here (independent of the generator's), and the final
//! answer checked against the last computed value. Used by `generate_solutions` and
//! `backward`.

use geomrender::generate::{Annotation, Problem};

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Num(f64),
    Op(char),
    Func(String),
    Eq,
    /// Anything else: a word, punctuation, a variable.
    Break,
}

const FUNCS: [&str; 7] = ["sqrt", "sin", "cos", "tan", "asin", "acos", "atan"];

fn lex(text: &str) -> Vec<Tok> {
    let cs: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        if c.is_ascii_digit() {
            let s = i;
            while i < cs.len() && cs[i].is_ascii_digit() {
                i += 1;
            }
            if i + 1 < cs.len() && cs[i] == '.' && cs[i + 1].is_ascii_digit() {
                i += 1;
                while i < cs.len() && cs[i].is_ascii_digit() {
                    i += 1;
                }
            }
            let s: String = cs[s..i].iter().collect();
            out.push(Tok::Num(s.parse().unwrap()));
            continue;
        }
        if c.is_alphabetic() || c == '_' {
            let s = i;
            while i < cs.len() && (cs[i].is_alphanumeric() || cs[i] == '_') {
                i += 1;
            }
            let w: String = cs[s..i].iter().collect();
            out.push(if FUNCS.contains(&w.as_str()) {
                Tok::Func(w)
            } else {
                Tok::Break
            });
            continue;
        }
        match c {
            '+' | '-' | '*' | '/' | '^' | '(' | ')' => out.push(Tok::Op(c)),
            '=' => out.push(Tok::Eq),
            c if c.is_whitespace() => {}
            _ => out.push(Tok::Break),
        }
        i += 1;
    }
    out
}

/// Recursive-descent evaluation of one segment; `None` unless it is a whole expression.
struct Parser<'a> {
    t: &'a [Tok],
    i: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.t.get(self.i)
    }
    fn expr(&mut self) -> Option<f64> {
        let mut v = self.term()?;
        while let Some(Tok::Op(c @ ('+' | '-'))) = self.peek().cloned() {
            self.i += 1;
            let r = self.term()?;
            v = if c == '+' { v + r } else { v - r };
        }
        Some(v)
    }
    fn term(&mut self) -> Option<f64> {
        let mut v = self.power()?;
        while let Some(Tok::Op(c @ ('*' | '/'))) = self.peek().cloned() {
            self.i += 1;
            let r = self.power()?;
            v = if c == '*' { v * r } else { v / r };
        }
        Some(v)
    }
    fn power(&mut self) -> Option<f64> {
        let b = self.atom()?;
        if let Some(Tok::Op('^')) = self.peek() {
            self.i += 1;
            let e = self.atom()?;
            return Some(b.powf(e));
        }
        Some(b)
    }
    fn atom(&mut self) -> Option<f64> {
        match self.peek().cloned()? {
            Tok::Num(v) => {
                self.i += 1;
                Some(v)
            }
            Tok::Op('-') => {
                self.i += 1;
                Some(-self.atom()?)
            }
            Tok::Op('(') => {
                self.i += 1;
                let v = self.expr()?;
                (self.peek() == Some(&Tok::Op(')'))).then_some(())?;
                self.i += 1;
                Some(v)
            }
            Tok::Func(f) => {
                self.i += 1;
                (self.peek() == Some(&Tok::Op('('))).then_some(())?;
                let x = self.atom()?;
                let r = |d: f64| d.to_radians();
                Some(match f.as_str() {
                    "sqrt" => x.sqrt(),
                    "sin" => r(x).sin(),
                    "cos" => r(x).cos(),
                    "tan" => r(x).tan(),
                    "asin" => x.asin().to_degrees(),
                    "acos" => x.acos().to_degrees(),
                    _ => x.atan().to_degrees(),
                })
            }
            _ => None,
        }
    }
}

fn eval(seg: &[Tok]) -> Option<f64> {
    let mut p = Parser { t: seg, i: 0 };
    let v = p.expr()?;
    (p.i == seg.len() && v.is_finite()).then_some(v)
}

/// Every `a = b = c` chain of the text as evaluated segments (a leading segment that is
/// not a whole expression, like `OtherSide * 6 + …` or `9x + …`, is left out).
pub(crate) fn chains(text: &str) -> Vec<Vec<(String, f64)>> {
    let toks = lex(text);
    let mut out = Vec::new();
    for run in toks.split(|t| *t == Tok::Break) {
        if !run.contains(&Tok::Eq) {
            continue;
        }
        let segs: Vec<&[Tok]> = run.split(|t| *t == Tok::Eq).collect();
        // A run that starts with an operator continues a symbolic expression ("9x + 135").
        let continues = matches!(run.first(), Some(Tok::Op(c)) if *c != '(');
        let mut vals = Vec::new();
        for (k, s) in segs.iter().enumerate() {
            if k == 0 && continues {
                continue;
            }
            match eval(s) {
                Some(v) => vals.push((format!("{s:?}"), v)),
                None if k == 0 => {}
                None => panic!("segment {k} of a chain does not parse: {s:?} in {text}"),
            }
        }
        if vals.len() >= 2 {
            out.push(vals);
        }
    }
    out
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// Every equation of `p`'s solution in both annotation styles re-evaluates, the last
/// step is one rounded operation and the solution ends with the answer; returns the
/// number of equation chains checked. Panics naming the first that does not.
pub(crate) fn assert_solution_re_evaluates(p: &Problem) -> usize {
    let mut equations = 0;
    for a in Annotation::ALL {
        let cot = p.cot(a);
        let cs = chains(cot);
        assert!(!cs.is_empty(), "{}: no equation in {cot}", p.id);
        for chain in &cs {
            for w in chain.windows(2) {
                let (x, y) = (w[0].1, w[1].1);
                assert!(
                    (x - y).abs() <= 0.02 + 0.03 * y.abs(),
                    "{}: {} = {} is {x} vs {y}\n{cot}",
                    p.id,
                    w[0].0,
                    w[1].0
                );
            }
            // The last step is a single operation on rounded numbers, rounded.
            let n = chain.len();
            let (prev, last) = (chain[n - 2].1, chain[n - 1].1);
            assert!(
                (round2(prev) - last).abs() < 1e-6,
                "{}: last step {prev} → {last}\n{cot}",
                p.id
            );
            equations += 1;
        }
        let last_value = cs.last().and_then(|c| c.last()).map(|x| x.1).unwrap();
        assert!(
            (last_value - p.answer.number().unwrap()).abs() < 1e-9,
            "{}: last value {last_value} vs answer {}",
            p.id,
            p.answer
        );
        let tail = format!(
            "Therefore the final answer is {}.",
            geomrender::generate::expr::fmt_num(p.answer.number().unwrap())
        );
        assert!(cot.ends_with(&tail), "{}: {cot}", p.id);
    }
    equations
}
