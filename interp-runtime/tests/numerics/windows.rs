//! Kernels of wide windows and runs: teams, runs of weight-one taps, split pooling.

use super::*;

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
