//! Thumbnails: each distinct image of the run (by its manifest `sha256`) read
//! through the run directory's handle, checked against that digest, scaled to fit
//! a box and written as a small PNG named by the digest (`thumbs/ab/cdef….png`).
//! An SVG image (`--format svg`) is drawn by resvg straight at the thumbnail's
//! size. Identical images share one thumbnail, and one already made is kept, so a
//! gallery made again after more shards are merged only scales the new images.
//!
//! Rows come a chunk at a time ([`Thumbs::make`]), their images made in parallel;
//! what is kept between chunks is bounded: the last few thousand images checked,
//! and 8 bytes per distinct thumbnail (its digest's first 64 bits, for removing
//! the thumbnails no row uses any more).

use crate::output::dir::{Dir, Kind};
use rayon::prelude::*;
use std::collections::HashMap;

/// Largest image file read for a thumbnail (as a run's files are bounded).
const MAX_IMAGE_BYTES: u64 = crate::output::manifest::MAX_FILE_BYTES;

/// Images checked and kept between chunks (then forgotten, and checked again if
/// a later row names them).
const RECENT: usize = 4096;

/// A made (or kept) thumbnail: its path under `thumbs/` without extension, and size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Thumb {
    pub key: String,
    pub width: u32,
    pub height: u32,
}

/// Thumbnail name of a digest at a size: `ab/cdef0123456789-192` (the first 16 hex
/// digits, then the longest side asked for).
pub(super) fn key(sha256: &str, max: u32) -> String {
    format!("{}/{}-{max}", &sha256[..2], &sha256[2..16])
}

/// The size an image of `w`×`h` is scaled to so that it fits `max`×`max` (never enlarged).
pub(crate) fn fit(w: u32, h: u32, max: u32) -> (u32, u32) {
    if w <= max && h <= max {
        return (w, h);
    }
    let s = f64::from(max) / f64::from(w.max(h));
    let scale = |v: u32| ((f64::from(v) * s).round() as u32).max(1);
    (scale(w), scale(h))
}

/// The thumbnails of one gallery being made.
pub(super) struct Thumbs {
    root: Dir,
    dir: Dir,
    max: u32,
    /// `(image path, sha256)` → the thumbnail or why not, for the images met last.
    recent: HashMap<(String, String), Result<Thumb, String>>,
    /// The first 64 bits of every digest with a thumbnail.
    keep: Vec<u64>,
    /// `keep`'s length when it was last sorted and deduplicated.
    distinct: usize,
    /// How many images `recent` holds at most ([`RECENT`]).
    remember: usize,
}

impl Thumbs {
    /// Thumbnails of images of the run in `root`, into `dir`, fitting `max` px.
    pub(super) fn new(root: &Dir, dir: Dir, max: u32) -> Thumbs {
        Thumbs {
            root: root.clone(),
            dir,
            max,
            recent: HashMap::new(),
            keep: Vec::new(),
            distinct: RECENT,
            remember: RECENT,
        }
    }

    /// The thumbnail of each `(image path, sha256)`, or why there is none; the
    /// images not met lately are checked and made in parallel.
    pub(super) fn make(&mut self, images: &[(&str, &str)]) -> Vec<Result<Thumb, String>> {
        let key = |(p, s): (&str, &str)| (p.to_string(), s.to_string());
        let mut work: Vec<(&str, &str)> = (images.iter().copied())
            .filter(|&i| !self.recent.contains_key(&key(i)))
            .collect();
        work.sort_unstable();
        work.dedup();
        let made: HashMap<(String, String), Result<Thumb, String>> = work
            .par_iter()
            .map(|&(path, sha)| {
                (
                    key((path, sha)),
                    make(&self.root, &self.dir, path, sha, self.max),
                )
            })
            .collect();
        let out = (images.iter().copied())
            .map(|i| {
                let k = key(i);
                (made.get(&k).or_else(|| self.recent.get(&k)))
                    .expect("made now or met lately")
                    .clone()
            })
            .collect();
        if self.recent.len() + made.len() > self.remember {
            self.recent.clear();
        }
        for (k, t) in made {
            if t.is_ok() {
                self.keep
                    .push(u64::from_str_radix(&k.1[..16], 16).unwrap_or(0));
            }
            self.recent.insert(k, t);
        }
        // Kept within twice the distinct digests (an image met again after it
        // was forgotten is pushed again).
        if self.keep.len() > 2 * self.distinct {
            self.keep.sort_unstable();
            self.keep.dedup();
            self.distinct = self.keep.len().max(self.remember);
        }
        out
    }

