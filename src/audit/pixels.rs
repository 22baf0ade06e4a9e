//! The pixel stage checked from the files: a variant whose axes change only pixels
//! (`blur`) is its base's PNG put through the same stage. Base and variant draw the
//! same Scene, so the run rasterised the same pixels for both before the stage.

use crate::output::dir::Dir;
use crate::output::manifest::{ImageFile, ManifestRow};
use crate::variants::Pixels;

/// Levels a channel may differ by (the GPU may rasterise a tile differently by a
/// level of anti-aliasing; the CPU backends give exactly the same bytes).
const TOLERANCE: u8 = 2;

/// Whether `row`'s PNG is `base`'s PNG through `pixels`; `Err` says where not.
/// Rows that are not both PNG files are not checked here (JPEG is lossy).
pub(super) fn check(
    root: &Dir,
    base: &ManifestRow,
    row: &ManifestRow,
    pixels: &Pixels,
) -> Result<(), String> {
    fn png(r: &ManifestRow) -> Option<&ImageFile> {
        (r.image.file.as_ref()).filter(|f| f.image.to_ascii_lowercase().ends_with(".png"))
    }
    let (Some(b), Some(v)) = (png(base), png(row)) else {
        return Ok(());
    };
    if pixels.is_empty() {
        return Ok(());
    }
    let decode = |f: &ImageFile| -> Result<image::RgbaImage, String> {
        let bytes = crate::output::manifest::read_checked(root, &f.image, &f.sha256)
            .map_err(|e| format!("its image {:?}: {e}", f.image))?;
        image::load_from_memory_with_format(&bytes, image::ImageFormat::Png)
            .map(|i| i.to_rgba8())
            .map_err(|e| format!("its image {:?}: {e}", f.image))
    };
    let mut expected = decode(b)?;
    let found = decode(v)?;
    if expected.dimensions() != found.dimensions() {
        return Err(format!(
            "its pixel stage keeps the canvas, but it is {:?} against its base's {:?}",
            found.dimensions(),
            expected.dimensions()
        ));
    }
    let (w, h) = expected.dimensions();
    pixels.apply_rgba(&row.image.id, w, h, &mut expected);
    let worst = (expected.pixels().zip(found.pixels()).enumerate())
        .flat_map(|(i, (a, b))| (0..4).map(move |c| (i, a[c].abs_diff(b[c]))))
        .max_by_key(|&(_, d)| d);
    match worst {
        Some((i, d)) if d > TOLERANCE => Err(format!(
            "its pixels are not its base's through the pixel stage: {d} levels apart at \
             ({}, {}) (at most {TOLERANCE} allowed)",
            i as u32 % w,
            i as u32 / w
        )),
        _ => Ok(()),
    }
}
