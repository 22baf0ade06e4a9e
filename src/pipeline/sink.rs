//! The last stage: encode and write files on rayon, append manifest rows in order;
//! the datasets follow a batch behind on a thread of their own, each sink on a rayon
//! worker of its own.

use super::{Done, Progress, Raster, RunError, StageTimes, Timer};
use crate::digest::sha256_hex;
use crate::output::datasets::{DatasetWriter, WrittenRow};
use crate::output::dir::Dir;
use crate::output::manifest::{ImageFile, ImageRecord, ManifestRow, ManifestWriter, SvgFile};
use rayon::prelude::*;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

/// Images written between two hand-backs of freed memory to the system.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const TRIM_EVERY: usize = 512;

/// A row written: its manifest row, its raster file's bytes, its grounding (for
/// COCO) and its probes' rows as JSON lines (made here, on the rayon workers).
type Written = (
    ManifestRow,
    Option<Vec<u8>>,
    Option<std::sync::Arc<crate::compose::Grounding>>,
    Vec<String>,
);

/// A batch's rows with their raster files' bytes, on their way to the datasets.
type ToDatasets = Vec<WrittenRow>;

/// What the sink appends to: the manifest, the datasets if any, and the probes'
/// rows with `--probes`.
pub(super) struct Outputs {
    pub manifest: ManifestWriter,
    pub datasets: Option<DatasetWriter>,
    pub probes: Option<ManifestWriter>,
}

pub(super) struct Sink<'a> {
    pub out_dir: &'a Dir,
    /// `images/` under it, opened once.
    pub images: &'a Dir,
    pub backend: &'a str,
    pub progress: &'a dyn Progress,
    pub stats: &'a StageTimes,
}

