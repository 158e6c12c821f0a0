//! The backend extension: what a Burn backend must do to run interp.

use burn::tensor::backend::Backend;
use burn::tensor::ops::FloatTensor;
use interp_runtime::{output_shape, InterpError, Method, Options};

use crate::options::{InterpolateOptions, OutputSize};

/// One validated resize of an (N, C, H, W) input: what the kernels need, kept by the autodiff
/// graph for the backward (the adjoint needs no saved tensor).
#[derive(Clone, Debug)]
pub struct Resize4 {
    /// The method.
    pub method: Method,
    /// interp-runtime's options of the call.
    pub options: Options,
    /// Input shape.
    pub input: [usize; 4],
    /// Output shape.
    pub output: [usize; 4],
}

impl Resize4 {
    /// Validates the method, options and sizes for an input of `input` (everything but the
    /// tensors' strides, dtype and device, which are checked when the kernels launch).
    ///
    /// # Errors
    /// As `interp_runtime::output_shape`.
    pub fn new(options: InterpolateOptions, size: OutputSize, input: [usize; 4]) -> Result<Self, InterpError> {
        let runtime_options = options.runtime_options(size);
        let shape = output_shape(options.method.clone(), input, &runtime_options)?;
        let output = [shape[0], shape[1], shape[2], shape[3]];
        Ok(Self {
            method: options.method,
            options: runtime_options,
            input,
            output,
        })
    }
}

/// A Burn backend that runs interp: implemented for `CubeBackend` (wgpu, CUDA, HIP), for
/// `Fusion<B>` over such a backend (Burn's default `Wgpu` and `Cuda`) and for `Autodiff<B>`.
pub trait InterpBackend: Backend {
    /// `resize(x)`.
    ///
    /// # Errors
    /// Any refusal of interp's validation; nothing is launched then.
    fn interp_forward(x: FloatTensor<Self>, resize: &Resize4) -> Result<FloatTensor<Self>, InterpError>;

    /// `resize^T(grad_out)`, the gradient of [`InterpBackend::interp_forward`].
    ///
    /// # Errors
    /// As [`InterpBackend::interp_forward`].
    fn interp_backward(grad_out: FloatTensor<Self>, resize: &Resize4) -> Result<FloatTensor<Self>, InterpError>;
}