    /// Removes the thumbnails no row uses (an earlier, larger gallery's, or one of
    /// another size); returns how many distinct thumbnails the gallery shows.
    pub(super) fn finish(mut self) -> std::io::Result<usize> {
        self.keep.sort_unstable();
        self.keep.dedup();
        let suffix = format!("-{}.png", self.max);
        for (sub, kind) in self.dir.entries()? {
            if kind != Kind::Dir {
                continue;
            }
            let dir = self.dir.sub(&sub)?;
            for (name, kind) in dir.entries()? {
                let digest = (name.strip_suffix(&suffix))
                    .map(|rest| format!("{sub}{rest}"))
                    .filter(|hex| hex.len() == 16)
                    .and_then(|hex| u64::from_str_radix(&hex, 16).ok());
                let used = digest.is_some_and(|d| self.keep.binary_search(&d).is_ok());
                if kind == Kind::File && !used {
                    dir.remove_file(&name)?;
                }
            }
        }
        Ok(self.keep.len())
    }
}

fn make(root: &Dir, thumbs: &Dir, path: &str, sha: &str, max: u32) -> Result<Thumb, String> {
    // Every file is read and checked, also when its thumbnail exists already.
    let (img_dir, img_name) = root.resolve(path).map_err(|e| format!("{path}: {e}"))?;
    let bytes = img_dir
        .read(img_name, MAX_IMAGE_BYTES)
        .map_err(|e| format!("{path}: {e}"))?;
    let actual = crate::digest::sha256_hex(&bytes);
    if !actual.eq_ignore_ascii_case(sha) {
        return Err(format!(
            "{path}: its SHA-256 is {actual}, not the manifest's {sha}: the file changed after the run"
        ));
    }
    let key = key(sha, max);
    let (sub, name) = key.split_once('/').expect("a key has one slash");
    let name = format!("{name}.png");
    let dir = thumbs.sub(sub).map_err(|e| format!("thumbs/{sub}: {e}"))?;
    // One made before from the same bytes at the same size is kept.
    if let Ok(made) = dir.read(&name, 16 << 20) {
        if let Ok((w, h)) = png_size(&made) {
            return Ok(Thumb {
                key,
                width: w,
                height: h,
            });
        }
    }
    let small = match path.to_ascii_lowercase().ends_with(".svg") {
        true => svg_thumb(&bytes, max).map_err(|e| format!("{path}: not a readable SVG: {e}"))?,
        false => {
            let image = image::load_from_memory(&bytes)
                .map_err(|e| format!("{path}: not a readable image: {e}"))?
                .to_rgba8();
            let (w, h) = fit(image.width(), image.height(), max);
            match (w, h) == image.dimensions() {
                true => image,
                false => shrink(&image, w, h),
            }
        }
    };
    let (w, h) = small.dimensions();
    let mut png = Vec::new();
    image::codecs::png::PngEncoder::new_with_quality(
        &mut png,
        image::codecs::png::CompressionType::Fast,
        image::codecs::png::FilterType::Adaptive,
    )
    .write_image(small.as_raw(), w, h, image::ExtendedColorType::Rgba8)
    .map_err(|e| format!("thumbnail of {path}: {e}"))?;
    dir.write_atomic(&name, &png)
        .map_err(|e| format!("thumbs/{key}.png: {e}"))?;
    Ok(Thumb {
        key,
        width: w,
        height: h,
    })
}