impl Sink<'_> {
    /// Writes every batch; returns the manifest and datasets for the caller to finish
    /// once every stage has succeeded (a failed run must not leave a short manifest
    /// or dataset in place).
    pub(super) fn run(
        self,
        input: Receiver<Vec<Done>>,
        outputs: Outputs,
    ) -> Result<Outputs, RunError> {
        let Outputs {
            manifest,
            datasets,
            probes,
        } = outputs;
        let files = (manifest, probes);
        let Some(datasets) = datasets else {
            let (manifest, probes) = self.write_all(input, files, None)?;
            return Ok(Outputs {
                manifest,
                datasets: None,
                probes,
            });
        };
        // The datasets are written on a thread of their own, a batch behind the
        // files, so that neither the raster threads nor the files wait on them.
        std::thread::scope(|s| {
            let (to_datasets, batches) = sync_channel::<ToDatasets>(2);
            let stats = self.stats;
            let writer = s.spawn(move || -> Result<DatasetWriter, RunError> {
                let mut datasets = datasets;
                for batch in batches {
                    let _t = Timer::new(&stats.datasets);
                    datasets.push_batch(batch)?;
                }
                Ok(datasets)
            });
            let files = self.write_all(input, files, Some(&to_datasets));
            drop(to_datasets);
            let datasets = writer.join().expect("the dataset thread does not panic");
            // A dataset error closes the channel, which stops the files with a send
            // error: the dataset's error is the one that explains it.
            let datasets = datasets?;
            let (manifest, probes) = files?;
            Ok(Outputs {
                manifest,
                datasets: Some(datasets),
                probes,
            })
        })
    }

    /// Writes every batch's files and manifest rows; hands each batch's rows and
    /// raster bytes to `datasets` (in order) when there are datasets.
    fn write_all(
        &self,
        input: Receiver<Vec<Done>>,
        (mut manifest, mut probes): (ManifestWriter, Option<ManifestWriter>),
        datasets: Option<&SyncSender<ToDatasets>>,
    ) -> Result<(ManifestWriter, Option<ManifestWriter>), RunError> {
        let manifest_err = |source| RunError::Io {
            path: ManifestWriter::partial_path(self.out_dir, "manifest.jsonl"),
            source,
        };
        let probes_err = |source| RunError::Io {
            path: ManifestWriter::partial_path(self.out_dir, crate::output::probes::FILE),
            source,
        };
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        let mut since_trim = 0;
        for batch in input {
            #[cfg(all(target_os = "linux", target_env = "gnu"))]
            {
                since_trim += batch.len();
            }
            let rows: Vec<Result<_, RunError>> =
                batch.into_par_iter().map(|done| self.write(done)).collect();
            let mut written = Vec::with_capacity(rows.len());
            {
                let _t = Timer::new(&self.stats.write);
                for row in rows {
                    let (row, raster, grounding, probe_lines) = row?;
                    if let Some(out) = &mut probes {
                        for line in &probe_lines {
                            out.write_raw(line).map_err(probes_err)?;
                        }
                    }
                    // Runs without raster images get no datasets (refused at the
                    // start), so a row without one here is a text-only row.
                    match datasets.map(|_| raster) {
                        Some(image) => {
                            // The line is made once, for the manifest and the datasets.
                            let line = row.to_json();
                            manifest.write_raw(&line).map_err(manifest_err)?;
                            self.progress.image_written(&row.image.id);
                            written.push(WrittenRow {
                                row,
                                line,
                                image,
                                grounding,
                            });
                        }
                        None => {
                            manifest.write_row(&row).map_err(manifest_err)?;
                            self.progress.image_written(&row.image.id);
                        }
                    }
                }
                // Each batch's rows reach the file at once, so a killed run keeps them.
                manifest.flush().map_err(manifest_err)?;
                if let Some(out) = &mut probes {
                    out.flush().map_err(probes_err)?;
                }
            }
            // Hand freed pages back to the system: glibc keeps them in per-thread
            // arenas otherwise, and a long run's resident memory creeps up with them
            // (+5 MB over a 20,000-image sweep). Every 512 images, not every batch
            // (~64): each trim makes the next batches fault their pages in afresh.
            #[cfg(all(target_os = "linux", target_env = "gnu"))]
            if since_trim >= TRIM_EVERY {
                // SAFETY: malloc_trim only releases free memory; it takes no pointers.
                unsafe {
                    libc::malloc_trim(0);
                }
                since_trim = 0;
            }
            if let Some(to) = datasets {
                if to.send(written).is_err() {
                    return Err(RunError::DatasetsStopped);
                }
            }
        }
        Ok((manifest, probes))
    }

    /// Writes one job's files; returns its manifest row, the raster file's bytes and
    /// the image's grounding.
    // Without the GPU stage every image arrives encoded (`Raster` has one variant).
    #[cfg_attr(not(feature = "gpu"), allow(clippy::infallible_destructuring_match))]
    fn write(&self, done: Done) -> Result<Written, RunError> {
        let mut meta = done.meta;
        let grounded = meta.grounded.take();
        let raster = match (done.image, meta.encoding) {
            (Some(image), Some(encoding)) => {
                let encoded = match image {
                    #[cfg(feature = "gpu")]
                    Raster::Pixels(img) => meta.finish(encoding, img, self.stats),
                    Raster::Encoded(result) => result,
                };
                let bytes = encoded.map_err(|source| RunError::Encode {
                    id: meta.id.clone(),
                    source,
                })?;
                Some((
                    format!("images/{}.{}", meta.id, encoding.extension()),
                    bytes,
                ))
            }
            _ => None,
        };
        let svg = match &meta.svg {
            Some(text) => {
                let rel = format!("images/{}.svg", meta.id);
                let sha = self.put(&rel, text.as_bytes())?;
                Some(SvgFile {
                    svg: rel,
                    svg_sha256: sha,
                })
            }
            None => None,
        };
        // The image is the raster file when there is one, else the SVG on its own;
        // a text-only row has none.
        let file = |image, sha256| ImageFile {
            image,
            width: meta.width,
            height: meta.height,
            sha256,
            backend: self.backend.to_string(),
        };
        let (file, svg, raster) = match (raster, svg) {
            (Some((rel, bytes)), svg) => {
                let sha = self.put(&rel, &bytes)?;
                (Some(file(rel, sha)), svg, Some(bytes))
            }
            (None, Some(svg)) => (Some(file(svg.svg, svg.svg_sha256)), None, None),
            (None, None) if meta.encoding.is_none() => (None, None, None),
            (None, None) => return Err(RunError::NothingToWrite { id: meta.id }),
        };
        let row = ManifestRow {
            image: ImageRecord { id: meta.id, file },
            svg,
            source: meta.source,
            problem: meta.problem,
            input_sha256: Some(meta.input_sha256),
        };
        let (grounding, probe_lines) = match grounded {
            Some(g) => {
                let lines = crate::output::probes::rows(&row, &g.grounding, &g.probes)
                    .iter()
                    .map(|p| serde_json::to_string(p).expect("a probe row serialises"))
                    .collect();
                (Some(g.grounding), lines)
            }
            None => (None, Vec::new()),
        };
        Ok((row, raster, grounding, probe_lines))
    }

    /// Writes `bytes` to `out_dir/rel` (`rel` = `images/NAME`) atomically; returns
    /// their SHA-256.
    fn put(&self, rel: &str, bytes: &[u8]) -> Result<String, RunError> {
        let sha = {
            let _t = Timer::new(&self.stats.encode);
            sha256_hex(bytes)
        };
        let _t = Timer::new(&self.stats.write);
        let name = rel.strip_prefix("images/").unwrap_or(rel);
        self.images
            .write_atomic(name, bytes)
            .map_err(|source| RunError::Io {
                path: self.out_dir.join(rel),
                source,
            })?;
        Ok(sha)
    }
}
