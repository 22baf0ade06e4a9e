//! Per-thread spare pixel buffers. A CPU render takes its canvas from here and the
//! pipeline hands it back once the image is encoded, so each worker reuses one
//! buffer for a whole run instead of allocating a megabyte per image: that churn
//! fragments glibc's per-thread arenas, one cause of the resident memory a long
//! run gained over a short one (see README, Performance).

use std::cell::RefCell;

thread_local! {
    static SPARE: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// This thread's spare buffer (empty, any capacity), or a new one.
pub(crate) fn take() -> Vec<u8> {
    let mut buf = SPARE.with(|s| std::mem::take(&mut *s.borrow_mut()));
    buf.clear();
    buf
}

/// Keeps `buf` as this thread's spare if it is larger than the one kept.
pub(crate) fn give(buf: Vec<u8>) {
    SPARE.with(|s| {
        let mut s = s.borrow_mut();
        if buf.capacity() > s.capacity() {
            *s = buf;
        }
    });
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_given_buffer_comes_back_empty_with_its_capacity() {
        let mut b = super::take();
        b.extend_from_slice(&[7; 4096]);
        let ptr = b.as_ptr();
        super::give(b);
        let again = super::take();
        assert!(again.is_empty());
        assert_eq!((again.as_ptr(), again.capacity() >= 4096), (ptr, true));
        // Taken: the next take on this thread starts a new one.
        assert_eq!(super::take().capacity(), 0);
    }
}
