//! Contact sheets: one problem across all values of an axis, side by side with
//! captions, for a person to look at.
//!
//! The sheet's frame (title, captions, cell borders) is an ordinary Scene, so it is
//! drawn by whichever backend the run uses; the images are pasted into their slots
//! afterwards, pixel for pixel (never rescaled, so what one sees is what the model saw).

use crate::generate::Problem;
use crate::render::RenderedImage;
use crate::scene::{Anchor, Baseline, Color, Item, PathItem, Scene, TextItem};
use crate::variants::{Plan, Variant};
use std::path::{Path, PathBuf};

const MARGIN: u32 = 16;
const TITLE: u32 = 60;
const CAPTION: u32 = 34;
/// Cells per row before wrapping.
const COLUMNS: usize = 5;

/// The sheet's frame and the top-left corner of each cell's image slot.
pub struct SheetLayout {
    pub scene: Scene,
    pub slots: Vec<(u32, u32)>,
}

/// Lays out `cells` (caption, image width, image height) under `title` and a
/// smaller `subtitle`.
pub fn layout(id: &str, title: &str, subtitle: &str, cells: &[(String, u32, u32)]) -> SheetLayout {
    let cw = cells.iter().map(|c| c.1).max().unwrap_or(1);
    let ch = cells.iter().map(|c| c.2).max().unwrap_or(1);
    let columns = cells.len().clamp(1, COLUMNS) as u32;
    let rows = cells.len().div_ceil(COLUMNS).max(1) as u32;
    let width = (MARGIN + columns * (cw + MARGIN)).min(crate::scene::limits::MAX_DIMENSION);
    let height =
        (TITLE + rows * (ch + CAPTION + MARGIN) + MARGIN).min(crate::scene::limits::MAX_DIMENSION);
    let mut items = vec![Item::Text(TextItem {
        baseline: Baseline::Central,
        ..TextItem::new(title, MARGIN as f32, 18.0, 20.0)
    })];
    if !subtitle.trim().is_empty() {
        items.push(Item::Text(TextItem {
            baseline: Baseline::Central,
            color: Color::rgb(0x50, 0x50, 0x50),
            ..TextItem::new(subtitle, MARGIN as f32, 42.0, 13.0)
        }));
    }
    let mut slots = Vec::with_capacity(cells.len());
    for (i, (caption, w, h)) in cells.iter().enumerate() {
        let (col, row) = ((i % COLUMNS) as u32, (i / COLUMNS) as u32);
        let x = MARGIN + col * (cw + MARGIN);
        let y = TITLE + row * (ch + CAPTION + MARGIN);
        slots.push((x, y));
        // A hairline frame just outside the image.
        items.push(Item::Path(PathItem {
            stroke: Some(Color::rgb(0xb0, 0xb0, 0xb0)),
            stroke_width: 1.0,
            ..PathItem::new(format!(
                "M {} {} h {} v {} h {} Z",
                x as f32 - 0.5,
                y as f32 - 0.5,
                w + 1,
                h + 1,
                -(*w as i64 + 1)
            ))
        }));
        items.push(Item::Text(TextItem {
            anchor: Anchor::Middle,
            baseline: Baseline::Central,
            color: Color::rgb(0x20, 0x20, 0x20),
            ..TextItem::new(
                caption.clone(),
                x as f32 + *w as f32 / 2.0,
                (y + h + CAPTION / 2) as f32,
                16.0,
            )
        }));
    }
    SheetLayout {
        scene: Scene {
            id: id.to_string(),
            width,
            height,
            background: Some(Color::WHITE),
            items,
        },
        slots,
    }
}

/// Copies `image` into `sheet` with its top-left corner at (`x`, `y`), clipped to the sheet.
pub fn paste(sheet: &mut RenderedImage, image: &RenderedImage, x: u32, y: u32) {
    let w = image.width.min(sheet.width.saturating_sub(x));
    let h = image.height.min(sheet.height.saturating_sub(y));
    for row in 0..h {
        let src = (row * image.width * 4) as usize;
        let dst = (((y + row) * sheet.width + x) * 4) as usize;
        sheet.rgba[dst..dst + (w * 4) as usize]
            .copy_from_slice(&image.rgba[src..src + (w * 4) as usize]);
    }
}

/// Why a contact sheet could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ContactError {
    /// A variant's image is not in the output directory.
    #[error("no image for {id} in {}", dir.display())]
    Missing { id: String, dir: PathBuf },
    /// An image could not be decoded or the sheet encoded.
    #[error("{}: {source}", path.display())]
    Image {
        path: PathBuf,
        source: image::ImageError,
    },
    /// The sheet could not be written.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The sheet's frame could not be rendered.
    #[error("rendering the contact sheet: {0}")]
    Render(#[source] Box<dyn std::error::Error + Send + Sync>),
}

