//! COCO grounding annotations: `coco/annotations.json`, in the object-detection
//! format of the COCO dataset (as `pycocotools.coco.COCO` reads it: `images`,
//! `annotations` with `bbox` `[x, y, width, height]`, `area`, `iscrowd` and
//! `segmentation`, and `categories`).
//!
//! One image entry per row with an image (its `file_name` is the image's path
//! relative to the output directory, as the manifest writes it; `geomrender_id` is
//! the row's id), and one annotation per element the image draws, taken from the
//! image's grounding (the Problem's geometry as fitted to this image):
//!
//! - `point`: a box of [`POINT_BOX`] px centred on the point, for every named
//!   point; `labelled` says whether its letter is drawn;
//! - `segment`: every straight line drawn between two named points, its polygon the
//!   stroke's rectangle (2 px wide);
//! - `shape`: every shape, its polygon the outline (arcs sampled), `kind` the
//!   shape's kind; a shape with a hole is given as an uncompressed RLE mask of its
//!   even-odd fill, since a COCO polygon cannot hold a hole;
//! - `label`: the box of every label's rendered text.
//!
//! Every annotation carries `name`: the point's or line's letters, the shape's
//! name in coordinate style, the label's text. Rows without a grounding (a Scene
//! line, the `blank` control) get their image entry and no annotation. The images
//! go straight into the file as they come; the annotations are spooled to an
//! unnamed temporary file and copied in at the end, so memory stays flat.

use super::{DatasetError, DatasetRow, Layout, Writer, io};
use crate::compose::{Grounding, LineKind};
use crate::output::atomic::AtomicFile;
use crate::output::dir::Dir;
use serde_json::{Value, json};
use std::fs::File;
use std::io::{BufWriter, Seek, Write};
use std::path::PathBuf;

/// The folder and file this sink writes.
pub(super) const FOLDER: &str = "coco";
pub(super) const FILE: &str = "annotations.json";

/// The side (px) of a point's box.
pub(crate) const POINT_BOX: f64 = 6.0;
/// The width (px) of a segment's polygon.
const SEGMENT_WIDTH: f64 = 2.0;

/// The categories, by id.
pub(crate) const CATEGORIES: [&str; 4] = ["point", "segment", "shape", "label"];

pub(super) fn is_file(name: &str) -> bool {
    name == FILE
}

pub(super) struct Coco {
    path: PathBuf,
    out: AtomicFile,
    spool: BufWriter<File>,
    images: u64,
    annotations: u64,
}

impl Coco {
    pub(super) fn new(dir: &Dir) -> Result<Coco, DatasetError> {
        let sub = dir.sub(FOLDER).map_err(io(&dir.join(FOLDER)))?;
        let path = sub.join(FILE);
        let mut out = AtomicFile::create_in(&sub, FILE).map_err(io(&path))?;
        let categories: Vec<Value> = (CATEGORIES.iter().enumerate())
            .map(|(i, c)| json!({"id": i + 1, "name": c, "supercategory": "diagram"}))
            .collect();
        let head = json!({
            "description": "geomrender: the elements each image draws",
            "version": "1.0",
            "contributor": "geomrender",
        });
        write!(
            out,
            "{{\"info\":{head},\"licenses\":[],\"categories\":{},\"images\":[",
            Value::Array(categories)
        )
        .map_err(io(&path))?;
        let spool = sub.anonymous().map_err(io(&path))?;
        Ok(Coco {
            path,
            out,
            spool: BufWriter::with_capacity(1 << 16, spool),
            images: 0,
            annotations: 0,
        })
    }

