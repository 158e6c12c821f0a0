//! interp for Burn 0.21: every interpolation mode, forward **and** backward, on Burn tensors.
//!
//! Burn 0.21's own `interpolate` has no backward for bilinear, bicubic or lanczos3 on its
//! CubeCL backends (it panics). This crate runs interp's deterministic kernels instead, as a
//! backend extension ([`InterpBackend`]) implemented for `CubeBackend` (wgpu, CUDA), for
//! `Fusion<..>` (Burn's default `Wgpu` / `Cuda` types) and for `Autodiff<..>`, so gradients flow.
//!
//! ```no_run
//! use burn::backend::{Autodiff, Wgpu};
//! use burn::tensor::Tensor;
//! use interp_burn::{interpolate, InterpolateOptions, Mode};
//!
//! let device = Default::default();
//! let x = Tensor::<Autodiff<Wgpu>, 4>::ones([1, 3, 16, 16], &device).require_grad();
//! let y = interpolate(x.clone(), [32, 32], InterpolateOptions::new(Mode::Bicubic));
//! let grads = y.sum().backward();
//! let dx = x.grad(&grads).unwrap(); // where Burn's own bicubic backward panics
//! ```
//!
//! Switching from Burn's call is one line: `burn::tensor::module::interpolate(x, size, opts)`
//! becomes `interp_burn::interpolate(x, size, opts)` (Burn's `InterpolateOptions` convert).
#![warn(missing_docs)]

mod autodiff;
mod backend;
mod cube;
mod fusion;
mod options;

use burn::tensor::{Tensor, TensorPrimitive};

pub use backend::{InterpBackend, Resize4};
pub use interp_runtime::{filters, Border, Filter, InterpError, Method, Mode, Sampler};
pub use options::{InterpolateOptions, OutputSize};

/// Resizes `x` (N, C, H, W) to `size` (an output `[height, width]`, or `[f64; 2]` scale
/// factors with PyTorch's rules) with any interp method; differentiable under `Autodiff`.
///
/// # Panics
/// When interp refuses the call (the message names the values, e.g. an option the method does
/// not accept); [`try_interpolate`] returns the [`InterpError`] instead.
pub fn interpolate<B: InterpBackend>(x: Tensor<B, 4>, size: impl Into<OutputSize>, options: impl Into<InterpolateOptions>) -> Tensor<B, 4> {
    try_interpolate(x, size, options).unwrap_or_else(|error| panic!("interp_burn::interpolate: {error}"))
}

/// [`interpolate`], with interp's refusal as a typed error.
///
/// # Errors
/// Any [`InterpError`] of the call's validation: options the method does not accept, sizes
/// and strides beyond the kernels' ranges, a dtype the device lacks, ...
pub fn try_interpolate<B: InterpBackend>(
    x: Tensor<B, 4>,
    size: impl Into<OutputSize>,
    options: impl Into<InterpolateOptions>,
) -> Result<Tensor<B, 4>, InterpError> {
    let shape: [usize; 4] = x.dims();
    let resize = Resize4::new(options.into(), size.into(), shape)?;
    let y = B::interp_forward(x.into_primitive().tensor(), &resize)?;
    Ok(Tensor::from_primitive(TensorPrimitive::Float(y)))
}

/// The adjoint of [`interpolate`] for an input of `input_shape`: `grad_in = resize^T(grad_out)`.
/// Autodiff calls it for you; it is public for custom backward passes.
///
/// # Errors
/// As [`try_interpolate`], and `GradOutShape` when `grad_out` is not the forward's output shape.
pub fn interpolate_backward<B: InterpBackend>(
    grad_out: Tensor<B, 4>,
    input_shape: [usize; 4],
    size: impl Into<OutputSize>,
    options: impl Into<InterpolateOptions>,
) -> Result<Tensor<B, 4>, InterpError> {
    let resize = Resize4::new(options.into(), size.into(), input_shape)?;
    let dims: [usize; 4] = grad_out.dims();
    if dims != resize.output {
        return Err(InterpError::GradOutShape {
            input: input_shape.to_vec(),
            expected: resize.output.to_vec(),
            actual: dims.to_vec(),
        });
    }
    let dx = B::interp_backward(grad_out.into_primitive().tensor(), &resize)?;
    Ok(Tensor::from_primitive(TensorPrimitive::Float(dx)))
}