/// An SVG drawn by resvg at the size that fits `max` (as `--backend resvg` reads
/// our SVGs: the embedded font, no external files), in straight-alpha RGBA.
fn svg_thumb(bytes: &[u8], max: u32) -> Result<image::RgbaImage, String> {
    use resvg::tiny_skia::{Pixmap, Transform};
    static OPTIONS: std::sync::LazyLock<resvg::usvg::Options<'static>> =
        std::sync::LazyLock::new(crate::render::svg_options);
    let tree = resvg::usvg::Tree::from_data(bytes, &OPTIONS).map_err(|e| e.to_string())?;
    let size = tree.size();
    let dim = |v: f32| (v.ceil() as u32).clamp(1, crate::scene::limits::MAX_DIMENSION);
    let (w, h) = fit(dim(size.width()), dim(size.height()), max);
    let mut pixmap = Pixmap::new(w, h).ok_or("an empty canvas")?;
    let transform = Transform::from_scale(w as f32 / size.width(), h as f32 / size.height());
    resvg::render(&tree, transform, &mut pixmap.as_mut());
    let mut rgba = pixmap.take();
    for p in rgba.chunks_exact_mut(4) {
        let a = u32::from(p[3]);
        if a > 0 && a < 255 {
            for c in &mut p[..3] {
                *c = ((u32::from(*c) * 255 + a / 2) / a).min(255) as u8;
            }
        }
    }
    image::RgbaImage::from_raw(w, h, rgba).ok_or_else(|| "a canvas of the wrong size".into())
}

use image::ImageEncoder;

/// `src` scaled down to `w`×`h` by area averaging (each output pixel the mean of the
/// source pixels it covers, weighted by alpha), so that one-pixel lines stay visible.
fn shrink(src: &image::RgbaImage, w: u32, h: u32) -> image::RgbaImage {
    let (sw, sh) = src.dimensions();
    let span = |o: u32, n: u32, sn: u32| {
        let a = (u64::from(o) * u64::from(sn) / u64::from(n)) as u32;
        let b = ((u64::from(o) + 1) * u64::from(sn)).div_ceil(u64::from(n)) as u32;
        a..b.max(a + 1).min(sn)
    };
    let raw = src.as_raw();
    let mut out = image::RgbaImage::new(w, h);
    for oy in 0..h {
        let ys = span(oy, h, sh);
        for ox in 0..w {
            let xs = span(ox, w, sw);
            let (mut r, mut g, mut b, mut a, mut n) = (0u64, 0u64, 0u64, 0u64, 0u64);
            for y in ys.clone() {
                let row = &raw[(y as usize * sw as usize + xs.start as usize) * 4
                    ..(y as usize * sw as usize + xs.end as usize) * 4];
                for p in row.chunks_exact(4) {
                    let pa = u64::from(p[3]);
                    r += u64::from(p[0]) * pa;
                    g += u64::from(p[1]) * pa;
                    b += u64::from(p[2]) * pa;
                    a += pa;
                    n += 1;
                }
            }
            let px = match a {
                0 => [0, 0, 0, 0],
                _ => [
                    ((r + a / 2) / a) as u8,
                    ((g + a / 2) / a) as u8,
                    ((b + a / 2) / a) as u8,
                    ((a + n / 2) / n) as u8,
                ],
            };
            out.put_pixel(ox, oy, image::Rgba(px));
        }
    }
    out
}

