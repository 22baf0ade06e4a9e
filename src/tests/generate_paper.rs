//! GeomVerse's worked examples (tables 3 and 4) rebuilt through the formula API: the same
//! inputs give the paper's numbers, and the same computation chains.

use geomrender::generate::Role;
use geomrender::generate::formulas::{Ctx, StepWords, by_id};

struct Plain;
impl StepWords for Plain {
    fn shape(&self) -> String {
        "the shape".into()
    }
    fn name(&self, r: Role) -> String {
        format!("{r:?}")
    }
    fn quantity(&self, r: Role) -> String {
        format!("the value of {r:?}")
    }
    fn given(&self, _: &[Role], _: &[f64]) -> String {
        "given".into()
    }
}

/// Runs formula `id` on `values`; returns (rounded value, text).
fn run(id: &str, values: &[(Role, f64)]) -> (f64, String) {
    let f = by_id(id).unwrap_or_else(|| panic!("no formula {id}"));
    let mut ctx = Ctx::with_words(f, values, &Plain);
    let v = (f.explain)(&mut ctx).unwrap();
    (v, ctx.text)
}

const E0: Role = Role::Edge(0);
const E1: Role = Role::Edge(1);
const E2: Role = Role::Edge(2);
const A0: Role = Role::Angle(0);

#[test]
fn a_parallelogram_perimeter_is_44() {
    let (v, t) = run("parallelogram.perimeter", &[(E0, 10.0), (E1, 12.0)]);
    assert_eq!(v, 44.0);
    assert!(t.contains("2 * (10 + 12) = 2 * 22 = 44"), "{t}");
}

#[test]
fn c_rectangle_plus_semicircle_then_asin_is_28_69() {
    let (bc, t) = run(
        "rectangle_plus_semicircle.side_from_area",
        &[(Role::Area, 102.0), (E1, 6.0)],
    );
    assert_eq!(bc, 14.65);
    assert!(
        t.contains(
            "102 - 3.14 * 6^2 / 8 = 102 - 3.14 * 36 / 8 = 102 - 113.04 / 8 = 102 - 14.13 = 87.87"
        ),
        "{t}"
    );
    assert!(t.contains("87.87 / 6 = 14.65"), "{t}");
    let (angle, t) = run(
        "right_triangle.angle_from_opposite_hypotenuse",
        &[(E1, 7.0), (E2, bc)],
    );
    assert_eq!(angle, 28.69);
    assert!(t.contains("asin(7 / 14.65) = asin(0.48) = 28.69"), "{t}");
}

#[test]
fn d_trapezoid_area_is_124() {
    let (ad, t) = run("semicircle.diameter_from_area", &[(Role::Area, 189.97)]);
    assert_eq!(ad, 22.0);
    assert!(t.contains("= sqrt(484) = 22"), "{t}");
    let (bc, t) = run(
        "rectangle_plus_equilateral.side_from_perimeter",
        &[(Role::Perimeter, 42.0), (E1, 8.0)],
    );
    assert_eq!(bc, 9.0);
    assert!(
        t.contains("42 - 3 * 8 = 42 - 24 = 18") && t.contains("18 / 2 = 9"),
        "{t}"
    );
    let (area, _) = run("trapezoid.area", &[(E0, ad), (E1, bc), (Role::Height, 8.0)]);
    assert_eq!(area, 124.0);
}

#[test]
fn e_rectangle_perimeter_is_57_7() {
    let (be, t) = run(
        "rectangle_minus_semicircle.side_from_perimeter",
        &[(Role::Perimeter, 62.0), (E1, 10.0)],
    );
    assert_eq!(be, 18.15);
    assert!(t.contains("2 * OtherSide + 10 + 10 * 3.14 / 2 = 62"), "{t}");
    assert!(t.contains("36.3 / 2 = 18.15"), "{t}");
    let (ab, t) = run(
        "triangle.side_from_perimeter",
        &[(Role::Perimeter, 42.0), (E0, 10.0), (E1, be)],
    );
    assert_eq!(ab, 13.85);
    assert!(t.contains("42 - 10 - 18.15"), "{t}");
    let (p, t) = run("rectangle.perimeter", &[(E0, 15.0), (E1, ab)]);
    assert_eq!(p, 57.7);
    assert!(t.contains("2 * (15 + 13.85) = 2 * 28.85 = 57.7"), "{t}");
}

