//! Default rules told apart by their bits: channels-last picks, channels per unit.

use super::*;

/// The v20 rules pick what they say, and their picks match the reference: blocks for RGB
/// upsampling (bicubic in every dtype, bilinear in half precision, not bilinear in f32), the
/// 6x6 blocks shape for lanczos3 upsampling with the bits of the tiles it replaces,
/// and, without blocks of channel vectors, two passes for channel vectors where the widest rows'
/// pairs reach 16 (f32) or 32 (half precision) in a growing gather over at least
/// `PLANES_TARGET_UNITS` vectors (bicubic 2x up, C = 64, 128^2 -> 256^2), one pass below (f16
/// bicubic; the same call on a 64^2 source); by default (v27) blocks of channel vectors for that
/// bicubic upsample (C = 64, 64^2 and 128^2) and not for bilinear's; (v29) blocks in channel
/// order for upsampling 21 channels-last classes, bilinear and bicubic.
#[test]
fn channels_last_rules_by_default() {
    let client = client();
    let dtypes = dtypes(&client);
    let config = plain_config;
    // The bits of the default (under `base`), of the strategy the rule names and of the one it
    // passes over.
    let check_with = |base: Tuning, layout: Layout, case: &Case, dtype: DType, chosen: Strategy, other: Strategy, picks: bool| {
        let plan = case.plan();
        let x = quantize(dtype, &random(plan.input.iter().product(), 31));
        let source = upload(&client, &x, &plan.input, layout, dtype);
        let run = |tuning: Tuning| {
            let dst = poisoned(&client, &plan.output, layout, dtype);
            interpolate(&client, case.config.mode, source.view(), dst.view(), &case.options().tuning(tuning)).expect("a valid call");
            dst
        };
        let default = run(base);
        let forced = |strategy| Tuning {
            strategy: Some(strategy),
            ..base
        };
        let (chosen_bits, other_bits) = (raw(&client, &run(forced(chosen))), raw(&client, &run(forced(other))));
        let label = format!("{} {dtype} ({chosen:?} against {other:?})", case.name());
        assert!(chosen_bits != other_bits, "{label}: both strategies give the same bits here");
        let default_bits = raw(&client, &default);
        let expected = if picks { &chosen_bits } else { &other_bits };
        assert!(
            &default_bits == expected,
            "{label}: the default did not run what the rule says (picks: {picks})"
        );
        let (rows, cols) = case.taps();
        let (actual, gaps) = download(&client, &default);
        compare(&actual, gaps, &reference::forward(&x, &plan.input, &rows, &cols), dtype).unwrap_or_else(|e| panic!("{label}: {e}"));
    };
    let check_in = |layout: Layout, case: &Case, dtype: DType, chosen: Strategy, other: Strategy, picks: bool| {
        check_with(Tuning::default(), layout, case, dtype, chosen, other, picks)
    };
    let check = |case: &Case, dtype: DType, chosen: Strategy, other: Strategy, picks: bool| {
        check_in(Layout::Nhwc, case, dtype, chosen, other, picks)
    };
    let rgb = |mode| Case {
        config: config(mode),
        geometry: sized("RGB 37x40 -> 81x93", [2, 3, 37, 40], 81, 93),
    };
    for &dtype in &dtypes {
        check(&rgb(interp_runtime::Mode::Bicubic), dtype, Strategy::Blocks, Strategy::Planes, true);
        // The one-pass kernels sum bilinear's pairs as blocks do in half precision: planes there.
        let (other, picks) = if dtype == DType::F32 {
            (Strategy::OnePass, false)
        } else {
            (Strategy::Planes, true)
        };
        check(&rgb(interp_runtime::Mode::Bilinear), dtype, Strategy::Blocks, other, picks);
    }
    // Channels-last pixels wider than 16 bytes whose channels make no vectors (21 classes, in
    // every dtype): blocks in channel order where the gather grows with full rows (v29).
    let logits = |mode| Case {
        config: config(mode),
        geometry: sized("C=21 23x17 -> 47x38", [1, 21, 23, 17], 47, 38),
    };
    for &dtype in &dtypes {
        let other = if dtype == DType::F32 { Strategy::OnePass } else { Strategy::Planes };
        for mode in [interp_runtime::Mode::Bilinear, interp_runtime::Mode::Bicubic] {
            check(&logits(mode), dtype, Strategy::Blocks, other, true);
        }
    }
    // The 6x6 blocks shape replaces tiles (lanczos3 upsampling, NCHW and channels-last RGB)
    // with their bits: both sum `sum_a w_a (sum_b w_b x)` in tap order, so the rule moves time
    // only. Each against one pass (products of weights), which shows the comparison can fail.
    let lanczos = Case {
        config: config(interp_runtime::Mode::Lanczos3),
        geometry: sized("37x40 -> 81x93", [2, 5, 37, 40], 81, 93),
    };
    for (layout, case) in [(Layout::Nchw, &lanczos), (Layout::Nhwc, &rgb(interp_runtime::Mode::Lanczos3))] {
        check_in(layout, case, DType::F32, Strategy::Blocks, Strategy::OnePass, true);
        check_in(layout, case, DType::F32, Strategy::Tiled, Strategy::OnePass, true);
    }
    let features = |mode, input: usize| Case {
        config: config(mode),
        geometry: sized("C=64 up 2x", [1, 64, input, input], 2 * input, 2 * input),
    };
    let (bicubic, bilinear) = (interp_runtime::Mode::Bicubic, interp_runtime::Mode::Bilinear);
    // Without blocks of channel vectors (v27) the two-pass rule decides.
    let no_blocks = Tuning {
        channel_blocks: Some(false),
        ..Tuning::default()
    };
    let passes = |case: &Case, dtype: DType, picks: bool| {
        check_with(no_blocks, Layout::Nhwc, case, dtype, Strategy::TwoPass, Strategy::OnePass, picks)
    };
    passes(&features(bicubic, 128), DType::F32, true);
    passes(&features(bicubic, 64), DType::F32, false);
    if dtypes.contains(&DType::F16) {
        passes(&features(bicubic, 128), DType::F16, false);
    }
    // v27: blocks of channel vectors for bicubic (4x4) upsampling in every dtype and size,
    // not for bilinear (2x2): channel strips there, the one-pass kernels' sums (in f32: half
    // precision rounds both to the same bits, as for RGB above).
    for &dtype in &dtypes {
        check(&features(bicubic, 64), dtype, Strategy::Blocks, Strategy::OnePass, true);
    }
    check(&features(bicubic, 128), DType::F32, Strategy::Blocks, Strategy::OnePass, true);
    check(&features(bilinear, 32), DType::F32, Strategy::Blocks, Strategy::OnePass, false);
}

