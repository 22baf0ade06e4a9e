//! Label placement: every label gets a box (real glyph advances × ascent − descent) and
//! the first candidate position, in order of preference, that keeps the box inside the
//! canvas, off every other label and clear of every stroke.
//!
//! Side and angle labels are placed first (they have one natural spot each), then
//! vertex letters (which can go anywhere around their vertex). Candidates surround the
//! label's anchor: vertex letters start opposite the edges that
//! meet at the vertex, side labels on the outer side of their side (sliding along it if
//! needed), angle labels on the angle's bisector beyond its arc; each then turns away
//! from the preferred direction and steps further out.
//!
//! The diagram's fit never depends on the labels: it is fitted once per problem,
//! canvas and rotation, leaving a margin with room for labels up to
//! [`ROOM_FOR_FONT_PX`] (see [`fit_margin`]), so that no style axis (font size,
//! annotation, info, relabel…) moves the geometry. A label with no clear spot near
//! its element goes farther out, with a thin leader line back to the element.
//!
//! Every label stays attached to its element (issues 16 and 44): a label is
//! preferred where it is [`ATTACH_RATIO`] times nearer its own element than any
//! other of the kind a reader could take it for — a vertex letter or an angle value
//! nearer its own point than any other point, a side value nearer its own side than
//! any other side or ray. An angle value stays inside its own angle's wedge where it
//! can; a wedge too narrow for it, or whose bisector leads to another point, puts it
//! just outside an arm, never inside another angle's wedge at that vertex, with a
//! leader line to its arc. A vertex letter stays outside the shapes meeting at its
//! point. Clearances use `REFERENCE_LINE_WIDTH`, never the style's line width, so
//! that positions do not depend on it.

use super::frame::{Fit, Geometry, Px, outline_polylines};
use super::marks::{self, Marks};
use super::{LayoutStats, REFERENCE_LINE_WIDTH};
use crate::font::text_box;
use crate::generate::Annotation;
use crate::generate::{Problem, Status};
use crate::style::Style;
use crate::vec2::{add, inside, len, normalize, perp, scale, sub};

/// Gap kept between two labels, px.
const LABEL_GAP: f32 = 2.0;
/// Gap kept between a label and a stroke's edge, px.
const STROKE_GAP: f32 = 2.0;
/// Distance kept between a label box and a stroke's centre line, px.
const STROKE_CLEARANCE: f32 = REFERENCE_LINE_WIDTH / 2.0 + STROKE_GAP;
/// The largest label font size (px on the 512 px reference canvas) the diagram's
/// margin leaves room for: the largest of the `fontsize` axis's default sweep.
pub(crate) const ROOM_FOR_FONT_PX: f32 = 32.0;
/// A label is attached when the nearest other element of its kind is this many
/// times farther from the label's centre than its own element.
pub(crate) const ATTACH_RATIO: f32 = 1.5;
/// `min_attachment_ratio` when no label has another element of its kind at all.
const RATIO_CAP: f32 = 1000.0;
/// A label pushed this far (px) beyond its natural spot gets a leader line.
const LEADER_EXTRA: f32 = 20.0;
/// Vectors no longer than this (px) give no direction to place a label in...
const MIN_DIR: f32 = 1e-6;
/// ...and such a label goes up.
const UP: Px = [0.0, -1.0];

/// A label with its final position.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Placed {
    pub text: String,
    /// The point of its element it was placed around (its request's anchor).
    pub anchor: Px,
    pub center: Px,
    pub half: [f32; 2],
    /// A leader line from the element to the label's box, when the label was pushed
    /// away from its natural spot.
    pub leader: Option<(Px, Px)>,
    /// How well it is attached: [`Attach::ratio`].
    pub ratio: f32,
    /// Whether it is a vertex letter.
    pub letter: bool,
}

/// What a label must stay with.
enum Attach {
    /// An angle value: its vertex, every other point, its own wedge and those of
    /// the other angles at its vertex (a value outside its own wedge never stands
    /// in one of them).
    Angle {
        vertex: Px,
        others: Vec<Px>,
        own: [Px; 3],
        wedges: Vec<[Px; 3]>,
    },
    /// A side value: its own side, and every other side and ray.
    Segment {
        own: (Px, Px),
        others: Vec<(Px, Px)>,
    },
    /// A vertex letter: its own point, every other point, and the shapes that meet
    /// at it (the letter stays outside them).
    Point {
        own: Px,
        others: Vec<Px>,
        shapes: Vec<Vec<Px>>,
    },
    /// A shape's area, perimeter, arc length or height (`modality=vision-dominant`):
    /// inside its shape's outer outline and out of its holes, where no other shape
    /// is (shapes meet only along their sides); never inside another shape (`others`,
    /// their outlines), where it would be read as that shape's.
    Region {
        outer: Vec<Px>,
        holes: Vec<Vec<Px>>,
        others: Vec<Vec<Px>>,
    },
}