/// Width and height from a PNG's IHDR.
fn png_size(bytes: &[u8]) -> Result<(u32, u32), ()> {
    if bytes.len() < 24 || &bytes[..8] != b"\x89PNG\r\n\x1a\n" || &bytes[12..16] != b"IHDR" {
        return Err(());
    }
    let be = |i: usize| u32::from_be_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
    Ok((be(16), be(20)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_keeps_the_aspect_and_never_enlarges() {
        assert_eq!(fit(512, 512, 192), (192, 192));
        assert_eq!(fit(1024, 512, 192), (192, 96));
        assert_eq!(fit(100, 50, 192), (100, 50));
        assert_eq!(fit(8192, 1, 192), (192, 1));
    }

    #[test]
    fn shrinking_averages_areas_and_keeps_thin_lines() {
        // A white 8×8 image with one black column: scaled to 2×2, the left column of
        // pixels is a quarter black.
        let mut img = image::RgbaImage::from_pixel(8, 8, image::Rgba([255, 255, 255, 255]));
        for y in 0..8 {
            img.put_pixel(1, y, image::Rgba([0, 0, 0, 255]));
        }
        let s = shrink(&img, 2, 2);
        assert_eq!(s.get_pixel(0, 0).0, [191, 191, 191, 255]);
        assert_eq!(s.get_pixel(1, 1).0, [255, 255, 255, 255]);
        // Transparent pixels do not darken their neighbours.
        let mut t = image::RgbaImage::from_pixel(2, 1, image::Rgba([0, 0, 0, 0]));
        t.put_pixel(1, 0, image::Rgba([200, 100, 50, 255]));
        assert_eq!(shrink(&t, 1, 1).get_pixel(0, 0).0, [200, 100, 50, 128]);
    }

    #[test]
    fn images_met_before_are_kept_or_made_again_when_forgotten() {
        let run = tempfile::tempdir().unwrap();
        let root = Dir::open(run.path()).unwrap();
        let mut shas = Vec::new();
        for (k, name) in ["a.png", "b.png", "c.png", "d.png"].iter().enumerate() {
            let img = image::RgbaImage::from_pixel(40, 20, image::Rgba([k as u8, 0, 0, 255]));
            let mut png = Vec::new();
            img.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
                .unwrap();
            std::fs::write(run.path().join(name), &png).unwrap();
            shas.push(crate::digest::sha256_hex(&png));
        }
        let mut thumbs = Thumbs::new(&root, root.sub("thumbs").unwrap(), 16);
        thumbs.remember = 2;
        let at = |i: usize| (["a.png", "b.png", "c.png", "d.png"][i], shas[i].as_str());
        let sizes = |t: Vec<Result<Thumb, String>>| -> Vec<(u32, u32)> {
            t.into_iter()
                .map(|t| t.map(|t| (t.width, t.height)).unwrap())
                .collect()
        };
        assert_eq!(sizes(thumbs.make(&[at(0), at(1), at(0)])), [(16, 8); 3]);
        // a is remembered, c and d are new: the cache overflows and is cleared
        // after the batch's answers are taken.
        assert_eq!(sizes(thumbs.make(&[at(0), at(2), at(3)])), [(16, 8); 3]);
        assert_eq!(sizes(thumbs.make(&[at(1), at(0)])), [(16, 8); 2]);
        assert_eq!(thumbs.finish().unwrap(), 4);
    }

    #[test]
    fn an_svg_is_drawn_at_the_thumbnail_size_and_loads_no_file_it_names() {
        let dir = tempfile::tempdir().unwrap();
        let secret = dir.path().join("secret.png");
        image::RgbaImage::from_pixel(8, 8, image::Rgba([255, 0, 0, 255]))
            .save(&secret)
            .unwrap();
        let svg = format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="400" height="200">
            <rect width="400" height="200" fill="#ffffff"/>
            <path d="M 0 100 L 400 100" stroke="#0000ff" stroke-width="20"/>
            <image x="0" y="0" width="400" height="200" xlink:href="{}"/>
            <image x="0" y="0" width="400" height="200" href="file://{}"/></svg>"##,
            secret.display(),
            secret.display()
        );
        let t = svg_thumb(svg.as_bytes(), 100).unwrap();
        assert_eq!(t.dimensions(), (100, 50));
        assert_eq!(t.get_pixel(50, 25).0, [0, 0, 255, 255]);
        assert_eq!(t.get_pixel(50, 5).0, [255, 255, 255, 255]);
        assert!(
            t.pixels().all(|p| !(p[0] > 200 && p[1] < 50)),
            "the file was drawn"
        );
        assert!(svg_thumb(b"<svg", 100).is_err());
    }

    #[test]
    fn a_changed_image_is_refused_and_a_good_one_scaled() {
        let run = tempfile::tempdir().unwrap();
        let img = image::RgbaImage::from_pixel(400, 200, image::Rgba([10, 20, 30, 255]));
        let mut png = Vec::new();
        img.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
            .unwrap();
        std::fs::write(run.path().join("a.png"), &png).unwrap();
        let root = Dir::open(run.path()).unwrap();
        let thumbs = root.sub("thumbs").unwrap();
        let sha = crate::digest::sha256_hex(&png);
        let t = make(&root, &thumbs, "a.png", &sha, 100).unwrap();
        assert_eq!((t.width, t.height), (100, 50));
        let wrong = "0".repeat(64);
        let e = make(&root, &thumbs, "a.png", &wrong, 100).unwrap_err();
        assert!(e.contains("changed after the run"), "{e}");
        let e = make(&root, &thumbs, "missing.png", &"1".repeat(64), 100).unwrap_err();
        assert!(e.starts_with("missing.png: "), "{e}");
    }
}
