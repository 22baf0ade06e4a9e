//! Arithmetic expressions written into solutions, evaluated one level at a time.
//!
//! A solution shows each computation as a chain `2 * (10 + 12) = 2 * 22 = 44`: every step
//! reduces all operations whose operands are already numbers and rounds each result to
//! two decimals, as GeomVerse does. The same expression evaluated without intermediate
//! rounding gives the "unrounded" value used by the 3 % filter. Angles are in degrees.

use crate::decimal::fmt_decimal;
use std::fmt;

/// π as the problems state it ("Assume π = 3.14"): deliberately not `f64::consts::PI`.
#[allow(clippy::approx_constant)]
pub(crate) const PI: f64 = 3.14;

/// A one-argument function shown by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Func {
    Sqrt,
    Sin,
    Cos,
    Tan,
    Asin,
    Acos,
    Atan,
}

impl Func {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Func::Sqrt => "sqrt",
            Func::Sin => "sin",
            Func::Cos => "cos",
            Func::Tan => "tan",
            Func::Asin => "asin",
            Func::Acos => "acos",
            Func::Atan => "atan",
        }
    }

    fn apply(self, v: f64) -> Result<f64, ExprError> {
        let r = match self {
            Func::Sqrt if v < 0.0 => return Err(ExprError::Domain("sqrt")),
            Func::Sqrt => v.sqrt(),
            Func::Sin => v.to_radians().sin(),
            Func::Cos => v.to_radians().cos(),
            Func::Tan => v.to_radians().tan(),
            Func::Asin | Func::Acos if !(-1.0..=1.0).contains(&v) => {
                return Err(ExprError::Domain(self.name()));
            }
            Func::Asin => v.asin().to_degrees(),
            Func::Acos => v.acos().to_degrees(),
            Func::Atan => v.atan().to_degrees(),
        };
        Ok(r)
    }
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    /// Power with a small integer exponent, written `6^2`.
    Pow,
}

impl BinOp {
    fn prec(self) -> u8 {
        match self {
            BinOp::Add | BinOp::Sub => 1,
            BinOp::Mul | BinOp::Div => 2,
            BinOp::Pow => 3,
        }
    }
    fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => " + ",
            BinOp::Sub => " - ",
            BinOp::Mul => " * ",
            BinOp::Div => " / ",
            BinOp::Pow => "^",
        }
    }
}

/// An expression over numbers.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Expr {
    Num(f64),
    Bin(BinOp, Box<Expr>, Box<Expr>),
    Call(Func, Box<Expr>),
}

/// Why an expression has no value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExprError {
    /// A function was applied outside its domain (sqrt of a negative, asin of 1.2).
    #[error("{0} applied outside its domain")]
    Domain(&'static str),
    /// Division by zero or a non-finite result.
    #[error("non-finite result")]
    NonFinite,
}

/// Shorthands that keep formula definitions readable.
pub(crate) fn n(v: f64) -> Expr {
    Expr::Num(v)
}
pub(crate) fn add(a: Expr, b: Expr) -> Expr {
    Expr::Bin(BinOp::Add, Box::new(a), Box::new(b))
}
pub(crate) fn sub(a: Expr, b: Expr) -> Expr {
    Expr::Bin(BinOp::Sub, Box::new(a), Box::new(b))
}
pub(crate) fn mul(a: Expr, b: Expr) -> Expr {
    Expr::Bin(BinOp::Mul, Box::new(a), Box::new(b))
}
pub(crate) fn div(a: Expr, b: Expr) -> Expr {
    Expr::Bin(BinOp::Div, Box::new(a), Box::new(b))
}
pub(crate) fn sq(a: Expr) -> Expr {
    Expr::Bin(BinOp::Pow, Box::new(a), Box::new(n(2.0)))
}
pub(crate) fn call(f: Func, a: Expr) -> Expr {
    Expr::Call(f, Box::new(a))
}
pub(crate) fn sqrt(a: Expr) -> Expr {
    call(Func::Sqrt, a)
}

/// Rounds to two decimals, half away from zero on the binary value (as GeomVerse's
/// Python did: 92.13 / 6 = 15.354999… gives 15.35); -0 becomes 0.
pub(crate) fn round2(v: f64) -> f64 {
    let r = (v * 100.0).round() / 100.0;
    if r == 0.0 { 0.0 } else { r }
}

/// A number as printed in texts: at most two decimals, no trailing zeros, no `-0`.
pub(crate) fn fmt_num(v: f64) -> String {
    fmt_decimal(round2(v), 2)
}

fn apply(op: BinOp, a: f64, b: f64) -> Result<f64, ExprError> {
    let r = match op {
        BinOp::Add => a + b,
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        BinOp::Div => a / b,
        BinOp::Pow => a.powf(b),
    };
    if r.is_finite() {
        Ok(r)
    } else {
        Err(ExprError::NonFinite)
    }
}

impl Expr {
    /// The exact value, without intermediate rounding.
    pub(crate) fn eval(&self) -> Result<f64, ExprError> {
        match self {
            Expr::Num(v) => Ok(*v),
            Expr::Bin(op, a, b) => apply(*op, a.eval()?, b.eval()?),
            Expr::Call(f, a) => f.apply(a.eval()?),
        }
    }

    fn num(&self) -> Option<f64> {
        match self {
            Expr::Num(v) => Some(*v),
            _ => None,
        }
    }

