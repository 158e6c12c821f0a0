//! Seeded random cases: every mode x align_corners, random sizes 1..400 with extreme ratios,
//! random layouts (NCHW, NHWC, padded views, permuted strides, stride-0 broadcast sources) and
//! dtypes, forward and backward against the f64 reference with poisoned destinations, plus the
//! adjoint identity. `INTERP_PROPERTY_CASES=N` runs more (2000 by default);
//! `INTERP_PROPERTY_SEED=S` replays one case, as printed for each failure.
//!
//! Also the targeted cases: long axes (65536 and 10^6 elements) and unbounded fan-in.

mod common;

use common::cases::{configs, Config};
use common::*;
use interp_runtime::reference;
use interp_runtime::{interpolate, interpolate_backward, DType, InterpError, Mode, Options, Resize};

/// A small xorshift generator (the suite must not depend on a crate's stream staying put).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, p: f64) -> bool {
        ((self.next() >> 11) as f64 / (1u64 << 53) as f64) < p
    }
    /// 1..=max, log-uniform, with extra weight on 1 and max (the extreme ratios).
    fn length(&mut self, max: usize) -> usize {
        match self.below(10) {
            0 => 1,
            1 => max,
            _ => ((max as f64).ln() * (self.next() >> 11) as f64 / (1u64 << 53) as f64)
                .exp()
                .round()
                .max(1.0) as usize,
        }
    }
}

/// How the source of a case is laid out.
#[derive(Clone, Copy, Debug)]
enum SourceLayout {
    Plain(Layout),
    /// Dimensions stored in this order, outermost first (a permuted view).
    Permuted([usize; 4]),
    /// Channels broadcast from one stored channel (stride 0).
    Broadcast,
}

#[derive(Debug)]
struct Case {
    config: Config,
    input: [usize; 4],
    output: [usize; 2],
    source: SourceLayout,
    destination: Layout,
    dtype: DType,
}

fn generate(seed: u64, dtypes: &[DType]) -> Case {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let configs = configs();
    let config = configs[rng.below(configs.len())];
    // One axis up to 400 long, the other short enough to keep the case small.
    let (mut h, mut w, mut oh, mut ow) = (rng.length(400), rng.length(400), rng.length(400), rng.length(400));
    if rng.chance(0.5) {
        (h, oh) = (h.min(12), oh.min(12));
    } else {
        (w, ow) = (w.min(12), ow.min(12));
    }
    let input = [1 + rng.below(2), [1, 2, 3, 4, 5, 7, 8][rng.below(7)], h, w];
    let source = match rng.below(6) {
        0 => SourceLayout::Plain(Layout::Nchw),
        1 => SourceLayout::Plain(Layout::Nhwc),
        2 => SourceLayout::Plain(Layout::PaddedView),
        3 => SourceLayout::Broadcast,
        _ => {
            let mut order = [0, 1, 2, 3];
            for i in (1..4).rev() {
                order.swap(i, rng.below(i + 1));
            }
            SourceLayout::Permuted(order)
        }
    };
    Case {
        config,
        input,
        output: [oh, ow],
        source,
        destination: LAYOUTS[rng.below(LAYOUTS.len())],
        dtype: dtypes[rng.below(dtypes.len())],
    }
}

impl Case {
    fn options(&self) -> Options {
        let [height, width] = self.output;
        self.config.options(Resize::Size([height, width].into()))
    }

    fn output_shape(&self) -> [usize; 4] {
        [self.input[0], self.input[1], self.output[0], self.output[1]]
    }

    fn taps(&self) -> (reference::AxisTaps, reference::AxisTaps) {
        reference::taps(self.config.mode, self.input, &self.options()).expect("valid case")
    }
}