    fn annotate(&mut self, image_id: u64, g: &Grounding) -> std::io::Result<()> {
        let mut put =
            |category: usize, name: &str, seg: Value, bbox: [f64; 4], area: f64, extra: Value| {
                self.annotations += 1;
                let mut a = json!({
                    "id": self.annotations,
                    "image_id": image_id,
                    "category_id": category + 1,
                    "bbox": bbox.map(r2),
                    "area": r2(area),
                    "iscrowd": 0,
                    "segmentation": seg,
                    "name": name,
                });
                if let (Value::Object(a), Value::Object(extra)) = (&mut a, extra) {
                    a.extend(extra);
                }
                if self.annotations > 1 {
                    self.spool.write_all(b",")?;
                }
                serde_json::to_writer(&mut self.spool, &a)?;
                Ok::<(), std::io::Error>(())
            };
        let h = POINT_BOX / 2.0;
        for p in &g.points {
            let b = [p.at[0] - h, p.at[1] - h, POINT_BOX, POINT_BOX];
            put(
                0,
                &p.name,
                polygons(&[&corners(b)]),
                b,
                POINT_BOX * POINT_BOX,
                json!({"labelled": p.labelled}),
            )?;
        }
        for l in &g.lines {
            let (a, b) = (g.points[l.ends[0]].at, g.points[l.ends[1]].at);
            let poly = stroke(a, b, SEGMENT_WIDTH);
            let kind = match l.kind {
                LineKind::Edge => "edge",
                LineKind::Inner => "inner",
                LineKind::Ray => "ray",
            };
            let length = (b[0] - a[0]).hypot(b[1] - a[1]);
            put(
                1,
                &g.line_name(l),
                polygons(&[&poly]),
                bounds(&poly),
                length * SEGMENT_WIDTH,
                json!({"kind": kind}),
            )?;
        }
        for s in &g.shapes {
            let kind = serde_json::to_value(s.kind).unwrap_or(Value::Null);
            let area = s
                .holes
                .iter()
                .fold(shoelace(&s.outline), |a, h| a - shoelace(h));
            let seg = if s.holes.is_empty() {
                polygons(&[&s.outline])
            } else {
                let mut all = vec![s.outline.clone()];
                all.extend(s.holes.iter().cloned());
                rle(&all, g.width, g.height)
            };
            put(
                2,
                &s.name,
                seg,
                bounds(&s.outline),
                area,
                json!({"kind": kind}),
            )?;
        }
        for l in &g.labels {
            let b = [
                l.center[0] - l.half[0],
                l.center[1] - l.half[1],
                2.0 * l.half[0],
                2.0 * l.half[1],
            ];
            put(
                3,
                &l.text,
                polygons(&[&corners(b)]),
                b,
                b[2] * b[3],
                json!({"letter": l.letter}),
            )?;
        }
        Ok(())
    }
}

/// Two decimals: sub-pixel enough, and short.
fn r2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

fn corners(b: [f64; 4]) -> Vec<[f64; 2]> {
    let (x, y, w, h) = (b[0], b[1], b[2], b[3]);
    vec![[x, y], [x + w, y], [x + w, y + h], [x, y + h]]
}

/// The rectangle of a stroke `width` px wide from `a` to `b`.
fn stroke(a: [f64; 2], b: [f64; 2], width: f64) -> Vec<[f64; 2]> {
    let l = (b[0] - a[0]).hypot(b[1] - a[1]).max(1e-9);
    let n = [
        -(b[1] - a[1]) / l * width / 2.0,
        (b[0] - a[0]) / l * width / 2.0,
    ];
    vec![
        [a[0] + n[0], a[1] + n[1]],
        [b[0] + n[0], b[1] + n[1]],
        [b[0] - n[0], b[1] - n[1]],
        [a[0] - n[0], a[1] - n[1]],
    ]
}

fn bounds(poly: &[[f64; 2]]) -> [f64; 4] {
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for p in poly {
        for i in 0..2 {
            lo[i] = lo[i].min(p[i]);
            hi[i] = hi[i].max(p[i]);
        }
    }
    [lo[0], lo[1], hi[0] - lo[0], hi[1] - lo[1]]
}

fn shoelace(poly: &[[f64; 2]]) -> f64 {
    let n = poly.len();
    let twice: f64 = (0..n)
        .map(|i| {
            let (p, q) = (poly[i], poly[(i + 1) % n]);
            p[0] * q[1] - q[0] * p[1]
        })
        .sum();
    twice.abs() / 2.0
}

/// COCO polygons: each a flat `[x1, y1, x2, y2, …]`.
fn polygons(polys: &[&[[f64; 2]]]) -> Value {
    Value::Array(
        polys
            .iter()
            .map(|p| {
                Value::from(
                    p.iter()
                        .flat_map(|q| [r2(q[0]), r2(q[1])])
                        .collect::<Vec<f64>>(),
                )
            })
            .collect(),
    )
}

