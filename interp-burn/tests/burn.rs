//! interp-burn on wgpu (CI runs it on the software Vulkan driver): forward against Burn's own
//! interpolate, backward against interp's f64 scatter reference and finite differences, through
//! Burn's default (fused) `Wgpu` and the plain `CubeBackend`, and Burn's own backward panicking
//! where interp-burn's returns the gradient.

use burn::backend::wgpu::WgpuRuntime;
use burn::backend::{Autodiff, Wgpu};
use burn::tensor::module::interpolate as burn_interpolate;
use burn::tensor::ops::{InterpolateMode, InterpolateOptions as BurnOptions};
use burn::tensor::{Distribution, Tensor};
use burn_cubecl::CubeBackend;
use interp_burn::{interpolate, try_interpolate, InterpError, InterpolateOptions, Mode, OutputSize};
use interp_runtime::{reference, Options, Resize};

type Fused = Wgpu;
type Plain = CubeBackend<WgpuRuntime, f32, i32, u32>;

fn values<B: burn::tensor::backend::Backend>(t: Tensor<B, 4>) -> Vec<f64> {
    t.into_data()
        .convert::<f32>()
        .to_vec::<f32>()
        .unwrap()
        .into_iter()
        .map(f64::from)
        .collect()
}

fn max_abs_diff(a: &[f64], b: &[f64]) -> f64 {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).fold(0.0, |m, (x, y)| m.max((x - y).abs()))
}

fn random<B: burn::tensor::backend::Backend>(shape: [usize; 4], device: &B::Device) -> Tensor<B, 4> {
    Tensor::random(shape, Distribution::Uniform(-1.0, 1.0), device)
}

/// Burn's modes and align_corners, with the sizes each is compared on. Nearest only on integer
/// ratios: Burn indexes `o * in / out` in integers, interp (as PyTorch) `floor(o * s)` with `s`
/// in f32, which differ where that product rounds across an integer.
fn burn_cases() -> Vec<(InterpolateMode, bool, [usize; 2])> {
    let mut cases = vec![];
    for size in [[26, 9], [5, 40], [13, 17]] {
        for mode in [InterpolateMode::Bilinear, InterpolateMode::Bicubic] {
            cases.extend([(mode.clone(), false, size), (mode, true, size)]);
        }
        // Burn's lanczos3 with align_corners centres taps at `s o`, interp's renormalized rule at
        // `s (o + 1/2)` (see `From<burn InterpolateOptions>`): compared without align_corners.
        cases.push((InterpolateMode::Lanczos3, false, size));
    }
    cases.extend([
        (InterpolateMode::Nearest, false, [26, 34]),
        (InterpolateMode::Nearest, true, [13, 17]),
    ]);
    cases
}

fn forward_matches_burn<B: interp_burn::InterpBackend>() {
    let device = Default::default();
    let x = random::<B>([2, 3, 13, 17], &device);
    for (mode, align_corners, size) in burn_cases() {
        let burn_options = BurnOptions::new(mode.clone()).with_align_corners(align_corners);
        let theirs = values(burn_interpolate(x.clone(), size, burn_options.clone()));
        let ours = values(interpolate(x.clone(), size, burn_options));
        let diff = max_abs_diff(&ours, &theirs);
        // Burn computes coordinates and weights in f32, interp on the host in exact arithmetic.
        assert!(
            diff < 2e-5,
            "{mode:?} align_corners={align_corners} {size:?}: max |interp - burn| = {diff}"
        );
    }
}

#[test]
fn forward_matches_burn_fused() {
    forward_matches_burn::<Fused>();
}

#[test]
fn forward_matches_burn_plain() {
    forward_matches_burn::<Plain>();
}

/// dx of `sum(interpolate(x) * g)` against the f64 scatter reference, for methods Burn has no
/// backward for, with antialias, align_corners and a scale factor.
fn backward_matches_reference<B: interp_burn::InterpBackend>() {
    let device = Default::default();
    let shape = [2, 3, 11, 14];
    let cases: Vec<(InterpolateOptions, OutputSize)> = vec![
        (InterpolateOptions::new(Mode::Bilinear), [22, 28].into()),
        (InterpolateOptions::new(Mode::Bicubic).align_corners(true), [7, 30].into()),
        (InterpolateOptions::new(Mode::Lanczos3).antialias(true), [5, 6].into()),
        (InterpolateOptions::new(Mode::Bilinear).antialias(true), [0.5, 1.7].into()),
        (InterpolateOptions::new(Mode::Area), [4, 5].into()),
        (
            InterpolateOptions::new(interp_burn::filters::Gaussian::new(0.8)).antialias(true),
            [9, 3].into(),
        ),
    ];
    for (options, size) in cases {
        let x_host = random::<Autodiff<B>>(shape, &device);
        let x = x_host.clone().require_grad();
        let y = interpolate(x.clone(), size, options.clone());
        let g = random::<Autodiff<B>>(y.dims(), &device);
        let grads = (y * g.clone()).sum().backward();
        let dx = values(x.grad(&grads).expect("a gradient"));

        let resize = match size {
            OutputSize::Size(sizes) => Resize::Size(sizes.into()),
            OutputSize::Scale(factors) => Resize::Scale {
                factors: factors.into(),
                recompute: false,
            },
        };
        let mut runtime_options = Options::new(resize)
            .antialias(options.antialias)
            .align_corners(options.align_corners);
        runtime_options.border = options.border;
        let (rows, cols) = reference::taps(options.method.clone(), shape, &runtime_options).unwrap();
        let expected = reference::backward(&values(g), shape, &rows, &cols);
        let scale = expected.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        let error = max_abs_diff(&dx, &expected) / scale;
        assert!(error < 1e-5, "{:?} {size:?}: backward error {error}", options.method);
    }
}

