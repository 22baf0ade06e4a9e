//! One variant row against its base row: are both rows' files intact, what does
//! each draw (its SVG file, or its Scene composed again from the run's Problem),
//! and what changed — in the drawing, the encoding, the texts — against what the
//! variant's axes declare.

use super::problems::Problems;
use super::{AuditRow, Source, diff, parse_variant, read_svg};
use crate::audit::items::Drawn;
use crate::output::dir::Dir;
use crate::output::manifest::ManifestRow;
use crate::pipeline::draw_variant;
use crate::variants::{Change, Pixels, Setting, Variant};

/// Largest SVG file the audit reads (one with the font embedded is about 1 MB).
const MAX_SVG_BYTES: u64 = 64 << 20;

/// A base row, with what is worked out once for all its variants.
pub(super) struct Base {
    pub row: ManifestRow,
    /// Its files are regular files inside the run with the recorded SHA-256.
    intact: Result<(), String>,
    /// What it draws, once asked for.
    drawn: Option<Result<Option<(Drawn, Source)>, String>>,
}

impl Base {
    pub(super) fn new(root: &Dir, row: ManifestRow) -> Base {
        Base {
            intact: files_intact(root, &row),
            row,
            drawn: None,
        }
    }

    pub(super) fn id(&self) -> &str {
        &self.row.image.id
    }
}

/// The variant `row` (manifest line `line`) against `base`.
pub(super) fn compare(
    root: &Dir,
    base: &mut Base,
    line: u64,
    row: &ManifestRow,
    mut problems: Option<&mut Problems>,
) -> Result<AuditRow, String> {
    base.intact.clone()?;
    files_intact(root, row)?;
    let values = variant_of(row);
    let (variant, axes) = parse_variant(&values)?;
    if base.drawn.is_none() {
        base.drawn = Some(drawing(root, &base.row, problems.as_deref_mut()));
    }
    let base_drawn = base.drawn.clone().expect("set above")?;
    // A text-only row draws nothing: its text alone must keep its base's values.
    let imageless = row.image.file.is_none();
    let var_drawn = match imageless {
        true => None,
        false => drawing(root, row, problems)?,
    };
    let declared: Vec<Change> = (axes.iter())
        .flat_map(|a| a.may_change.iter().copied())
        .collect();
    let mut changes = diff::Changes::new();
    let source = match (&base_drawn, &var_drawn) {
        (Some((bd, bs)), Some((vd, _))) => {
            let pairing = diff::Pairing {
                renames: declared.contains(&Change::LabelText),
                numbers: declared.contains(&Change::LabelValue),
            };
            changes = diff::drawn(bd, vd, &leader_stroke(), pairing);
            *bs
        }
        _ => Source::Bytes,
    };
    let b = &base.row;
    let ext =
        |r: &ManifestRow| (r.image.path()?.rsplit_once('.')).map(|(_, e)| e.to_ascii_lowercase());
    let source = if imageless { Source::None } else { source };
    diff::add(&mut changes, Change::NoImage, u32::from(imageless));
    diff::add(
        &mut changes,
        Change::Encoding,
        u32::from(!imageless && ext(b) != ext(row)),
    );
    let sha = |r: &ManifestRow| r.image.file.as_ref().map(|f| f.sha256.clone());
    let bytes_differ = !imageless && sha(b) != sha(row);
    if bytes_differ && changes.is_empty() && source != Source::Bytes {
        diff::add(&mut changes, Change::Pixels, 1);
    }
    let texts = |r: &ManifestRow| {
        let p = r.problem.as_ref();
        (
            p.map(|p| p.question.clone()),
            p.map(|p| p.cot.clone()),
            p.map(|p| p.answer),
        )
    };
    let ((bq, bc, ba), (vq, vc, va)) = (texts(b), texts(row));
    diff::add(&mut changes, Change::Question, u32::from(bq != vq));
    diff::add(&mut changes, Change::Cot, u32::from(bc != vc));
    diff::add(&mut changes, Change::Answer, u32::from(ba != va));
    if let (Some((bd, _)), Some((vd, _))) = (&base_drawn, &var_drawn) {
        // A variant that draws nothing (the blank control) keeps no value on
        // purpose; any other keeps each of its base's, in its text or its image.
        if !(vd.paths.is_empty() && vd.labels.is_empty()) {
            let lost = values_lost((bq.as_deref(), bd), (vq.as_deref(), vd));
            diff::add(&mut changes, Change::ValuesLost, lost);
        }
    }
    if let (Some((bd, _)), true) = (&base_drawn, imageless) {
        let lost = values_lost((bq.as_deref(), bd), (vq.as_deref(), &Drawn::default()));
        diff::add(&mut changes, Change::ValuesLost, lost);
    }
    if source == Source::Bytes && bytes_differ {
        // Without the drawing only "the image differs" is known: it counts as
        // declared for any axis that draws something else.
        diff::add(&mut changes, Change::Pixels, 1);
    }
    let drawing_axes =
        (declared.iter()).any(|c| !matches!(c, Change::Question | Change::Cot | Change::Answer));
    let undeclared: Vec<Change> = (changes.keys().copied())
        .filter(|c| !declared.contains(c))
        .filter(|c| !(source == Source::Bytes && *c == Change::Pixels && drawing_axes))
        .collect();
    // A variant of pixel axes alone is its base through the pixel stage, exactly.
    if axes.iter().all(|a| a.pixels.is_some()) {
        super::pixels::check(root, b, row, &Pixels::of(&variant))?;
    }
    // A sketch keeps within its level's bound of its base, from the drawings.
    let sketch = (variant.settings.iter()).find(|v| v.axis().name() == "sketch");
    if let (Some(level), Some((bd, _)), Some((vd, _))) = (sketch, &base_drawn, &var_drawn)
        && axes
            .iter()
            .all(|a| a.name() == "sketch" || a.pixels.is_some())
        && let Setting::Integer(level) = level.setting()
    {
        super::sketch::check(bd, vd, u8::try_from(level).unwrap_or(u8::MAX))?;
    }
    let scale = |r: &ManifestRow| r.problem.as_ref().map(|p| p.layout.scale);
    let scale_ratio = match (scale(b), scale(row)) {
        (Some(a), Some(v)) if a > 0.0 && a != v => Some(v / a),
        _ => None,
    };
    Ok(AuditRow {
        line,
        id: row.image.id.clone(),
        base_id: base.id().to_string(),
        label: variant.label(),
        variant: values,
        identical: changes.is_empty() && !bytes_differ && !axes.iter().all(|a| a.made_when_same),
        changes,
        undeclared,
        scale_ratio,
        source,
    })
}

