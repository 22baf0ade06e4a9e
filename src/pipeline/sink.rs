//! The last stage: encode and write images on rayon, append manifest rows in order.

use super::{Meta, Progress, RunError, StageTimes, Timer};
use crate::output::atomic::write_atomic;
use crate::output::manifest::{ImageRecord, ManifestWriter, sha256_hex};
use crate::output::png::encode_png;
use crate::render::RenderedImage;
use rayon::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::mpsc::Receiver;

pub(super) struct Sink<'a> {
    pub out_dir: &'a Path,
    pub backend: &'a str,
    pub progress: &'a dyn Progress,
    pub stats: &'a StageTimes,
}

impl Sink<'_> {
    /// Writes every batch; returns the number of images and the manifest path.
    pub fn run(
        self,
        input: Receiver<Vec<(RenderedImage, Meta)>>,
        mut manifest: ManifestWriter,
    ) -> Result<(u64, PathBuf), RunError> {
        for batch in input {
            let rows: Vec<Result<_, RunError>> = batch
                .par_iter()
                .map(|(img, meta)| self.write_image(img, meta))
                .collect();
            let _t = Timer::new(&self.stats.write);
            for (row, (_, meta)) in rows.into_iter().zip(&batch) {
                let row = row?;
                manifest.write_row(&row).map_err(|source| RunError::Io {
                    path: self.out_dir.join("manifest.jsonl"),
                    source,
                })?;
                self.progress.image_written(&meta.id);
            }
        }
        let images = manifest.rows();
        let path = manifest.finish().map_err(|source| RunError::Io {
            path: self.out_dir.join("manifest.jsonl"),
            source,
        })?;
        Ok((images, path))
    }

    fn write_image(
        &self,
        img: &RenderedImage,
        meta: &Meta,
    ) -> Result<serde_json::Map<String, serde_json::Value>, RunError> {
        let (bytes, sha256) = {
            let _t = Timer::new(&self.stats.encode);
            let bytes = encode_png(img).map_err(|e| RunError::Encode {
                id: meta.id.clone(),
                message: e.to_string(),
            })?;
            let sha = sha256_hex(&bytes);
            (bytes, sha)
        };
        let rel = format!("images/{}.png", meta.id);
        let path = self.out_dir.join(&rel);
        {
            let _t = Timer::new(&self.stats.write);
            write_atomic(&path, &bytes).map_err(|source| RunError::Io {
                path: path.clone(),
                source,
            })?;
        }
        let record = ImageRecord {
            id: meta.id.clone(),
            image: rel,
            width: img.width,
            height: img.height,
            sha256,
            backend: self.backend.to_string(),
        };
        Ok(record.to_row(&meta.extra))
    }
}
