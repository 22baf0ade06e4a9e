//! The last stage: encode and write files on rayon, append manifest rows in order.

use super::{Done, Progress, RunError, StageTimes, Timer};
use crate::output::atomic::write_atomic;
use crate::output::manifest::{ImageRecord, ManifestWriter, sha256_hex};
use rayon::prelude::*;
use serde_json::{Map, Value};
use std::path::Path;
use std::sync::mpsc::Receiver;

pub(super) struct Sink<'a> {
    pub out_dir: &'a Path,
    pub backend: &'a str,
    pub progress: &'a dyn Progress,
    pub stats: &'a StageTimes,
}

impl Sink<'_> {
    /// Writes every batch; returns the manifest for the caller to finish once every
    /// stage has succeeded (a failed run must not leave a short manifest in place).
    pub fn run(
        self,
        input: Receiver<Vec<Done>>,
        mut manifest: ManifestWriter,
    ) -> Result<ManifestWriter, RunError> {
        let manifest_err = |source| RunError::Io {
            path: self.out_dir.join("manifest.jsonl"),
            source,
        };
        for batch in input {
            let rows: Vec<Result<_, RunError>> =
                batch.par_iter().map(|done| self.write(done)).collect();
            let _t = Timer::new(&self.stats.write);
            for (row, done) in rows.into_iter().zip(&batch) {
                manifest.write_row(&row?).map_err(manifest_err)?;
                self.progress.image_written(&done.meta.id);
            }
        }
        Ok(manifest)
    }

    /// Writes one job's files and returns its manifest row.
    fn write(&self, done: &Done) -> Result<Map<String, Value>, RunError> {
        let meta = &done.meta;
        let raster = match &done.image {
            Some(img) => {
                let _t = Timer::new(&self.stats.encode);
                let bytes =
                    crate::output::encode(meta.encoding, img).map_err(|e| RunError::Encode {
                        id: meta.id.clone(),
                        message: e.to_string(),
                    })?;
                Some((
                    format!("images/{}.{}", meta.id, meta.encoding.extension()),
                    bytes,
                ))
            }
            None => None,
        };
        let svg = meta
            .svg
            .as_ref()
            .map(|text| (format!("images/{}.svg", meta.id), text.as_bytes()));
        let (image, sha256) = match (&raster, &svg) {
            (Some((rel, bytes)), _) => (rel.clone(), self.put(rel, bytes)?),
            (None, Some((rel, bytes))) => (rel.clone(), self.put(rel, bytes)?),
            (None, None) => unreachable!("every job writes a raster image or an SVG"),
        };
        let mut extra = Map::new();
        if let (Some(_), Some((rel, bytes))) = (&raster, &svg) {
            let sha = self.put(rel, bytes)?;
            extra.insert("svg".into(), rel.clone().into());
            extra.insert("svg_sha256".into(), sha.into());
        }
        extra.extend(meta.extra.clone());
        let record = ImageRecord {
            id: meta.id.clone(),
            image,
            width: meta.width,
            height: meta.height,
            sha256,
            backend: self.backend.to_string(),
        };
        Ok(record.to_row(&extra))
    }

    /// Writes `bytes` to `out_dir/rel` atomically; returns their SHA-256.
    fn put(&self, rel: &str, bytes: &[u8]) -> Result<String, RunError> {
        let sha = {
            let _t = Timer::new(&self.stats.encode);
            sha256_hex(bytes)
        };
        let _t = Timer::new(&self.stats.write);
        let path = self.out_dir.join(rel);
        write_atomic(&path, bytes).map_err(|source| RunError::Io { path, source })?;
        Ok(sha)
    }
}
