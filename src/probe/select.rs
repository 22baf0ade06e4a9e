//! Which probes an image gets: the kinds in a seeded order, each with at most
//! `per_kind` probes, until `per_image`; a yes/no kind only in pairs of one "Yes"
//! and one "No" of the same signature; a multiple-choice probe's options in a drawn
//! order.
//!
//! The seed is the problem's, so every variant of a problem whose geometry the
//! variant keeps gets the same probes (renamed with its letters): a probe's answer
//! can be compared across the variants of one image.

use super::{Answers, Candidate, KINDS, Probe, ProbeAnswer, ProbeOptions, Texts};
use crate::compose::Grounding;
use crate::generate::rng::Rng;

const TAG_PROBES: u64 = 0x7072_6f62_6573_3031; // "probes01"

/// The probes of the image `g` draws, for the problem with seed `seed`.
pub(crate) fn probes(g: &Grounding, seed: u64, options: &ProbeOptions) -> Vec<Probe> {
    let mut rng = Rng::from_u64(seed, TAG_PROBES);
    let mut order: Vec<usize> = (0..KINDS.len()).collect();
    rng.shuffle(&mut order);
    let mut out = Vec::new();
    for k in order {
        let room = options
            .per_kind
            .min(options.per_image.saturating_sub(out.len()));
        if room == 0 {
            continue;
        }
        let def = &KINDS[k];
        let candidates = (def.candidates)(g);
        let ask = |c: Candidate, rng: &mut Rng| place(&c, (def.texts)(g, &c), def.kind, rng);
        match def.answers {
            Answers::YesNo => {
                let (mut yes, mut no): (Vec<Candidate>, Vec<Candidate>) =
                    candidates.into_iter().partition(|c| c.correct == 0);
                rng.shuffle(&mut yes);
                rng.shuffle(&mut no);
                // Each "Yes" with an unused "No" of its signature, in drawn order.
                let mut pairs = 0;
                for y in yes {
                    if pairs == room / 2 {
                        break;
                    }
                    let Some(k) = no.iter().position(|n| n.sig == y.sig) else {
                        continue;
                    };
                    let n = no.remove(k);
                    let (first, second) = if rng.chance(0.5) { (y, n) } else { (n, y) };
                    out.push(ask(first, &mut rng));
                    out.push(ask(second, &mut rng));
                    pairs += 1;
                }
            }
            Answers::Options => {
                let mut c = candidates;
                rng.shuffle(&mut c);
                for c in c.into_iter().take(room) {
                    out.push(ask(c, &mut rng));
                }
            }
        }
    }
    out
}

/// The probe with its options in the order asked: yes/no as they are (the pairs
/// balance them), other options in a uniformly drawn order (the whole order, so that
/// no option's place among the others tells it), a count as a number.
fn place(c: &Candidate, t: Texts, kind: super::ProbeKind, rng: &mut Rng) -> Probe {
    let answer = match c.count {
        Some(n) => ProbeAnswer::Count(n),
        None if t.options.len() == 2 && t.options[0] == super::YES_NO[0] => ProbeAnswer::Choice {
            choices: t.options,
            correct: c.correct,
        },
        None => {
            let mut order: Vec<usize> = (0..t.options.len()).collect();
            rng.shuffle(&mut order);
            ProbeAnswer::Choice {
                correct: order.iter().position(|&i| i == c.correct).unwrap_or(0),
                choices: order.iter().map(|&i| t.options[i].clone()).collect(),
            }
        }
    };
    Probe {
        kind,
        elements: t.elements,
        question: t.question,
        answer,
        why: t.why,
    }
}