/// Distance from `p` to segment `ab`.
fn point_seg(p: Px, (a, b): (Px, Px)) -> f32 {
    let d = sub(b, a);
    let l2 = d[0] * d[0] + d[1] * d[1];
    let t = if l2 > 0.0 {
        (((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1]) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    len(sub(p, add(a, scale(d, t))))
}

impl Attach {
    /// The distance from `c` to the nearest other element of the label's kind over
    /// the distance to its own (infinite with no other element, or for a wedge).
    fn ratio(&self, c: Px) -> f32 {
        let (own, other) = match self {
            Attach::Angle { vertex, others, .. } => (
                len(sub(c, *vertex)),
                others
                    .iter()
                    .map(|&q| len(sub(c, q)))
                    .fold(f32::INFINITY, f32::min),
            ),
            Attach::Segment { own, others } => (
                point_seg(c, *own),
                others
                    .iter()
                    .map(|&s| point_seg(c, s))
                    .fold(f32::INFINITY, f32::min),
            ),
            Attach::Point { own, others, .. } => (
                len(sub(c, *own)),
                others
                    .iter()
                    .map(|&q| len(sub(c, q)))
                    .fold(f32::INFINITY, f32::min),
            ),
            // Inside its own shape, no other can be meant; outside, none is.
            Attach::Region { outer, holes, .. } => {
                let own = inside(outer, c) && !holes.iter().any(|h| inside(h, c));
                return if own { f32::INFINITY } else { 0.0 };
            }
        };
        if other.is_infinite() {
            f32::INFINITY
        } else {
            other / own.max(1e-3)
        }
    }

    /// Whether a label centred at `c` is attached.
    fn holds(&self, c: Px) -> bool {
        let clear = match self {
            Attach::Point { shapes, .. } => !shapes.iter().any(|poly| inside(poly, c)),
            Attach::Angle { .. } | Attach::Segment { .. } | Attach::Region { .. } => true,
        };
        clear && self.ratio(c) >= ATTACH_RATIO
    }

    /// Whether a label centred at `c` would name the wrong element whatever else
    /// holds: an angle value outside its own wedge and inside another angle's at
    /// its vertex. Never taken, not even as a fallback.
    fn forbidden(&self, c: Px) -> bool {
        match self {
            Attach::Angle { own, wedges, .. } => {
                let [a, v, b] = *own;
                !in_wedge(c, a, v, b) && wedges.iter().any(|&[a, v, b]| in_wedge(c, a, v, b))
            }
            Attach::Region { outer, others, .. } => {
                !inside(outer, c) && others.iter().any(|o| inside(o, c))
            }
            Attach::Segment { .. } | Attach::Point { .. } => false,
        }
    }
}

/// Whether `c` lies strictly inside the wedge at `v` between the rays to `a` and `b`
/// (an angle below 180°).
fn in_wedge(c: Px, a: Px, v: Px, b: Px) -> bool {
    let (ua, ub, w) = (sub(a, v), sub(b, v), sub(c, v));
    let s = crate::vec2::cross(ua, ub).signum();
    crate::vec2::cross(ua, w) * s > 0.0 && crate::vec2::cross(w, ub) * s > 0.0
}

/// The margin (px, each side) the diagram is fitted into the canvas with: room for a
/// label of [`ROOM_FOR_FONT_PX`] (scaled to the canvas) beside the outermost point,
/// whatever the style's font size, so that the fit is one per problem and canvas.
pub(crate) fn fit_margin(canvas: u32) -> f64 {
    let reference = 1.5 * f64::from(ROOM_FOR_FONT_PX) + 4.0;
    f64::from(canvas) * reference / 512.0
}

/// The chosen layout: the diagram's fit to the canvas, its marks, the placed labels
/// and how well they fit.
pub(crate) struct Layout {
    pub fit: Fit,
    pub marks: Marks,
    /// Where the point dots are (drawn or not, labels keep clear of them).
    pub dots: Vec<Px>,
    pub placed: Vec<Placed>,
    pub stats: LayoutStats,
    /// What later layouts of a variant keep from this one.
    pub keep: Keep,
}

/// A base image's labels and strokes, for a variant that adds to its drawing (an
/// auxiliary line, unrelated shapes, a stated or removed value): each base label
/// whose text, element and size the variant still has stays where it was, unless
/// the variant's new strokes come nearer to it than the stroke clearance or it no
/// longer holds to its element; only those are placed again, with the new labels.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Keep {
    pub(super) placed: Vec<Placed>,
    segs: Vec<(Px, Px)>,
}

/// What to place.
struct Request {
    text: String,
    anchor: Px,
    /// Whether it is a vertex letter (which `relabel` renames in place).
    letter: bool,
    /// Preferred directions, best first.
    dirs: Vec<Dir>,
    /// Distance from the anchor to keep before the box starts.
    base: f32,
    /// Half the side's vector, for sliding side labels along their side.
    along: Option<Px>,
    /// Degrees of turning away from the preferred direction that cost as much as 6 px
    /// more distance: small for angle labels, which should stay inside their angle.
    turn_cost: f32,
    attach: Attach,
}

impl Request {
    /// Half the box the label is placed with at font size `size`: its text's, and
    /// for a vertex letter at least that of as many W's (the widest capital), so
    /// that where letters go does not depend on which letters they are and a
    /// renamed point (`relabel`) keeps its letter's place.
    fn half(&self, size: f32) -> [f32; 2] {
        let (mut w, h) = text_box(&self.text, size);
        if self.letter {
            let widest = "W".repeat(self.text.chars().count());
            w = w.max(text_box(&widest, size).0);
        }
        [w / 2.0, h / 2.0]
    }
}

/// One direction a label may go from its anchor.
struct Dir {
    to: Px,
    /// Most degrees it may turn away from `to` (an angle value inside its wedge:
    /// less than half its angle).
    max_turn: f32,
    /// What taking this direction costs, in the score's units (6 px of distance
    /// each).
    cost: f32,
    /// Where a leader line starts when the label is pushed out (or always, with
    /// `leader`).
    leader_from: Px,
    /// A label placed this way always gets a leader line (an angle value outside
    /// its wedge).
    leader: bool,
}

fn rotate(a: Px, deg: f32) -> Px {
    let (s, c) = deg.to_radians().sin_cos();
    [a[0] * c - a[1] * s, a[0] * s + a[1] * c]
}

/// A label wider or taller than the canvas (less a 1 px border): no position can hold it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TooLarge {
    pub text: String,
    pub width: f32,
    pub height: f32,
}

