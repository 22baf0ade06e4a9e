//! Scene → SVG document: the exact SVG equivalent of a Scene.

use crate::scene::{
    Anchor, Baseline, FillRule, Item, LineCap, LineJoin, PathItem, Scene, TextItem,
};
use std::fmt::Write;

/// The font family name SVG text is set in; the font itself ships in `assets/fonts`.
pub const FONT_FAMILY: &str = "DejaVu Sans";

/// Writes `scene` as a standalone SVG 1.1 document.
pub fn to_svg(scene: &Scene) -> String {
    let mut out = String::with_capacity(256 + scene.items.len() * 160);
    let (w, h) = (scene.width, scene.height);
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    );
    out.push('\n');
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
        r#"<text x="{}" y="{}" font-family="{FONT_FAMILY}" font-size="{}"{}"#,
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
fn paint(attr: &str, c: crate::scene::Color, opacity: f32) -> String {
    let rgb = crate::scene::Color::rgb(c.r, c.g, c.b).to_hex();
    let alpha = c.a as f32 / 255.0 * opacity;
    if alpha == 1.0 {
        format!(r#" {attr}="{rgb}""#)
    } else {
        format!(r#" {attr}="{rgb}" {attr}-opacity="{alpha}""#)
    }
}

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::parse_scene;

    #[test]
    fn writes_paths_and_text_with_their_attributes() {
        let scene = parse_scene(r##"{"id":"s","width":40,"height":30,"background":"#ffffff","items":[
            {"type":"path","d":"M 1 1 L 9 9","fill":"#ff000080","fill_rule":"evenodd","stroke":"#000000","stroke_width":2,"dash":[3,1],"line_cap":"round"},
            {"type":"text","text":"a<b & \"c\"","x":5,"y":6,"size":12,"anchor":"middle","baseline":"central"}]}"##
            .replace('\n', "").as_str()).unwrap();
        let svg = to_svg(&scene);
        assert!(
            svg.contains(r##"<rect width="40" height="30" fill="#ffffff"/>"##),
            "{svg}"
        );
        assert!(
            svg.contains(r##"fill="#ff0000" fill-opacity="0.5019608""##),
            "{svg}"
        );
        assert!(svg.contains(r#"fill-rule="evenodd""#));
        assert!(svg.contains(r#"stroke-dasharray="3 1""#));
        assert!(svg.contains(r#"stroke-linecap="round""#));
        assert!(svg.contains(r#"text-anchor="middle" dominant-baseline="central""#));
        assert!(svg.contains("a&lt;b &amp; &quot;c&quot;</text>"));
    }
}