/// How many numbers the base states (question) or draws (labels) that the
/// variant does neither.
fn values_lost(base: (Option<&str>, &Drawn), variant: (Option<&str>, &Drawn)) -> u32 {
    fn all<'a>((question, drawn): (Option<&'a str>, &'a Drawn)) -> Vec<&'a str> {
        let mut v: Vec<&str> = question.map(crate::decimal::numbers).unwrap_or_default();
        for l in &drawn.labels {
            v.extend(crate::decimal::numbers(&l.text));
        }
        v.sort_unstable();
        v.dedup();
        v
    }
    let kept = all(variant);
    all(base)
        .iter()
        .filter(|n| kept.binary_search(n).is_err())
        .count() as u32
}

/// The row's `variant` (empty for a base).
fn variant_of(row: &ManifestRow) -> serde_json::Map<String, serde_json::Value> {
    (row.source.as_ref()).map_or_else(Default::default, |s| s.variant.clone())
}

/// The row's files (image and SVG) are regular files inside the run with the
/// SHA-256 it recorded: else the row is not audited (its recorded hash says
/// nothing about a deleted or replaced file).
fn files_intact(root: &Dir, row: &ManifestRow) -> Result<(), String> {
    for (k, (file, sha)) in row.files().enumerate() {
        let what = if k == 0 { "image" } else { "svg" };
        crate::output::manifest::read_checked(root, file, sha)
            .map_err(|e| format!("its {what} {file:?}: {e}"))?;
    }
    Ok(())
}

