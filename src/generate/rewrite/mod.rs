//! Rewrites of a generated Problem that the variant axes use (each keeps the
//! Problem's contract: every text names only what the diagram shows).
//!
//! ```text
//! aux        auxiliary lines the solution uses (or does not) drawn dashed (VisAidMath)
//! backward   the backward question: the answer given, a given asked (GeoEval §3.1.2)
//! phrasing   the question's framing in other hand-written wordings (GeoEval §3.1.3)
//! unrelated  shapes the question does not need, on free sides or in free space (GeomRel §2.5)
//! values     the same problem with other givens, drawn and solved again (DynaMath)
//! ```

pub(crate) mod aux;
pub(crate) mod backward;
pub(crate) mod phrasing;
pub(crate) mod unrelated;
pub(crate) mod values;
