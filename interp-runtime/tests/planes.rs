//! The planes kernel's factored shape in pairs of rows (`Tuning::plane_pairs`): the bits of a
//! unit per pixel, and the f64 reference, on the geometries that reach it.

mod common;

use common::cases::{configs, Case, Geometry};
use common::*;
use interp_runtime::{Resize, Spatial, Strategy, Tuning};

/// A geometry of `input` resized to `height x width`.
const fn sized(label: &'static str, input: [usize; 4], height: usize, width: usize) -> Geometry {
    Geometry {
        label,
        input,
        resize: Resize::Size(Spatial::two(height, width)),
    }
}

/// Downsamples of both axes from 2x to 7x (forward: antialiased filters of 5-8 taps, area
/// windows of 5-7; backward: adjoints of the same), and upsamples whose adjoints read 5-8
/// taps per axis (bicubic and lanczos 2x, bilinear 4x). Ratios that are not integers (rows
/// starting 2 or 3 apart), odd destination heights (a last pair of one row), a destination
/// of one row, and area 7x (rows starting 7 apart: past the shared window, each output summed
/// alone).
const GEOMETRIES: [Geometry; 9] = [
    sized("13x17 -> 6x8", [1, 5, 13, 17], 6, 8),
    sized("25x30 -> 10x12", [2, 3, 25, 30], 10, 12),
    sized("21x24 -> 7x6", [1, 3, 21, 24], 7, 6),
    sized("18x40 -> 9x10", [1, 4, 18, 40], 9, 10),
    sized("2x16 -> 1x4", [1, 3, 2, 16], 1, 4),
    sized("35x42 -> 5x6", [1, 2, 35, 42], 5, 6),
    sized("6x5 -> 12x10", [1, 3, 6, 5], 12, 10),
    sized("5x4 -> 20x16", [1, 2, 5, 4], 20, 16),
    sized("7x9 -> 15x19", [2, 3, 7, 9], 15, 19),
];

/// Pairs of rows against single rows, both forced into the planes kernel (three channels per
/// unit, scalar loads), every configuration, layout and dtype, forward and backward: the same
/// bits, and the f64 reference. Counts the cases whose tables take the factored shape (the
/// only ones pairs serve) and asserts there are some.
#[test]
fn plane_pairs_give_the_bits_of_single_rows() {
    let client = client();
    let tuning = |pairs| Tuning {
        strategy: Some(Strategy::Planes),
        planes: Some(3),
        max_vector: Some(1),
        plane_pairs: Some(pairs),
        ..Tuning::default()
    };
    let (mut count, mut factored, mut failures) = (0, 0, Vec::new());
    for geometry in GEOMETRIES {
        for config in configs() {
            let case = Case { config, geometry };
            let plan = case.plan();
            let (rows, cols) = case.taps();
            for backward in [false, true] {
                let widths = (
                    widest_row(&rows, plan.input[2], backward),
                    widest_row(&cols, plan.input[3], backward),
                );
                let shape = interp_kernels::gather::plane_shape(widths.0 as u32, widths.1 as u32);
                let in_pairs = shape.is_some_and(interp_kernels::gather::plane_shape_factored);
                let (from, to) = call_shapes(&plan, backward);
                let expected = |x: &[f64]| reference_of(x, &plan.input, &rows, &cols, backward);
                for layout in LAYOUTS {
                    for &dtype in &dtypes(&client) {
                        count += 1;
                        factored += usize::from(in_pairs);
                        let label = format!("{} {layout:?} {dtype} backward={backward}", case.name());
                        let x = quantize(dtype, &random(from.iter().product(), count as u64));
                        let source = upload(&client, &x, from, layout, dtype);
                        let run = |pairs| {
                            let dst = poisoned(&client, to, layout, dtype);
                            let options = case.options().tuning(tuning(pairs));
                            let run = resize(&client, config.mode, &source, &dst, &options, backward);
                            run.map(|()| dst)
                        };
                        let (pairs, single) = match (run(true), run(false)) {
                            (Ok(a), Ok(b)) => (a, b),
                            (a, b) => {
                                failures.push(format!("{label}: {:?} / {:?}", a.err(), b.err()));
                                continue;
                            }
                        };
                        if raw(&client, &pairs) != raw(&client, &single) {
                            failures.push(format!("{label}: pairs and single rows differ in bits"));
                        }
                        let (actual, gaps) = download(&client, &pairs);
                        if let Err(e) = compare(&actual, gaps, &expected(&x), dtype) {
                            failures.push(format!("{label}: {e}"));
                        }
                    }
                }
            }
        }
    }
    println!(
        "plane pairs: {count} cases, {factored} in the factored shape, {} failed",
        failures.len()
    );
    assert!(factored > 0 && failures.is_empty(), "{}", failures.join("\n"));
}
