//! Scene → SVG document: the exact SVG equivalent of a Scene.
//!
//! Paths keep their path data (`<path d>`), text keeps its anchor and baseline
//! (`text-anchor`, `dominant-baseline`), colours and opacities are written as SVG
//! paint attributes, so resvg or a browser draws what the GPU backend draws. The CPU
//! backend renders exactly this document. Text is set in the embedded DejaVu Sans,
//! named in every `<text>` and, with `SvgOptions::embed_font`, carried inside the
//! file as an `@font-face` data URL so the file looks the same on any machine.

use crate::font::{FONT_DATA, FONT_FAMILY};
use crate::scene::{
    Anchor, Baseline, Color, FillRule, Item, LineCap, LineJoin, PathItem, Scene, TextItem,
};
use base64::Engine;
use std::fmt::Write;
use std::sync::OnceLock;

/// The `font-family` of every `<text>`: the embedded font, then the generic family
/// a viewer without it falls back to.
pub(crate) const FONT_FAMILY_LIST: &str = "'DejaVu Sans', sans-serif";

/// Options of the SVG writer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub(crate) struct SvgOptions {
    /// Embed DejaVu Sans as a base64 `@font-face` (about 1 MB per file), so text
    /// looks the same in any viewer. Off by default: the file then only names the
    /// font, which viewers without DejaVu Sans replace by their sans-serif.
    pub embed_font: bool,
}

impl SvgOptions {
    /// Whether to embed the font (see [`SvgOptions::embed_font`]).
    pub(crate) fn embed_font(mut self, embed: bool) -> Self {
        self.embed_font = embed;
        self
    }
}

/// Writes `scene` as a standalone SVG 1.1 document with default options.
pub fn to_svg(scene: &Scene) -> String {
    to_svg_with(scene, SvgOptions::default())
}

/// Writes `scene` as a standalone SVG 1.1 document.
pub(crate) fn to_svg_with(scene: &Scene, options: SvgOptions) -> String {
    let font = if options.embed_font {
        font_face_css()
    } else {
        ""
    };
    let mut out = String::with_capacity(256 + font.len() + scene.items.len() * 160);
    let (w, h) = (scene.width, scene.height);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    );
    if options.embed_font {
        let _ = writeln!(out, r#"<defs><style type="text/css">{font}</style></defs>"#);
    }
    if let Some(bg) = scene.background {
        let _ = writeln!(
            out,
            r#"<rect width="{w}" height="{h}"{}/>"#,
            paint("fill", bg, 1.0)
        );
    }
    for item in &scene.items {
        match item {
            Item::Path(p) => write_path(&mut out, p),
            Item::Text(t) => write_text(&mut out, t),
        }
    }
    out.push_str("</svg>\n");
    out
}

/// The `@font-face` rule carrying the embedded font, encoded once per process.
fn font_face_css() -> &'static str {
    static CSS: OnceLock<String> = OnceLock::new();
    CSS.get_or_init(|| {
        let data = base64::engine::general_purpose::STANDARD.encode(FONT_DATA);
        format!(
            "@font-face{{font-family:'{FONT_FAMILY}';font-style:normal;font-weight:400;\
             src:url(data:font/ttf;base64,{data}) format('truetype');}}"
        )
    })
}

