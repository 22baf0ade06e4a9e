//! Stage 2 (GPU backend): pack prepared scenes into frames, keep
//! [`FRAMES_IN_FLIGHT`](crate::render::gpu::FRAMES_IN_FLIGHT) in flight, hand
//! finished images on in input order. A frame that fails is split and retried by
//! the renderer; a scene that fails alone becomes a line error, and the run goes on.

use super::{Done, LineError, LineFault, Meta, Progress, Raster, StageTimes, Timer};
use crate::render::PreparedScene;
use crate::render::RenderedImage;
use crate::render::gpu::{GpuError, GpuRenderer, ImageSink, RingPhase};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, SyncSender};

/// Where scenes that fail on the GPU are reported.
pub(super) struct Report<'a> {
    /// The input file, as line errors name it.
    pub file: &'a str,
    pub progress: &'a dyn Progress,
}

/// Renders every scene of `input`; returns the jobs that failed even alone, as
/// line errors in input order. Only a device failure ends the stage with an error.
pub(super) fn run(
    mut renderer: GpuRenderer,
    input: Receiver<(Option<PreparedScene>, Meta)>,
    to_sink: SyncSender<Vec<Done>>,
    stats: &StageTimes,
    report: Report<'_>,
) -> Result<Vec<LineError>, GpuError> {
    // Jobs whose images have not come back yet, in order: queued as the renderer
    // takes their scenes, paired with images as frames come back.
    // A row without an image (no scene) waits among them, and goes on to the sink
    // when every image before it has.
    let metas = RefCell::new(VecDeque::new());
    let scenes = input.into_iter().filter_map(|(prepared, meta)| {
        metas.borrow_mut().push_back(meta);
        prepared
    });
    let mut failed = Vec::new();
    let sink = Sink {
        metas: &metas,
        to_sink: to_sink.clone(),
        stats,
        report,
        failed: &mut failed,
    };
    // A sink that has gone stops the loop quietly; its error is reported by the caller.
    renderer.render_scenes(scenes, sink)?;
    // The rows without an image after the last image.
    let rest = imageless(&mut metas.borrow_mut());
    if !rest.is_empty() {
        let _ = to_sink.send(rest);
    }
    Ok(failed)
}

/// The rows without an image at the front of the queue, taken off it.
fn imageless(metas: &mut VecDeque<Meta>) -> Vec<Done> {
    let mut out = Vec::new();
    while metas.front().is_some_and(|m| m.encoding.is_none()) {
        let meta = metas.pop_front().expect("a front row");
        out.push(Done { meta, image: None });
    }
    out
}

struct Sink<'a> {
    metas: &'a RefCell<VecDeque<Meta>>,
    to_sink: SyncSender<Vec<Done>>,
    stats: &'a StageTimes,
    report: Report<'a>,
    failed: &'a mut Vec<LineError>,
}

impl ImageSink for Sink<'_> {
    fn images(&mut self, images: Vec<RenderedImage>) -> bool {
        let mut metas = self.metas.borrow_mut();
        let mut batch = Vec::with_capacity(images.len());
        for image in images {
            batch.extend(imageless(&mut metas));
            let meta = metas.pop_front().expect("one job per image");
            debug_assert_eq!(image.id, meta.id);
            batch.push(Done {
                meta,
                image: Some(Raster::Pixels(image)),
            });
        }
        drop(metas);
        self.to_sink.send(batch).is_ok()
    }

    fn failed(&mut self, id: String, error: GpuError) -> Result<bool, GpuError> {
        let before = imageless(&mut self.metas.borrow_mut());
        if !before.is_empty() && self.to_sink.send(before).is_err() {
            return Ok(false);
        }
        let meta = self
            .metas
            .borrow_mut()
            .pop_front()
            .expect("one job per failed scene");
        debug_assert_eq!(id, meta.id);
        let e = LineError {
            file: self.report.file.to_string(),
            line: meta.line,
            id: Some(id),
            fault: Box::new(LineFault::Gpu(error)),
        };
        self.report.progress.line_failed(&e);
        self.failed.push(e);
        Ok(true)
    }

    fn time<R>(&mut self, phase: RingPhase, run: impl FnOnce() -> R) -> R {
        let _t = Timer::new(match phase {
            RingPhase::Submit => &self.stats.gpu_submit,
            RingPhase::Wait => &self.stats.gpu_wait,
        });
        run()
    }
}