/// The even-odd fill of `contours` on a `w` × `h` grid (pixel centres) as COCO's
/// uncompressed RLE: run lengths in column-major order, starting with a 0-run.
fn rle(contours: &[Vec<[f64; 2]>], w: u32, h: u32) -> Value {
    let mut counts: Vec<u64> = Vec::new();
    let (mut run, mut inside_run) = (0u64, false);
    let mut ys: Vec<f64> = Vec::new();
    for x in 0..w {
        let cx = f64::from(x) + 0.5;
        ys.clear();
        for c in contours {
            for i in 0..c.len() {
                let (p, q) = (c[i], c[(i + 1) % c.len()]);
                if (p[0] <= cx) != (q[0] <= cx) {
                    ys.push(p[1] + (cx - p[0]) / (q[0] - p[0]) * (q[1] - p[1]));
                }
            }
        }
        ys.sort_by(f64::total_cmp);
        let mut k = 0;
        for y in 0..h {
            let cy = f64::from(y) + 0.5;
            while k < ys.len() && ys[k] <= cy {
                k += 1;
            }
            let inside = k % 2 == 1;
            if inside != inside_run {
                counts.push(run);
                run = 0;
                inside_run = inside;
            }
            run += 1;
        }
    }
    counts.push(run);
    json!({"size": [h, w], "counts": counts})
}

impl Writer for Coco {
    fn push(&mut self, r: &DatasetRow, _layout: Layout) -> Result<(), DatasetError> {
        let Some(image) = &r.image else {
            return Ok(());
        };
        self.images += 1;
        let entry = json!({
            "id": self.images,
            "file_name": r.image_path.as_deref().unwrap_or(&image.file_name),
            "width": image.width,
            "height": image.height,
            "geomrender_id": r.id,
            "base_id": r.base_id,
            "sha256": image.sha256,
        });
        let path = self.path.clone();
        if self.images > 1 {
            self.out.write_all(b",").map_err(io(&path))?;
        }
        serde_json::to_writer(&mut self.out, &entry).map_err(|e| io(&path)(e.into()))?;
        if let Some(g) = &r.grounding {
            self.annotate(self.images, g).map_err(io(&path))?;
        }
        Ok(())
    }

    fn finish(self: Box<Self>, _layout: Layout) -> Result<Vec<PathBuf>, DatasetError> {
        let Coco {
            path,
            mut out,
            spool,
            ..
        } = *self;
        let mut spool = spool.into_inner().map_err(|e| io(&path)(e.into_error()))?;
        spool.rewind().map_err(io(&path))?;
        out.write_all(b"],\"annotations\":[").map_err(io(&path))?;
        std::io::copy(&mut spool, &mut out).map_err(io(&path))?;
        out.write_all(b"]}\n").map_err(io(&path))?;
        out.commit(false).map_err(io(&path))?;
        Ok(vec![PathBuf::from(format!("{FOLDER}/{FILE}"))])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_with_a_hole_is_its_ring_in_column_major_runs() {
        let outer = vec![[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]];
        let hole = vec![[1.0, 1.0], [3.0, 1.0], [3.0, 3.0], [1.0, 3.0]];
        let v = rle(&[outer, hole], 5, 5);
        // Columns 0 and 3: rows 0–3 in; columns 1 and 2: rows 0 and 3; column 4: out.
        assert_eq!(v["size"], json!([5, 5]));
        let counts: Vec<u64> = serde_json::from_value(v["counts"].clone()).unwrap();
        let mut mask = Vec::new();
        for (i, c) in counts.iter().enumerate() {
            mask.extend(std::iter::repeat_n(i % 2 == 1, *c as usize));
        }
        let col = |x: usize| -> Vec<bool> { mask[x * 5..x * 5 + 5].to_vec() };
        assert_eq!(col(0), [true, true, true, true, false]);
        assert_eq!(col(1), [true, false, false, true, false]);
        assert_eq!(col(4), [false; 5]);
        assert_eq!(
            shoelace(&[[0.0, 0.0], [4.0, 0.0], [4.0, 4.0], [0.0, 4.0]]),
            16.0
        );
    }
}
