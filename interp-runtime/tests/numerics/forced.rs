//! Helpers of the tests that force a tuning: geometries, single runs, and whole sweeps
//! against the f64 reference or bitwise between two tunings.

use super::*;

/// A geometry of `input` resized to `height x width`.
pub fn sized(label: &'static str, input: [usize; 4], height: usize, width: usize) -> Geometry {
    Geometry {
        label,
        input,
        resize: Resize::Size(Spatial::two(height, width)),
    }
}

/// `case`'s forward (or backward) of `source` under `tuning` into a poisoned NCHW f32
/// destination of shape `to`.
pub fn run_nchw(client: &Client, case: &Case, backward: bool, source: &DeviceTensor, to: &[usize], tuning: Tuning) -> DeviceTensor {
    run_in(client, case, backward, source, to, Layout::Nchw, tuning)
}

/// [`run_nchw`] into a poisoned f32 destination of `layout`.
pub fn run_in(
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
pub fn forced_matches_reference(what: &str, tuning: Tuning, geometries: &[Geometry]) {
    forced_matches_reference_in(what, tuning, geometries, &LAYOUTS);
}

/// [`forced_matches_reference`] in `layouts` only.
pub fn forced_matches_reference_in(what: &str, tuning: Tuning, geometries: &[Geometry], layouts: &[Layout]) {
    let client = client();
    let dtypes = dtypes(&client);
    let (count, failures) = sweep(&client, geometries, layouts, &dtypes, |call| {
        let (rows, cols) = call.taps;
        let dst = poisoned(&client, call.to, call.layout, call.dtype);
        let options = call.case.options().tuning(tuning);
        resize(&client, call.case.config.mode, &call.source, &dst, &options, call.backward).map_err(|e| e.to_string())?;
        let expected = reference_of(&call.x, &call.plan.input, rows, cols, call.backward);
        let (actual, gaps) = download(&client, &dst);
        compare(&actual, gaps, &expected, call.dtype)
    });
    println!("{what}: {count} cases, {} failed", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// One call of a [`sweep`]: its case (with its plan and reference taps, built once a case),
/// layout, dtype and direction, a random source `x` (in the call's dtype, seeded by the call's
/// number) uploaded as `source`, and the destination's shape.
pub struct SweepCall<'a> {
    pub case: &'a Case,
    pub plan: &'a reference::Plan,
    pub taps: &'a (reference::AxisTaps, reference::AxisTaps),
    pub layout: Layout,
    pub dtype: DType,
    pub backward: bool,
    pub x: Vec<f64>,
    pub source: DeviceTensor,
    pub to: &'a [usize],
}

/// Every configuration on `geometries` in `layouts`, `dtypes` and both directions through
/// `check`: the number of calls and a line for each failure, naming the call.
pub fn sweep(
    client: &Client,
    geometries: &[Geometry],
    layouts: &[Layout],
    dtypes: &[DType],
    check: impl Fn(&SweepCall) -> Result<(), String>,
) -> (usize, Vec<String>) {
    let (mut failures, mut count) = (Vec::new(), 0);
    for &geometry in geometries {
        for config in configs() {
            let case = Case { config, geometry };
            let (plan, taps) = (case.plan(), case.taps());
            for &layout in layouts {
                for &dtype in dtypes {
                    for backward in [false, true] {
                        count += 1;
                        let (from, to) = call_shapes(&plan, backward);
                        let x = quantize(dtype, &random(from.iter().product(), count as u64));
                        let source = upload(client, &x, from, layout, dtype);
                        let call = SweepCall {
                            case: &case,
                            plan: &plan,
                            taps: &taps,
                            layout,
                            dtype,
                            backward,
                            x,
                            source,
                            to,
                        };
                        if let Err(message) = check(&call) {
                            failures.push(format!("{} {layout:?} {dtype} backward={backward}: {message}", case.name()));
                        }
                    }
                }
            }
        }
    }
    (count, failures)
}

/// The configuration of `mode` without antialiasing, corner alignment or a border mode.
pub fn plain_config(mode: interp_runtime::Mode) -> common::cases::Config {
    config_of(mode, false)
}

/// The configuration of `mode` with or without antialiasing, without corner alignment or a
/// border mode.
pub fn config_of(mode: interp_runtime::Mode, antialias: bool) -> common::cases::Config {
    configs()
        .into_iter()
        .find(|c| c.mode == mode && c.antialias == antialias && !c.align_corners && c.border.is_none())
        .expect("a configuration of the mode")
}

/// The default tuning with `strategy` forced.
pub fn forced_strategy(strategy: Strategy) -> Tuning {
    Tuning {
        strategy: Some(strategy),
        ..Tuning::default()
    }
}

/// Every configuration on `geometries`, every layout, dtype of `dtypes` and direction: the
/// bits under each pair's first tuning are those under its second (a random source, poisoned
/// destinations of the call's dtype); prints the count and asserts.
pub fn tunings_agree_bitwise(what: &str, geometries: &[Geometry], dtypes: &[DType], pairs: &[(Tuning, Tuning)]) {
    let client = client();
    let (count, failures) = sweep(&client, geometries, &LAYOUTS, dtypes, |call| {
        let bits = |tuning| {
            let dst = poisoned(&client, call.to, call.layout, call.dtype);
            let options = call.case.options().tuning(tuning);
            resize(&client, call.case.config.mode, &call.source, &dst, &options, call.backward).expect("a valid call");
            raw(&client, &dst)
        };
        let differ: Vec<String> = (pairs.iter().enumerate())
            .filter(|(_, &(a, b))| bits(a) != bits(b))
            .map(|(index, _)| index.to_string())
            .collect();
        if differ.is_empty() {
            Ok(())
        } else {
            Err(format!("pairs {} differ in bits", differ.join(", ")))
        }
    });
    println!("{what}, bits: {count} calls, {} differ", failures.len());
    assert!(failures.is_empty(), "{what}: {}", failures.join("\n"));
}