/// Uploads logical NCHW `values` of `shape` in the source layout; returns the tensor and the
/// values the view really holds (a broadcast repeats channel 0).
fn upload_source(client: &Client, values: &[f64], shape: [usize; 4], layout: SourceLayout, dtype: DType) -> (DeviceTensor, Vec<f64>) {
    let [n, c, h, w] = shape;
    match layout {
        SourceLayout::Plain(layout) => (upload(client, values, shape, layout, dtype), values.to_vec()),
        SourceLayout::Permuted(order) => {
            let mut strides = [0usize; 4];
            let mut step = 1;
            for &d in order.iter().rev() {
                strides[d] = step;
                step *= shape[d];
            }
            let mut t = DeviceTensor {
                handle: client.empty(0),
                shape: shape.to_vec(),
                strides: strides.to_vec(),
                dtype,
                len: step,
            };
            let mut buffer = vec![POISON; step];
            for (offset, v) in t.offsets().into_iter().zip(values) {
                buffer[offset] = *v;
            }
            t.handle = client.create_from_slice(&encode(dtype, &buffer));
            (t, values.to_vec())
        }
        SourceLayout::Broadcast => {
            let plane = h * w;
            let stored: Vec<f64> = (0..n).flat_map(|b| values[b * c * plane..b * c * plane + plane].to_vec()).collect();
            let mut t = upload(client, &stored, [n, 1, h, w], Layout::Nchw, dtype);
            t.shape = shape.to_vec();
            t.strides = vec![plane, 0, w, 1];
            let seen = (0..n * c * plane).map(|i| stored[(i / (c * plane)) * plane + i % plane]).collect();
            (t, seen)
        }
    }
}

/// Forward and backward of one case against the reference; Err describes the failure.
fn check(client: &Client, case: &Case, seed: u64) -> Result<(), String> {
    let (rows, cols) = case.taps();
    let dtype = case.dtype;
    let (input, output) = (case.input, case.output_shape());
    let x = quantize(dtype, &random(input.iter().product(), seed));
    let (src, x) = upload_source(client, &x, input, case.source, dtype);
    let dst = poisoned(client, output, case.destination, dtype);
    interpolate(client, case.config.mode, src.view(), dst.view(), &case.options()).map_err(|e| format!("forward refused: {e}"))?;
    let (y, gaps) = download(client, &dst);
    compare("forward", &y, gaps, &reference::forward(&x, input, &rows, &cols), dtype)?;

    let g = quantize(dtype, &random(output.iter().product(), seed ^ 0xABCD));
    let (grad_out, g) = upload_source(client, &g, output, case.source, dtype);
    let grad_in = poisoned(client, input, case.destination, dtype);
    interpolate_backward(client, case.config.mode, grad_out.view(), grad_in.view(), &case.options())
        .map_err(|e| format!("backward refused: {e}"))?;
    let (dx, gaps) = download(client, &grad_in);
    compare("backward", &dx, gaps, &reference::backward(&g, input, &rows, &cols), dtype)?;

    // The adjoint identity from the device's own two results.
    let lhs: f64 = y.iter().zip(&g).map(|(a, b)| a * b).sum();
    let rhs: f64 = x.iter().zip(&dx).map(|(a, b)| a * b).sum();
    let scale: f64 = y.iter().zip(&g).map(|(a, b)| (a * b).abs()).sum::<f64>().max(1.0);
    let error = (lhs - rhs).abs() / scale;
    if error.is_nan() || error > 4.0 * tolerance(dtype) {
        return Err(format!("adjoint identity: {lhs} vs {rhs} (relative {error:.2e})"));
    }
    Ok(())
}

fn compare(what: &str, actual: &[f64], gaps_untouched: bool, expected: &[f64], dtype: DType) -> Result<(), String> {
    if !gaps_untouched {
        return Err(format!("{what} wrote outside the destination view"));
    }
    let error = relative_error(actual, expected);
    if error <= tolerance(dtype) {
        Ok(())
    } else {
        Err(format!("{what} relative error {error:.3e} > {:.1e}", tolerance(dtype)))
    }
}