/// Fits the diagram (once, whatever the labels) and lays out its labels; fails only
/// when a label is larger than the canvas.
pub(crate) fn layout(
    p: &Problem,
    geo: &Geometry,
    style: &Style,
    a: Annotation,
    keep: Option<&Keep>,
) -> Result<Layout, TooLarge> {
    let canvas = style.canvas as f32;
    let fit = Fit::new(
        geo,
        style.rotation,
        style.canvas,
        fit_margin(style.canvas),
        f64::from(style.scale),
    );
    let marks = marks::marks(p, &fit, style.canvas);
    let dots = super::dots::dots(p, &fit);
    let mut segs = marks::stroke_segments(p, &fit, &marks);
    segs.extend(super::dots::obstacles(
        &dots,
        super::dots::radius(style.canvas),
    ));
    let requests = requests(p, &fit, a, style);
    let kept = keep.map(|k| kept(k, &requests, &segs, canvas, style.font_size));
    let placed = place_all(
        &requests,
        &segs,
        canvas,
        style.font_size,
        kept.as_deref().unwrap_or_default(),
    )?;
    let stats = measure(&placed, &segs, canvas, fit.scale);
    let keep = Keep {
        placed: placed.clone(),
        segs,
    };
    Ok(Layout {
        fit,
        marks,
        dots,
        placed,
        stats,
        keep,
    })
}

/// For each request, the base's placement of the same text around the same anchor at
/// the same size when it may stay: on the canvas, clear of the strokes the base did
/// not have, off the other kept labels, and as attached to its element as it was. A
/// vertex letter renamed (`relabel`) keeps its place, and its leader, where its new
/// box is as clear of every stroke.
fn kept(
    keep: &Keep,
    reqs: &[Request],
    segs: &[(Px, Px)],
    canvas: f32,
    size: f32,
) -> Vec<Option<Placed>> {
    let new_segs: Vec<(Px, Px)> = segs
        .iter()
        .copied()
        .filter(|s| !keep.segs.contains(s))
        .collect();
    let all_segs = segs.to_vec();
    let mut out: Vec<Option<Placed>> = Vec::with_capacity(reqs.len());
    let mut taken = vec![false; keep.placed.len()];
    for r in reqs {
        let half = r.half(size);
        let same = keep.placed.iter().enumerate().find(|(i, k)| {
            !taken[*i] && k.text == r.text && k.anchor == r.anchor && k.half == half
        });
        let renamed = || {
            let found = keep.placed.iter().enumerate().find(|(i, k)| {
                !taken[*i] && r.letter && k.letter && k.anchor == r.anchor && k.text != r.text
            });
            found.map(|(i, k)| {
                let leader = k.leader.and_then(|_| leader(r.anchor, k.center, half));
                (
                    i,
                    Placed {
                        text: r.text.clone(),
                        half,
                        leader,
                        ..k.clone()
                    },
                )
            })
        };
        // The strokes a kept box must keep clear of: the new ones, or every one for
        // a box of another size.
        let stays = same
            .map(|(i, k)| (i, k.clone(), &new_segs))
            .or_else(|| renamed().map(|(i, k)| (i, k, &all_segs)))
            .filter(|(_, k, segs)| {
                on_canvas(k.center, k.half, canvas)
                    && segs
                        .iter()
                        .all(|&(a, b)| box_seg_dist(k.center, k.half, a, b) >= STROKE_CLEARANCE)
                    && (k.ratio < ATTACH_RATIO || r.attach.holds(k.center))
                    && out.iter().flatten().all(|q: &Placed| {
                        !boxes_intersect(k.center, k.half, q.center, q.half, LABEL_GAP)
                    })
            });
        out.push(stays.map(|(i, k, _)| {
            taken[i] = true;
            Placed {
                ratio: r.attach.ratio(k.center),
                ..k
            }
        }));
    }
    out
}

/// The labels of one annotation style, with their anchors and preferred directions:
/// angles, then sides, then (coordinate style) vertex letters.
fn requests(p: &Problem, fit: &Fit, a: Annotation, style: &Style) -> Vec<Request> {
    let mut out = angle_requests(p, fit, a, style.canvas);
    out.extend(side_requests(p, fit, a));
    out.extend(measure_requests(p, fit, a));
    if a == Annotation::Coordinate {
        out.extend(vertex_requests(p, fit));
    }
    out
}