    /// One step: every operation whose operands are numbers becomes its result,
    /// rounded to two decimals when `round` is set.
    fn step(&self, round: bool) -> Result<Expr, ExprError> {
        let fin = |v: f64| if round { round2(v) } else { v };
        match self {
            Expr::Num(v) => Ok(Expr::Num(*v)),
            Expr::Bin(op, a, b) => match (a.num(), b.num()) {
                (Some(x), Some(y)) => Ok(Expr::Num(fin(apply(*op, x, y)?))),
                _ => Ok(Expr::Bin(
                    *op,
                    Box::new(a.step(round)?),
                    Box::new(b.step(round)?),
                )),
            },
            Expr::Call(f, a) => match a.num() {
                Some(x) => Ok(Expr::Num(fin(f.apply(x)?))),
                None => Ok(Expr::Call(*f, Box::new(a.step(round)?))),
            },
        }
    }

    /// Evaluates step by step with rounding; returns the printed chain
    /// (`"2 * (10 + 12) = 2 * 22 = 44"`) and the final rounded value.
    pub(crate) fn chain(&self) -> Result<(String, f64), ExprError> {
        let mut parts = vec![self.to_string()];
        let mut cur = self.clone();
        while cur.num().is_none() {
            cur = cur.step(true)?;
            let s = cur.to_string();
            if parts.last() != Some(&s) {
                parts.push(s);
            }
        }
        let v = cur.num().unwrap_or(0.0);
        if parts.len() == 1 {
            // A bare number: nothing was computed.
            return Ok((parts.remove(0), round2(v)));
        }
        Ok((parts.join(" = "), round2(v)))
    }

    fn fmt_prec(&self, f: &mut fmt::Formatter<'_>, parent: u8, right: bool) -> fmt::Result {
        match self {
            Expr::Num(v) => f.write_str(&fmt_num(*v)),
            Expr::Call(func, a) => {
                write!(f, "{}(", func.name())?;
                a.fmt_prec(f, 0, false)?;
                f.write_str(")")
            }
            Expr::Bin(op, a, b) => {
                let p = op.prec();
                // Right operands of - and / (and any ^ operand) need brackets at equal precedence.
                let needs = p < parent || (p == parent && (right || *op == BinOp::Pow));
                if needs {
                    f.write_str("(")?;
                }
                a.fmt_prec(f, p, false)?;
                f.write_str(op.symbol())?;
                let tight = matches!(op, BinOp::Sub | BinOp::Div | BinOp::Pow);
                b.fmt_prec(f, p, tight)?;
                if needs {
                    f.write_str(")")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_prec(f, 0, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_follow_the_paper() {
        // Table 3 (a).
        let e = mul(n(2.0), add(n(10.0), n(12.0)));
        assert_eq!(
            e.chain().unwrap(),
            ("2 * (10 + 12) = 2 * 22 = 44".into(), 44.0)
        );
        // Table 3 (c), first computation.
        let e = sub(n(102.0), div(mul(n(PI), sq(n(6.0))), n(8.0)));
        assert_eq!(
            e.chain().unwrap().0,
            "102 - 3.14 * 6^2 / 8 = 102 - 3.14 * 36 / 8 = 102 - 113.04 / 8 = 102 - 14.13 = 87.87"
        );
        // Table 3 (c), last computation: asin(7 / 14.65) = asin(0.48) = 28.69.
        let e = call(Func::Asin, div(n(7.0), n(14.65)));
        assert_eq!(
            e.chain().unwrap(),
            ("asin(7 / 14.65) = asin(0.48) = 28.69".into(), 28.69)
        );
        // Table 3 (d): sqrt(8 * 189.97 / 3.14) = sqrt(1519.76 / 3.14) = sqrt(484) = 22.
        let e = sqrt(div(mul(n(8.0), n(189.97)), n(PI)));
        assert_eq!(e.chain().unwrap().1, 22.0);
    }

    #[test]
    fn brackets_only_where_needed() {
        assert_eq!(sub(n(1.0), sub(n(2.0), n(3.0))).to_string(), "1 - (2 - 3)");
        assert_eq!(sub(sub(n(1.0), n(2.0)), n(3.0)).to_string(), "1 - 2 - 3");
        assert_eq!(div(n(8.0), mul(n(2.0), n(3.0))).to_string(), "8 / (2 * 3)");
        assert_eq!(sq(add(n(1.0), n(2.0))).to_string(), "(1 + 2)^2");
    }

    #[test]
    fn rounding_and_printing() {
        assert_eq!(fmt_num(57.700000001), "57.7");
        assert_eq!(fmt_num(484.0), "484");
        assert_eq!(fmt_num(-0.001), "0");
        assert_eq!(round2(92.13 / 6.0), 15.35); // paper table 4 (f)
        assert_eq!(round2(0.125), 0.13);
        assert_eq!(round2(-2.5e-3), 0.0);
    }

    #[test]
    fn domain_errors_are_reported() {
        assert_eq!(sqrt(n(-1.0)).eval(), Err(ExprError::Domain("sqrt")));
        assert_eq!(
            call(Func::Asin, n(1.5)).chain(),
            Err(ExprError::Domain("asin"))
        );
        assert_eq!(div(n(1.0), n(0.0)).eval(), Err(ExprError::NonFinite));
    }
}
