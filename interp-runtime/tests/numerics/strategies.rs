//! Every forced strategy against the reference and, where their sums agree, bitwise.

use super::*;

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
        // Their windows read in aligned source vectors, or a value per tap.
        (
            "one-pass plane windows",
            Tuning {
                plane_loops: Some(true),
                window_vectors: Some(true),
                ..forced(Strategy::OnePass, None, None)
            },
        ),
        (
            "one-pass plane loops value loads",
            Tuning {
                plane_loops: Some(true),
                window_vectors: Some(false),
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
                same("one-pass plane loops value loads", "one-pass plane windows");
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
