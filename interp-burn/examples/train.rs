//! A model that needs interpolation's backward: 2x super-resolution whose learned features are
//! upsampled with bicubic, trained with Adam on synthetic images. Burn 0.21's own bicubic
//! backward panics here; with interp-burn the loss falls.
//! `cargo run --release -p interp-burn --example train` (software Vulkan is enough).

use burn::backend::{Autodiff, Wgpu};
use burn::module::Module;
use burn::nn::conv::{Conv2d, Conv2dConfig};
use burn::nn::PaddingConfig2d;
use burn::optim::{AdamConfig, GradientsParams, Optimizer};
use burn::tensor::activation::relu;
use burn::tensor::backend::Backend;
use burn::tensor::{Distribution, Tensor};
use interp_burn::{interpolate, InterpBackend, InterpolateOptions, Mode};

#[derive(Module, Debug)]
struct SuperResolution<B: Backend> {
    features: Conv2d<B>,
    mix: Conv2d<B>,
    out: Conv2d<B>,
}

impl<B: InterpBackend> SuperResolution<B> {
    fn new(device: &B::Device) -> Self {
        let conv = |i, o| Conv2dConfig::new([i, o], [3, 3]).with_padding(PaddingConfig2d::Same).init(device);
        Self {
            features: conv(3, 16),
            mix: conv(16, 16),
            out: conv(16, 3),
        }
    }

    /// Features at low resolution, upsampled 2x with bicubic (the gradient of `features`
    /// flows through interp's backward), refined, added to the bicubic image.
    fn forward(&self, low: Tensor<B, 4>) -> Tensor<B, 4> {
        let [_, _, h, w] = low.dims();
        let size = [2 * h, 2 * w];
        let bicubic = InterpolateOptions::new(Mode::Bicubic);
        let features = interpolate(relu(self.features.forward(low.clone())), size, bicubic.clone());
        interpolate(low, size, bicubic) + self.out.forward(relu(self.mix.forward(features)))
    }
}

/// Smooth random images: a sum of random plane waves per channel.
fn images<B: Backend>(batch: usize, size: usize, device: &B::Device) -> Tensor<B, 4> {
    let ys = Tensor::<B, 1, burn::tensor::Int>::arange(0..size as i64, device)
        .float()
        .reshape([1, 1, size, 1]);
    let xs = Tensor::<B, 1, burn::tensor::Int>::arange(0..size as i64, device)
        .float()
        .reshape([1, 1, 1, size]);
    let mut image = Tensor::zeros([batch, 3, size, size], device);
    for _ in 0..4 {
        let fy = Tensor::<B, 4>::random([batch, 3, 1, 1], Distribution::Uniform(-0.5, 0.5), device);
        let fx = Tensor::<B, 4>::random([batch, 3, 1, 1], Distribution::Uniform(-0.5, 0.5), device);
        let phase = Tensor::<B, 4>::random([batch, 3, 1, 1], Distribution::Uniform(0.0, std::f64::consts::TAU), device);
        image = image + (ys.clone() * fy + xs.clone() * fx + phase).sin();
    }
    image / 4.0
}

fn main() {
    type B = Autodiff<Wgpu>;
    let device = Default::default();
    let mut model = SuperResolution::<B>::new(&device);
    let mut optimizer = AdamConfig::new().init();
    let antialiased = InterpolateOptions::new(Mode::Bilinear).antialias(true);
    let start = std::time::Instant::now();
    for step in 0..=120 {
        let high = images::<B>(8, 32, &device);
        let low = interpolate(high.clone(), [16, 16], antialiased.clone()).detach();
        let loss = (model.forward(low) - high).powf_scalar(2.0).mean();
        if step % 20 == 0 {
            let value: f32 = loss.clone().into_scalar();
            println!("step {step:>3}: loss {value:.5} ({:.1?})", start.elapsed());
        }
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        model = optimizer.step(2e-3, model, grads);
    }
}
