//! The blocks kernel: shared windows, channel vectors, its shapes and its default rule.

use super::*;

/// The blocks kernel (forced) on upsamples, where its shared windows serve inner blocks and
/// the edges, odd last rows and columns, merged clamped taps and zero-weight positions (align
/// corners) take its per-output sums: 2x, 4x and 1.33x (224 -> 299's ratio), odd sizes both
/// ways, one axis shrinking (every block per output), and three channels per unit over five
/// channels (a partial group); scalar units in channels-last too, in channel order where the
/// pixels are wider than 16 bytes (five f32 channels; nine channels in every dtype: a warp's 32
/// lanes span blocks of nine); both variants (short rows from the window, the default, or
/// summed per output from the tables). The larger odd
/// upsample holds warps wholly inside the box of full blocks (unguarded sums) beside warps
/// holding edge blocks (guarded sums for all their blocks). The 2x downsample's backward
/// runs the odd-width 3x3 shape (lanczos3's adjoint: three outputs per input) and 2x2.
#[test]
fn blocks_share_windows() {
    let geometries = [
        sized("7x9 -> 14x18", [2, 5, 7, 9], 14, 18),
        sized("46x76 -> 23x38", [1, 5, 46, 76], 23, 38),
        sized("5x4 -> 20x16", [1, 3, 5, 4], 20, 16),
        sized("9x12 -> 12x16", [1, 5, 9, 12], 12, 16),
        sized("6x5 -> 13x11", [1, 5, 6, 5], 13, 11),
        sized("6x12 -> 12x5", [1, 2, 6, 12], 12, 5),
        sized("21x30 -> 41x75", [1, 5, 21, 30], 41, 75),
        sized("C=9 11x7 -> 22x23", [1, 9, 11, 7], 22, 23),
    ];
    let tuning = Tuning {
        strategy: Some(Strategy::Blocks),
        planes: Some(3),
        max_vector: Some(1),
        ..Tuning::default()
    };
    both_block_variants("blocks", tuning, &geometries, &LAYOUTS);
}

/// [`forced_matches_reference_in`] under `tuning` with short rows served from the blocks'
/// window (the default) and from the tables.
fn both_block_variants(what: &str, tuning: Tuning, geometries: &[Geometry], layouts: &[Layout]) {
    forced_matches_reference_in(&format!("{what}, short rows from the window"), tuning, geometries, layouts);
    let full_rows = Tuning {
        block_short_rows: Some(false),
        ..tuning
    };
    forced_matches_reference_in(&format!("{what}, short rows from the tables"), full_rows, geometries, layouts);
}

/// The blocks kernel in channel vectors (channels-last tensors whose channels make vectors of
/// the runtime's widest width: 4 lanes on wgpu, 16 bytes on CUDA; a unit per block and vector,
/// channels fastest), forced, on `blocks_share_windows`' kinds of geometry: 2x, 4x, 1.33x, odd
/// sizes, a shrinking axis (per-output sums), 2-6 vectors a pixel, and a wide upsample whose
/// warps (16 blocks of 2 vectors on wgpu) lie wholly inside the box of full blocks (unguarded
/// sums) beside warps holding edge blocks; both variants (short rows from the window, or from
/// the tables), against the f64 reference. Then, in f32, the bits of the scalar blocks kernel on
/// the same calls in NCHW (each channel's sums in the same order), which one pass does not give.
#[test]
fn channel_blocks_share_windows() {
    let geometries = [
        sized("C=8 7x9 -> 14x18", [2, 8, 7, 9], 14, 18),
        sized("C=16 46x76 -> 23x38", [1, 16, 46, 76], 23, 38),
        sized("C=8 5x4 -> 20x16", [1, 8, 5, 4], 20, 16),
        sized("C=24 9x12 -> 12x16", [1, 24, 9, 12], 12, 16),
        sized("C=8 6x5 -> 13x11", [1, 8, 6, 5], 13, 11),
        sized("C=16 21x30 -> 41x75", [1, 16, 21, 30], 41, 75),
        sized("C=8 30x40 -> 60x150", [1, 8, 30, 40], 60, 150),
    ];
    let tuning = forced_strategy(Strategy::Blocks);
    both_block_variants("channel blocks", tuning, &geometries, &[Layout::Nhwc]);
    let client = client();
    let mut compared = 0;
    // Geometries whose tables fit a blocks shape in every mode here (6x5 -> 13x11's lanczos3
    // columns hold 5 taps: one pass and tiles there).
    for geometry in [geometries[0], geometries[6]] {
        for mode in [
            interp_runtime::Mode::Bilinear,
            interp_runtime::Mode::Bicubic,
            interp_runtime::Mode::Lanczos3,
        ] {
            let case = Case {
                config: plain_config(mode),
                geometry,
            };
            let plan = case.plan();
            let x = random(plan.input.iter().product(), 23);
            let bits = |layout: Layout, tuning: Tuning| {
                let source = upload(&client, &x, &plan.input, layout, DType::F32);
                download(&client, &run_in(&client, &case, false, &source, &plan.output, layout, tuning)).0
            };
            let nchw = bits(Layout::Nchw, tuning);
            let label = case.name();
            assert!(
                bits(Layout::Nhwc, tuning) == nchw,
                "{label}: channel blocks and NCHW blocks differ in bits"
            );
            let one_pass = forced_strategy(Strategy::OnePass);
            assert!(bits(Layout::Nhwc, one_pass) != nchw, "{label}: one pass gave the blocks' bits too");
            compared += 1;
        }
    }
    assert_eq!(compared, 6);
}