/// Angle labels: on the bisector, beyond the arc.
fn angle_requests(p: &Problem, fit: &Fit, a: Annotation, canvas: u32) -> Vec<Request> {
    let pt = |i: usize| fit.point(p, i);
    let mut out = Vec::new();
    for ang in &p.diagram.angles {
        let Some(text) = ang.label.get(a) else {
            continue;
        };
        let (pa, v, pb) = (pt(ang.points[0]), pt(ang.points[1]), pt(ang.points[2]));
        let ua = normalize(sub(pa, v), MIN_DIR).unwrap_or(UP);
        let ub = normalize(sub(pb, v), MIN_DIR).unwrap_or(UP);
        // Arms (nearly) opposite: no bisector, so square to the first arm.
        let dir = normalize(add(ua, ub), 0.05).unwrap_or(perp(ua));
        let r = if ang.status == Status::Unused {
            0.0
        } else {
            marks::arc_radius(canvas, pa, v, pb)
        };
        // Half the angle, less a margin so that the centre stays clearly inside.
        let half_angle = crate::vec2::dot(ua, ub)
            .clamp(-1.0, 1.0)
            .acos()
            .to_degrees()
            / 2.0;
        // Outside the wedge, beyond each arm (turned away from the other arm), with
        // a leader from the arc's end on that arm: where the wedge has no room.
        let away = |u: Px, other: Px| {
            let s = if crate::vec2::cross(u, other) > 0.0 {
                -1.0
            } else {
                1.0
            };
            rotate(u, s * OUTSIDE_ARM_DEG)
        };
        let mut dirs = vec![Dir {
            to: dir,
            max_turn: (half_angle - 3.0).max(0.0),
            cost: 0.0,
            leader_from: add(v, scale(dir, r)),
            leader: false,
        }];
        for (u, other) in [(ua, ub), (ub, ua)] {
            dirs.push(Dir {
                to: away(u, other),
                max_turn: OUTSIDE_ARM_DEG - 5.0,
                cost: OUTSIDE_COST,
                leader_from: add(v, scale(u, r)),
                leader: true,
            });
        }
        let vertex_at = |q: Px| len(sub(q, v)) < 1e-3;
        let others = (0..p.diagram.points.len())
            .map(pt)
            .filter(|&q| !vertex_at(q))
            .collect();
        let wedges = (p.diagram.angles.iter())
            .filter(|o| !std::ptr::eq(*o, ang) && vertex_at(pt(o.points[1])))
            .map(|o| [pt(o.points[0]), pt(o.points[1]), pt(o.points[2])])
            .collect();
        out.push(Request {
            text: text.to_string(),
            anchor: v,
            letter: false,
            dirs,
            base: r + STROKE_CLEARANCE,
            along: None,
            turn_cost: 6.0,
            attach: Attach::Angle {
                vertex: v,
                others,
                own: [pa, v, pb],
                wedges,
            },
        });
    }
    out
}

/// Side labels: at the side's midpoint, outside the shape first, sliding along it.
fn side_requests(p: &Problem, fit: &Fit, a: Annotation) -> Vec<Request> {
    let pt = |i: usize| fit.point(p, i);
    let polys: Vec<(usize, Vec<Px>)> = outline_polylines(p)
        .into_iter()
        .map(|(s, poly)| (s, poly.iter().map(|&q| fit.px(q)).collect()))
        .collect();
    let segment = |pts: [usize; 2]| (pt(pts[0]), pt(pts[1]));
    let mut out = Vec::new();
    for (k, side) in p.diagram.sides.iter().enumerate() {
        let Some(text) = side.label.get(a) else {
            continue;
        };
        let others = (p.diagram.sides.iter().enumerate())
            .filter(|&(j, _)| j != k)
            .map(|(_, s)| segment(s.points))
            .chain(p.diagram.rays.iter().map(|r| segment(r.points)))
            .collect();
        let (s0, s1) = (pt(side.points[0]), pt(side.points[1]));
        let mid = scale(add(s0, s1), 0.5);
        let n = normalize(perp(sub(s1, s0)), MIN_DIR).unwrap_or(UP);
        let probe = add(mid, scale(n, 3.0));
        let inside_n = polys.iter().any(|(_, poly)| inside(poly, probe));
        let dirs = if inside_n {
            vec![scale(n, -1.0), n]
        } else {
            vec![n, scale(n, -1.0)]
        };
        let along = scale(sub(s1, s0), 0.5);
        out.push(Request {
            text: text.to_string(),
            anchor: mid,
            letter: false,
            dirs: free(dirs, mid),
            base: STROKE_CLEARANCE,
            along: Some(along),
            turn_cost: 20.0,
            attach: Attach::Segment {
                own: (s0, s1),
                others,
            },
        });
    }
    out
}

/// A shape's drawn measures ("Area = 50", `modality=vision-dominant`): around the
/// centroid of its outer outline, inside it.
fn measure_requests(p: &Problem, fit: &Fit, a: Annotation) -> Vec<Request> {
    let mut out = Vec::new();
    if p.diagram.measures.iter().all(|m| m.label.get(a).is_none()) {
        // The outlines are sampled only for a drawing that has such a label.
        return out;
    }
    let polys = outline_polylines(p);
    for m in &p.diagram.measures {
        let Some(text) = m.label.get(a) else {
            continue;
        };
        let mut contours = (polys.iter())
            .filter(|(s, _)| *s == m.shape)
            .map(|(_, poly)| poly.iter().map(|&q| fit.px(q)).collect::<Vec<Px>>());
        let Some(outer) = contours.next() else {
            continue;
        };
        let holes: Vec<Vec<Px>> = contours.collect();
        let others = (polys.iter())
            .filter(|(s, _)| *s != m.shape)
            .map(|(_, poly)| poly.iter().map(|&q| fit.px(q)).collect())
            .collect();
        let anchor = centroid(&outer);
        let dirs = (0..8)
            .map(|k| rotate(UP, k as f32 * 45.0))
            .collect::<Vec<Px>>();
        out.push(Request {
            text: text.to_string(),
            anchor,
            letter: false,
            dirs: free(dirs, anchor),
            base: 0.0,
            along: None,
            turn_cost: 20.0,
            attach: Attach::Region {
                outer,
                holes,
                others,
            },
        });
    }
    out
}

