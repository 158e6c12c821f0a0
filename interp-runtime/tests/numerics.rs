//! Forward and backward of every mode against the f64 reference, the adjoint identity, and
//! bitwise determinism, on the runtime selected by features (wgpu by default).

mod common;

use common::cases::{all_cases, configs, Case, Geometry};
use common::*;
use interp_runtime::{interpolate, interpolate_backward, reference, DType, Resize, Spatial, Strategy, Tuning};

/// Runs every case x layout x dtype through `check`, reporting all failures at once.
fn for_all(what: &str, check: impl Fn(&Client, &Case, Layout, DType, u64) -> Result<(), String>) {
    let client = client();
    let dtypes = dtypes(&client);
    let mut failures = Vec::new();
    let mut count = 0;
    for (index, case) in all_cases().iter().enumerate() {
        for layout in LAYOUTS {
            for &dtype in &dtypes {
                count += 1;
                if let Err(message) = check(&client, case, layout, dtype, index as u64) {
                    failures.push(format!("{} {layout:?} {dtype}: {message}", case.name()));
                }
            }
        }
    }
    println!("{what}: {count} cases, {} failed", failures.len());
    assert!(
        failures.is_empty(),
        "{} of {count} {what} cases failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn forward_matches_f64_reference() {
    for_all("forward", |client, case, layout, dtype, seed| {
        let plan = case.plan();
        let x = quantize(dtype, &random(plan.input.iter().product(), seed));
        let input = upload(client, &x, &plan.input, layout, dtype);
        let output = poisoned(client, &plan.output, layout, dtype);
        interpolate(client, case.config.mode, input.view(), output.view(), &case.options()).map_err(|e| e.to_string())?;
        let (rows, cols) = case.taps();
        let expected = reference::forward(&x, &plan.input, &rows, &cols);
        let (actual, gaps) = download(client, &output);
        compare(&actual, gaps, &expected, dtype)
    });
}

#[test]
fn backward_matches_f64_scatter_reference() {
    for_all("backward", |client, case, layout, dtype, seed| {
        let plan = case.plan();
        let g = quantize(dtype, &random(plan.output.iter().product(), seed + 1000));
        let grad_out = upload(client, &g, &plan.output, layout, dtype);
        let grad_in = poisoned(client, &plan.input, layout, dtype);
        interpolate_backward(client, case.config.mode, grad_out.view(), grad_in.view(), &case.options()).map_err(|e| e.to_string())?;
        let (rows, cols) = case.taps();
        let expected = reference::backward(&g, &plan.input, &rows, &cols);
        let (actual, gaps) = download(client, &grad_in);
        compare(&actual, gaps, &expected, dtype)
    });
}

/// <forward(x), g> = <x, backward(g)> with both sides from the device, in f32.
#[test]
fn adjoint_identity_holds() {
    let client = client();
    let mut worst: f64 = 0.0;
    let mut failures = Vec::new();
    for (index, case) in all_cases().iter().enumerate() {
        let plan = case.plan();
        let x = quantize(DType::F32, &random(plan.input.iter().product(), index as u64 + 7));
        let g = quantize(DType::F32, &random(plan.output.iter().product(), index as u64 + 9));
        let input = upload(&client, &x, &plan.input, Layout::Nchw, DType::F32);
        let output = poisoned(&client, &plan.output, Layout::Nchw, DType::F32);
        let grad_out = upload(&client, &g, &plan.output, Layout::Nchw, DType::F32);
        let grad_in = poisoned(&client, &plan.input, Layout::Nchw, DType::F32);
        interpolate(&client, case.config.mode, input.view(), output.view(), &case.options()).unwrap();
        interpolate_backward(&client, case.config.mode, grad_out.view(), grad_in.view(), &case.options()).unwrap();
        let (y, _) = download(&client, &output);
        let (dx, _) = download(&client, &grad_in);
        let lhs: f64 = y.iter().zip(&g).map(|(a, b)| a * b).sum();
        let rhs: f64 = x.iter().zip(&dx).map(|(a, b)| a * b).sum();
        let scale: f64 = y.iter().zip(&g).map(|(a, b)| (a * b).abs()).sum::<f64>().max(1e-30);
        let error = (lhs - rhs).abs() / scale;
        worst = worst.max(error);
        if error.is_nan() || error > 1e-5 {
            failures.push(format!(
                "{}: <Ax,g> = {lhs}, <x,A^T g> = {rhs}, relative error {error:.2e}",
                case.name()
            ));
        }
    }
    println!("adjoint identity: {} cases, worst relative error {worst:.2e}", all_cases().len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Two backward runs give the same bits, for every mode and dtype.
#[test]
fn backward_is_bitwise_deterministic() {
    let client = client();
    let mut failures = Vec::new();
    for &dtype in &dtypes(&client) {
        for (index, case) in all_cases()
            .iter()
            .enumerate()
            .filter(|(_, c)| c.geometry.label == "up 2x" || c.geometry.label == "down 3x")
        {
            let plan = case.plan();
            let g = random(plan.output.iter().product(), index as u64);
            let grad_out = upload(&client, &g, &plan.output, Layout::Nhwc, dtype);
            let runs: Vec<Vec<u8>> = (0..2)
                .map(|_| {
                    let grad_in = poisoned(&client, &plan.input, Layout::Nhwc, dtype);
                    interpolate_backward(&client, case.config.mode, grad_out.view(), grad_in.view(), &case.options()).unwrap();
                    raw(&client, &grad_in)
                })
                .collect();
            if runs[0] != runs[1] {
                failures.push(format!("{} {dtype}: backward differs between runs", case.name()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every forced strategy matches the reference; the planes kernel (the default for scalar
/// layouts with at most 4 taps per axis) gives the same bits whatever the channels per unit
/// (groups that divide the channels or not), and the same bits as the one-pass scalar gather
/// where the tables are weighted (the unit-tap kernels group each row's sum first); the
/// one-pass gathers of several outputs per unit (channel or width vectors, strips, pixel
/// strips) give the bits of one output per unit.
#[test]
fn strategies_agree() {
    let client = client();
    let forced = |strategy, planes, max_vector| Tuning {
        strategy: Some(strategy),
        planes,
        max_vector,
        ..Tuning::default()
    };
    let tunings = [
        ("default", Tuning::default()),
        ("one-pass scalar", forced(Strategy::OnePass, None, Some(1))),
        (
            "one-pass scalar looped",
            Tuning {
                strip_unrolled: Some(false),
                ..forced(Strategy::OnePass, None, Some(1))
            },
        ),
        ("one-pass", forced(Strategy::OnePass, None, None)),
        // Both table layouts of the one-output gather in channel order (the default picks by
        // the units a pixel holds).
        (
            "one-pass tap-major tables",
            Tuning {
                channel_tables_tap_major: Some(true),
                ..forced(Strategy::OnePass, None, None)
            },
        ),
        (
            "one-pass row-major tables",
            Tuning {
                channel_tables_tap_major: Some(false),
                ..forced(Strategy::OnePass, None, None)
            },
        ),
        // Rows of consecutive indices read by their first index (the default) or by every
        // tap's index.
        (
            "one-pass scalar indexed rows",
            Tuning {
                contiguous_rows: Some(false),
                ..forced(Strategy::OnePass, None, Some(1))
            },
        ),
        (
            "one-pass plane loops indexed rows",
            Tuning {
                plane_loops: Some(true),
                contiguous_rows: Some(false),
                ..forced(Strategy::OnePass, None, None)
            },
        ),
        // A unit per pixel and group of channels sharing each table entry (NCHW).
        (
            "one-pass plane loops",
            Tuning {
                plane_loops: Some(true),
                ..forced(Strategy::OnePass, None, None)
            },
        ),
        ("planes x1", forced(Strategy::Planes, Some(1), None)),
        ("planes x3", forced(Strategy::Planes, Some(3), None)),
        ("planes x8", forced(Strategy::Planes, Some(8), None)),
        // Row passes in width vectors named (the default today), beside the scalar ones.
        (
            "two-pass",
            Tuning {
                row_vectors: Some(true),
                ..forced(Strategy::TwoPass, None, None)
            },
        ),
        (
            "two-pass row scalar",
            Tuning {
                row_vectors: Some(false),
                ..forced(Strategy::TwoPass, None, None)
            },
        ),
        ("tiled", forced(Strategy::Tiled, None, None)),
        ("teams", forced(Strategy::Teams, None, Some(1))),
        ("blocks x1", forced(Strategy::Blocks, Some(1), Some(1))),
        ("blocks x3", forced(Strategy::Blocks, Some(3), Some(1))),
        ("cells x1", forced(Strategy::Cells, Some(1), Some(1))),
        ("cells x3", forced(Strategy::Cells, Some(3), Some(1))),
        ("cells x3 vectors", forced(Strategy::Cells, Some(3), None)),
        (
            "channel strips x2",
            Tuning {
                channel_strip: Some(2),
                ..forced(Strategy::OnePass, None, None)
            },
        ),
        (
            "channel strips x4",
            Tuning {
                channel_strip: Some(4),
                ..forced(Strategy::OnePass, None, None)
            },
        ),
        (
            "blocks full rows x3",
            Tuning {
                block_short_rows: Some(false),
                ..forced(Strategy::Blocks, Some(3), Some(1))
            },
        ),
    ];
    let (mut failures, mut count, mut bitwise) = (Vec::new(), 0, 0);
    for (index, case) in all_cases().iter().enumerate() {
        let plan = case.plan();
        let (rows, cols) = case.taps();
        // Unit-tap tables (nearest, and area or box upsampling: every weight one) take the
        // one-pass unit-tap kernels.
        let unit = |taps: &reference::AxisTaps| taps.iter().flatten().all(|&(_, w)| w == 1.0 || w == 0.0);
        let weighted = !(unit(&rows) && unit(&cols));
        for layout in LAYOUTS {
            for backward in [false, true] {
                let (from, to) = call_shapes(&plan, backward);
                let (row_width, col_width) = (
                    widest_row(&rows, plan.input[2], backward),
                    widest_row(&cols, plan.input[3], backward),
                );
                // Tables that fit one of the planes kernel's pair-summing shapes: then it runs
                // in one pass, with the one-pass kernel's sums.
                let one_pass_planes = interp_kernels::gather::plane_shape(row_width as u32, col_width as u32)
                    .is_some_and(|shape| !interp_kernels::gather::plane_shape_factored(shape));
                let x = quantize(DType::F32, &random(from.iter().product(), index as u64 + 11));
                let source = upload(&client, &x, from, layout, DType::F32);
                let expected = reference_of(&x, &plan.input, &rows, &cols, backward);
                let mut bits = Vec::new();
                for (name, tuning) in tunings {
                    count += 1;
                    let label = format!(
                        "{} {layout:?} {} {name}",
                        case.name(),
                        if backward { "backward" } else { "forward" }
                    );
                    let dst = poisoned(&client, to, layout, DType::F32);
                    let options = case.options().tuning(tuning);
                    let run = resize(&client, case.config.mode, &source, &dst, &options, backward);
                    if let Err(error) = run {
                        failures.push(format!("{label}: {error}"));
                        continue;
                    }
                    let (actual, gaps) = download(&client, &dst);
                    if let Err(message) = compare(&actual, gaps, &expected, DType::F32) {
                        failures.push(format!("{label}: {message}"));
                    }
                    bits.push((name, raw(&client, &dst)));
                }
                let get = |name: &str| bits.iter().find(|(n, _)| *n == name).map(|(_, b)| b);
                let mut same = |a: &str, b: &str| {
                    if let (Some(x), Some(y)) = (get(a), get(b)) {
                        bitwise += 1;
                        if x != y {
                            failures.push(format!(
                                "{} {layout:?} backward={backward}: {a} and {b} differ in bits",
                                case.name()
                            ));
                        }
                    }
                };
                // Vectors, strips and pixel strips give each output the scalar kernel's sum.
                same("one-pass", "one-pass scalar");
                same("one-pass", "one-pass tap-major tables");
                same("one-pass", "one-pass row-major tables");
                same("one-pass", "one-pass plane loops");
                same("one-pass scalar", "one-pass scalar indexed rows");
                same("one-pass plane loops", "one-pass plane loops indexed rows");
                // Strips of scalar outputs (NCHW strips, channels-last pixel strips): unrolled
                // (single taps; 2x2 taps in pixel strips) and in loops.
                same("one-pass scalar", "one-pass scalar looped");
                same("one-pass", "channel strips x2");
                same("one-pass", "channel strips x4");
                same("planes x1", "planes x3");
                same("planes x1", "planes x8");
                same("blocks x1", "blocks x3");
                same("cells x1", "cells x3");
                // The row pass in width vectors (NCHW) or scalar: the same sums.
                same("two-pass", "two-pass row scalar");
                // Short rows from the window sum the same products in the same order.
                same("blocks x3", "blocks full rows x3");
                if weighted && one_pass_planes {
                    same("planes x1", "one-pass scalar");
                }
            }
        }
    }
    println!("strategies: {count} runs, {bitwise} bitwise comparisons, {} failed", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A geometry of `input` resized to `height x width`.
fn sized(label: &'static str, input: [usize; 4], height: usize, width: usize) -> Geometry {
    Geometry {
        label,
        input,
        resize: Resize::Size(Spatial::two(height, width)),
    }
}

/// `case`'s forward (or backward) of `source` under `tuning` into a poisoned NCHW f32
/// destination of shape `to`.
fn run_nchw(client: &Client, case: &Case, backward: bool, source: &DeviceTensor, to: &[usize], tuning: Tuning) -> DeviceTensor {
    run_in(client, case, backward, source, to, Layout::Nchw, tuning)
}

/// [`run_nchw`] into a poisoned f32 destination of `layout`.
fn run_in(
    client: &Client,
    case: &Case,
    backward: bool,
    source: &DeviceTensor,
    to: &[usize],
    layout: Layout,
    tuning: Tuning,
) -> DeviceTensor {
    let dst = poisoned(client, to, layout, DType::F32);
    let options = case.options().tuning(tuning);
    resize(client, case.config.mode, source, &dst, &options, backward).expect("a valid call");
    dst
}

/// Runs every configuration on `geometries` under `tuning`, both layouts, every dtype, forward
/// and backward, against the f64 reference with poisoned outputs; prints and asserts.
fn forced_matches_reference(what: &str, tuning: Tuning, geometries: &[Geometry]) {
    forced_matches_reference_in(what, tuning, geometries, &LAYOUTS);
}

/// [`forced_matches_reference`] in `layouts` only.
fn forced_matches_reference_in(what: &str, tuning: Tuning, geometries: &[Geometry], layouts: &[Layout]) {
    let client = client();
    let (mut failures, mut count) = (Vec::new(), 0);
    for &geometry in geometries {
        for config in configs() {
            let case = Case { config, geometry };
            let plan = case.plan();
            let (rows, cols) = case.taps();
            let options = case.options().tuning(tuning);
            for &layout in layouts {
                for &dtype in &dtypes(&client) {
                    for backward in [false, true] {
                        count += 1;
                        let (from, to) = call_shapes(&plan, backward);
                        let x = quantize(dtype, &random(from.iter().product(), count as u64));
                        let source = upload(&client, &x, from, layout, dtype);
                        let dst = poisoned(&client, to, layout, dtype);
                        let run = resize(&client, case.config.mode, &source, &dst, &options, backward);
                        let expected = reference_of(&x, &plan.input, &rows, &cols, backward);
                        let outcome = run.map_err(|e| e.to_string()).and_then(|()| {
                            let (actual, gaps) = download(&client, &dst);
                            compare(&actual, gaps, &expected, dtype)
                        });
                        if let Err(message) = outcome {
                            failures.push(format!("{} {layout:?} {dtype} backward={backward}: {message}", case.name()));
                        }
                    }
                }
            }
        }
    }
    println!("{what}: {count} cases, {} failed", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The teams kernel (forced) on the windows it is built for: global pooling to 1x1, 8x-16x
/// downsamples of odd sizes and an exact 8x (area: 8x8 windows), and a 1-D 333x downsample
/// (antialiased: windows of 2000 taps, a team of 256 units); channels-last runs it channels
/// fastest (area windows: the channels-last teams kernel, in channel vectors where the channels
/// allow); area windows aligned to vectors read them along the width.
#[test]
fn teams_sum_large_windows() {
    let geometries = [
        sized("global 64x48 -> 1x1", [2, 5, 64, 48], 1, 1),
        sized("67x83 -> 8x10", [1, 3, 67, 83], 8, 10),
        sized("130x41 -> 8x10", [2, 3, 130, 41], 8, 10),
        sized("48x40 -> 6x5", [1, 3, 48, 40], 6, 5),
        sized("1000x1 -> 3x1", [1, 2, 1000, 1], 3, 1),
    ];
    let tuning = Tuning {
        strategy: Some(Strategy::Teams),
        max_vector: Some(1),
        ..Tuning::default()
    };
    forced_matches_reference("teams", tuning, &geometries);
    // Area windows of 8 columns at multiples of 8 (global 64x48, 48x40 -> 6x5) and of 2
    // (256x6 -> 4x3) read in width vectors where the layout allows.
    let geometries = [
        sized("global 64x48 -> 1x1", [2, 5, 64, 48], 1, 1),
        sized("48x40 -> 6x5", [1, 3, 48, 40], 6, 5),
        sized("256x6 -> 4x3", [2, 3, 256, 6], 4, 3),
        sized("67x83 -> 8x10", [1, 3, 67, 83], 8, 10),
    ];
    let vectors = Tuning {
        max_vector: None,
        ..tuning
    };
    forced_matches_reference("teams, width vectors", vectors, &geometries);
    // Channels-last area windows read in channel vectors (8 channels: vectors of 4 in f32,
    // 8 in half precision; 12: 4; 6: 2), odd sizes, a global pool.
    let geometries = [
        sized("global 64x48 -> 1x1, C=8", [2, 8, 64, 48], 1, 1),
        sized("67x83 -> 8x10, C=12", [1, 12, 67, 83], 8, 10),
        sized("130x41 -> 8x10, C=6", [2, 6, 130, 41], 8, 10),
    ];
    forced_matches_reference("teams, channel vectors", vectors, &geometries);
}

/// The pixel-strips kernel (one-pass gathers of channels-last tensors whose channels make no
/// vectors, filters of at most 4 tap pairs): 3, 5 and 21 channels (groups of 11, 7 and 2
/// pixels), rows of several strips with a partial last one, up and down, DeepLab's 8x with
/// aligned corners; forced one pass (strips of up to 4 pixels per unit: the unrolled variants
/// for nearest and 2x2-tap rows, loops for the others) against the f64 reference
/// (`strategies_agree` compares the unrolled variants' bits with the loops').
#[test]
fn pixel_strips_serve_channels_last() {
    let geometries = [
        sized("C=5 9x70 -> 17x140", [1, 5, 9, 70], 17, 140),
        sized("C=3 40x150 -> 20x75", [2, 3, 40, 150], 20, 75),
        sized("C=21 5x9 -> 40x72", [1, 21, 5, 9], 40, 72),
        sized("C=21 9x9 -> 65x65", [1, 21, 9, 9], 65, 65),
    ];
    let tuning = Tuning {
        strategy: Some(Strategy::OnePass),
        ..Tuning::default()
    };
    forced_matches_reference("pixel strips", tuning, &geometries);
}

/// The pixel-strips kernel over channel vectors (channels-last, the widest vectors: 4 lanes on
/// wgpu): 8, 12 and 64 channels (2, 3 and 16 vectors a pixel: groups of 16, 11 and 2 pixels),
/// rows of several strips with a partial last one, up and down, forced at 2 and 4 pixels per
/// unit against the f64 reference (`strategies_agree` compares their bits with one pixel per
/// unit).
#[test]
fn channel_strips_serve_channels_last() {
    let geometries = [
        sized("C=8 9x70 -> 17x140", [1, 8, 9, 70], 17, 140),
        sized("C=12 40x150 -> 20x75", [2, 12, 40, 150], 20, 75),
        sized("C=64 5x9 -> 10x19", [1, 64, 5, 9], 10, 19),
    ];
    for strip in [2, 4] {
        let tuning = Tuning {
            strategy: Some(Strategy::OnePass),
            channel_strip: Some(strip),
            ..Tuning::default()
        };
        forced_matches_reference_in(&format!("channel strips x{strip}"), tuning, &geometries, &[Layout::Nhwc]);
    }
}

/// The runs kernel (forced) on the adjoints of integer upsamples along the width whose tables
/// weigh one (nearest, nearest-exact, area and box upsampling): 2x, 4x and 8x, the rows
/// upsampled, downsampled or kept, a one-row destination, odd channel counts and widths, every
/// layout (the padded view's rows of `w + 2` take 2-element vectors, channels-last takes none:
/// the default rule runs there, as for the weighted modes and the forward). Against the f64
/// reference; then the nearest backward's bits in NCHW f32 against the one-pass unit-tap
/// kernel's (the same sums in the same order).
#[test]
fn runs_read_weight_one_runs_in_vectors() {
    let geometries = [
        sized("1x64 -> 1x256", [2, 3, 1, 64], 1, 256),
        sized("5x10 -> 10x80", [1, 5, 5, 10], 10, 80),
        sized("6x9 -> 3x72", [2, 3, 6, 9], 3, 72),
        sized("4x7 -> 4x14", [1, 7, 4, 7], 4, 14),
    ];
    let runs = Tuning {
        strategy: Some(Strategy::Runs),
        ..Tuning::default()
    };
    forced_matches_reference("runs", runs, &geometries);
    let client = client();
    let one_pass_scalar = Tuning {
        strategy: Some(Strategy::OnePass),
        max_vector: Some(1),
        ..Tuning::default()
    };
    let mut compared = 0;
    for geometry in geometries {
        for config in configs().into_iter().filter(|c| c.mode.is_sampler()) {
            let case = Case { config, geometry };
            let plan = case.plan();
            let x = random(plan.output.iter().product(), 5);
            let source = upload(&client, &x, &plan.output, Layout::Nchw, DType::F32);
            let run = |tuning| raw(&client, &run_nchw(&client, &case, true, &source, &plan.input, tuning));
            assert!(
                run(runs) == run(one_pass_scalar),
                "{}: runs and one pass differ in bits",
                case.name()
            );
            compared += 1;
        }
    }
    println!("runs: {compared} bitwise comparisons");
    assert!(compared >= 8, "only {compared} comparisons");
}

/// Split pooling (forced, `Tuning::pool_splits`) on channels-last area windows: global pooling
/// of 64x48 to 1x1, 67x83 -> 8x10 (windows of 9 or 10 rows, uneven splits), 16x12 -> 2x2 with
/// 8, 12 and 132 channels (2, 3 and 33 vectors of 4: a partial block of 32 vectors), at most
/// 2 and 5 splits; against the f64 reference (where it does not apply, NCHW, weighted modes,
/// channels in no vectors, the adjoints' one-row windows, the default runs).
#[test]
fn pool_splits_sum_windows_in_parts() {
    let geometries = [
        sized("C=8 global 64x48 -> 1x1", [2, 8, 64, 48], 1, 1),
        sized("C=12 67x83 -> 8x10", [1, 12, 67, 83], 8, 10),
        sized("C=132 16x12 -> 2x2", [1, 132, 16, 12], 2, 2),
    ];
    for splits in [2, 5] {
        let tuning = Tuning {
            pool_splits: Some(splits),
            ..Tuning::default()
        };
        forced_matches_reference_in(&format!("pool splits {splits}"), tuning, &geometries, &[Layout::Nhwc]);
    }
}

/// The default split pooling (docs/PERFORMANCE.md v19), told apart by its bits: channels-last
/// global pooling of 8 channels in f32 (outputs far from filling the device) gives the bits of
/// `pool_splits = Some(16)`, not those of the teams (`Some(1)`, which the two are first checked
/// to differ from), and a forced strategy keeps its own kernel; the default against the f64
/// reference.
#[test]
fn pool_splits_by_default_where_the_rule_says() {
    let client = client();
    let config = configs()
        .into_iter()
        .find(|c| c.mode == interp_runtime::Mode::Area && c.border.is_none())
        .expect("config");
    let case = Case {
        config,
        geometry: sized("C=8 global 64x48 -> 1x1", [2, 8, 64, 48], 1, 1),
    };
    let plan = case.plan();
    let (rows, cols) = case.taps();
    let x = random(plan.input.iter().product(), 21);
    let source = upload(&client, &x, &plan.input, Layout::Nhwc, DType::F32);
    let run = |tuning: Tuning| {
        let dst = poisoned(&client, &plan.output, Layout::Nhwc, DType::F32);
        interpolate(&client, case.config.mode, source.view(), dst.view(), &case.options().tuning(tuning)).expect("a valid call");
        dst
    };
    let splits = |most| Tuning {
        pool_splits: Some(most),
        ..Tuning::default()
    };
    let default = run(Tuning::default());
    let (split, teams) = (raw(&client, &run(splits(16))), raw(&client, &run(splits(1))));
    assert_ne!(split, teams, "split pooling and the teams should differ in bits here");
    assert!(raw(&client, &default) == split, "the default did not split the pooling");
    let forced_teams = Tuning {
        strategy: Some(Strategy::Teams),
        ..Tuning::default()
    };
    let forced_teams_split = Tuning {
        pool_splits: Some(16),
        ..forced_teams
    };
    assert_ne!(raw(&client, &run(forced_teams)), split, "a forced strategy took the default split");
    assert_eq!(raw(&client, &run(forced_teams_split)), split, "an explicit pool_splits goes first");
    let expected = reference::forward(&x, &plan.input, &rows, &cols);
    let (actual, gaps) = download(&client, &default);
    compare(&actual, gaps, &expected, DType::F32).unwrap_or_else(|e| panic!("{e}"));
}

/// The configuration of `mode` without antialiasing, corner alignment or a border mode.
fn plain_config(mode: interp_runtime::Mode) -> common::cases::Config {
    config_of(mode, false)
}

/// The configuration of `mode` with or without antialiasing, without corner alignment or a
/// border mode.
fn config_of(mode: interp_runtime::Mode, antialias: bool) -> common::cases::Config {
    configs()
        .into_iter()
        .find(|c| c.mode == mode && c.antialias == antialias && !c.align_corners && c.border.is_none())
        .expect("a configuration of the mode")
}

/// The default tuning with `strategy` forced.
fn forced_strategy(strategy: Strategy) -> Tuning {
    Tuning {
        strategy: Some(strategy),
        ..Tuning::default()
    }
}

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

/// The cells kernel (forced) on integer resizes whose rows hold several of its units: 2x,
/// 4x and 8x upsamples and 2x and 4x downsamples (their adjoints in the backward), odd
/// lengths (a partial last unit; vectors that do not divide the width take scalar stores),
/// one axis left as it is, three channels per unit over five channels; with vector stores
/// (NCHW) and without (NCHW, and a padded view, whose strides take no vectors). Every mode
/// and dtype: where the kernel does not apply the default rule runs, so each case checks
/// whichever ran against the f64 reference (channels-last never takes the kernel).
#[test]
fn cells_read_shared_windows() {
    let geometries = [
        sized("6x20 -> 12x40", [1, 5, 6, 20], 12, 40),
        sized("5x13 -> 20x52", [2, 3, 5, 13], 20, 52),
        sized("3x6 -> 3x48", [1, 5, 3, 6], 3, 48),
        sized("12x96 -> 6x24", [1, 5, 12, 96], 6, 24),
        sized("8x66 -> 4x33", [1, 3, 8, 66], 4, 33),
        // Width alone: row tables of one entry (the one-row shapes).
        sized("4x72 -> 4x36", [2, 3, 4, 72], 4, 36),
        sized("3x10 -> 3x40", [1, 4, 3, 10], 3, 40),
        // Lanczos3's 2x (6 taps) with inner cells past the clamped edges.
        sized("7x31 -> 14x62", [1, 3, 7, 31], 14, 62),
    ];
    // Vector stores load their windows in vectors where the source's width allows (20, 96,
    // 72 columns in 4s, 66 and 10 in 2s), or a value at a time.
    let stores = [
        ("cells, scalar stores", Some(1), true, &[Layout::Nchw, Layout::PaddedView][..]),
        ("cells, vector stores", None, true, &[Layout::Nchw][..]),
        ("cells, vector stores, scalar loads", None, false, &[Layout::Nchw][..]),
    ];
    for (what, max_vector, window_vectors, layouts) in stores {
        let tuning = Tuning {
            strategy: Some(Strategy::Cells),
            planes: Some(3),
            max_vector,
            cell_window_vectors: Some(window_vectors),
            ..Tuning::default()
        };
        forced_matches_reference_in(what, tuning, &geometries, layouts);
    }
}

/// The cells kernel sums in the blocks kernel's factored order: where both run (tables of 2,
/// 4 or 6 taps per axis: bilinear, bicubic and lanczos3 upsampling, and adjoints), the same
/// bits, with vector stores or scalar ones. Destinations under 64 columns, where the default rule runs the planes kernel (pair
/// products: other bits), so a cells launch that fell back to the default would show; not for
/// lanczos3, whose default there (tiles) sums in the same order as both (its cells launch
/// was seen in the routes, stop 33).
#[test]
fn cells_give_the_bits_of_blocks() {
    let client = client();
    let forced = |strategy| Tuning {
        strategy: Some(strategy),
        planes: Some(2),
        ..Tuning::default()
    };
    let geometries = [
        sized("6x20 -> 12x40", [1, 4, 6, 20], 12, 40),
        sized("5x12 -> 20x48", [1, 2, 5, 12], 20, 48),
        sized("8x30 -> 16x60", [1, 3, 8, 30], 16, 60),
    ];
    let mut compared = 0;
    for geometry in geometries {
        for config in configs().into_iter().filter(|c| {
            matches!(
                c.mode,
                interp_runtime::Mode::Bilinear | interp_runtime::Mode::Bicubic | interp_runtime::Mode::Lanczos3
            ) && !c.antialias
                && !c.align_corners
                && c.border.is_none()
        }) {
            let case = Case { config, geometry };
            let plan = case.plan();
            let lanczos = config.mode == interp_runtime::Mode::Lanczos3;
            // Lanczos3's cells: 2x upsampling only (the wider 2x geometry, whose rows hold
            // inner cells past the clamped edges' 3 columns a side).
            if lanczos != (plan.input[3] == 30) {
                continue;
            }
            // The adjoints of bicubic 2x and of 4x read 8 taps per axis: not a blocks shape.
            let adjoint_in_blocks = config.mode == interp_runtime::Mode::Bilinear && plan.output[3] == 2 * plan.input[3];
            for backward in [false, true].into_iter().filter(|&b| !b || adjoint_in_blocks) {
                let (from, to) = call_shapes(&plan, backward);
                let x = random(from.iter().product(), 9);
                let source = upload(&client, &x, from, Layout::Nchw, DType::F32);
                let run = |tuning: Tuning| raw(&client, &run_nchw(&client, &case, backward, &source, to, tuning));
                compared += 1;
                let blocks = run(forced(Strategy::Blocks));
                let label = format!("{} (backward: {backward})", case.name());
                assert!(
                    run(forced(Strategy::Cells)) == blocks,
                    "{label}: cells (vector stores) and blocks differ in bits"
                );
                let scalar_stores = Tuning {
                    max_vector: Some(1),
                    ..forced(Strategy::Cells)
                };
                assert!(
                    run(scalar_stores) == blocks,
                    "{label}: cells (scalar stores) and blocks differ in bits"
                );
                for window_vectors in [false, true] {
                    let loads = Tuning {
                        cell_window_vectors: Some(window_vectors),
                        ..forced(Strategy::Cells)
                    };
                    assert!(
                        run(loads) == blocks,
                        "{label}: cells (vector stores, window vectors: {window_vectors}) and blocks differ in bits"
                    );
                }
                assert!(
                    lanczos || run(Tuning::default()) != blocks,
                    "{label}: the default gave the blocks' bits too"
                );
            }
        }
    }
    assert_eq!(compared, 6);
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

/// The default rule runs the cells kernel where it says and not elsewhere (f32: upsampling
/// phases of at least 8 taps a cell, vector stores, rows mostly inner): a bicubic resize that
/// upsamples the width 2x and halves the height (blocks do not apply: a shrinking axis) gives
/// the forced cells kernel's bits, not the planes kernel's (pair products); a bilinear 2x
/// downsample in f32 (one phase of 2 taps: not by default) gives other bits than forced cells,
/// a bicubic one (4 taps, its windows in vectors: v26) the cells' bits. Each matches the f64
/// reference.
#[test]
fn cells_by_default_where_the_rule_says() {
    let client = client();
    let (config, forced) = (plain_config, forced_strategy);
    // (case, whether the default runs cells)
    let cases = [
        (
            Case {
                config: config(interp_runtime::Mode::Bicubic),
                geometry: sized("64x80 -> 32x160", [1, 3, 64, 80], 32, 160),
            },
            true,
        ),
        (
            Case {
                config: config(interp_runtime::Mode::Bilinear),
                geometry: sized("64x256 -> 32x128", [1, 3, 64, 256], 32, 128),
            },
            false,
        ),
        // One phase of 4 taps at a stride of 2 in window vectors (v26): cells.
        (
            Case {
                config: config(interp_runtime::Mode::Bicubic),
                geometry: sized("64x256 -> 32x128", [1, 3, 64, 256], 32, 128),
            },
            true,
        ),
    ];
    for (case, by_default) in cases {
        let plan = case.plan();
        let (rows, cols) = case.taps();
        let x = random(plan.input.iter().product(), 9);
        let source = upload(&client, &x, &plan.input, Layout::Nchw, DType::F32);
        let run = |tuning: Tuning| raw(&client, &run_nchw(&client, &case, false, &source, &plan.output, tuning));
        let default = run_nchw(&client, &case, false, &source, &plan.output, Tuning::default());
        let (cells, planes) = (run(forced(Strategy::Cells)), run(forced(Strategy::Planes)));
        assert_ne!(cells, planes, "{}: cells and planes should differ in bits here", case.name());
        assert_eq!(
            raw(&client, &default) == cells,
            by_default,
            "{}: the default should run cells: {by_default}",
            case.name()
        );
        let expected = reference::forward(&x, &plan.input, &rows, &cols);
        let (actual, gaps) = download(&client, &default);
        compare(&actual, gaps, &expected, DType::F32).unwrap_or_else(|e| panic!("{}: {e}", case.name()));
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

/// Every configuration on `geometries`, every layout, dtype of `dtypes` and direction: the
/// bits under each pair's first tuning are those under its second (a random source, poisoned
/// destinations of the call's dtype); prints the count and asserts.
fn tunings_agree_bitwise(what: &str, geometries: &[Geometry], dtypes: &[DType], pairs: &[(Tuning, Tuning)]) {
    let client = client();
    let (mut failures, mut count) = (Vec::new(), 0);
    for &geometry in geometries {
        for config in configs() {
            let case = Case { config, geometry };
            let plan = case.plan();
            for layout in LAYOUTS {
                for &dtype in dtypes {
                    for backward in [false, true] {
                        count += 1;
                        let (from, to) = call_shapes(&plan, backward);
                        let x = quantize(dtype, &random(from.iter().product(), count as u64));
                        let source = upload(&client, &x, from, layout, dtype);
                        let bits = |tuning| {
                            let dst = poisoned(&client, to, layout, dtype);
                            let options = case.options().tuning(tuning);
                            resize(&client, case.config.mode, &source, &dst, &options, backward).expect("a valid call");
                            raw(&client, &dst)
                        };
                        for (index, &(a, b)) in pairs.iter().enumerate() {
                            if bits(a) != bits(b) {
                                failures.push(format!(
                                    "{} {layout:?} {dtype} backward={backward}: pair {index} differs in bits",
                                    case.name()
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    println!("{what}, bits: {count} calls, {} differ", failures.len());
    assert!(failures.is_empty(), "{what}: {}", failures.join("\n"));
}

/// Plane loops by default (v32's rule: NCHW passes of more than 16 mean tap pairs, two channels
/// or more, 131072 units or more): 2x3x600x1500 -> 100x200 antialiased, whose width pass reads
/// 30 (bicubic) and 15.5 (bilinear: under the bound, the one-output gather) taps a row over
/// 240000 units, forward (the adjoint's rows hold 5 or fewer: no plane loops): the default's bits
/// are those of `plane_loops = Some(false)` and it matches the f64 reference. That the default
/// runs the kernel shows by mutation (a skewed channel in the kernel fails the bicubic case
/// here), not in the bits.
#[test]
fn plane_loops_by_default_keep_the_bits() {
    let client = client();
    let off = Tuning {
        plane_loops: Some(false),
        ..Tuning::default()
    };
    for mode in [interp_runtime::Mode::Bicubic, interp_runtime::Mode::Bilinear] {
        let case = Case {
            config: config_of(mode, true),
            geometry: sized("C=3 600x1500 -> 100x200", [2, 3, 600, 1500], 100, 200),
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
