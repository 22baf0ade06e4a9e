//! Contact sheets: one problem across all values of an axis, side by side with
//! captions, for a person to look at.
//!
//! The sheet's frame (title, captions, cell borders) is an ordinary Scene, so it is
//! drawn by whichever backend the run uses; the images are pasted into their slots
//! afterwards, pixel for pixel (never rescaled, so what one sees is what the model saw).

use super::dir::Dir;
use crate::generate::Problem;
use crate::render::RenderedImage;
use crate::scene::{Anchor, Baseline, Color, Item, PathItem, Scene, TextItem};
use crate::variants::{Plan, Variant};
use std::path::PathBuf;

const MARGIN: u32 = 16;
/// The title's band, without the subtitle's lines.
const TITLE: u32 = 36;
const CAPTION: u32 = 34;
/// One line of the subtitle or of a cell's note.
const LINE: u32 = 16;
/// Characters per line of wrapped text, per pixel of width (13 px text).
const CHARS_PER_PX: f32 = 1.0 / 7.0;
/// Cells per row before wrapping.
const COLUMNS: usize = 5;

/// The sheet's frame and the top-left corner of each cell's image slot.
pub(crate) struct SheetLayout {
    pub scene: Scene,
    pub slots: Vec<(u32, u32)>,
}

/// One cell of a sheet: an image slot, its caption and an optional note (a
/// variant's question, say) wrapped under the caption.
pub(crate) struct Cell {
    pub caption: String,
    pub note: Option<String>,
    pub width: u32,
    pub height: u32,
}

