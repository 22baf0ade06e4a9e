//! The render loop: frames are submitted while earlier ones are read back, with
//! at most [`FRAMES_IN_FLIGHT`] frames on the GPU at once.

use super::GpuError;
use super::frame::{Frame, FrameBuilder};
use super::renderer::{FRAMES_IN_FLIGHT, GpuRenderer};
use crate::render::PreparedScene;
use crate::render::RenderedImage;

/// A phase of the render loop, for [`ImageSink::time`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RingPhase {
    /// Encoding and submitting one frame (including glyph rasterisation).
    Submit,
    /// Waiting for one frame to finish and copying its tiles out.
    Wait,
}

/// Receives the images of a render loop, frame by frame in input order.
///
/// Any `FnMut(Vec<RenderedImage>) -> bool` is one.
pub trait ImageSink {
    /// The images of one frame, in input order. Returning false stops the loop
    /// quietly: no more frames are submitted and those in flight are dropped.
    fn images(&mut self, images: Vec<RenderedImage>) -> bool;

    /// Runs one `phase` of the loop; override to time it.
    fn time<R>(&mut self, phase: RingPhase, run: impl FnOnce() -> R) -> R {
        let _ = phase;
        run()
    }
}

impl<F: FnMut(Vec<RenderedImage>) -> bool> ImageSink for F {
    fn images(&mut self, images: Vec<RenderedImage>) -> bool {
        self(images)
    }
}

impl GpuRenderer {
    /// Renders `scenes`, packed into frames by the renderer's options, handing
    /// each frame's images to `sink` as they come back.
    pub fn render_scenes<I, S>(&mut self, scenes: I, sink: S) -> Result<(), GpuError>
    where
        I: IntoIterator<Item = PreparedScene>,
        S: ImageSink,
    {
        let (target, max_tiles) = (self.target_size(), self.options().max_tiles);
        self.render_frames(FrameBuilder::new(target, max_tiles).frames(scenes), sink)
    }

    /// Renders `scenes` (see [`Self::render_scenes`]) and returns every image, in
    /// input order.
    pub fn render_all<I>(&mut self, scenes: I) -> Result<Vec<RenderedImage>, GpuError>
    where
        I: IntoIterator<Item = PreparedScene>,
    {
        let mut all = Vec::new();
        self.render_scenes(scenes, |images: Vec<RenderedImage>| {
            all.extend(images);
            true
        })?;
        Ok(all)
    }

    /// Renders already packed `frames`, keeping up to [`FRAMES_IN_FLIGHT`] on the
    /// GPU: the next frame is encoded and submitted while earlier ones render.
    /// Each frame's images go to `sink` in frame order.
    pub fn render_frames<I, S>(&mut self, frames: I, mut sink: S) -> Result<(), GpuError>
    where
        I: IntoIterator<Item = Frame>,
        S: ImageSink,
    {
        let result = self.run_ring(frames, &mut sink);
        // Stopped early or failed: leave no frame behind for the next call.
        self.discard_in_flight();
        result
    }

    fn run_ring<I, S>(&mut self, frames: I, sink: &mut S) -> Result<(), GpuError>
    where
        I: IntoIterator<Item = Frame>,
        S: ImageSink,
    {
        for frame in frames {
            if self.in_flight() >= FRAMES_IN_FLIGHT && !self.collect_into(sink)? {
                return Ok(());
            }
            sink.time(RingPhase::Submit, || self.submit(frame))?;
        }
        while self.in_flight() > 0 {
            if !self.collect_into(sink)? {
                return Ok(());
            }
        }
        Ok(())
    }

    /// Hands the oldest frame's images to `sink`; false when it wants no more.
    fn collect_into<S: ImageSink>(&mut self, sink: &mut S) -> Result<bool, GpuError> {
        match sink.time(RingPhase::Wait, || self.collect()) {
            Some(images) => Ok(sink.images(images?)),
            None => Ok(true),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::gpu::{GpuOptions, TargetSize};
    use crate::render::prepare;
    use crate::scene::synthetic::diagram_scene;

    fn scenes() -> impl Iterator<Item = PreparedScene> {
        (0..6).map(|i| prepare(&diagram_scene(i, 32), Default::default()).unwrap())
    }

    #[test]
    fn a_sink_that_stops_leaves_the_renderer_ready_for_the_next_run() {
        let options = GpuOptions {
            target_size: TargetSize::square(32),
            max_tiles: 1,
            ..GpuOptions::default()
        };
        let mut r = match GpuRenderer::new(options) {
            Ok(r) => r,
            Err(e) if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") => {
                panic!("GPU tests are required under CI=true: {e}")
            }
            Err(e) => return eprintln!("skipping GPU test: {e}"),
        };
        let mut calls = 0;
        r.render_scenes(scenes(), |_: Vec<RenderedImage>| {
            calls += 1;
            false
        })
        .unwrap();
        assert_eq!((calls, r.in_flight()), (1, 0));
        let again = r.render_all(scenes()).unwrap();
        assert_eq!(again.len(), 6);
        let ids: Vec<_> = again.iter().map(|i| i.id.clone()).collect();
        let expected: Vec<_> = scenes().map(|s| s.id).collect();
        assert_eq!(ids, expected);
        // Six one-scene frames went through every slot more than once.
        assert_eq!(again, r.render_all(scenes()).unwrap());
    }
}