/// The stroke paint that marks a leader line in an SVG (`compose::LEADER_COLOR`).
fn leader_stroke() -> String {
    let c = crate::compose::LEADER_COLOR;
    format!("stroke=#{:02x}{:02x}{:02x} ", c.r, c.g, c.b)
}

/// What a row draws: its SVG file, else its Scene composed again from the run's
/// Problem; `None` when neither is there.
fn drawing(
    root: &Dir,
    row: &ManifestRow,
    problems: Option<&mut Problems>,
) -> Result<Option<(Drawn, Source)>, String> {
    if let Some(svg) = &row.svg {
        return read_file(root, &svg.svg).map(|d| Some((d, Source::Svg)));
    }
    if let Some(image) = row
        .image
        .path()
        .filter(|p| p.to_ascii_lowercase().ends_with(".svg"))
    {
        // An SVG-only run (`--format svg`): the image is the drawing.
        return read_file(root, image).map(|d| Some((d, Source::Svg)));
    }
    let Some(problems) = problems else {
        return Ok(None);
    };
    let base_id = (row.source.as_ref()).map_or(row.image.id.as_str(), |s| s.base_id.as_str());
    let (hash, problem) = problems.get(base_id)?;
    if row.input_sha256.as_ref() != Some(hash) {
        return Err(format!(
            "its problem {base_id:?} in the problems file is not the line it was drawn from \
             (the line's SHA-256 is not the row's input_sha256): pass the run's input with \
             --problems"
        ));
    }
    let (variant, _) = parse_variant(&variant_of(row))?;
    // As the run drew it: the base first, the variant against it.
    let (_, base) = draw_variant(problem, &Variant::default(), None).map_err(|e| e.to_string())?;
    let composed = match variant.is_base() {
        true => base,
        false => {
            draw_variant(problem, &variant, Some(&base))
                .map_err(|e| e.to_string())?
                .1
        }
    };
    let svg = crate::scene::svg::to_svg(&composed.scene);
    let drawn = read_svg(&svg).map_err(|e| e.to_string())?;
    Ok(Some((drawn, Source::Recomposed)))
}

/// The drawing of the SVG file `rel` of the run.
fn read_file(root: &Dir, rel: &str) -> Result<Drawn, String> {
    let (dir, name) = root
        .resolve(rel)
        .map_err(|e| format!("its svg {rel:?}: {e}"))?;
    let bytes = dir
        .read(name, MAX_SVG_BYTES)
        .map_err(|e| format!("its svg {rel:?}: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|_| format!("its svg {rel:?}: not UTF-8"))?;
    read_svg(&text).map_err(|e| format!("its svg {rel:?}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::items::Label;

    fn drawn(labels: &[&str]) -> Drawn {
        Drawn {
            labels: (labels.iter())
                .map(|t| Label {
                    x: 0.0,
                    y: 0.0,
                    text: t.to_string(),
                    size: "16".into(),
                    paint: String::new(),
                })
                .collect(),
            ..Drawn::default()
        }
    }

    #[test]
    fn a_value_moved_between_text_and_image_is_kept_and_one_dropped_is_lost() {
        let base = (
            Some("If the area is 150, compute x. Round to 2 places."),
            &drawn(&["18", "40°"]),
        );
        // Every value stated instead of drawn (`info=text`, `text-lite`).
        let stated = drawn(&[]);
        let moved = (
            Some("If the area is 150, AB is 18 and the angle is 40, compute x. Round to 2 places."),
            &stated,
        );
        assert_eq!(values_lost(base, moved), 0);
        // Every value drawn instead of stated (`vision-dominant`).
        let shown = drawn(&["18", "40°", "Area = 150"]);
        assert_eq!(
            values_lost(base, (Some("Compute x. Round to 2 places."), &shown)),
            0
        );
        // The angle neither stated nor drawn, 1.5 not the 15 of "150".
        let dropped = drawn(&["18", "1.5"]);
        assert_eq!(
            values_lost(
                base,
                (
                    Some("If the area is 150, compute x. Round to 2 places."),
                    &dropped
                )
            ),
            1
        );
    }
}