#[test]
fn backward_matches_reference_fused() {
    backward_matches_reference::<Fused>();
}

#[test]
fn backward_matches_reference_plain() {
    backward_matches_reference::<Plain>();
}

/// The gradient against central differences of the loss (exact for a linear map, up to f32).
#[test]
fn gradient_matches_finite_differences() {
    type B = Autodiff<Fused>;
    let device = Default::default();
    let x0 = random::<B>([1, 2, 9, 7], &device);
    let v = random::<B>([1, 2, 9, 7], &device);
    let options = InterpolateOptions::new(Mode::Bicubic);
    let g = random::<B>([1, 2, 20, 5], &device);
    let loss = |x: Tensor<B, 4>| (interpolate(x, [20, 5], options.clone()) * g.clone()).sum();
    let x = x0.clone().require_grad();
    let grads = loss(x.clone()).backward();
    let directional: f64 = values(x.grad(&grads).unwrap() * v.clone().inner()).iter().sum();
    let eps = 1e-2;
    let plus = values(loss(x0.clone() + v.clone() * eps).reshape([1, 1, 1, 1]))[0];
    let minus = values(loss(x0 - v * eps).reshape([1, 1, 1, 1]))[0];
    let numeric = (plus - minus) / (2.0 * eps);
    assert!(
        (numeric - directional).abs() < 1e-3 * directional.abs().max(1.0),
        "finite difference {numeric} vs gradient {directional}"
    );
}

/// The gradient of the adjoint is the forward (double backward through a resize).
#[test]
fn adjoint_is_differentiable() {
    type B = Autodiff<Fused>;
    let device = Default::default();
    let options = InterpolateOptions::new(Mode::Bilinear);
    let g = random::<B>([1, 1, 12, 10], &device).require_grad();
    let dx = interp_burn::interpolate_backward(g.clone(), [1, 1, 6, 5], [12, 10], options.clone()).unwrap();
    let v = random::<B>([1, 1, 6, 5], &device);
    let grads = (dx * v.clone()).sum().backward();
    let dg = values(g.grad(&grads).unwrap());
    let forward_of_v = values(interpolate(v, [12, 10], options));
    assert!(max_abs_diff(&dg, &forward_of_v) < 1e-5);
}

#[test]
fn refusals_are_typed_and_name_the_values() {
    let device = Default::default();
    let x = random::<Fused>([1, 1, 4, 4], &device);
    let nearest_aligned = InterpolateOptions::new(Mode::Nearest).align_corners(true);
    match try_interpolate(x.clone(), [8, 8], nearest_aligned) {
        Err(InterpError::UnsupportedOption { mode, option, .. }) => assert_eq!((mode.as_str(), option), ("nearest", "align_corners")),
        other => panic!("expected UnsupportedOption, got {:?}", other.map(|t| t.dims())),
    }
    let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| interpolate(x, [0.0, 2.0], Mode::Bilinear)))
        .expect_err("a zero scale must panic");
    let message = panic.downcast_ref::<String>().cloned().unwrap_or_default();
    assert!(message.contains("interp_burn::interpolate") && message.contains("0"), "{message}");
}

/// A user's filter runs through Burn like a built-in.
#[test]
fn a_declared_filter_trains_too() {
    interp_runtime::filter! {
        /// A triangle of radius 2.
        pub struct WideTent {
            name: "wide-tent",
            support: 2.0,
            weight: |x| if abs(x) < SUPPORT { 1.0 - abs(x) / SUPPORT } else { 0.0 },
        }
    }
    type B = Autodiff<Fused>;
    let device = Default::default();
    let x = random::<B>([1, 2, 8, 8], &device).require_grad();
    let y = interpolate(x.clone(), [3, 16], InterpolateOptions::new(WideTent).antialias(true));
    let grads = y.sum().backward();
    let dx = values(x.grad(&grads).unwrap());
    // d sum(y) / dx = column sums of the resize: positive, adding up to the number of outputs.
    let total: f64 = dx.iter().sum();
    assert!((total - 2.0 * 3.0 * 16.0).abs() < 1e-3, "{total}");
}

/// Burn 0.21's own bilinear backward panics on its CubeCL backends; interp-burn's does not.
/// Burn's panic runs in a child process (this test binary on this test alone), so a lock it
/// may poison cannot reach the other tests.
#[test]
fn burn_panics_where_interp_burn_trains() {
    const CHILD: &str = "INTERP_BURN_PANIC_CHILD";
    type B = Autodiff<Fused>;
    let device = Default::default();
    if std::env::var_os(CHILD).is_some() {
        let x = random::<B>([1, 1, 4, 4], &device).require_grad();
        let y = burn_interpolate(x.clone(), [8, 8], BurnOptions::new(InterpolateMode::Bilinear));
        let grads = y.sum().backward();
        // Fusion runs lazily: reading the gradient back makes the backward execute.
        let _ = x.grad(&grads).map(|dx| dx.into_data());
        return; // reached only if Burn's backward worked
    }
    let output = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "burn_panics_where_interp_burn_trains", "--test-threads=1", "--nocapture"])
        .env(CHILD, "1")
        .output()
        .unwrap();
    let log = String::from_utf8_lossy(&output.stdout).to_string() + &String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success() && log.contains("not supported"),
        "Burn's bilinear backward did not panic:\n{log}"
    );

    let x = random::<B>([1, 1, 4, 4], &device).require_grad();
    let y = interpolate(x.clone(), [8, 8], BurnOptions::new(InterpolateMode::Bilinear));
    let grads = y.sum().backward();
    let dx = values(x.grad(&grads).unwrap());
    assert!((dx.iter().sum::<f64>() - 64.0).abs() < 1e-3);
}
