//! Coverage reused across the images of one problem: its variants redraw the same
//! paths (an opacity, palette or relabel variant keeps every path; a font-size
//! variant keeps every path but the labels'), so each thread keeps the coverage of
//! the paths it drew last, keyed by everything the coverage depends on — the path
//! data, the fill rule or stroke geometry, and the canvas size — never by colour.
//! A hit is the coverage a fresh scan would make, so the pixels are the same
//! whichever thread drew what before.
//!
//! Two generations bound the memory: entries go into `young`; when it holds
//! [`BUDGET`] bytes it becomes `old` (the one before is dropped), and a hit in
//! `old` moves back into `young`.

use super::coverage::Coverage;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Bytes of runs a generation may hold before it ages (per thread; two generations).
const BUDGET: usize = 4 << 20;

/// What a coverage depends on besides the path data.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum Shape {
    /// A fill with this rule (0 nonzero, 1 even-odd).
    Fill { evenodd: bool },
    /// A stroke: width, miter limit, dash lengths and offset as `f32` bits; cap and
    /// join as their order in the scene's enums.
    Stroke {
        width: u32,
        miter: u32,
        cap: u8,
        join: u8,
        dash: Box<[u32]>,
        offset: u32,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    d: Box<str>,
    shape: Shape,
    canvas: (u32, u32),
}

#[derive(Default)]
struct Generations {
    young: HashMap<Key, Rc<Coverage>>,
    young_bytes: usize,
    old: HashMap<Key, Rc<Coverage>>,
}

thread_local! {
    static CACHE: RefCell<Generations> = RefCell::new(Generations::default());
}

/// The coverage of path `d` drawn as `shape` on a `canvas`-sized image: this
/// thread's kept one, or `scan()`'s (kept for next time). `scan` returns `None`
/// when the path draws nothing; that is not kept.
pub(super) fn coverage<E>(
    d: &str,
    shape: Shape,
    canvas: (u32, u32),
    scan: impl FnOnce() -> Result<Option<Coverage>, E>,
) -> Result<Option<Rc<Coverage>>, E> {
    let key = Key {
        d: d.into(),
        shape,
        canvas,
    };
    let kept = CACHE.with_borrow_mut(|c| {
        if let Some(hit) = c.young.get(&key) {
            return Some(hit.clone());
        }
        let hit = c.old.remove(&key)?;
        c.insert(key.clone(), hit.clone());
        Some(hit)
    });
    if let Some(hit) = kept {
        return Ok(Some(hit));
    }
    let Some(fresh) = scan()? else {
        return Ok(None);
    };
    let fresh = Rc::new(fresh);
    CACHE.with_borrow_mut(|c| c.insert(key, fresh.clone()));
    Ok(Some(fresh))
}

impl Generations {
    fn insert(&mut self, key: Key, coverage: Rc<Coverage>) {
        self.young_bytes += coverage.bytes() + key.d.len();
        self.young.insert(key, coverage);
        if self.young_bytes >= BUDGET {
            self.old = std::mem::take(&mut self.young);
            self.young_bytes = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fill() -> Shape {
        Shape::Fill { evenodd: false }
    }

    /// A second request with the same key scans nothing; any part of the key that
    /// differs scans again.
    #[test]
    fn the_same_key_is_scanned_once() {
        let scans = std::cell::Cell::new(0);
        let scan = || {
            scans.set(scans.get() + 1);
            Ok::<_, ()>(Some(Coverage::default()))
        };
        let d = "M 1 2 L 30 40 L 5 60 Z";
        coverage(d, fill(), (64, 64), scan).unwrap();
        coverage(d, fill(), (64, 64), scan).unwrap();
        assert_eq!(scans.get(), 1);
        coverage(d, Shape::Fill { evenodd: true }, (64, 64), scan).unwrap();
        coverage(d, fill(), (64, 65), scan).unwrap();
        coverage("M 1 2 L 30 40 L 5 61 Z", fill(), (64, 64), scan).unwrap();
        assert_eq!(scans.get(), 4);
    }

    /// Nothing drawn is not kept; an error is passed on and not kept.
    #[test]
    fn nothing_and_errors_are_not_kept() {
        let d = "M 0 0";
        assert_eq!(
            coverage(d, fill(), (8, 8), || Ok::<_, ()>(None)).unwrap(),
            None
        );
        assert_eq!(
            coverage(d, fill(), (8, 8), || Err::<Option<Coverage>, _>(7)),
            Err(7)
        );
        assert!(
            coverage(d, fill(), (8, 8), || Ok::<_, ()>(Some(Coverage::default())))
                .unwrap()
                .is_some()
        );
    }

    /// A generation ages at [`BUDGET`] bytes: what was used since is still kept,
    /// what was not used for two generations is scanned again.
    #[test]
    fn unused_coverage_is_dropped_after_two_generations() {
        let scans = std::cell::Cell::new(0);
        let scan = || {
            scans.set(scans.get() + 1);
            Ok::<_, ()>(Some(Coverage::default()))
        };
        // Path data of a quarter of the budget each (they count towards it).
        let d = |k: usize| format!("M {k} 0{}", " ".repeat(BUDGET / 4));
        for k in 0..4 {
            coverage(&d(k), fill(), (9, 9), scan).unwrap();
        }
        // 0..4 filled `young`, which aged; 0 is used again (moves back), 1..4 not.
        coverage(&d(0), fill(), (9, 9), scan).unwrap();
        assert_eq!(scans.get(), 4);
        for k in 4..7 {
            coverage(&d(k), fill(), (9, 9), scan).unwrap();
        }
        // 0, 4, 5, 6 filled `young` again: it aged, and 1..4 were dropped.
        coverage(&d(0), fill(), (9, 9), scan).unwrap();
        coverage(&d(6), fill(), (9, 9), scan).unwrap();
        assert_eq!(scans.get(), 7);
        coverage(&d(1), fill(), (9, 9), scan).unwrap();
        assert_eq!(scans.get(), 8);
    }
}