/// The area centroid of a closed polygon (its vertex mean when it has no area).
fn centroid(poly: &[Px]) -> Px {
    let (mut a2, mut cx, mut cy) = (0.0f32, 0.0f32, 0.0f32);
    for (i, p) in poly.iter().enumerate() {
        let q = poly[(i + 1) % poly.len()];
        let cross = p[0] * q[1] - q[0] * p[1];
        a2 += cross;
        cx += (p[0] + q[0]) * cross;
        cy += (p[1] + q[1]) * cross;
    }
    if a2.abs() < 1e-3 {
        let n = poly.len().max(1) as f32;
        let sum = poly.iter().fold([0.0, 0.0], |s, p| add(s, *p));
        return scale(sum, 1.0 / n);
    }
    [cx / (3.0 * a2), cy / (3.0 * a2)]
}

/// Directions a label may turn all the way round from, best first, each 2.5 more
/// costly than the one before, with leaders from `from`.
fn free(dirs: Vec<Px>, from: Px) -> Vec<Dir> {
    dirs.into_iter()
        .enumerate()
        .map(|(k, to)| Dir {
            to,
            max_turn: 180.0,
            cost: k as f32 * 2.5,
            leader_from: from,
            leader: false,
        })
        .collect()
}

/// Vertex letters: opposite the edges and rays that meet at the vertex, or away from
/// the diagram's centre when those cancel out.
fn vertex_requests(p: &Problem, fit: &Fit) -> Vec<Request> {
    let pt = |i: usize| fit.point(p, i);
    let d = &p.diagram;
    let polys: Vec<(usize, Vec<Px>)> = outline_polylines(p)
        .into_iter()
        .map(|(s, poly)| (s, poly.iter().map(|&q| fit.px(q)).collect()))
        .collect();
    let mut centre = [0.0f32, 0.0];
    for i in 0..d.points.len() {
        centre = add(centre, pt(i));
    }
    let centre = scale(centre, 1.0 / d.points.len().max(1) as f32);
    let mut out = Vec::new();
    for (i, point) in d.points.iter().enumerate() {
        let here = pt(i);
        let mut sum = [0.0f32, 0.0];
        let mut neighbours = Vec::new();
        for s in &d.shapes {
            let n = s.vertices.len();
            if let Some(k) = s.vertices.iter().position(|&v| v == i) {
                neighbours.push(s.vertices[(k + 1) % n]);
                neighbours.push(s.vertices[(k + n - 1) % n]);
            }
        }
        for r in &d.rays {
            if r.points[0] == i {
                neighbours.push(r.points[1]);
            }
            if r.points[1] == i {
                neighbours.push(r.points[0]);
            }
        }
        for nb in neighbours.into_iter().filter(|&nb| nb != i) {
            sum = add(sum, normalize(sub(pt(nb), here), MIN_DIR).unwrap_or(UP));
        }
        let away = match normalize(sum, 0.3) {
            Some(u) => scale(u, -1.0),
            None => normalize(sub(here, centre), MIN_DIR).unwrap_or(UP),
        };
        let others = (0..d.points.len()).filter(|&j| j != i).map(pt).collect();
        let shapes = (polys.iter())
            .filter(|(s, _)| d.shapes[*s].vertices.contains(&i))
            .map(|(_, poly)| poly.clone())
            .collect();
        out.push(Request {
            text: point.name.clone(),
            anchor: here,
            letter: true,
            dirs: free(vec![away], here),
            base: STROKE_CLEARANCE,
            along: None,
            turn_cost: 20.0,
            attach: Attach::Point {
                own: here,
                others,
                shapes,
            },
        });
    }
    out
}

/// Distance from the box (centre, half sizes) to segment `ab`; 0 when they meet.
fn box_seg_dist(c: Px, h: [f32; 2], a: Px, b: Px) -> f32 {
    // Liang–Barsky: does the segment enter the box?
    let (x0, x1, y0, y1) = (c[0] - h[0], c[0] + h[0], c[1] - h[1], c[1] + h[1]);
    let d = sub(b, a);
    let (mut t0, mut t1) = (0.0f32, 1.0f32);
    let mut hits = true;
    for (pp, q) in [
        (-d[0], a[0] - x0),
        (d[0], x1 - a[0]),
        (-d[1], a[1] - y0),
        (d[1], y1 - a[1]),
    ] {
        if pp == 0.0 {
            if q < 0.0 {
                hits = false;
                break;
            }
        } else {
            let r = q / pp;
            if pp < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
            if t0 > t1 {
                hits = false;
                break;
            }
        }
    }
    if hits {
        return 0.0;
    }
    let pbox = |p: Px| {
        let dx = ((p[0] - c[0]).abs() - h[0]).max(0.0);
        let dy = ((p[1] - c[1]).abs() - h[1]).max(0.0);
        dx.hypot(dy)
    };
    let corners = [[x0, y0], [x1, y0], [x0, y1], [x1, y1]];
    corners
        .iter()
        .map(|&q| point_seg(q, (a, b)))
        .fold(pbox(a).min(pbox(b)), f32::min)
}

fn box_gap(c1: Px, h1: [f32; 2], c2: Px, h2: [f32; 2]) -> f32 {
    let dx = ((c1[0] - c2[0]).abs() - h1[0] - h2[0]).max(0.0);
    let dy = ((c1[1] - c2[1]).abs() - h1[1] - h2[1]).max(0.0);
    dx.hypot(dy)
}

fn boxes_intersect(c1: Px, h1: [f32; 2], c2: Px, h2: [f32; 2], gap: f32) -> bool {
    (c1[0] - c2[0]).abs() < h1[0] + h2[0] + gap && (c1[1] - c2[1]).abs() < h1[1] + h2[1] + gap
}

fn on_canvas(c: Px, h: [f32; 2], canvas: f32) -> bool {
    c[0] - h[0] >= 1.0
        && c[1] - h[1] >= 1.0
        && c[0] + h[0] <= canvas - 1.0
        && c[1] + h[1] <= canvas - 1.0
}

