//! Plane loops: a unit's table entries shared by its channels, forced and by default, and
//! their windows read in source vectors.

use super::*;

/// Plane loops (`Tuning::plane_loops`, forced: a unit per pixel and group of up to 4
/// channels, each table entry loaded once for the group) in one pass and in two, on rows of up
/// to 64 taps (antialiased width ratios of 11x and 14x, a 6x height ratio), RGB, 5 channels (a
/// group of 3 and one of 2) and 9 (three of 3): the bits of the one-output kernel
/// (`plane_loops = Some(false)`) in every dtype, mode, layout (channels-last declines them) and
/// direction, and the f64 reference.
#[test]
fn plane_loops_share_table_entries() {
    let geometries = [
        sized("C=3 12x90 -> 5x8", [2, 3, 12, 90], 5, 8),
        sized("C=5 9x70 -> 9x5", [1, 5, 9, 70], 9, 5),
        sized("C=9 36x11 -> 6x4", [1, 9, 36, 11], 6, 4),
    ];
    let loops = |strategy, plane_loops| Tuning {
        plane_loops: Some(plane_loops),
        ..forced_strategy(strategy)
    };
    for strategy in [Strategy::OnePass, Strategy::TwoPass] {
        forced_matches_reference_in("plane loops", loops(strategy, true), &geometries, &LAYOUTS);
    }
    let pairs = [Strategy::OnePass, Strategy::TwoPass].map(|strategy| (loops(strategy, true), loops(strategy, false)));
    tunings_agree_bitwise("plane loops", &geometries, &dtypes(&client()), &pairs);
}

/// Plane loops' windows in aligned source vectors (`Tuning::window_vectors`, forced on, every
/// plane loops pass where the source rows are whole vectors) against a value load per tap
/// (`Some(false)`): the same bits in one pass and two, every dtype, mode, layout and direction,
/// and the f64 reference. Widths of 96 and 72 (vectors of 8, 4 and 2 lanes; windows of up to
/// 48 taps at 12x, starting at every offset in a vector), 60 read in vectors of 4 or 2 (not 8),
/// and a 6 -> 48 upsample whose adjoint reads 48-wide rows in windows of 33 taps (bicubic).
#[test]
fn plane_windows_keep_the_bits() {
    let geometries = [
        sized("C=3 12x96 -> 5x8", [2, 3, 12, 96], 5, 8),
        sized("C=5 9x72 -> 9x7", [1, 5, 9, 72], 9, 7),
        sized("C=2 7x60 -> 3x13", [1, 2, 7, 60], 3, 13),
        sized("C=3 4x6 -> 8x48", [1, 3, 4, 6], 8, 48),
    ];
    let windows = |strategy, on| Tuning {
        plane_loops: Some(true),
        window_vectors: Some(on),
        ..forced_strategy(strategy)
    };
    for strategy in [Strategy::OnePass, Strategy::TwoPass] {
        forced_matches_reference_in("plane windows", windows(strategy, true), &geometries, &LAYOUTS);
    }
    let pairs = [Strategy::OnePass, Strategy::TwoPass].map(|strategy| (windows(strategy, true), windows(strategy, false)));
    tunings_agree_bitwise("plane windows", &geometries, &dtypes(&client()), &pairs);
}

/// Plane loops by default (v34's rule: NCHW passes of more than 8 mean tap pairs, two channels
/// or more, 131072 units or more, before the planes kernel's unfactored shapes), forward (the
/// adjoints' rows hold 5 or fewer: no plane loops): 2x3x600x1500 -> 100x200 bicubic-aa, whose
/// width pass reads 30 taps a row over 240000 units; CLIP's 2.3x bicubic-aa shrink
/// (4x3x256x512 -> 112x224, two passes: the width pass's 9.4 taps over 229376 units, rows the
/// planes kernel would run in its 16-tap shape); and the first geometry in bilinear-aa, which
/// runs tiles (no pass for the rule to take). The default's bits are those of `plane_loops =
/// Some(false)` and it matches the f64 reference. That the default runs the kernel in the two
/// bicubic cases shows by mutation (a skewed channel in the kernel fails each of them; the
/// bilinear case passes under it), not in the bits.
#[test]
fn plane_loops_by_default_keep_the_bits() {
    let client = client();
    let off = Tuning {
        plane_loops: Some(false),
        ..Tuning::default()
    };
    let frames = sized("C=3 600x1500 -> 100x200", [2, 3, 600, 1500], 100, 200);
    let clip = sized("C=3 256x512 -> 112x224", [4, 3, 256, 512], 112, 224);
    let cases = [
        (interp_runtime::Mode::Bicubic, frames),
        (interp_runtime::Mode::Bilinear, frames),
        (interp_runtime::Mode::Bicubic, clip),
    ];
    for (mode, geometry) in cases {
        let case = Case {
            config: config_of(mode, true),
            geometry,
        };
        let plan = case.plan();
        let (rows, cols) = case.taps();
        let (from, to) = call_shapes(&plan, false);
        let x = quantize(DType::F32, &random(from.iter().product(), 31));
        let source = upload(&client, &x, from, Layout::Nchw, DType::F32);
        let default = run_nchw(&client, &case, false, &source, to, Tuning::default());
        let label = case.name();
        assert!(
            raw(&client, &default) == raw(&client, &run_nchw(&client, &case, false, &source, to, off)),
            "{label}: plane loops changed the bits"
        );
        let expected = reference_of(&x, &plan.input, &rows, &cols, false);
        let (actual, gaps) = download(&client, &default);
        compare(&actual, gaps, &expected, DType::F32).unwrap_or_else(|e| panic!("{label}: {e}"));
    }
}
