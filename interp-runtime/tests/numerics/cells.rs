//! The cells kernel of integer resizes: shared windows, the blocks' bits, its default rule.

use super::*;

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