const OFFSETS: [f32; 14] = [
    0.0, 20.0, -20.0, 40.0, -40.0, 65.0, -65.0, 90.0, -90.0, 120.0, -120.0, 150.0, -150.0, 180.0,
];
/// Distances (px) beyond the natural spot: near ones first, then far ones (with a
/// leader line), before any label is left overlapping something.
const EXTRA: [f32; 11] = [
    0.0, 3.0, 7.0, 12.0, 20.0, 32.0, 48.0, 72.0, 100.0, 140.0, 190.0,
];
const SLIDES: [f32; 5] = [0.0, 0.25, -0.25, 0.5, -0.5];
/// Places a label without an attached, clear place tries in [`repair`].
const REPAIR_TRIES: usize = 3;
/// Most labels that step aside for one in [`repair`].
const REPAIR_MOVES: usize = 2;
/// How far beyond an arm (degrees) an angle value that leaves its wedge goes.
const OUTSIDE_ARM_DEG: f32 = 35.0;
/// What leaving the wedge costs an angle value: as much as 8 × 6 px farther out.
const OUTSIDE_COST: f32 = 8.0;

/// One candidate position: its score (lower is better), how far it was pushed out,
/// and the direction it was taken in.
struct Candidate {
    score: f32,
    center: Px,
    extra: f32,
    dir: usize,
}

/// Places labels in order, each at its best candidate: the lowest-scoring one that
/// is on the canvas, off every placed label, clear of strokes and attached to its
/// element; failing that, the one that is most so (attached, then clear of strokes,
/// then as attached as it can be); failing that, the first candidate clamped to the
/// canvas. Then each label left without an attached, clear place tries to take one
/// from a label near it that can move to another ([`repair`]). A label that does not
/// fit on the canvas at all is an error.
fn place_all(
    reqs: &[Request],
    segs: &[(Px, Px)],
    canvas: f32,
    size: f32,
    kept: &[Option<Placed>],
) -> Result<Vec<Placed>, TooLarge> {
    let mut placed: Vec<Placed> = Vec::with_capacity(reqs.len());
    let mut good: Vec<bool> = Vec::with_capacity(reqs.len());
    for (i, r) in reqs.iter().enumerate() {
        if let Some(Some(k)) = kept.get(i) {
            placed.push(k.clone());
            good.push(true);
            continue;
        }
        let half = r.half(size);
        let (w, h) = (2.0 * half[0], 2.0 * half[1]);
        // The box must fit inside the canvas less 1 px on each side (`on_canvas`);
        // written so that a NaN size fails too.
        if !(w + 2.0 <= canvas && h + 2.0 <= canvas) {
            return Err(TooLarge {
                text: r.text.clone(),
                width: w,
                height: h,
            });
        }
        // The labels placed so far, and the kept ones still to come.
        let others: Vec<&Placed> = placed
            .iter()
            .chain(kept.iter().skip(i + 1).flatten())
            .collect();
        let (p, ok) = place_one(r, half, &others, segs, canvas);
        placed.push(p);
        good.push(ok);
    }
    repair(reqs, segs, canvas, kept, &mut placed, &mut good);
    Ok(placed)
}

/// For each label without an attached, clear place (none was free when its turn
/// came), other labels step aside: the label takes its best attached, clear place
/// among the strokes and the kept labels alone, and the (at most
/// [`REPAIR_MOVES`]) placed labels its box then meets are placed again around it;
/// kept when every one of them finds an attached, clear place too. Up to
/// [`REPAIR_TRIES`] places are tried, each avoiding the labels that could not move
/// for the one before. Rare (a crowded corner), so simple.
fn repair(
    reqs: &[Request],
    segs: &[(Px, Px)],
    canvas: f32,
    kept: &[Option<Placed>],
    placed: &mut [Placed],
    good: &mut [bool],
) {
    let movable = |j: usize| !matches!(kept.get(j), Some(Some(_)));
    for i in 0..reqs.len() {
        if good[i] || !movable(i) {
            continue;
        }
        let half = placed[i].half;
        // What the label may not take: the kept labels, then the ones that would not
        // move.
        let mut fixed: Vec<usize> = (0..reqs.len()).filter(|&j| j != i && !movable(j)).collect();
        for _ in 0..REPAIR_TRIES {
            let obstacles: Vec<&Placed> = fixed.iter().map(|&j| &placed[j]).collect();
            let (pi, ok) = place_one(&reqs[i], half, &obstacles, segs, canvas);
            if !ok {
                break;
            }
            let meets =
                |q: &Placed| boxes_intersect(pi.center, pi.half, q.center, q.half, LABEL_GAP);
            let moved: Vec<usize> = (0..reqs.len())
                .filter(|&j| j != i && !fixed.contains(&j) && meets(&placed[j]))
                .collect();
            if moved.len() > REPAIR_MOVES {
                fixed.extend(moved);
                continue;
            }
            let mut trial: Vec<Placed> = placed.to_vec();
            trial[i] = pi;
            let mut all_ok = true;
            for &j in &moved {
                let others: Vec<&Placed> = (trial.iter().enumerate())
                    .filter(|(k, _)| *k != j)
                    .map(|(_, q)| q)
                    .collect();
                let (pj, ok_j) = place_one(&reqs[j], trial[j].half, &others, segs, canvas);
                all_ok &= ok_j || !good[j];
                trial[j] = pj;
            }
            if all_ok {
                placed.clone_from_slice(&trial);
                good[i] = true;
                break;
            }
            fixed.extend(moved);
        }
    }
}