/// `text` broken at spaces into lines of at most `chars` characters (a longer word
/// stays whole).
fn wrap(text: &str, chars: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + word.chars().count() <= chars => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

/// Lays out `cells` under `title` and a smaller `subtitle` (wrapped to the sheet).
pub(crate) fn layout(id: &str, title: &str, subtitle: &str, cells: &[Cell]) -> SheetLayout {
    let cw = cells.iter().map(|c| c.width).max().unwrap_or(1);
    let ch = cells.iter().map(|c| c.height).max().unwrap_or(1);
    let columns = cells.len().clamp(1, COLUMNS) as u32;
    let rows = cells.len().div_ceil(COLUMNS).max(1) as u32;
    let width = (MARGIN + columns * (cw + MARGIN)).min(crate::scene::limits::MAX_DIMENSION);
    let per_line = |px: u32| ((px as f32 * CHARS_PER_PX) as usize).max(16);
    let subtitle = wrap(subtitle, per_line(width - 2 * MARGIN));
    let notes: Vec<Vec<String>> = cells
        .iter()
        .map(|c| {
            c.note
                .as_deref()
                .map_or(Vec::new(), |n| wrap(n, per_line(cw)))
        })
        .collect();
    let note_h = notes.iter().map(Vec::len).max().unwrap_or(0) as u32 * LINE;
    let top = TITLE + subtitle.len() as u32 * LINE + MARGIN / 2;
    let cell_h = ch + CAPTION + note_h + MARGIN;
    let height = (top + rows * cell_h + MARGIN).min(crate::scene::limits::MAX_DIMENSION);
    let mut items = vec![Item::Text(TextItem {
        baseline: Baseline::Central,
        ..TextItem::new(title, MARGIN as f32, 18.0, 20.0)
    })];
    let grey = |text: &str, x: f32, y: u32| {
        Item::Text(TextItem {
            baseline: Baseline::Central,
            color: Color::rgb(0x50, 0x50, 0x50),
            ..TextItem::new(text, x, y as f32, 13.0)
        })
    };
    for (k, line) in subtitle.iter().enumerate() {
        items.push(grey(
            line,
            MARGIN as f32,
            TITLE + k as u32 * LINE + LINE / 2,
        ));
    }
    let mut slots = Vec::with_capacity(cells.len());
    for (i, cell) in cells.iter().enumerate() {
        let (caption, w, h) = (&cell.caption, &cell.width, &cell.height);
        let (col, row) = ((i % COLUMNS) as u32, (i / COLUMNS) as u32);
        let x = MARGIN + col * (cw + MARGIN);
        let y = top + row * cell_h;
        for (k, line) in notes[i].iter().enumerate() {
            items.push(grey(
                line,
                x as f32,
                y + h + CAPTION + k as u32 * LINE + LINE / 2,
            ));
        }
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
pub(crate) fn paste(sheet: &mut RenderedImage, image: &RenderedImage, x: u32, y: u32) {
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
#[non_exhaustive]
pub(crate) enum ContactError {
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
/// then its image at each value of the axis the run drew (in value order, the base
/// where its value falls on numeric axes), read from `out/images/`. An axis whose
/// values fall on several sheets has one per sheet (`corrupt`:
/// `contact/corrupt-noise.png`, `-blur`, `-weather`, `-digital`). `render` draws the sheet's
/// frame (a Scene) with the run's backend.
pub(crate) fn write_axis_sheets<E>(
    out: &Dir,
    problem: &Problem,
    plan: &Plan,
    render: &mut dyn FnMut(&Scene) -> Result<RenderedImage, E>,
) -> Result<Vec<PathBuf>, ContactError>
where
    E: std::error::Error + Send + Sync + 'static,
{
    let dir = out.sub("contact").map_err(|source| ContactError::Io {
        path: out.join("contact"),
        source,
    })?;
    let images_dir = out.sub("images").map_err(|source| ContactError::Io {
        path: out.join("images"),
        source,
    })?;
    let mut written = Vec::new();
    let mut sheets: Vec<(
        String,
        crate::variants::Axis,
        Vec<crate::variants::AxisValue>,
    )> = Vec::new();
    for (axis, values) in &plan.axes {
        for v in values {
            let name = match v.sheet() {
                Some(sheet) => format!("{}-{sheet}", axis.name()),
                None => axis.name().to_string(),
            };
            match sheets.iter_mut().find(|(n, _, _)| *n == name) {
                Some((_, _, vs)) => vs.push(*v),
                None => sheets.push((name, *axis, vec![*v])),
            }
        }
    }
    for (name, axis, values) in &sheets {
        let mut cells: Vec<(Option<f64>, String, Variant)> = vec![(
            axis.base_number,
            format!("{} = {} (base)", axis.name(), axis.base),
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
        // A value the run did not draw for this problem (none such, or equal to the
        // base: `skipped.jsonl`) has no cell; the base always has one.
        let mut images: Vec<RenderedImage> = Vec::with_capacity(cells.len());
        let mut kept = Vec::with_capacity(cells.len());
        for cell in cells {
            match load_image(&images_dir, &cell.2.id(&problem.id)) {
                Ok(img) => {
                    images.push(img);
                    kept.push(cell);
                }
                Err(ContactError::Missing { .. }) if !cell.2.is_base() => {}
                Err(e) => return Err(e),
            }
        }
        let cells = kept;
        // Each variant's question, shown when the axis changes it (the texts are what
        // differs between the cells of `phrasing` or `backward`, say).
        let questions: Vec<Option<String>> = cells
            .iter()
            .map(|(_, _, v)| {
                let d = crate::variants::draw_problem(problem, v).ok()?;
                Some(d.problem.question(d.annotation).to_string())
            })
            .collect();
        let varies = questions.iter().any(|q| q != &questions[0]);
        let specs: Vec<Cell> = cells
            .iter()
            .zip(&images)
            .zip(questions)
            .map(|(((_, c, _), img), q)| Cell {
                caption: c.clone(),
                note: q.filter(|_| varies).map(|q| format!("Q: {q}")),
                width: img.width,
                height: img.height,
            })
            .collect();
        let title = format!(
            "{} — problem {} (depth {})",
            name, problem.id, problem.params.depth
        );
        let sheet = layout(&format!("contact-{name}"), &title, axis.changes, &specs);
        written.push(write_sheet(&dir, name, &sheet, &images, render)?);
    }
    Ok(written)
}

/// Renders `sheet`'s frame, pastes `images` into its slots and writes it as
/// `dir/<name>.png`.
fn write_sheet<E>(
    dir: &Dir,
    name: &str,
    sheet: &SheetLayout,
    images: &[RenderedImage],
    render: &mut dyn FnMut(&Scene) -> Result<RenderedImage, E>,
) -> Result<PathBuf, ContactError>
where
    E: std::error::Error + Send + Sync + 'static,
{
    let mut canvas = render(&sheet.scene).map_err(|e| ContactError::Render(Box::new(e)))?;
    for (img, &(x, y)) in images.iter().zip(&sheet.slots) {
        paste(&mut canvas, img, x, y);
    }
    let name = format!("{name}.png");
    let path = dir.join(&name);
    let bytes = super::png::encode_png(&canvas).map_err(|source| ContactError::Image {
        path: path.clone(),
        source,
    })?;
    dir.write_atomic(&name, &bytes)
        .map_err(|source| ContactError::Io {
            path: path.clone(),
            source,
        })?;
    Ok(path)
}

/// Relation items per contact sheet of a domain.
pub(crate) const ITEMS_PER_SHEET: usize = 5;

/// Writes `out/contact/relations-<domain>.png` for each domain with relation items
/// among `problems`: the base images of up to `ITEMS_PER_SHEET` of its items
/// (distinct relations first), each captioned with its relation and noted with its
/// question and answer.
pub(crate) fn write_relation_sheets<E>(
    out: &Dir,
    problems: &[Problem],
    render: &mut dyn FnMut(&Scene) -> Result<RenderedImage, E>,
) -> Result<Vec<PathBuf>, ContactError>
where
    E: std::error::Error + Send + Sync + 'static,
{
    use crate::generate::relations::Domain;
    let dir = out.sub("contact").map_err(|source| ContactError::Io {
        path: out.join("contact"),
        source,
    })?;
    let images_dir = out.sub("images").map_err(|source| ContactError::Io {
        path: out.join("images"),
        source,
    })?;
    let mut written = Vec::new();
    for domain in [Domain::Line, Domain::Angle, Domain::Shape] {
        let of_domain: Vec<&Problem> = (problems.iter())
            .filter(|p| p.relation.as_deref().is_some_and(|r| r.domain == domain))
            .collect();
        // Distinct relations first, in run order; then the rest.
        let mut picked: Vec<&Problem> = Vec::new();
        for p in &of_domain {
            let rel = &p.relation.as_deref().expect("a relation item").relation;
            if !picked
                .iter()
                .any(|q| &q.relation.as_deref().expect("an item").relation == rel)
            {
                picked.push(p);
            }
        }
        for p in &of_domain {
            if !picked.iter().any(|q| q.id == p.id) {
                picked.push(p);
            }
        }
        picked.truncate(ITEMS_PER_SHEET);
        let mut images = Vec::new();
        let mut cells = Vec::new();
        for p in picked {
            let Ok(img) = load_image(&images_dir, &p.id) else {
                continue;
            };
            let item = p.relation.as_deref().expect("a relation item");
            let answer = match p.answer {
                crate::generate::Answer::Choice(l) => {
                    format!("{l}. {}", item.answer_text(l).unwrap_or_default())
                }
                crate::generate::Answer::Number(_) => String::new(),
            };
            let question = p
                .question
                .coordinate
                .split(" Answer choices:")
                .next()
                .unwrap_or("");
            cells.push(Cell {
                caption: format!("{} ({:?})", item.relation, item.subset).to_lowercase(),
                note: Some(format!("{question} — {answer}")),
                width: img.width,
                height: img.height,
            });
            images.push(img);
        }
        if cells.is_empty() {
            continue;
        }
        let word = format!("{domain:?}").to_lowercase();
        let sheet = layout(
            &format!("contact-relations-{word}"),
            &format!("GeomRel relation items — {word} domain"),
            "Each item's base image; under it, its relation and subset, its conditions and question, and the correct choice.",
            &cells,
        );
        written.push(write_sheet(
            &dir,
            &format!("relations-{word}"),
            &sheet,
            &images,
            render,
        )?);
    }
    Ok(written)
}

/// Decodes the written image of `id` (PNG or JPEG).
fn load_image(images: &Dir, id: &str) -> Result<RenderedImage, ContactError> {
    let name = ["png", "jpg"]
        .iter()
        .map(|ext| format!("{id}.{ext}"))
        .find(|n| images.kind(n).ok().flatten() == Some(super::dir::Kind::File))
        .ok_or_else(|| ContactError::Missing {
            id: id.to_string(),
            dir: images.path().to_path_buf(),
        })?;
    let path = images.join(&name);
    let bytes = images
        .read(&name, super::manifest::MAX_FILE_BYTES)
        .map_err(|source| ContactError::Io {
            path: path.clone(),
            source,
        })?;
    let img = image::load_from_memory(&bytes)
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
        let cells: Vec<Cell> = (0..7)
            .map(|i| Cell {
                caption: format!("v={i}"),
                note: (i % 2 == 0).then(|| "a question ".repeat(i * 10)),
                width: 512,
                height: 512,
            })
            .collect();
        let l = layout("sheet", "fontsize", &"label size ".repeat(60), &cells);
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
        // Every text line, wrapped subtitle and notes included, is inside the sheet
        // and clear of the image slots.
        for item in &l.scene.items {
            if let Item::Text(t) = item {
                assert!(t.y > 0.0 && t.y < l.scene.height as f32, "{t:?}");
                let half = t.size / 2.0;
                for &(x, y) in &l.slots {
                    let (x, y) = (x as f32, y as f32);
                    let inside_x = t.x >= x && t.x <= x + 512.0;
                    let overlaps_y = t.y + half > y && t.y - half < y + 512.0;
                    assert!(!(inside_x && overlaps_y), "{:?} over a slot", t.text);
                }
            }
        }
    }

    #[test]
    fn wrap_breaks_at_spaces_within_the_width() {
        assert_eq!(wrap("aa bb cc dd", 5), ["aa bb", "cc dd"]);
        assert_eq!(wrap("a verylongword b", 4), ["a", "verylongword", "b"]);
        assert!(wrap("", 10).is_empty());
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