#[test]
fn f_square_minus_circle_area_is_72_65() {
    let (ae, _) = run(
        "rectangle_minus_equilateral.side_from_perimeter",
        &[(Role::Perimeter, 48.0), (E1, 9.0)],
    );
    assert_eq!(ae, 10.5);
    let (de, t) = run(
        "rectangle_minus_semicircle.side_from_area",
        &[(Role::Area, 78.0), (E1, 6.0)],
    );
    assert_eq!(de, 15.35);
    assert!(
        t.contains("78 + 14.13 = 92.13") && t.contains("92.13 / 6 = 15.35"),
        "{t}"
    );
    let (ad, t) = run("right_triangle.hypotenuse", &[(E0, ae), (E1, de)]);
    assert_eq!(ad, 18.6);
    assert!(
        t.contains("sqrt(110.25 + 235.62) = sqrt(345.87) = 18.6"),
        "{t}"
    );
    let (area, t) = run("square_minus_circle.area", &[(E0, ad)]);
    assert_eq!(area, 72.65);
    assert!(
        t.contains("345.96 - 0.79 * 345.96 = 345.96 - 273.31 = 72.65"),
        "{t}"
    );
}

#[test]
fn g_right_triangle_area_is_113_55() {
    let (ac, t) = run(
        "right_triangle.leg_from_area",
        &[(Role::Area, 106.0), (E1, 14.0)],
    );
    assert_eq!(ac, 15.14);
    assert!(t.contains("106 * 2 / 14 = 212 / 14 = 15.14"), "{t}");
    let (area, t) = run("right_triangle.area", &[(E0, ac), (E1, 15.0)]);
    assert_eq!(area, 113.55);
    assert!(t.contains("15.14 * 15 / 2 = 227.1 / 2 = 113.55"), "{t}");
}

#[test]
fn h_side_marked_with_question_mark_is_6_58() {
    let (a, t) = run(
        "rectangle_plus_equilateral.side_from_area",
        &[(Role::Area, 114.0), (E1, 6.0)],
    );
    assert_eq!(a, 16.42);
    assert!(
        t.contains("114 - 1.73 / 4 * 36 = 114 - 0.43 * 36 = 114 - 15.48 = 98.52"),
        "{t}"
    );
    let (q, _) = run(
        "triangle.side_from_perimeter",
        &[(Role::Perimeter, 44.0), (E0, 21.0), (E1, a)],
    );
    assert_eq!(q, 6.58);
}

#[test]
fn i_triangle_side_is_8_33() {
    let (ac, t) = run(
        "sector.radius_from_area",
        &[(Role::Area, 157.0), (A0, 75.0)],
    );
    assert_eq!(ac, 15.42);
    assert!(
        t.contains("sqrt(157 / (0.21 * 3.14)) = sqrt(157 / 0.66) = sqrt(237.88) = 15.42"),
        "{t}"
    );
    let (bc, _) = run(
        "sector.radius_from_area",
        &[(Role::Area, 56.52), (A0, 75.0)],
    );
    assert_eq!(bc, 9.25);
    let (ab, _) = run(
        "triangle.side_from_perimeter",
        &[(Role::Perimeter, 33.0), (E0, ac), (E1, bc)],
    );
    assert_eq!(ab, 8.33);
}

#[test]
fn b_variablized_angle_sum_is_75() {
    // 2x + 50, 2x + 35, 5x + 50 sum to 180: x = 5 and the CBA angle is 75.
    let f = by_id("triangle.angle_sum").unwrap();
    let linear = f.linear.unwrap();
    assert_eq!(linear.terms.iter().map(|t| t.1).sum::<f64>(), 3.0);
    let rhs = (linear.rhs)(&Ctx::exact(f, &[])).eval().unwrap();
    let x = (rhs - (50.0 + 35.0 + 50.0)) / (2.0 + 2.0 + 5.0);
    assert_eq!(x, 5.0);
    let (cba, _) = run(
        "triangle.angle_sum",
        &[(A0, 2.0 * x + 50.0), (Role::Angle(1), 2.0 * x + 35.0)],
    );
    assert_eq!(cba, 5.0 * x + 50.0);
}
