//! The one-shot entry points: plan, validate and launch in one call. A layer that resizes the
//! same shapes every step keeps a [`Resampler`] instead and pays the tables once.

use cubecl::prelude::*;

use crate::error::InterpError;
use crate::method::{resolve, Method};
use crate::options::Options;
use crate::plan::plan;
use crate::resampler::{check_dtype, Resampler};
use crate::tensor::{check_tensor, TensorRef};

/// The output shape a resize of `input_shape` with `method` and `options` produces.
///
/// ```
/// use interp_runtime::{output_shape, Mode, Options};
///
/// assert_eq!(output_shape(Mode::Bilinear, [8, 3, 100, 60], &Options::scale(2.5, 0.5))?, [8, 3, 250, 30]);
/// assert_eq!(output_shape(Mode::Bilinear, [2, 4, 16, 8, 8], &Options::sizes([8, 16, 16]))?, [2, 4, 8, 16, 16]);
/// # Ok::<(), interp_runtime::InterpError>(())
/// ```
///
/// # Errors
/// As [`Resampler::new`].
pub fn output_shape(method: impl Into<Method>, input_shape: impl AsRef<[usize]>, options: &Options) -> Result<Vec<usize>, InterpError> {
    let rule = resolve(&method.into(), options)?;
    Ok(plan(&rule, input_shape.as_ref(), options)?.output)
}

/// `output = resize(input)` with a [`Mode`](crate::Mode), a [`Sampler`](crate::Sampler) or any
/// [`Filter`](crate::Filter): the one-shot form of [`Resampler::forward`].
///
/// ```
/// use interp_runtime::cubecl::prelude::*;
/// use interp_runtime::{interpolate, DType, Mode, Options, TensorRef};
///
/// let client = interp_runtime::default_client()?;
/// let x = client.create_from_slice(&[1.0f32, 3.0].map(f32::to_le_bytes).concat());
/// let y = client.empty(4 * 4);
/// let x_view = TensorRef::new(&x, &[1, 1, 1, 2], &[2, 2, 2, 1], DType::F32);
/// let y_view = TensorRef::new(&y, &[1, 1, 1, 4], &[4, 4, 4, 1], DType::F32);
/// interpolate(&client, Mode::Bilinear, x_view, y_view, &Options::size(1, 4))?;
/// let y: Vec<f32> = client.read_one(y).unwrap().chunks(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect();
/// assert_eq!(y, [1.0, 1.5, 2.5, 3.0]); // PyTorch's half-pixel bilinear
/// # Ok::<(), interp_runtime::InterpError>(())
/// ```
///
/// # Errors
/// As [`Resampler::new`] and [`Resampler::forward`]; nothing is written then.
pub fn interpolate<R: Runtime>(
    client: &ComputeClient<R>,
    method: impl Into<Method>,
    input: TensorRef,
    output: TensorRef,
    options: &Options,
) -> Result<(), InterpError> {
    // A dtype the device lacks is named before the view is read in it.
    check_dtype(client, input.dtype)?;
    let shape = check_tensor("input", &input, input.dtype, 1)?.shape;
    Resampler::new(client, method, shape, options)?.forward(input, output)
}

/// `grad_in = resize^T(grad_out)`: the gradient of [`interpolate`] for the same method and
/// options, deterministic (a gather, no atomics); the one-shot form of [`Resampler::backward`].
///
/// # Errors
/// As [`Resampler::new`] and [`Resampler::backward`]; nothing is written then.
pub fn interpolate_backward<R: Runtime>(
    client: &ComputeClient<R>,
    method: impl Into<Method>,
    grad_out: TensorRef,
    grad_in: TensorRef,
    options: &Options,
) -> Result<(), InterpError> {
    check_dtype(client, grad_in.dtype)?;
    let shape = check_tensor("grad_in", &grad_in, grad_in.dtype, 1)?.shape;
    Resampler::new(client, method, shape, options)?.backward(grad_out, grad_in)
}