fn write_path(out: &mut String, p: &PathItem) {
    let _ = write!(out, r#"<path d="{}""#, escape(&p.d));
    match p.fill {
        Some(c) => {
            out.push_str(&paint("fill", c, p.fill_opacity));
            if p.fill_rule == FillRule::Evenodd {
                out.push_str(r#" fill-rule="evenodd""#);
            }
        }
        None => out.push_str(r#" fill="none""#),
    }
    if let Some(c) = p.stroke {
        out.push_str(&paint("stroke", c, p.stroke_opacity));
        let _ = write!(out, r#" stroke-width="{}""#, p.stroke_width);
        if !p.dash.is_empty() {
            let dash: Vec<String> = p.dash.iter().map(|d| d.to_string()).collect();
            let _ = write!(out, r#" stroke-dasharray="{}""#, dash.join(" "));
            if p.dash_offset != 0.0 {
                let _ = write!(out, r#" stroke-dashoffset="{}""#, p.dash_offset);
            }
        }
        match p.line_join {
            LineJoin::Miter => {}
            LineJoin::Round => out.push_str(r#" stroke-linejoin="round""#),
            LineJoin::Bevel => out.push_str(r#" stroke-linejoin="bevel""#),
        }
        match p.line_cap {
            LineCap::Butt => {}
            LineCap::Round => out.push_str(r#" stroke-linecap="round""#),
            LineCap::Square => out.push_str(r#" stroke-linecap="square""#),
        }
        if p.miter_limit != 4.0 {
            let _ = write!(out, r#" stroke-miterlimit="{}""#, p.miter_limit);
        }
    }
    out.push_str("/>\n");
}

fn write_text(out: &mut String, t: &TextItem) {
    let _ = write!(
        out,
        r#"<text x="{}" y="{}" font-family="{FONT_FAMILY_LIST}" font-size="{}"{}"#,
        t.x,
        t.y,
        t.size,
        paint("fill", t.color, t.opacity)
    );
    match t.anchor {
        Anchor::Start => {}
        Anchor::Middle => out.push_str(r#" text-anchor="middle""#),
        Anchor::End => out.push_str(r#" text-anchor="end""#),
    }
    if t.baseline == Baseline::Central {
        out.push_str(r#" dominant-baseline="central""#);
    }
    let _ = writeln!(out, r#" xml:space="preserve">{}</text>"#, escape(&t.text));
}

/// `fill="#rrggbb"` plus an opacity attribute when the colour or the item is translucent.
fn paint(attr: &str, c: Color, opacity: f32) -> String {
    let rgb = Color::rgb(c.r, c.g, c.b).to_hex();
    let alpha = c.a as f32 / 255.0 * opacity;
    if alpha == 1.0 {
        format!(r#" {attr}="{rgb}""#)
    } else {
        format!(r#" {attr}="{rgb}" {attr}-opacity="{alpha}""#)
    }
}

/// Escapes markup characters for element content and double-quoted attributes.
/// Characters XML 1.0 forbids (control characters, which validation rejects in
/// Scenes anyway) become U+FFFD so the document stays well-formed whatever the input.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::parse_scene;

    fn sample() -> Scene {
        parse_scene(r##"{"id":"s","width":40,"height":30,"background":"#ffffff","items":[
            {"type":"path","d":"M 1 1 L 9 9","fill":"#ff000080","fill_rule":"evenodd","stroke":"#000000","stroke_width":2,"dash":[3,1],"dash_offset":1.5,"line_cap":"round","line_join":"bevel","miter_limit":2},
            {"type":"text","text":"a<b & \"c\" > 'd' αβ","x":5,"y":6,"size":12,"anchor":"middle","baseline":"central"}]}"##
            .replace('\n', "").as_str()).unwrap()
    }

    fn usvg_options() -> resvg::usvg::Options<'static> {
        let mut o = resvg::usvg::Options::default();
        o.fontdb_mut()
            .load_font_source(resvg::usvg::fontdb::Source::Binary(std::sync::Arc::new(
                FONT_DATA,
            )));
        o
    }

    #[test]
    fn writes_paths_and_text_with_their_attributes() {
        let svg = to_svg(&sample());
        assert!(svg.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg "));
        assert!(
            svg.contains(r##"<rect width="40" height="30" fill="#ffffff"/>"##),
            "{svg}"
        );
        assert!(
            svg.contains(r##"fill="#ff0000" fill-opacity="0.5019608""##),
            "{svg}"
        );
        assert!(svg.contains(r#"fill-rule="evenodd""#));
        assert!(svg.contains(r#"stroke-dasharray="3 1" stroke-dashoffset="1.5""#));
        assert!(svg.contains(r#"stroke-linejoin="bevel" stroke-linecap="round""#));
        assert!(svg.contains(r#"stroke-miterlimit="2""#));
        assert!(svg.contains(r#"font-family="'DejaVu Sans', sans-serif""#));
        assert!(svg.contains(r#"text-anchor="middle" dominant-baseline="central""#));
        assert!(svg.contains("a&lt;b &amp; &quot;c&quot; &gt; 'd' αβ</text>"));
        assert!(!svg.contains("@font-face"));
    }

    #[test]
    fn output_is_well_formed_xml_with_the_scene_in_it() {
        for options in [
            SvgOptions::default(),
            SvgOptions::default().embed_font(true),
        ] {
            let svg = to_svg_with(&sample(), options);
            let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
            let root = doc.root_element();
            assert_eq!(
                root.tag_name().namespace(),
                Some("http://www.w3.org/2000/svg")
            );
            let text = root
                .descendants()
                .find(|n| n.has_tag_name("text"))
                .expect("a text element");
            assert_eq!(text.text(), Some("a<b & \"c\" > 'd' αβ"));
            let path = root.descendants().find(|n| n.has_tag_name("path")).unwrap();
            assert_eq!(path.attribute("d"), Some("M 1 1 L 9 9"));
        }
    }

    #[test]
    fn usvg_reads_text_with_its_font_anchor_and_baseline() {
        for options in [
            SvgOptions::default(),
            SvgOptions::default().embed_font(true),
        ] {
            let tree =
                resvg::usvg::Tree::from_str(&to_svg_with(&sample(), options), &usvg_options())
                    .expect("usvg parses the SVG");
            // Text is laid out (not dropped for want of a font) and centred on x = 5.
            let bbox = tree.root().bounding_box();
            assert!(bbox.width() > 30.0, "{bbox:?}");
            let text_left = tree
                .root()
                .children()
                .iter()
                .filter_map(|n| match n {
                    resvg::usvg::Node::Text(t) => Some(t.bounding_box().left()),
                    _ => None,
                })
                .next()
                .expect("a text node");
            assert!(
                text_left < 5.0 - 10.0,
                "text-anchor middle ignored: {text_left}"
            );
        }
    }

    #[test]
    fn embedded_font_is_the_shipped_ttf() {
        let svg = to_svg_with(&sample(), SvgOptions::default().embed_font(true));
        let start = svg.find("base64,").unwrap() + "base64,".len();
        let end = start + svg[start..].find(')').unwrap();
        let ttf = base64::engine::general_purpose::STANDARD
            .decode(&svg[start..end])
            .unwrap();
        assert_eq!(ttf, FONT_DATA);
        assert!(svg.contains("font-family:'DejaVu Sans'"));
    }

    #[test]
    fn forbidden_xml_characters_never_reach_the_document() {
        let mut s = sample();
        if let Item::Text(t) = &mut s.items[1] {
            t.text = "x\u{1}y\u{fffe}\tz".into();
        }
        let svg = to_svg(&s);
        let doc = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let text = doc.descendants().find(|n| n.has_tag_name("text")).unwrap();
        assert_eq!(text.text(), Some("x\u{fffd}y\u{fffd}\tz"));
    }
}
