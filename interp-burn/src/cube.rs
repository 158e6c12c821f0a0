//! The CubeCL backends (wgpu, CUDA, HIP): interp's kernels on the tensor's own buffer and
//! strides, no copies (but one, for a slice at an offset the device cannot bind).

use burn::tensor::{DType as BurnDType, Shape};
use burn_cubecl::element::BoolElement;
use burn_cubecl::kernel::into_contiguous;
use burn_cubecl::ops::numeric::empty_device_dtype;
use burn_cubecl::tensor::CubeTensor;
use burn_cubecl::{CubeBackend, CubeRuntime, FloatElement, IntElement};
use interp_runtime::cubecl::prelude::ComputeClient;
use interp_runtime::{interpolate, interpolate_backward, DType, InterpError, Method, Options, TensorRef};

use crate::backend::{InterpBackend, Resize4};

impl<R: CubeRuntime, F: FloatElement, I: IntElement, BT: BoolElement> InterpBackend for CubeBackend<R, F, I, BT> {
    fn interp_forward(x: CubeTensor<R>, resize: &Resize4) -> Result<CubeTensor<R>, InterpError> {
        launch(x, resize, resize.output, interpolate::<R>)
    }

    fn interp_backward(grad_out: CubeTensor<R>, resize: &Resize4) -> Result<CubeTensor<R>, InterpError> {
        launch(grad_out, resize, resize.input, interpolate_backward::<R>)
    }
}

/// interp's dtype of a Burn float dtype.
pub(crate) fn interp_dtype(dtype: BurnDType) -> Result<DType, InterpError> {
    match dtype {
        BurnDType::F32 => Ok(DType::F32),
        BurnDType::F16 => Ok(DType::F16),
        BurnDType::BF16 => Ok(DType::BF16),
        BurnDType::F64 => Ok(DType::F64),
        other => Err(InterpError::ForeignDtype {
            dtype: format!("{other:?}"),
        }),
    }
}

type Entry<R> = fn(&ComputeClient<R>, Method, TensorRef, TensorRef, &Options) -> Result<(), InterpError>;

/// Allocates the destination of `shape` and runs `entry` from `src` into it.
fn launch<R: CubeRuntime>(src: CubeTensor<R>, resize: &Resize4, shape: [usize; 4], entry: Entry<R>) -> Result<CubeTensor<R>, InterpError> {
    let dtype = interp_dtype(src.dtype)?;
    let dst = empty_device_dtype(src.client.clone(), src.device.clone(), Shape::from(shape), src.dtype);
    let run = |src: &CubeTensor<R>| {
        let input = TensorRef::new(&src.handle, src.meta.shape(), src.meta.strides(), dtype);
        let output = TensorRef::new(&dst.handle, dst.meta.shape(), dst.meta.strides(), dtype);
        entry(&src.client, resize.method.clone(), input, output, &resize.options)
    };
    match run(&src) {
        // A slice whose offset the device cannot bind as a buffer start: one copy, then run.
        Err(InterpError::MisalignedOffset { .. }) => run(&into_contiguous(src))?,
        other => other?,
    }
    Ok(dst)
}
