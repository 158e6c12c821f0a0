//! interp: deterministic GPU interpolation (resampling), forward and backward, for every mode.
//!
//! One entry point for every method: a built-in [`Mode`], a [`Sampler`], or any [`Filter`]
//! (built-in in [`filters`] or declared with [`filter!`]); antialias, border and align_corners
//! are [`Options`] of the call, as PyTorch takes them.
//!
//! ```
//! use interp_runtime::cubecl::prelude::*;
//! use interp_runtime::{interpolate, interpolate_backward, DType, Mode, Options, TensorRef};
//!
//! let client = interp_runtime::default_client()?;
//! let (x, dy) = (client.create_from_slice(&[0u8; 4 * 16]), client.create_from_slice(&[0u8; 4 * 64]));
//! let (y, dx) = (client.empty(4 * 64), client.empty(4 * 16));
//! let small = |h| TensorRef::new(h, &[1, 1, 4, 4], &[16, 16, 4, 1], DType::F32);
//! let large = |h| TensorRef::new(h, &[1, 1, 8, 8], &[64, 64, 8, 1], DType::F32);
//! let opts = Options::size(8, 8).antialias(true);
//! interpolate(&client, Mode::Bicubic, small(&x), large(&y), &opts)?;           // y = resize(x)
//! interpolate_backward(&client, Mode::Bicubic, large(&dy), small(&dx), &opts)?; // dx = resize^T(dy), no atomics
//! # Ok::<(), interp_runtime::InterpError>(())
//! ```
//!
//! Tensors are any-strided (N, C, L), (N, C, H, W) or (N, C, D, H, W) views of cubecl handles
//! ([`TensorRef`]); [`Options::sizes`] takes one output length per spatial axis. Every
//! argument is validated first; a refusal is an [`InterpError`] and nothing is written. A layer
//! that resizes the same shapes every step keeps a [`Resampler`]: its tables are built once.
#![warn(missing_docs)]

extern crate self as interp_runtime;

mod api;
mod device;
mod dtype;
mod error;
mod filter;
pub mod filters;
mod launch;
mod method;
mod options;
mod plan;
mod resampler;
mod taps;
mod tensor;

#[cfg(feature = "testing")]
pub mod reference;
#[cfg(feature = "testing")]
pub mod testing;

pub use api::{interpolate, interpolate_backward, output_shape};
pub use device::default_client;
pub use dtype::DType;
pub use error::InterpError;
pub use filter::{sinc, Filter, MAX_SUPPORT};
pub use method::{Method, Mode, Sampler};
pub use options::{Border, Options, Resize, Spatial, Strategy, Tuning};
pub use plan::{MAX_AXIS, RANKS};
pub use resampler::Resampler;
pub use tensor::TensorRef;

pub use cubecl;

/// Declares a filter: a struct (with a public `f64` field per `param`) implementing [`Filter`].
///
/// ```
/// interp_runtime::filter! {
///     /// A raised-cosine window.
///     pub struct RaisedCosine {
///         name: "raised-cosine",
///         support: 1.5,              // radius at scale 1, in input pixels
///         param sharpness = 1.0,     // a public field; `RaisedCosine::default()` takes 1.0
///         weight: |x| if abs(x) < SUPPORT { (0.5 + 0.5 * cos(PI * x / SUPPORT)) * sharpness } else { 0.0 },
///     }
/// }
/// use interp_runtime::Filter;
/// assert_eq!(RaisedCosine::default().weight(0.0), 1.0);
/// assert_eq!(RaisedCosine::new(2.0).weight(1.5), 0.0);
/// ```
///
/// Keys: `name` (a string), `support` (a number in (0, [`MAX_SUPPORT`]]), `weight` (a closure
/// of the signed distance), and any number of `param name = default` and `const NAME = value`
/// entries. The body may use numbers, `+ - * /`, comparisons, `&& || !`, `abs sin cos exp sqrt
/// floor min max sinc`, `PI`, `SUPPORT`, `if`/`else` and `let`; no name may shadow another. A bad
/// declaration fails to compile with every problem at once, each on its token.
pub use interp_macros::filter;

/// What `filter!`'s expansion names. Not a public API.
#[doc(hidden)]
pub mod __private {
    pub use crate::filter::{sinc, Filter};
}

/// The runtime the enabled features select: CUDA, else HIP, else wgpu.
#[cfg(feature = "cuda")]
pub type DefaultRuntime = cubecl::cuda::CudaRuntime;
/// The runtime the enabled features select: CUDA, else HIP, else wgpu.
#[cfg(all(not(feature = "cuda"), feature = "hip"))]
pub type DefaultRuntime = cubecl::hip::HipRuntime;
/// The runtime the enabled features select: CUDA, else HIP, else wgpu.
#[cfg(all(not(feature = "cuda"), not(feature = "hip"), feature = "wgpu"))]
pub type DefaultRuntime = cubecl::wgpu::WgpuRuntime;
