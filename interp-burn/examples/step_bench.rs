//! One training step of a decoder block (features upsampled 2x, then a convolution), timed with
//! Burn's own interpolate (nearest: the only mode whose backward Burn has) beside interp-burn's
//! nearest, bilinear and bicubic. `cargo run --release -p interp-burn --example step_bench`
//! (`--features cuda` on an NVIDIA GPU). Prints a markdown table (docs/BENCHMARKS.md).

use std::time::Instant;

use burn::module::Module;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::PaddingConfig2d;
use burn::optim::{AdamConfig, GradientsParams, Optimizer};
use burn::tensor::backend::Backend;
use burn::tensor::module::interpolate as burn_interpolate;
use burn::tensor::ops::{InterpolateMode, InterpolateOptions as BurnOptions};
use burn::tensor::{Distribution, Tensor};
use interp_burn::{interpolate, InterpBackend, InterpolateOptions, Mode};

#[cfg(feature = "cuda")]
type Inner = burn::backend::Cuda;
#[cfg(not(feature = "cuda"))]
type Inner = burn::backend::Wgpu;
type B = burn::backend::Autodiff<Inner>;

#[derive(Clone, Copy, Debug)]
enum Upsample {
    Burn,
    Interp(Mode),
}

#[derive(Module, Debug)]
struct Block<B: Backend> {
    reduce: Conv2d<B>,
    refine: Conv2d<B>,
}

impl<B: InterpBackend> Block<B> {
    fn forward(&self, x: Tensor<B, 4>, how: Upsample) -> Tensor<B, 4> {
        let x = self.reduce.forward(x);
        let [_, _, h, w] = x.dims();
        let up = match how {
            Upsample::Burn => burn_interpolate(x, [2 * h, 2 * w], BurnOptions::new(InterpolateMode::Nearest)),
            Upsample::Interp(mode) => interpolate(x, [2 * h, 2 * w], InterpolateOptions::new(mode)),
        };
        self.refine.forward(up)
    }
}

fn step_ms(how: Upsample, [n, c, h, w]: [usize; 4], steps: usize) -> f64 {
    let device = Default::default();
    let conv = |i, o, k| Conv2dConfig::new([i, o], [k, k]).with_padding(PaddingConfig2d::Same).init(&device);
    let mut model = Block::<B> {
        reduce: conv(c, c, 1),
        refine: conv(c, c / 2, 3),
    };
    let mut optimizer = AdamConfig::new().init();
    let x = Tensor::<B, 4>::random([n, c, h, w], Distribution::Uniform(-1.0, 1.0), &device);
    let target = Tensor::<B, 4>::random([n, c / 2, 2 * h, 2 * w], Distribution::Uniform(-1.0, 1.0), &device);
    let mut times = vec![];
    for i in 0..steps + 3 {
        let start = Instant::now();
        let loss = (model.forward(x.clone(), how) - target.clone()).powf_scalar(2.0).mean();
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        model = optimizer.step(1e-3, model, grads);
        <B as Backend>::sync(&device).expect("device sync");
        if i >= 3 {
            times.push(start.elapsed().as_secs_f64() * 1e3);
        }
    }
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// The upsample alone inside Burn's autodiff graph: `x` (tracked) -> 2x upsample -> squared
/// mean -> backward, so the op's forward and backward dominate the step.
fn op_ms(how: Upsample, [n, c, h, w]: [usize; 4], steps: usize) -> f64 {
    let device = Default::default();
    let x = Tensor::<B, 4>::random([n, c, h, w], Distribution::Uniform(-1.0, 1.0), &device).require_grad();
    let mut times = vec![];
    for i in 0..steps + 3 {
        let start = Instant::now();
        let up = match how {
            Upsample::Burn => burn_interpolate(x.clone(), [2 * h, 2 * w], BurnOptions::new(InterpolateMode::Nearest)),
            Upsample::Interp(mode) => interpolate(x.clone(), [2 * h, 2 * w], InterpolateOptions::new(mode)),
        };
        let grads = up.powf_scalar(2.0).mean().backward();
        let dx = x.grad(&grads).expect("x is tracked");
        <Inner as Backend>::sync(&device).expect("device sync");
        drop(dx);
        if i >= 3 {
            times.push(start.elapsed().as_secs_f64() * 1e3);
        }
    }
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

fn main() {
    let shapes: [[usize; 4]; 3] = [[16, 64, 64, 64], [8, 128, 128, 128], [64, 256, 16, 16]];
    table("block input", &shapes, step_ms);
    println!("(median training step: 1x1 conv, 2x upsample, 3x3 conv, MSE, backward, Adam; device synced each step)");
    println!();
    table("upsample input", &shapes, op_ms);
    println!("(median of x -> 2x upsample -> mean(y^2) -> backward -> grad(x) in Burn's autodiff graph; device synced each step)");
}

/// One markdown row per shape: `time(how, shape, steps)` for Burn's nearest and interp's modes.
fn table(what: &str, shapes: &[[usize; 4]], time: fn(Upsample, [usize; 4], usize) -> f64) {
    println!("| {what} (N, C, H, W) | Burn nearest | interp nearest | interp bilinear | interp bicubic |");
    println!("|---|---|---|---|---|");
    for &shape in shapes {
        let ms: Vec<String> = [
            Upsample::Burn,
            Upsample::Interp(Mode::Nearest),
            Upsample::Interp(Mode::Bilinear),
            Upsample::Interp(Mode::Bicubic),
        ]
        .into_iter()
        .map(|how| format!("{:.3} ms", time(how, shape, 20)))
        .collect();
        println!("| {shape:?} | {} |", ms.join(" | "));
    }
}