/// The odd-width blocks shape by default: the backward of lanczos3's 2x downsample (an
/// adjoint of three taps per axis, full rows) runs in 3x3 blocks, which sum `sum_a w_a (sum_b
/// w_b x)` (the bits of forced blocks, not of the planes kernel it replaces, whose 4x4 shape
/// sums products of weights), and matches the reference; NCHW and f32, where both run.
#[test]
fn odd_width_blocks_by_default() {
    let client = client();
    let case = Case {
        config: plain_config(interp_runtime::Mode::Lanczos3),
        geometry: sized("40x132 -> 20x66", [1, 3, 40, 132], 20, 66),
    };
    let plan = case.plan();
    let dy = quantize(DType::F32, &random(plan.output.iter().product(), 17));
    let source = upload(&client, &dy, &plan.output, Layout::Nchw, DType::F32);
    let run = |tuning: Tuning| run_nchw(&client, &case, true, &source, &plan.input, tuning);
    let default = run(Tuning::default());
    let default_bits = raw(&client, &default);
    assert!(
        default_bits == raw(&client, &run(forced_strategy(Strategy::Blocks))),
        "the default did not run 3x3 blocks"
    );
    assert!(
        default_bits != raw(&client, &run(forced_strategy(Strategy::Planes))),
        "blocks and planes gave the same bits here"
    );
    let (rows, cols) = case.taps();
    let (actual, gaps) = download(&client, &default);
    compare(&actual, gaps, &reference::backward(&dy, &plan.input, &rows, &cols), DType::F32).unwrap_or_else(|e| panic!("{e}"));
}

/// The default rule runs blocks where it says (NCHW, no shrinking axis, rows mostly full,
/// destinations at least 64 wide) and not elsewhere: a 3-channel 256^2 -> 512^2 and a
/// 64-channel 32^2 -> 64^2 bicubic upsample forward and the backward of a 512^2 -> 256^2
/// antialiased bicubic downsample give the bits of the forced blocks kernel (which differ
/// from the planes kernel's); the backward of a plain 3.5x bicubic downsample of 5 channels
/// (adjoint rows of 1.14 entries in 2) and an upsample to 28 columns do not. v31: the
/// backward of a 1.6x bilinear shrink (rows of 1.25 entries in 2) runs blocks with 3 channels,
/// not with 8; channels-last RGB in f32 runs the 3x3 shape (the backward of a 1.33x bicubic
/// shrink), not 2x2 (the 1.6x bilinear one). Each matches the f64 reference. (Where the
/// cells rule picks the cells kernel instead, its bits are blocks': the first and third
/// cases.)
#[test]
fn blocks_by_default_where_the_rule_says() {
    let client = client();
    let case = |mode, antialias, geometry| Case {
        config: config_of(mode, antialias),
        geometry,
    };
    let (bicubic, bilinear) = (interp_runtime::Mode::Bicubic, interp_runtime::Mode::Bilinear);
    let (nchw, nhwc) = (Layout::Nchw, Layout::Nhwc);
    // (case, backward, layout, whether the default runs blocks)
    let cases = [
        (
            case(bicubic, false, sized("256^2 -> 512^2", [1, 3, 256, 256], 512, 512)),
            false,
            nchw,
            true,
        ),
        (
            case(bicubic, false, sized("C=64 32^2 -> 64^2", [2, 64, 32, 32], 64, 64)),
            false,
            nchw,
            true,
        ),
        (
            case(bicubic, true, sized("512^2 -> 256^2", [1, 3, 512, 512], 256, 256)),
            true,
            nchw,
            true,
        ),
        (
            case(bicubic, false, sized("224^2 -> 64^2", [1, 5, 224, 224], 64, 64)),
            true,
            nchw,
            false,
        ),
        (
            case(bicubic, false, sized("14^2 -> 28^2", [4, 8, 14, 14], 28, 28)),
            false,
            nchw,
            false,
        ),
        (
            case(bilinear, false, sized("RGB 120x160 -> 75x100", [1, 3, 120, 160], 75, 100)),
            true,
            nchw,
            true,
        ),
        (
            case(bilinear, false, sized("C=8 120x160 -> 75x100", [1, 8, 120, 160], 75, 100)),
            true,
            nchw,
            false,
        ),
        (
            case(bicubic, false, sized("RGB 120x160 -> 90x120", [1, 3, 120, 160], 90, 120)),
            true,
            nhwc,
            true,
        ),
        (
            case(bilinear, false, sized("RGB 120x160 -> 75x100", [1, 3, 120, 160], 75, 100)),
            true,
            nhwc,
            false,
        ),
    ];
    let forced = Tuning {
        strategy: Some(Strategy::Blocks),
        ..Tuning::default()
    };
    for (case, backward, layout, by_default) in cases {
        let plan = case.plan();
        let (rows, cols) = case.taps();
        let (from, to) = call_shapes(&plan, backward);
        let x = random(from.iter().product(), 5);
        let source = upload(&client, &x, from, layout, DType::F32);
        let run = |tuning: Tuning| run_in(&client, &case, backward, &source, to, layout, tuning);
        let (default, blocks) = (run(Tuning::default()), run(forced));
        assert_eq!(
            raw(&client, &default) == raw(&client, &blocks),
            by_default,
            "{} {layout:?} (backward: {backward}): the default should run blocks: {by_default}",
            case.name()
        );
        let expected = reference_of(&x, &plan.input, &rows, &cols, backward);
        let (actual, gaps) = download(&client, &default);
        compare(&actual, gaps, &expected, DType::F32).unwrap_or_else(|e| panic!("{}: {e}", case.name()));
    }
}
