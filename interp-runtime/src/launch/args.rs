//! Kernel arguments from validated views: the dtype dispatch of every launch, layouts and
//! strides (in elements or vectors), and the arrays' extents.

use cubecl::prelude::*;
use interp_kernels::gather::{GatherLayoutLaunch, Sequence4Launch};

use super::io::GatherIo;
use crate::tensor::Checked4;

/// Calls `$launch!(source type, destination type, accumulator type)` for the dtypes of `$io`.
macro_rules! dispatch_dtypes {
    ($io:expr, $launch:ident) => {{
        use half::{bf16, f16};
        use $crate::dtype::DType;
        match ($io.src_dtype, $io.dst_dtype) {
            (DType::F32, DType::F32) => $launch!(f32, f32, f32),
            (DType::F16, DType::F16) => $launch!(f16, f16, f32),
            (DType::BF16, DType::BF16) => $launch!(bf16, bf16, f32),
            (DType::F64, DType::F64) => $launch!(f64, f64, f64),
            (DType::F16, DType::F32) => $launch!(f16, f32, f32),
            (DType::F32, DType::F16) => $launch!(f32, f16, f32),
            (DType::BF16, DType::F32) => $launch!(bf16, f32, f32),
            (DType::F32, DType::BF16) => $launch!(f32, bf16, f32),
            (src, dst) => unreachable!("no gather from {src} to {dst}: intermediates are in the accumulator type"),
        }
    }};
}
pub(super) use dispatch_dtypes;

/// A kernel's layout argument: the destination's shape in the units the kernel indexes it in
/// (channels or width counted in vectors where it reads them so) and both tensors' strides.
pub(super) fn layout_arg<R: Runtime>(shape: [usize; 4], src_strides: [usize; 4], dst_strides: [usize; 4]) -> GatherLayoutLaunch<R> {
    let [n, c, h, w] = shape.map(|d| d as u32);
    GatherLayoutLaunch::new(n, c, h, w, strides_arg(src_strides), strides_arg(dst_strides))
}

/// The destination's shape and both tensors' strides, in elements (the scalar kernels).
pub(super) fn scalar_layout<R: Runtime>(io: &GatherIo) -> GatherLayoutLaunch<R> {
    layout_arg(io.dst_view.shape, io.src_view.strides, io.dst_view.strides)
}

/// The layout in vectors of `v` channels (both tensors channels-last in such vectors).
pub(super) fn channel_vector_layout<R: Runtime>(io: &GatherIo, v: usize) -> GatherLayoutLaunch<R> {
    let [n, c, h, w] = io.dst_view.shape;
    layout_arg(
        [n, c / v, h, w],
        vector_strides(&io.src_view, v, true),
        vector_strides(&io.dst_view, v, true),
    )
}

/// The source and destination as arrays of vectors of `src_vector` and `dst_vector` elements
/// (1: scalars), each from its view's first to its last element, rounded up to whole vectors.
///
/// # Safety
/// The views must have been validated against their buffers (every element inside).
pub(super) unsafe fn arrays<R: Runtime>(io: &GatherIo, src_vector: usize, dst_vector: usize) -> (ArrayArg<R>, ArrayArg<R>) {
    // SAFETY: the caller's guarantee; the lengths are the views' spans.
    unsafe {
        (
            ArrayArg::from_raw_parts(io.src.clone(), extent(&io.src_view, src_vector)),
            ArrayArg::from_raw_parts(io.dst.clone(), extent(&io.dst_view, dst_vector)),
        )
    }
}

fn strides_arg<R: Runtime>(strides: [usize; 4]) -> Sequence4Launch<R> {
    let s = strides.map(|s| s as u32);
    Sequence4Launch::new(s[0], s[1], s[2], s[3])
}

/// A view's strides in vectors of `v` elements; with `along_channels` (and `v > 1`) the
/// vectors hold contiguous channels and the channel index counts vectors.
pub(super) fn vector_strides(view: &Checked4, v: usize, along_channels: bool) -> [usize; 4] {
    let mut strides = view.strides.map(|s| s / v);
    if along_channels && v > 1 {
        strides[1] = 1;
    }
    strides
}

/// Elements from the first to one past the last element of a view, rounded up to a whole
/// number of vectors.
pub(super) fn extent(view: &Checked4, vector: usize) -> usize {
    view.span().next_multiple_of(vector)
}