/// Writes `out/contact/<axis>.png` for every axis of `plan`: `problem`'s base image,
/// then its image at each value of the axis (in value order, the base where its
/// value falls on numeric axes), read from `out/images/`. `render` draws the sheet's
/// frame (a Scene) with the run's backend.
pub fn write_axis_sheets<E>(
    out: &Path,
    problem: &Problem,
    plan: &Plan,
    render: &mut dyn FnMut(&Scene) -> Result<RenderedImage, E>,
) -> Result<Vec<PathBuf>, ContactError>
where
    E: std::error::Error + Send + Sync + 'static,
{
    let dir = out.join("contact");
    std::fs::create_dir_all(&dir).map_err(|source| ContactError::Io {
        path: dir.clone(),
        source,
    })?;
    let mut written = Vec::new();
    for (axis, values) in &plan.axes {
        let info = axis.info();
        let mut cells: Vec<(Option<f64>, String, Variant)> = vec![(
            info.base_number,
            format!("{} = {} (base)", axis.name(), info.base),
            Variant::default(),
        )];
        for v in values {
            cells.push((
                v.number(),
                format!("{} = {}", axis.name(), v.label()),
                Variant { settings: vec![*v] },
            ));
        }
        if cells.iter().all(|c| c.0.is_some()) {
            cells.sort_by(|a, b| a.0.partial_cmp(&b.0).expect("finite values"));
        }
        let images: Vec<RenderedImage> = cells
            .iter()
            .map(|(_, _, v)| load_image(out, &v.id(&problem.id)))
            .collect::<Result<_, _>>()?;
        let specs: Vec<(String, u32, u32)> = cells
            .iter()
            .zip(&images)
            .map(|((_, c, _), img)| (c.clone(), img.width, img.height))
            .collect();
        let title = format!(
            "{} — problem {} (depth {})",
            axis.name(),
            problem.id,
            problem.params.depth
        );
        let sheet = layout(
            &format!("contact-{}", axis.name()),
            &title,
            info.changes,
            &specs,
        );
        let mut canvas = render(&sheet.scene).map_err(|e| ContactError::Render(Box::new(e)))?;
        for (img, &(x, y)) in images.iter().zip(&sheet.slots) {
            paste(&mut canvas, img, x, y);
        }
        let path = dir.join(format!("{}.png", axis.name()));
        let bytes = super::png::encode_png(&canvas).map_err(|source| ContactError::Image {
            path: path.clone(),
            source,
        })?;
        super::atomic::write_atomic(&path, &bytes).map_err(|source| ContactError::Io {
            path: path.clone(),
            source,
        })?;
        written.push(path);
    }
    Ok(written)
}

/// Decodes the written image of `id` (PNG or JPEG).
fn load_image(out: &Path, id: &str) -> Result<RenderedImage, ContactError> {
    let images = out.join("images");
    let path = ["png", "jpg"]
        .iter()
        .map(|ext| images.join(format!("{id}.{ext}")))
        .find(|p| p.exists())
        .ok_or_else(|| ContactError::Missing {
            id: id.to_string(),
            dir: images.clone(),
        })?;
    let img = image::open(&path)
        .map_err(|source| ContactError::Image {
            path: path.clone(),
            source,
        })?
        .to_rgba8();
    Ok(RenderedImage {
        id: id.to_string(),
        width: img.width(),
        height: img.height(),
        rgba: img.into_raw(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_get_disjoint_slots_inside_the_sheet() {
        let cells: Vec<(String, u32, u32)> = (0..7).map(|i| (format!("v={i}"), 512, 512)).collect();
        let l = layout("sheet", "fontsize", "label size", &cells);
        crate::scene::validate(&l.scene).unwrap();
        assert_eq!(l.slots.len(), 7);
        for (i, &(x, y)) in l.slots.iter().enumerate() {
            assert!(x + 512 <= l.scene.width && y + 512 <= l.scene.height);
            for &(x2, y2) in &l.slots[i + 1..] {
                assert!(x + 512 <= x2 || x2 + 512 <= x || y + 512 <= y2 || y2 + 512 <= y);
            }
        }
        // Five per row, then wrap.
        assert_eq!(l.slots[5].0, l.slots[0].0);
        assert!(l.slots[5].1 > l.slots[0].1);
    }

    #[test]
    fn paste_copies_pixels_and_clips() {
        let mut sheet = RenderedImage {
            id: "s".into(),
            width: 4,
            height: 3,
            rgba: vec![0; 48],
        };
        let img = RenderedImage {
            id: "i".into(),
            width: 2,
            height: 2,
            rgba: vec![9; 16],
        };
        paste(&mut sheet, &img, 3, 2);
        let set: Vec<usize> = sheet
            .rgba
            .chunks(4)
            .enumerate()
            .filter(|(_, p)| p[0] == 9)
            .map(|(i, _)| i)
            .collect();
        assert_eq!(set, vec![11]);
    }
}
