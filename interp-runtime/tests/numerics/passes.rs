//! Two passes: the shrinking rule and row passes over folded pixel rows.

use super::*;

/// Two passes by default for NCHW gathers of at least 64 tap pairs that shrink both axes
/// below 4x (CLIP's 512 -> 224 bicubic-aa: 83 pairs), tiles for the same call channels-last
/// (RGB) and for fewer pairs (bicubic-aa at 1.5x: 36): each default gives the bits of the strategy
/// the rule names and matches the f64 reference. Here the passes resample the width first,
/// in f32, as tiles do: both give the same bits (checked), so the pick itself shows in the
/// timings (`bench/ab_stop33.sh`), and a one-pass run (products of weights) shows that the
/// comparison can fail.
#[test]
fn passes_when_shrinking_by_default() {
    let client = client();
    let bicubic_aa = config_of(interp_runtime::Mode::Bicubic, true);
    // (geometry, layout, whether the default runs two passes): 83 pairs, then 36 (1.5x).
    let clip = sized("256^2 -> 112^2", [1, 3, 256, 256], 112, 112);
    let cases = [
        (clip, Layout::Nchw, true),
        (clip, Layout::Nhwc, false),
        (sized("256^2 -> 170^2", [1, 3, 256, 256], 170, 170), Layout::Nchw, false),
    ];
    for (geometry, layout, passes) in cases {
        let case = Case {
            config: bicubic_aa,
            geometry,
        };
        let plan = case.plan();
        let x = quantize(DType::F32, &random(plan.input.iter().product(), 23));
        let source = upload(&client, &x, &plan.input, layout, DType::F32);
        let run = |tuning: Tuning| run_in(&client, &case, false, &source, &plan.output, layout, tuning);
        let default = run(Tuning::default());
        let (two_pass, tiled) = (
            raw(&client, &run(forced_strategy(Strategy::TwoPass))),
            raw(&client, &run(forced_strategy(Strategy::Tiled))),
        );
        let label = format!("{} {layout:?}", case.name());
        assert!(two_pass == tiled, "{label}: two passes and tiles should sum in the same order here");
        let one_pass = raw(&client, &run(forced_strategy(Strategy::OnePass)));
        assert!(one_pass != tiled, "{label}: one pass gave the tiles' bits");
        let expected = if passes { &two_pass } else { &tiled };
        assert!(
            &raw(&client, &default) == expected,
            "{label}: the default should run two passes: {passes}"
        );
        let (rows, cols) = case.taps();
        let (actual, gaps) = download(&client, &default);
        compare(&actual, gaps, &reference::forward(&x, &plan.input, &rows, &cols), DType::F32).unwrap_or_else(|e| panic!("{label}: {e}"));
    }
}

/// The row pass of two passes (forced) reads channels-last rows of pixels whose channels make
/// no vectors as one channel along `width * channels` (`row_vectors`' pixel rows): the bits of
/// the scalar row pass (`Tuning::row_vectors = Some(false)`) and the f64 reference, every mode,
/// layout, dtype and direction, with the rows resampled first (a shrink whose height goes
/// first) and second (a growing gather), folded widths of 48, 60 and 40 elements.
#[test]
fn row_passes_fold_pixel_rows() {
    let geometries = [
        sized("C=3 9x16 -> 4x8", [2, 3, 9, 16], 4, 8),
        sized("C=3 5x12 -> 11x20", [2, 3, 5, 12], 11, 20),
        sized("C=5 7x8 -> 3x4", [1, 5, 7, 8], 3, 4),
    ];
    let passes = |row_vectors| Tuning {
        row_vectors: Some(row_vectors),
        ..forced_strategy(Strategy::TwoPass)
    };
    forced_matches_reference_in("row passes in pixel rows", passes(true), &geometries, &LAYOUTS);
    tunings_agree_bitwise(
        "row passes in pixel rows",
        &geometries,
        &[DType::F32],
        &[(passes(true), passes(false))],
    );
}
