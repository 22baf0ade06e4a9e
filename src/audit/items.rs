//! What an SVG file draws, as the audit compares it: the canvas, every subpath with
//! its paint, every label with its place, size and text. Read from the file (any
//! SVG of `path`, `text` and `rect` elements, as `geomrender render --format svg`
//! writes them), not from the code that wrote it.

use std::collections::BTreeMap;

/// Everything one image draws.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Drawn {
    pub width: String,
    pub height: String,
    /// One entry per subpath (`M …` to the next `M`): a multi-shape outline is
    /// compared shape by shape.
    pub paths: Vec<Piece>,
    pub labels: Vec<Label>,
}

/// One subpath and how it is painted.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Piece {
    /// Its path data, as written.
    pub d: String,
    /// The fill paint (`fill`, `fill-opacity`, `fill-rule`).
    pub fill: String,
    /// The stroke paint (`stroke`, width, dashes, joins, caps, opacity).
    pub stroke: String,
}

/// One text item.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Label {
    pub x: f64,
    pub y: f64,
    pub text: String,
    /// `font-size`, as written.
    pub size: String,
    /// Every other attribute (colour, anchor, transform), as written.
    pub paint: String,
}

/// Why an SVG file could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum ItemsError {
    #[error("not well-formed XML: {0}")]
    Xml(#[from] roxmltree::Error),
    #[error("the root element is <{0}>, not <svg>")]
    NotSvg(String),
    #[error("<text> has no number in its {0} attribute")]
    Position(&'static str),
}

/// The items of one SVG document.
pub(crate) fn read_svg(text: &str) -> Result<Drawn, ItemsError> {
    let doc = roxmltree::Document::parse(text)?;
    let root = doc.root_element();
    if root.tag_name().name() != "svg" {
        return Err(ItemsError::NotSvg(root.tag_name().name().to_string()));
    }
    let mut drawn = Drawn {
        width: root.attribute("width").unwrap_or_default().to_string(),
        height: root.attribute("height").unwrap_or_default().to_string(),
        ..Drawn::default()
    };
    for node in root.descendants().filter(|n| n.is_element()) {
        match node.tag_name().name() {
            "path" => {
                let attrs = attributes(node, &["d"]);
                let (fill, stroke): (Vec<_>, Vec<_>) =
                    attrs.into_iter().partition(|(k, _)| k.starts_with("fill"));
                let (fill, stroke) = (joined(fill), joined(stroke));
                for d in subpaths(node.attribute("d").unwrap_or_default()) {
                    drawn.paths.push(Piece {
                        d,
                        fill: fill.clone(),
                        stroke: stroke.clone(),
                    });
                }
            }
            "text" => {
                let number = |name: &'static str| {
                    node.attribute(name)
                        .and_then(|v| v.trim().parse::<f64>().ok())
                        .ok_or(ItemsError::Position(name))
                };
                let text: String = node
                    .descendants()
                    .filter(|n| n.is_text())
                    .filter_map(|n| n.text())
                    .collect();
                drawn.labels.push(Label {
                    x: number("x")?,
                    y: number("y")?,
                    text,
                    size: node.attribute("font-size").unwrap_or_default().to_string(),
                    paint: joined(attributes(node, &["x", "y", "font-size"])),
                });
            }
            _ => {}
        }
    }
    Ok(drawn)
}

/// An element's attributes but `skip`, sorted by name.
fn attributes(node: roxmltree::Node<'_, '_>, skip: &[&str]) -> BTreeMap<String, String> {
    node.attributes()
        .filter(|a| !skip.contains(&a.name()))
        .map(|a| (a.name().to_string(), a.value().to_string()))
        .collect()
}

fn joined(attrs: impl IntoIterator<Item = (String, String)>) -> String {
    let parts: Vec<String> = attrs.into_iter().map(|(k, v)| format!("{k}={v}")).collect();
    parts.join(" ")
}

/// The subpaths of path data: each `M`/`m` starts one.
fn subpaths(d: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (i, c) in d.char_indices() {
        if (c == 'M' || c == 'm') && !d[..i].trim().is_empty() {
            out.push(String::new());
        }
        match out.last_mut() {
            Some(last) => last.push(c),
            None => out.push(c.to_string()),
        }
    }
    out.into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_split_into_subpaths_and_labels_keep_their_place() {
        let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" width="64" height="32">
            <rect width="64" height="32" fill="#ffffff"/>
            <path d="M 1 1 L 2 2 Z M 3 3 L 4 4" fill="none" stroke="#000000" stroke-width="2"/>
            <path d="M 5 5 L 6 6 Z" fill="#808080" fill-opacity="0.5"/>
            <text x="10.5" y="20" font-size="16" fill="#000000">A&lt;1</text>
        </svg>"##;
        let d = read_svg(svg).unwrap();
        assert_eq!((d.width.as_str(), d.height.as_str()), ("64", "32"));
        let ds: Vec<&str> = d.paths.iter().map(|p| p.d.as_str()).collect();
        assert_eq!(ds, ["M 1 1 L 2 2 Z", "M 3 3 L 4 4", "M 5 5 L 6 6 Z"]);
        assert_eq!(d.paths[0].fill, "fill=none");
        assert_eq!(d.paths[0].stroke, "stroke=#000000 stroke-width=2");
        assert_eq!(d.paths[2].fill, "fill=#808080 fill-opacity=0.5");
        assert_eq!(d.labels.len(), 1);
        assert_eq!(
            (d.labels[0].x, d.labels[0].y, d.labels[0].text.as_str()),
            (10.5, 20.0, "A<1")
        );
        assert_eq!(d.labels[0].size, "16");
        assert!(matches!(read_svg("<html/>"), Err(ItemsError::NotSvg(_))));
        assert!(matches!(read_svg("<svg"), Err(ItemsError::Xml(_))));
        assert!(matches!(
            read_svg("<svg><text y='1'>A</text></svg>"),
            Err(ItemsError::Position("x"))
        ));
    }
}