/// How good a place is that is not attached and clear, best greatest: clear of
/// strokes (never over one), then attached, then as attached as it can be, then
/// the stroke clearance.
type Fallback = (bool, bool, f32, f32);

/// The best place for one label among `others` (see [`place_all`]), and whether it
/// is attached and clear of every stroke there.
fn place_one(
    r: &Request,
    half: [f32; 2],
    others: &[&Placed],
    segs: &[(Px, Px)],
    canvas: f32,
) -> (Placed, bool) {
    let cands = candidates(r, half);
    // Only labels and strokes near some candidate can matter: the others are left
    // out up front, which keeps the work per label from growing with the whole
    // diagram. Exact: what is left out is more than its gap + 1 px away from every
    // candidate box, so it could neither collide nor set a clearance below
    // `STROKE_CLEARANCE` (the only clearances compared); anything not finite stays.
    let (lo, hi) = reach(&cands, half);
    let near = |x0: f32, x1: f32, y0: f32, y1: f32, m: f32| {
        !(x0 > hi[0] + m || x1 < lo[0] - m || y0 > hi[1] + m || y1 < lo[1] - m)
    };
    let near_labels: Vec<&Placed> = others
        .iter()
        .copied()
        .filter(|q| {
            let (c, h) = (q.center, q.half);
            near(
                c[0] - h[0],
                c[0] + h[0],
                c[1] - h[1],
                c[1] + h[1],
                LABEL_GAP + 1.0,
            )
        })
        .collect();
    let near_segs: Vec<Seg> = segs
        .iter()
        .copied()
        .filter(|&(a, b)| {
            let m = STROKE_CLEARANCE + 1.0;
            // Written so that a NaN coordinate keeps the segment.
            !(a[0] > hi[0] + m && b[0] > hi[0] + m
                || a[0] < lo[0] - m && b[0] < lo[0] - m
                || a[1] > hi[1] + m && b[1] > hi[1] + m
                || a[1] < lo[1] - m && b[1] < lo[1] - m)
        })
        .map(Seg::new)
        .collect();
    let hard_ok = |c: Px| {
        on_canvas(c, half, canvas)
            && !r.attach.forbidden(c)
            && near_labels
                .iter()
                .all(|q| !boxes_intersect(c, half, q.center, q.half, LABEL_GAP))
    };
    // The clearance capped at `STROKE_CLEARANCE`, all that is compared: segments
    // that cannot come nearer than the nearest so far are not measured.
    let stroke_clearance = |c: Px| {
        let mut clearance = STROKE_CLEARANCE;
        for s in &near_segs {
            if clearance <= 0.0 {
                break;
            }
            if !s.beyond(c, half, clearance) {
                clearance = clearance.min(box_seg_dist(c, half, s.a, s.b));
            }
        }
        clearance
    };
    let mut chosen = None;
    let mut fallback: Option<(Fallback, &Candidate)> = None;
    let mut order = best_first(&cands).peekable();
    let first = order.peek().copied();
    for cand in order {
        if !hard_ok(cand.center) {
            continue;
        }
        let attached = r.attach.holds(cand.center);
        let cl = stroke_clearance(cand.center);
        if attached && cl >= STROKE_CLEARANCE {
            chosen = Some(cand);
            break;
        }
        let ratio = r.attach.ratio(cand.center).min(ATTACH_RATIO);
        let key = (
            cl >= STROKE_CLEARANCE,
            attached,
            ratio,
            cl.min(STROKE_CLEARANCE),
        );
        if fallback.is_none_or(|(best, _)| key > best) {
            fallback = Some((key, cand));
        }
    }
    let good = chosen.is_some();
    let (center, extra, dir) = match chosen.or(fallback.map(|(_, c)| c)) {
        Some(c) => (c.center, c.extra, &r.dirs[c.dir]),
        None => {
            let c = first.map_or(r.anchor, |x| x.center);
            let clamped = [
                c[0].clamp(half[0] + 1.0, canvas - half[0] - 1.0),
                c[1].clamp(half[1] + 1.0, canvas - half[1] - 1.0),
            ];
            (clamped, 0.0, &r.dirs[0])
        }
    };
    // A label pushed out, outside its wedge, or where it is not unmistakably its
    // element's gets a leader line from its element.
    let leader = (dir.leader || extra >= LEADER_EXTRA || !r.attach.holds(center))
        .then(|| leader(dir.leader_from, center, half))
        .flatten();
    let placed = Placed {
        text: r.text.clone(),
        anchor: r.anchor,
        center,
        half,
        leader,
        ratio: r.attach.ratio(center),
        letter: r.letter,
    };
    (placed, good)
}

/// Every candidate position of a request, in the order they are made.
fn candidates(r: &Request, half: [f32; 2]) -> Vec<Candidate> {
    let mut cands = Vec::new();
    let slides: &[f32] = if r.along.is_some() {
        &SLIDES
    } else {
        &SLIDES[..1]
    };
    for (k, d) in r.dirs.iter().enumerate() {
        for &off in OFFSETS.iter().filter(|o| o.abs() <= d.max_turn) {
            let dir = rotate(d.to, off);
            let extent = dir[0].abs() * half[0] + dir[1].abs() * half[1];
            for &extra in &EXTRA {
                for &slide in slides {
                    let shift = r.along.map_or([0.0, 0.0], |al| scale(al, slide));
                    let center = add(add(r.anchor, shift), scale(dir, r.base + extent + extra));
                    let score = off.abs() / r.turn_cost + extra / 6.0 + d.cost + slide.abs() * 6.0;
                    cands.push(Candidate {
                        score,
                        center,
                        extra,
                        dir: k,
                    });
                }
            }
        }
    }
    cands
}