/// Tensors too small for a million units run four channels per planes or blocks unit by
/// default (`Tuning::least_planes`, docs/PERFORMANCE.md v28), six channels here (a group of
/// four and a partial group of two): 2x6x150x152 up 2x, whose nearest backward (planes, 2x2
/// adjoint rows) and bilinear forward (blocks of four pixels) span 273600 units of one channel,
/// past the floor's 4 x 65536 (seen in the launches on wgpu). The default gives the bits of one channel per unit (`least_planes: 1`,
/// v27's rule: each channel's sums are the same whatever the count) and matches the f64
/// reference; that the count rose is the unit test `small_tensors_take_four_channels_a_unit`'s.
#[test]
fn small_tensors_by_default_keep_their_bits() {
    let client = client();
    let one_channel = Tuning {
        least_planes: Some(1),
        ..Tuning::default()
    };
    for mode in [
        interp_runtime::Mode::Nearest,
        interp_runtime::Mode::Bilinear,
        interp_runtime::Mode::Bicubic,
    ] {
        let case = Case {
            config: plain_config(mode),
            geometry: sized("C=6 150x152 -> 300x304", [2, 6, 150, 152], 300, 304),
        };
        let plan = case.plan();
        let (rows, cols) = case.taps();
        for backward in [false, true] {
            let (from, to) = call_shapes(&plan, backward);
            let x = quantize(DType::F32, &random(from.iter().product(), 29));
            let source = upload(&client, &x, from, Layout::Nchw, DType::F32);
            let default = run_nchw(&client, &case, backward, &source, to, Tuning::default());
            let label = format!("{} backward={backward}", case.name());
            assert!(
                raw(&client, &default) == raw(&client, &run_nchw(&client, &case, backward, &source, to, one_channel)),
                "{label}: four channels a unit changed the bits"
            );
            let expected = reference_of(&x, &plan.input, &rows, &cols, backward);
            let (actual, gaps) = download(&client, &default);
            compare(&actual, gaps, &expected, DType::F32).unwrap_or_else(|e| panic!("{label}: {e}"));
        }
    }
}
