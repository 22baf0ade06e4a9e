//! The render loop: frames are submitted while earlier ones are read back, with
//! at most [`FRAMES_IN_FLIGHT`] frames on the GPU at once.
//!
//! A frame that fails (a wgpu validation or out-of-memory error, e.g. geometry
//! beyond the device's largest buffer, or a full glyph atlas) does not end the
//! loop: it is split in two and each half rendered on its own, again and again,
//! until the scenes that fail alone are known; those go to
//! [`ImageSink::failed`], every other image to [`ImageSink::images`], all in
//! input order. Errors that mean the device is gone (lost, poll or map failures)
//! still end the loop.

use super::GpuError;
use super::frame::{Frame, FrameBuilder};
use super::renderer::{FRAMES_IN_FLIGHT, Failed, GpuRenderer};
use crate::render::PreparedScene;
use crate::render::RenderedImage;
use std::collections::VecDeque;

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

    /// The scene `id` failed even when rendered alone; it comes in input order
    /// among the images. `Ok(false)` stops the loop quietly like [`Self::images`];
    /// the default ends the loop with the error.
    fn failed(&mut self, id: String, error: GpuError) -> Result<bool, GpuError> {
        let _ = id;
        Err(error)
    }

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
    pub(crate) fn render_all<I>(&mut self, scenes: I) -> Result<Vec<RenderedImage>, GpuError>
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
    pub(crate) fn render_frames<I, S>(&mut self, frames: I, mut sink: S) -> Result<(), GpuError>
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
            if let Err(failed) = sink.time(RingPhase::Submit, || self.submit(frame)) {
                // The frames before it first, then it, split.
                while self.in_flight() > 0 {
                    if !self.collect_into(sink)? {
                        return Ok(());
                    }
                }
                if !self.recover(VecDeque::from([(failed.frame, Some(failed.error))]), sink)? {
                    return Ok(());
                }
            }
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
            Some(Ok(images)) => Ok(sink.images(images)),
            Some(Err(Failed { frame, error })) => {
                // The frames submitted after it come back unread, to be redone after it.
                let mut queue = VecDeque::from([(frame, Some(error))]);
                queue.extend(self.take_back_in_flight().into_iter().map(|f| (f, None)));
                self.recover(queue, sink)
            }
            None => Ok(true),
        }
    }

    /// Renders `queue` in order, one frame at a time (nothing else in flight); a
    /// frame that failed (the error given) or fails now is split in halves, each
    /// tried on its own, down to single scenes that go to [`ImageSink::failed`].
    /// Returns false when the sink wants no more.
    fn recover<S: ImageSink>(
        &mut self,
        mut queue: VecDeque<(Frame, Option<GpuError>)>,
        sink: &mut S,
    ) -> Result<bool, GpuError> {
        debug_assert_eq!(self.in_flight(), 0);
        while let Some((frame, error)) = queue.pop_front() {
            let Failed { frame, error } = match error {
                Some(error) => Failed { frame, error },
                None => match self.render_alone(frame, sink) {
                    Ok(images) => {
                        if !sink.images(images) {
                            return Ok(false);
                        }
                        continue;
                    }
                    Err(failed) => failed,
                },
            };
            if !error.is_frame_local() {
                return Err(error);
            }
            match frame.split() {
                Ok((front, back)) => {
                    queue.push_front((back, None));
                    queue.push_front((front, None));
                }
                Err(id) => {
                    if !sink.failed(id, error)? {
                        return Ok(false);
                    }
                }
            }
        }
        Ok(true)
    }

    /// Submits `frame` and waits for its images.
    fn render_alone<S: ImageSink>(
        &mut self,
        frame: Frame,
        sink: &mut S,
    ) -> Result<Vec<RenderedImage>, Failed> {
        sink.time(RingPhase::Submit, || self.submit(frame))?;
        sink.time(RingPhase::Wait, || self.collect())
            .expect("the frame just submitted is in flight")
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

    fn renderer(options: GpuOptions) -> Option<GpuRenderer> {
        match GpuRenderer::new(options) {
            Ok(r) => Some(r),
            Err(e) if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") => {
                panic!("GPU tests are required under CI=true: {e}")
            }
            Err(e) => {
                eprintln!("skipping GPU test: {e}");
                None
            }
        }
    }

    /// Records what a render loop hands over, in order.
    #[derive(Default)]
    struct Record {
        events: Vec<String>,
        submits: usize,
    }

    impl ImageSink for &mut Record {
        fn images(&mut self, images: Vec<RenderedImage>) -> bool {
            self.events.extend(images.into_iter().map(|i| i.id));
            true
        }

        fn failed(&mut self, id: String, error: GpuError) -> Result<bool, GpuError> {
            assert!(error.to_string().contains("injected"), "{error}");
            self.events.push(format!("failed {id}"));
            Ok(true)
        }

        fn time<R>(&mut self, phase: RingPhase, run: impl FnOnce() -> R) -> R {
            self.submits += (phase == RingPhase::Submit) as usize;
            run()
        }
    }

    #[test]
    fn a_failing_frame_is_split_until_only_the_bad_scene_fails() {
        // Three scenes per frame: frames [0 1 2] [3 4 5]; scene 4 fails in any frame.
        let Some(mut r) = renderer(GpuOptions {
            target_size: TargetSize::square(96),
            max_tiles: 3,
            ..GpuOptions::default()
        }) else {
            return;
        };
        let ids: Vec<String> = scenes().map(|s| s.id).collect();
        let good = r.render_all(scenes()).unwrap();
        for at_collect in [false, true] {
            let bad = ids[4].clone();
            r.fail_frames_with(Some(bad.clone()), at_collect);
            let mut record = Record::default();
            r.render_scenes(scenes(), &mut record).unwrap();
            let mut expected: Vec<String> = ids.clone();
            expected[4] = format!("failed {bad}");
            assert_eq!(record.events, expected, "at collect: {at_collect}");
            // 2 frames, then [3 4 5] → [3] + [4 5] → [4] + [5]: 4 more submissions.
            assert_eq!(record.submits, 6);
            // The default sink ends the loop on a scene that fails alone.
            assert!(r.render_all(scenes()).is_err());
            // A failure in the first frame, with the second in flight behind it
            // (taken back unread when the first fails as it is read back).
            r.fail_frames_with(Some(ids[0].clone()), at_collect);
            let mut record = Record::default();
            r.render_scenes(scenes(), &mut record).unwrap();
            let mut expected: Vec<String> = ids.clone();
            expected[0] = format!("failed {}", ids[0]);
            assert_eq!(record.events, expected, "at collect: {at_collect}");
            // Nothing of the failures stays behind: the images are an undisturbed run's.
            r.fail_frames_with(None, false);
            assert_eq!(r.render_all(scenes()).unwrap(), good);
        }
    }

    #[test]
    fn a_sink_that_stops_leaves_the_renderer_ready_for_the_next_run() {
        let options = GpuOptions {
            target_size: TargetSize::square(32),
            max_tiles: 1,
            ..GpuOptions::default()
        };
        let Some(mut r) = renderer(options) else {
            return;
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
