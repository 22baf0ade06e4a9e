//! Stage 2 (GPU backend): pack prepared scenes into frames, keep two in flight,
//! hand finished images on in input order.

use super::{Done, Meta, StageTimes, Timer};
use crate::render::gpu::{Frame, FrameBuilder, GpuError, GpuRenderer};
use crate::render::prepare::PreparedScene;
use std::collections::VecDeque;
use std::sync::mpsc::{Receiver, SyncSender};

/// Frames in flight before the oldest is collected.
const IN_FLIGHT: usize = 2;

pub(super) fn run(
    mut renderer: GpuRenderer,
    input: Receiver<(PreparedScene, Meta)>,
    to_sink: SyncSender<Vec<Done>>,
    stats: &StageTimes,
) -> Result<(), GpuError> {
    let options = renderer.options();
    let mut frames = FrameBuilder::new(options.target_size, options.max_tiles);
    let mut stage = Stage {
        metas: VecDeque::new(),
        to_sink,
        stats,
    };
    for (prepared, meta) in input {
        stage.metas.push_back(meta);
        for frame in frames.push(prepared) {
            if !stage.submit(&mut renderer, frame)? {
                return Ok(());
            }
        }
    }
    if let Some(frame) = frames.finish() {
        if !stage.submit(&mut renderer, frame)? {
            return Ok(());
        }
    }
    while renderer.in_flight() > 0 {
        if !stage.collect(&mut renderer)? {
            return Ok(());
        }
    }
    Ok(())
}

struct Stage<'a> {
    /// Jobs whose images have not come back yet, in order.
    metas: VecDeque<Meta>,
    to_sink: SyncSender<Vec<Done>>,
    stats: &'a StageTimes,
}

impl Stage<'_> {
    /// Submits a frame, first collecting the oldest when the ring is full.
    /// Returns false when the sink has gone (its error is reported by the caller).
    fn submit(&mut self, renderer: &mut GpuRenderer, frame: Frame) -> Result<bool, GpuError> {
        if renderer.in_flight() >= IN_FLIGHT && !self.collect(renderer)? {
            return Ok(false);
        }
        let _t = Timer::new(&self.stats.gpu_submit);
        renderer.submit(frame)?;
        Ok(true)
    }

    fn collect(&mut self, renderer: &mut GpuRenderer) -> Result<bool, GpuError> {
        let images = {
            let _t = Timer::new(&self.stats.gpu_wait);
            match renderer.collect() {
                Some(r) => r?,
                None => return Ok(true),
            }
        };
        let batch = images
            .into_iter()
            .map(|image| {
                let meta = self.metas.pop_front().expect("one job per image");
                debug_assert_eq!(image.id, meta.id);
                Done {
                    meta,
                    image: Some(image),
                }
            })
            .collect();
        Ok(self.to_sink.send(batch).is_ok())
    }
}
