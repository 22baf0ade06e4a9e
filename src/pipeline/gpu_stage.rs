//! Stage 2 (GPU backend): pack prepared scenes into frames, keep
//! [`FRAMES_IN_FLIGHT`](crate::render::gpu::FRAMES_IN_FLIGHT) in flight, hand
//! finished images on in input order.

use super::{Done, Meta, StageTimes, Timer};
use crate::render::PreparedScene;
use crate::render::RenderedImage;
use crate::render::gpu::{GpuError, GpuRenderer, ImageSink, RingPhase};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, SyncSender};

pub(super) fn run(
    mut renderer: GpuRenderer,
    input: Receiver<(PreparedScene, Meta)>,
    to_sink: SyncSender<Vec<Done>>,
    stats: &StageTimes,
) -> Result<(), GpuError> {
    // Jobs whose images have not come back yet, in order: queued as the renderer
    // takes their scenes, paired with images as frames come back.
    let metas = RefCell::new(VecDeque::new());
    let scenes = input.into_iter().map(|(prepared, meta)| {
        metas.borrow_mut().push_back(meta);
        prepared
    });
    let sink = Sink {
        metas: &metas,
        to_sink,
        stats,
    };
    // A sink that has gone stops the loop quietly; its error is reported by the caller.
    renderer.render_scenes(scenes, sink)
}

struct Sink<'a> {
    metas: &'a RefCell<VecDeque<Meta>>,
    to_sink: SyncSender<Vec<Done>>,
    stats: &'a StageTimes,
}

impl ImageSink for Sink<'_> {
    fn images(&mut self, images: Vec<RenderedImage>) -> bool {
        let mut metas = self.metas.borrow_mut();
        let batch = images
            .into_iter()
            .map(|image| {
                let meta = metas.pop_front().expect("one job per image");
                debug_assert_eq!(image.id, meta.id);
                Done {
                    meta,
                    image: Some(image),
                }
            })
            .collect();
        drop(metas);
        self.to_sink.send(batch).is_ok()
    }

    fn time<R>(&mut self, phase: RingPhase, run: impl FnOnce() -> R) -> R {
        let _t = Timer::new(match phase {
            RingPhase::Submit => &self.stats.gpu_submit,
            RingPhase::Wait => &self.stats.gpu_wait,
        });
        run()
    }
}
