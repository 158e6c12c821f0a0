//! interp: deterministic GPU interpolation, forward and backward, for every declared mode.
//!
//! ```ignore
//! let opts = InterpolateOptions::new(Mode::Bicubic, Resize::Size { height: 512, width: 512 });
//! interpolate(&client, input, output, &opts)?;             // y = resize(x)
//! interpolate_backward(&client, grad_out, grad_in, &opts)?; // dx = resize^T(dy), no atomics
//! ```
//!
//! Tensors are any-strided 4-D (N, C, H, W) views of cubecl handles ([`TensorRef`]). Every
//! argument is validated first; a refusal is an [`InterpError`] and nothing is written.

mod api;
mod dtype;
mod error;
mod launch;
mod options;
mod plan;
pub mod reference;
mod taps;
mod tensor;
pub mod testing;

pub use api::{interpolate, interpolate_backward, interpolate_backward_with, interpolate_with, output_shape};
pub use dtype::DType;
pub use error::InterpError;
pub use interp_kernels::{modes, Filter, FilterDesc};
pub use options::{FilterVisitor, InterpolateOptions, Mode, Resize, ResizeOptions};
pub use plan::{plan, AxisPlan, Plan, MAX_AXIS};
pub use tensor::TensorRef;

pub use cubecl;

/// The runtime the enabled features select: CUDA, else HIP, else wgpu.
#[cfg(feature = "cuda")]
pub type DefaultRuntime = cubecl::cuda::CudaRuntime;
/// The runtime the enabled features select: CUDA, else HIP, else wgpu.
#[cfg(all(not(feature = "cuda"), feature = "hip"))]
pub type DefaultRuntime = cubecl::hip::HipRuntime;
/// The runtime the enabled features select: CUDA, else HIP, else wgpu.
#[cfg(all(not(feature = "cuda"), not(feature = "hip"), feature = "wgpu"))]
pub type DefaultRuntime = cubecl::wgpu::WgpuRuntime;
