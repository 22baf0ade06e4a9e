//! Shelf packing of scene tiles into one render target, in input order.

/// Places rectangles left to right on shelves, top to bottom.
#[derive(Clone, Debug)]
pub(crate) struct ShelfPacker {
    width: u32,
    height: u32,
    x: u32,
    shelf_y: u32,
    shelf_h: u32,
}

impl ShelfPacker {
    pub(crate) fn new(width: u32, height: u32) -> Self {
        ShelfPacker {
            width,
            height,
            x: 0,
            shelf_y: 0,
            shelf_h: 0,
        }
    }

    /// The top-left corner for a `w`×`h` tile, or `None` when the target is full.
    pub(crate) fn place(&mut self, w: u32, h: u32) -> Option<(u32, u32)> {
        if w > self.width || h > self.height {
            return None;
        }
        if self.x + w > self.width {
            // New shelf.
            self.shelf_y += self.shelf_h;
            self.x = 0;
            self.shelf_h = 0;
        }
        if self.shelf_y + h > self.height {
            return None;
        }
        let at = (self.x, self.shelf_y);
        self.x += w;
        self.shelf_h = self.shelf_h.max(h);
        Some(at)
    }

    /// Rows used so far (the readback can skip the rest).
    pub(crate) fn used_height(&self) -> u32 {
        self.shelf_y + self.shelf_h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_sixteen_512_tiles_into_2048() {
        let mut p = ShelfPacker::new(2048, 2048);
        let spots: Vec<_> = (0..16).map(|_| p.place(512, 512).unwrap()).collect();
        assert_eq!(spots[0], (0, 0));
        assert_eq!(spots[4], (0, 512));
        assert_eq!(spots[15], (1536, 1536));
        assert_eq!(p.place(512, 512), None);
        assert_eq!(p.used_height(), 2048);
    }

    #[test]
    fn mixed_sizes_never_overlap_or_leave_the_target() {
        let mut p = ShelfPacker::new(1000, 700);
        let mut placed: Vec<(u32, u32, u32, u32)> = Vec::new();
        let sizes = [
            (300, 200),
            (1, 1),
            (700, 100),
            (999, 5),
            (250, 250),
            (400, 300),
            (1000, 1),
        ];
        for (w, h) in sizes.iter().cycle().take(40) {
            let Some((x, y)) = p.place(*w, *h) else { break };
            assert!(x + w <= 1000 && y + h <= 700);
            for &(a, b, c, d) in &placed {
                assert!(
                    x >= a + c || a >= x + w || y >= b + d || b >= y + h,
                    "overlap"
                );
            }
            placed.push((x, y, *w, *h));
        }
        assert!(placed.len() > 5);
        assert_eq!(ShelfPacker::new(10, 10).place(11, 1), None);
    }
}