#[test]
fn random_cases_match_the_reference() {
    let client = client();
    let dtypes = dtypes(&client);
    let env = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u64>().ok());
    let seeds: Vec<u64> = match env("INTERP_PROPERTY_SEED") {
        Some(seed) => vec![seed],
        None => (1..=env("INTERP_PROPERTY_CASES").unwrap_or(2000)).collect(),
    };
    let mut failures = Vec::new();
    for &seed in &seeds {
        let case = generate(seed, &dtypes);
        if let Err(message) = check(&client, &case, seed) {
            failures.push(format!("{message}\n  {case:?}\n  replay: cargo xtask fuzz --seed {seed}"));
        }
    }
    println!("properties: {} random cases, {} failed", seeds.len(), failures.len());
    assert!(
        failures.is_empty(),
        "{} of {} random cases failed:\n{}",
        failures.len(),
        seeds.len(),
        failures.join("\n")
    );
}

/// grad_out all ones: grad_in sums to the number of grad_out elements, whatever the fan-in.
/// A device whose loops are capped (Mesa's llvmpipe stops any shader loop after 65535
/// iterations, silently) must refuse what it cannot sum with `LoopLimit`, never return a
/// short sum; GPU drivers have no such cap and run every case.
#[test]
fn unbounded_fan_in() {
    let client = client();
    let cases: [(Mode, bool, [usize; 4], [usize; 2]); 10] = [
        (Mode::Bilinear, false, [1, 1, 1, 1], [1, 30_000]),
        (Mode::Bicubic, false, [1, 1, 1, 2], [1, 30_000]),
        (Mode::Area, false, [1, 1, 1, 1], [150, 150]),
        (Mode::Bilinear, false, [1, 1, 1, 1], [1, 40_000]),
        (Mode::Bilinear, false, [1, 1, 2, 1], [65_536, 1]),
        (Mode::Nearest, false, [1, 1, 1, 1], [1, 70_000]),
        (Mode::Area, false, [1, 1, 1, 1], [3000, 3000]),
        (Mode::Bicubic, false, [1, 1, 1, 2], [1, 40_000]),
        (Mode::NearestExact, false, [1, 1, 1, 3], [1, 1_000_000]),
        (Mode::Bilinear, true, [1, 1, 2, 1], [1_000_000, 1]),
    ];
    let (mut exact, mut refused, mut failures) = (0, 0, Vec::new());
    for (mode, antialias, input, [oh, ow]) in cases {
        let options = Options::size(oh, ow).antialias(antialias);
        let output = [1, 1, oh, ow];
        let ones = vec![1.0; oh * ow];
        let grad_out = upload(&client, &ones, output, Layout::Nchw, DType::F32);
        let grad_in = poisoned(&client, input, Layout::Nchw, DType::F32);
        let label = format!("{mode} antialias={antialias} {input:?} <- {output:?}");
        match interpolate_backward(&client, mode, grad_out.view(), grad_in.view(), &options) {
            Ok(()) => {
                let (dx, _) = download(&client, &grad_in);
                let sum: f64 = dx.iter().sum();
                let expected = (oh * ow) as f64;
                println!("fan-in {label}: sum {sum}, expected {expected}");
                // f32 sums of ~10^4..10^6 weights: a few ulps each.
                if (sum - expected).abs() > 1e-5 * expected {
                    failures.push(format!("{label}: sum {sum}, expected {expected}"));
                }
                exact += 1;
            }
            Err(error @ InterpError::LoopLimit { .. }) => {
                println!("fan-in {label}: refused: {error}");
                refused += 1;
                let (dx, _) = download(&client, &grad_in);
                if dx.iter().any(|v| !v.is_nan()) {
                    failures.push(format!("{label}: refused but wrote its destination"));
                }
            }
            Err(error) => failures.push(format!("{label}: unexpected error {error}")),
        }
    }
    println!("fan-in: {exact} exact, {refused} refused with LoopLimit");
    if cfg!(feature = "cuda") && refused > 0 {
        failures.push(format!("{refused} cases refused on CUDA, which has no loop cap"));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Forward fan-in at the edge of llvmpipe's loop cap (a loop of `t` iterations costs `t + 1`
/// there, nested loops counted together): the area mean of a plane that is zero but for its
/// last element, which the last loop iteration reads. A truncated sum returns 0, not 1/n.
#[test]
fn fan_in_at_the_loop_cap() {
    let client = client();
    let (mut failures, mut refused) = (Vec::new(), 0);
    for (h, w) in [
        (255, 255),
        (256, 255),
        (296, 220),
        (221, 296),
        (2, 21_000),
        (21_000, 2),
        (32_000, 2),
        (1, 65_000),
    ] {
        let input = [1, 1, h, w];
        let mut values = vec![0.0; h * w];
        values[h * w - 1] = 1.0;
        let x = upload(&client, &values, input, Layout::Nchw, DType::F32);
        let y = poisoned(&client, [1, 1, 1, 1], Layout::Nchw, DType::F32);
        match interpolate(&client, Mode::Area, x.view(), y.view(), &Options::size(1, 1)) {
            Ok(()) => {
                let got = download(&client, &y).0[0] * (h * w) as f64;
                println!("fan-in forward area {h}x{w} -> 1x1: n * y = {got}");
                if (got - 1.0).abs() > 1e-5 {
                    failures.push(format!("area {h}x{w} -> 1x1: n * y = {got}, expected 1 (a tap was lost)"));
                }
            }
            Err(InterpError::LoopLimit { .. }) if !cfg!(feature = "cuda") => refused += 1,
            Err(error) => failures.push(format!("area {h}x{w} -> 1x1: {error}")),
        }
    }
    println!("fan-in forward: {refused} refused with LoopLimit");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Long axes keep f32 precision: the error does not grow with the index.
#[test]
fn long_axes_keep_precision() {
    let client = client();
    let cases: [(Mode, bool, usize, usize); 6] = [
        (Mode::Bilinear, true, 65_536, 8_191),
        (Mode::Bilinear, false, 65_536, 100_003),
        (Mode::Bicubic, false, 1_000_000, 999_999),
        (Mode::Lanczos3, true, 1_000_000, 3_001),
        (Mode::Box, true, 65_536, 31_111),
        (Mode::Area, false, 1_000_000, 7_777),
    ];
    let mut worst: f64 = 0.0;
    for (mode, antialias, in_len, out_len) in cases {
        let options = Options::size(1, out_len).antialias(antialias);
        let input = [1, 1, 1, in_len];
        let plan = reference::plan(mode, input, &options).unwrap();
        let (rows, cols) = reference::taps(mode, input, &options).unwrap();
        let x = quantize(DType::F32, &random(in_len, in_len as u64));
        let src = upload(&client, &x, input, Layout::Nchw, DType::F32);
        let dst = poisoned(&client, &plan.output, Layout::Nchw, DType::F32);
        interpolate(&client, mode, src.view(), dst.view(), &options).unwrap();
        let (y, _) = download(&client, &dst);
        let forward = relative_error(&y, &reference::forward(&x, input, &rows, &cols));
        let g = quantize(DType::F32, &random(out_len, out_len as u64));
        let grad_out = upload(&client, &g, &plan.output, Layout::Nchw, DType::F32);
        let grad_in = poisoned(&client, input, Layout::Nchw, DType::F32);
        interpolate_backward(&client, mode, grad_out.view(), grad_in.view(), &options).unwrap();
        let (dx, _) = download(&client, &grad_in);
        let backward = relative_error(&dx, &reference::backward(&g, input, &rows, &cols));
        println!("{mode} antialias={antialias} {in_len} -> {out_len}: forward {forward:.2e}, backward {backward:.2e}");
        worst = worst.max(forward).max(backward);
        assert!(
            forward <= 2e-6 && backward <= 2e-6,
            "{mode} {in_len} -> {out_len}: forward {forward:.2e}, backward {backward:.2e}"
        );
    }
    println!("long axes: worst relative error {worst:.2e}");
}

/// One wide-sum case: mode, antialias, input shape, output size, layout.
type WideSum = (Mode, bool, [usize; 4], [usize; 2], Layout);

/// Sums of very many taps keep f32 precision: an output of an extreme downsample, or an input
/// of an extreme upsample's backward, sums up to `n` products (2^20 on CUDA; on wgpu 60000
/// along the width and 20000 along the height, under llvmpipe's loop cap), of positive data (the sum grows, so does a plain loop's rounding).
/// Before the compensated block sums: 3.7e-4 relative for an area 1 x 65000 -> 1 x 1.
#[test]
fn wide_sums_keep_precision() {
    let client = client();
    let n: usize = if cfg!(feature = "cuda") { 1 << 20 } else { 60_000 };
    // llvmpipe counts three loop iterations per tap of a tall axis (row loop, column loop and
    // its exit): 20000 rows stay under its cap.
    let tall: usize = if cfg!(feature = "cuda") { 1 << 20 } else { 20_000 };
    let side = (n as f64).sqrt() as usize;
    // (mode, antialias, input, output, layout): one wide axis, one wide pair of axes, channels.
    let cases: [WideSum; 8] = [
        (Mode::Area, false, [1, 1, 1, n], [1, 1], Layout::Nchw),
        (Mode::Area, false, [1, 1, tall, 1], [1, 1], Layout::Nchw),
        (Mode::Area, false, [1, 1, side, side], [1, 1], Layout::Nchw),
        (Mode::Area, false, [1, 4, 1, n], [1, 1], Layout::Nhwc),
        (Mode::Bilinear, true, [1, 1, 1, n], [1, 3], Layout::Nchw),
        (Mode::Box, true, [1, 2, tall, 1], [2, 1], Layout::Nhwc),
        // Upsamples: the backward sums the wide adjoint rows (unit taps for nearest).
        (Mode::Nearest, false, [1, 1, 1, 1], [1, n], Layout::Nchw),
        (Mode::Bilinear, false, [1, 1, 2, 1], [tall, 1], Layout::Nchw),
    ];
    let positive = |len: usize, seed: u64| -> Vec<f64> { random(len, seed).iter().map(|v| 1.0 + 0.5 * v).collect() };
    let mut worst: f64 = 0.0;
    let mut failures = Vec::new();
    for (mode, antialias, input, [oh, ow], layout) in cases {
        let options = Options::size(oh, ow).antialias(antialias);
        let output = [input[0], input[1], oh, ow];
        let label = format!("{mode} antialias={antialias} {input:?} -> {output:?} {layout:?}");
        let (rows, cols) = reference::taps(mode, input, &options).unwrap();
        let x = quantize(DType::F32, &positive(input.iter().product(), 5));
        let src = upload(&client, &x, input, layout, DType::F32);
        let dst = poisoned(&client, output, layout, DType::F32);
        interpolate(&client, mode, src.view(), dst.view(), &options).unwrap();
        let forward = relative_error(&download(&client, &dst).0, &reference::forward(&x, input, &rows, &cols));
        let g = quantize(DType::F32, &positive(output.iter().product(), 6));
        let grad_out = upload(&client, &g, output, layout, DType::F32);
        let grad_in = poisoned(&client, input, layout, DType::F32);
        interpolate_backward(&client, mode, grad_out.view(), grad_in.view(), &options).unwrap();
        let backward = relative_error(&download(&client, &grad_in).0, &reference::backward(&g, input, &rows, &cols));
        println!("wide sum {label}: forward {forward:.2e}, backward {backward:.2e}");
        worst = worst.max(forward).max(backward);
        if !(forward <= 2e-6 && backward <= 2e-6) {
            failures.push(format!("{label}: forward {forward:.2e}, backward {backward:.2e} (bound 2e-6)"));
        }
    }
    println!("wide sums: worst relative error {worst:.2e}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
