//! Diagram-like scenes made from an index alone, for benchmarks and tests.
//!
//! Each scene resembles a GeomVerse diagram: a few translucent polygons and
//! circular pieces with 2 px outlines, a dashed construction line, right-angle
//! marks and a dozen labels (letters, Greek letters, numbers).

use super::{Anchor, Baseline, Color, Item, PathItem, Scene, TextItem};

/// Fill colours GeomVerse-like diagrams use.
const PALETTE: [Color; 8] = [
    Color::rgb(0x4d, 0x80, 0xe6),
    Color::rgb(0xe6, 0x4d, 0x4d),
    Color::rgb(0x4d, 0xb3, 0x4d),
    Color::rgb(0xe6, 0xb3, 0x33),
    Color::rgb(0x99, 0x66, 0xcc),
    Color::rgb(0x80, 0x80, 0x80),
    Color::rgb(0x33, 0xb3, 0xb3),
    Color::rgb(0xe6, 0x80, 0xb3),
];

const LABELS: [&str; 16] = [
    "A", "B", "C", "D", "E", "F", "G", "H", "α", "β", "γ", "θ", "12", "7.5", "35°", "?",
];

/// A `size`×`size` diagram-like scene, a pure function of `index`.
pub fn diagram_scene(index: u64, size: u32) -> Scene {
    let mut rng = SplitMix(index.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5eed);
    let s = size as f32;
    let mut items = Vec::new();
    let shapes = 3 + rng.below(3);
    for k in 0..shapes {
        let cx = s * (0.25 + 0.5 * rng.unit());
        let cy = s * (0.25 + 0.5 * rng.unit());
        let r = s * (0.10 + 0.12 * rng.unit());
        let fill = PALETTE[rng.below(PALETTE.len() as u64) as usize];
        let fill_opacity = [0.5, 0.75, 1.0][rng.below(3) as usize];
        let d = match (k + index) % 4 {
            0 => polygon(cx, cy, r, 3, rng.unit() * std::f32::consts::TAU),
            1 => polygon(cx, cy, r, 4, rng.unit() * std::f32::consts::TAU),
            2 => format!(
                "M {a:.2} {cy:.2} A {r:.2} {r:.2} 0 0 1 {b:.2} {cy:.2} Z",
                a = cx - r,
                b = cx + r
            ),
            _ => format!(
                "M {cx:.2} {cy:.2} L {x1:.2} {cy:.2} A {r:.2} {r:.2} 0 0 0 {x2:.2} {y2:.2} Z",
                x1 = cx + r,
                x2 = cx + r * 0.5,
                y2 = cy - r * 0.866
            ),
        };
        items.push(Item::Path(PathItem {
            fill: Some(fill),
            fill_opacity,
            stroke: Some(Color::BLACK),
            stroke_width: 2.0,
            line_join: super::LineJoin::Round,
            ..PathItem::new(d)
        }));
        // A right-angle mark at the shape's centre.
        items.push(Item::Path(PathItem {
            stroke: Some(Color::BLACK),
            stroke_width: 1.5,
            ..PathItem::new(format!(
                "M {:.2} {:.2} L {:.2} {:.2} L {:.2} {:.2}",
                cx + 10.0,
                cy,
                cx + 10.0,
                cy - 10.0,
                cx,
                cy - 10.0
            ))
        }));
    }
    items.push(Item::Path(PathItem {
        stroke: Some(Color::rgb(0x40, 0x40, 0x40)),
        stroke_width: 1.5,
        dash: vec![6.0, 4.0],
        ..PathItem::new(format!(
            "M {:.2} {:.2} L {:.2} {:.2}",
            s * 0.1,
            s * (0.1 + 0.8 * rng.unit()),
            s * 0.9,
            s * (0.1 + 0.8 * rng.unit())
        ))
    }));
    let labels = 10 + rng.below(6);
    for _ in 0..labels {
        let text = LABELS[rng.below(LABELS.len() as u64) as usize];
        items.push(Item::Text(TextItem {
            anchor: Anchor::Middle,
            baseline: Baseline::Central,
            ..TextItem::new(
                text,
                s * (0.05 + 0.9 * rng.unit()),
                s * (0.05 + 0.9 * rng.unit()),
                [12.0, 14.0, 16.0, 20.0][rng.below(4) as usize],
            )
        }));
    }
    Scene {
        id: format!("synthetic-{index:06}"),
        width: size,
        height: size,
        background: Some(Color::WHITE),
        items,
    }
}

fn polygon(cx: f32, cy: f32, r: f32, n: usize, phase: f32) -> String {
    let mut d = String::new();
    for i in 0..n {
        let a = phase + i as f32 * std::f32::consts::TAU / n as f32;
        let cmd = if i == 0 { 'M' } else { 'L' };
        d.push_str(&format!(
            "{cmd} {:.2} {:.2} ",
            cx + r * a.cos(),
            cy + r * a.sin()
        ));
    }
    d.push('Z');
    d
}

/// splitmix64: tiny, portable and good enough for test content.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn synthetic_scenes_are_valid_and_deterministic() {
        for i in 0..50 {
            let s = diagram_scene(i, 512);
            crate::scene::validate(&s).unwrap();
            assert_eq!(s, diagram_scene(i, 512));
        }
        assert_ne!(diagram_scene(1, 512), diagram_scene(2, 512));
    }
}
