//! A frame: prepared scenes packed as tiles into one render target, drawn in one
//! render pass, read back with one copy.

use super::pack::ShelfPacker;
use crate::render::PreparedScene;
use std::collections::VecDeque;

/// One scene and where its tile sits in the frame's target.
pub(crate) struct Tile {
    pub scene: PreparedScene,
    pub x: u32,
    pub y: u32,
}

/// Scenes packed into one target of `width`×`height` pixels.
pub(crate) struct Frame {
    pub width: u32,
    pub height: u32,
    pub tiles: Vec<Tile>,
}

impl Frame {
    /// The first and second half of the tiles as two frames, each sized to its
    /// tiles (a lone tile moves to the origin: a scene's pixels do not depend on
    /// where its tile lies); a frame of one scene cannot be split and gives its id.
    pub(crate) fn split(mut self) -> Result<(Frame, Frame), String> {
        if self.tiles.len() < 2 {
            return Err(self.tiles.pop().map(|t| t.scene.id).unwrap_or_default());
        }
        let back = self.tiles.split_off(self.tiles.len() / 2);
        Ok((Frame::around(self.tiles), Frame::around(back)))
    }

    fn around(mut tiles: Vec<Tile>) -> Frame {
        if let [tile] = tiles.as_mut_slice() {
            (tile.x, tile.y) = (0, 0);
        }
        let width = tiles.iter().map(|t| t.x + t.scene.width).max().unwrap_or(1);
        let height = tiles
            .iter()
            .map(|t| t.y + t.scene.height)
            .max()
            .unwrap_or(1);
        Frame {
            width,
            height,
            tiles,
        }
    }
}

/// Builds frames from a stream of prepared scenes.
pub(crate) struct FrameBuilder {
    target: (u32, u32),
    max_tiles: usize,
    packer: ShelfPacker,
    tiles: Vec<Tile>,
}

impl FrameBuilder {
    /// Frames of at most `target` pixels holding at most `max_tiles` scenes; larger
    /// scenes get a frame of their own, sized to them.
    pub(crate) fn new(target: (u32, u32), max_tiles: usize) -> Self {
        FrameBuilder {
            target,
            max_tiles: max_tiles.max(1),
            packer: ShelfPacker::new(target.0, target.1),
            tiles: Vec::new(),
        }
    }

    /// Adds a scene; returns the frames completed by doing so (zero, one or two).
    pub(crate) fn push(&mut self, scene: PreparedScene) -> Vec<Frame> {
        let mut done = Vec::new();
        let (w, h) = (scene.width, scene.height);
        if w > self.target.0 || h > self.target.1 {
            done.extend(self.finish());
            done.push(Frame {
                width: w,
                height: h,
                tiles: vec![Tile { scene, x: 0, y: 0 }],
            });
            return done;
        }
        if self.tiles.len() >= self.max_tiles {
            done.extend(self.finish());
        }
        let spot = match self.packer.place(w, h) {
            Some(spot) => spot,
            None => {
                done.extend(self.finish());
                self.packer
                    .place(w, h)
                    .expect("a tile no larger than the target fits an empty one")
            }
        };
        self.tiles.push(Tile {
            scene,
            x: spot.0,
            y: spot.1,
        });
        done
    }

    /// The partly filled frame, if any.
    pub(crate) fn finish(&mut self) -> Option<Frame> {
        if self.tiles.is_empty() {
            return None;
        }
        let width = self
            .tiles
            .iter()
            .map(|t| t.x + t.scene.width)
            .max()
            .unwrap_or(1);
        let height = self.packer.used_height();
        self.packer = ShelfPacker::new(self.target.0, self.target.1);
        Some(Frame {
            width,
            height,
            tiles: std::mem::take(&mut self.tiles),
        })
    }

    /// The frames of `scenes`, built lazily: each frame is complete as soon as
    /// the scene that does not fit it (or the end of `scenes`) is reached.
    pub(crate) fn frames<I: IntoIterator<Item = PreparedScene>>(
        self,
        scenes: I,
    ) -> Frames<I::IntoIter> {
        Frames {
            builder: self,
            scenes: scenes.into_iter().fuse(),
            ready: VecDeque::new(),
        }
    }
}

/// An iterator of frames built from an iterator of scenes, see [`FrameBuilder::frames`].
pub(crate) struct Frames<I: Iterator<Item = PreparedScene>> {
    builder: FrameBuilder,
    scenes: std::iter::Fuse<I>,
    ready: VecDeque<Frame>,
}

impl<I: Iterator<Item = PreparedScene>> Iterator for Frames<I> {
    type Item = Frame;

    fn next(&mut self) -> Option<Frame> {
        while self.ready.is_empty() {
            match self.scenes.next() {
                Some(scene) => self.ready.extend(self.builder.push(scene)),
                None => return self.builder.finish(),
            }
        }
        self.ready.pop_front()
    }
}