/// The candidates best first: by score, equal scores in the order they were made
/// (a stable sort's order). A heap, so that only the candidates tried are ordered:
/// most labels take one of the first few of their hundreds.
fn best_first(cands: &[Candidate]) -> impl Iterator<Item = &Candidate> {
    // `f32::total_cmp`'s order as an unsigned key.
    let key = |score: f32| {
        let bits = score.to_bits() as i32;
        ((bits ^ (((bits >> 31) as u32) >> 1) as i32) as u32) ^ (1 << 31)
    };
    let mut heap: std::collections::BinaryHeap<std::cmp::Reverse<(u32, u32)>> = cands
        .iter()
        .enumerate()
        .map(|(i, c)| std::cmp::Reverse((key(c.score), i as u32)))
        .collect();
    std::iter::from_fn(move || {
        heap.pop()
            .map(|std::cmp::Reverse((_, i))| &cands[i as usize])
    })
}

/// A stroke's centre line, with its box when its ends are finite.
struct Seg {
    a: Px,
    b: Px,
    bounds: Option<(Px, Px)>,
}

impl Seg {
    fn new((a, b): (Px, Px)) -> Seg {
        let finite = a.iter().chain(&b).all(|v| v.is_finite());
        let bounds = finite.then(|| {
            (
                [a[0].min(b[0]), a[1].min(b[1])],
                [a[0].max(b[0]), a[1].max(b[1])],
            )
        });
        Seg { a, b, bounds }
    }

    /// Whether the segment is certainly farther than `d` from the box (centre ± `half`):
    /// its own box is, by a margin far above the rounding of [`box_seg_dist`]. Never
    /// for a box that is not finite (measured as before).
    fn beyond(&self, c: Px, half: [f32; 2], d: f32) -> bool {
        const MARGIN: f32 = 0.01;
        let finite = c.iter().chain(&half).all(|v| v.is_finite());
        finite
            && self.bounds.is_some_and(|(lo, hi)| {
                let gx = (lo[0] - (c[0] + half[0])).max(c[0] - half[0] - hi[0]);
                let gy = (lo[1] - (c[1] + half[1])).max(c[1] - half[1] - hi[1]);
                gx.max(gy) > d + MARGIN
            })
    }
}

/// A leader line from `from` (on the element) to the edge of the box at `center`,
/// 2 px short of both; `None` when they are that close already.
fn leader(from: Px, center: Px, half: [f32; 2]) -> Option<(Px, Px)> {
    let d = sub(from, center);
    let exit = [0, 1]
        .iter()
        .map(|&i| {
            if d[i].abs() > 1e-6 {
                half[i] / d[i].abs()
            } else {
                f32::INFINITY
            }
        })
        .fold(f32::INFINITY, f32::min);
    let u = normalize(d, MIN_DIR)?;
    let edge = add(center, scale(d, exit.min(1.0)));
    let (a, b) = (add(from, scale(u, -2.0)), add(edge, scale(u, 2.0)));
    // Long enough to see, and pointing the same way as before shortening.
    (crate::vec2::dot(sub(a, b), u) > 4.0).then_some((a, b))
}

/// The box around every candidate's box (centre ± `half`); NaN centres are skipped.
fn reach(cands: &[Candidate], half: [f32; 2]) -> (Px, Px) {
    let (mut lo, mut hi) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
    for Candidate { center: c, .. } in cands {
        for i in 0..2 {
            lo[i] = lo[i].min(c[i] - half[i]);
            hi[i] = hi[i].max(c[i] + half[i]);
        }
    }
    (lo, hi)
}

/// Layout figures for the chosen placement.
fn measure(placed: &[Placed], segs: &[(Px, Px)], canvas: f32, scale: f64) -> LayoutStats {
    let segs: Vec<Seg> = segs.iter().copied().map(Seg::new).collect();
    let mut overlaps = 0;
    let mut min_clear = canvas;
    for (i, a) in placed.iter().enumerate() {
        for b in &placed[i + 1..] {
            if boxes_intersect(a.center, a.half, b.center, b.half, 0.0) {
                overlaps += 1;
            }
            min_clear = min_clear.min(box_gap(a.center, a.half, b.center, b.half));
        }
        for s in &segs {
            // A segment farther than the nearest so far cannot lower it.
            if s.beyond(a.center, a.half, min_clear + REFERENCE_LINE_WIDTH / 2.0) {
                continue;
            }
            let dd = box_seg_dist(a.center, a.half, s.a, s.b) - REFERENCE_LINE_WIDTH / 2.0;
            min_clear = min_clear.min(dd.max(0.0));
        }
    }
    let inside_canvas = |l: &Placed| {
        l.center[0] - l.half[0] >= 0.0
            && l.center[1] - l.half[1] >= 0.0
            && l.center[0] + l.half[0] <= canvas
            && l.center[1] + l.half[1] <= canvas
    };
    let off_canvas = placed.iter().filter(|l| !inside_canvas(l)).count();
    let min_ratio = placed.iter().map(|l| l.ratio).fold(f32::INFINITY, f32::min);
    LayoutStats {
        labels: placed.len(),
        min_clearance_px: min_clear,
        overlaps,
        off_canvas,
        scale,
        leaders: placed.iter().filter(|l| l.leader.is_some()).count(),
        // JSON has no infinity: a diagram whose labels have nothing of their kind
        // near reports the ratio cap.
        min_attachment_ratio: min_ratio.min(RATIO_CAP),
    }
}
