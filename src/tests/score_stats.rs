//! Wilson intervals and the exact McNemar test against values computed by hand.
//!
//! Shared constants: z = 1.959963984540054 (Φ⁻¹(0.975)), z² = 3.841458820694125,
//! z²/2 = 1.920729410347063, z²/4 = 0.960364705173531.
//! Wilson: (x + z²/2 ± z·√(x(n−x)/n + z²/4)) / (n + z²).
//! McNemar exact: p = min(1, 2·Σ_{i ≤ min(b,c)} C(b+c, i) / 2^(b+c)).

use geomrender::score::{Z_95, mcnemar_exact, wilson};

fn close(got: f64, want: f64) {
    assert!(
        (got - want).abs() <= 1e-12 * want.abs().max(1e-300),
        "got {got}, want {want}"
    );
}

#[test]
fn wilson_8_of_10() {
    // centre = 8 + 1.920729410347063 = 9.920729410347063
    // root   = √(8·2/10 + 0.960364705173531) = √2.560364705173531 = 1.600113966...
    // half   = z · root = 3.136165745122980
    // denom  = 10 + 3.841458820694125 = 13.841458820694125
    // low  = (9.920729410347063 − 3.136165745122980) / 13.841458820694125 = 0.490162471536642
    // high = (9.920729410347063 + 3.136165745122980) / 13.841458820694125 = 0.943317848545625
    // (statsmodels proportion_confint(8, 10, method="wilson") gives 0.4902, 0.9433.)
    let ci = wilson(8, 10, Z_95).unwrap();
    close(ci.low, 0.490_162_471_536_641_7);
    close(ci.high, 0.943_317_848_545_624_7);
}

#[test]
fn wilson_5_of_10_is_symmetric() {
    // centre = (5 + 1.920729410347063) / 13.841458820694125 = 0.5 exactly (symmetric)
    // half   = z · √(5·5/10 + 0.960364705173531) / 13.841458820694125
    //        = 1.959963984540054 · √3.460364705173531 / 13.841458820694125
    //        = 3.645935890756650 / 13.841458820694125 = 0.263406909487436
    // → 0.236593090512564 .. 0.763406909487436
    let ci = wilson(5, 10, Z_95).unwrap();
    close(ci.low, 0.236_593_090_512_564);
    close(ci.high, 0.763_406_909_487_436_1);
    close(ci.low + ci.high, 1.0);
}

#[test]
fn wilson_0_of_10_and_1_of_1() {
    // x = 0: the low bound is 0; root = √(z²/4) = z/2, so
    // high = (z²/2 + z·z/2) / (n + z²) = z² / (10 + z²) = 3.841458820694125 / 13.841458820694125
    //      = 0.277532799862889
    let ci = wilson(0, 10, Z_95).unwrap();
    assert_eq!(ci.low, 0.0);
    close(ci.high, 0.277_532_799_862_889_2);
    // x = n = 1: high is 1; low = (1 + z²/2 − z²/2) / (1 + z²) = 1 / 4.841458820694125
    //      = 0.206549314377237
    let ci = wilson(1, 1, Z_95).unwrap();
    assert_eq!(ci.high, 1.0);
    close(ci.low, 0.206_549_314_377_237_42);
}

#[test]
fn wilson_19_of_24() {
    // centre = 19 + 1.920729410347063 = 20.920729410347063
    // half   = z · √(19·5/24 + 0.960364705173531) = z · √4.918698038506864 = 4.346835166687723
    // denom  = 27.841458820694125
    // → (20.920729410347063 ∓ 4.346835166687723) / 27.841458820694125 = 0.595295467, 0.907551746
    let ci = wilson(19, 24, Z_95).unwrap();
    close(ci.low, 0.595_295_467_468_113_6);
    close(ci.high, 0.907_551_746_471_481_5);
}

#[test]
fn wilson_rejects_empty_and_impossible() {
    assert!(wilson(0, 0, Z_95).is_none());
    assert!(wilson(11, 10, Z_95).is_none());
}

#[test]
fn mcnemar_small_tables() {
    // b = 1, c = 5: n = 6, Σ_{i≤1} C(6,i) = 1 + 6 = 7; p = 2·7/64 = 0.21875
    assert_eq!(mcnemar_exact(1, 5), 0.218_75);
    assert_eq!(mcnemar_exact(5, 1), 0.218_75);
    // b = 0, c = 6: p = 2·1/64 = 0.03125
    assert_eq!(mcnemar_exact(0, 6), 0.031_25);
    // b = 2, c = 10: n = 12, 1 + 12 + 66 = 79; p = 158/4096 = 0.03857421875
    assert_eq!(mcnemar_exact(2, 10), 0.038_574_218_75);
    // b = 10, c = 0: p = 2/1024 = 0.001953125
    assert_eq!(mcnemar_exact(10, 0), 0.001_953_125);
    // b = c = 3: 2·(1 + 6 + 15 + 20)/64 = 84/64 > 1 → 1
    assert_eq!(mcnemar_exact(3, 3), 1.0);
    // No discordant pairs: nothing to test, p = 1.
    assert_eq!(mcnemar_exact(0, 0), 1.0);
}

#[test]
fn mcnemar_larger_tables() {
    // b = 13, c = 25: n = 38, Σ_{i≤13} C(38,i) = 10 026 362 492;
    // p = 2 · 10026362492 / 2^38 = 20052724984 / 274877906944 = 0.0729513885162305
    close(mcnemar_exact(13, 25), 0.072_951_388_516_230_51);
    // b = 40, c = 60 (exact rational arithmetic): p = 0.05688793364098079
    close(mcnemar_exact(40, 60), 0.056_887_933_640_980_79);
    // b = 400, c = 600: C(1000, i) overflows f64 without rescaling; p = 2.7284641560660184e-10
    close(mcnemar_exact(400, 600), 2.728_464_156_066_018_4e-10);
}
