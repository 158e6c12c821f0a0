//! Test support: the runtime under test, tensors in several layouts, poison, random data.
#![allow(dead_code)]

pub mod cases;

use interp_runtime::cubecl::prelude::*;
use interp_runtime::reference::{self, AxisTaps, Plan};
pub use interp_runtime::testing::*;
use interp_runtime::DType;

/// The runtime under test: the one the features select (wgpu by default, CUDA with `cuda`).
pub type TestRuntime = interp_runtime::DefaultRuntime;

pub type Client = ComputeClient<TestRuntime>;

pub fn client() -> Client {
    TestRuntime::client(&Default::default())
}

/// The dtypes this device supports, f32 first.
pub fn dtypes(client: &Client) -> Vec<DType> {
    let all = [DType::F32, DType::F16, DType::BF16];
    let supported: Vec<_> = all.into_iter().filter(|d| d.is_supported(client)).collect();
    for d in all.iter().filter(|d| !supported.contains(d)) {
        eprintln!("note: {d} not supported by this device; its cases are skipped");
    }
    supported
}

/// Tolerance on max |error| relative to max(1, max |reference|), by dtype.
pub fn tolerance(dtype: DType) -> f64 {
    match dtype {
        DType::F32 => 2e-5,
        DType::F16 => 2e-3,
        DType::BF16 => 1.6e-2,
        DType::F64 => 1e-6,
    }
}

/// Ok when every element outside the view still holds poison and `actual` is within the dtype's
/// tolerance of `expected`; else what went wrong.
pub fn compare(actual: &[f64], gaps_untouched: bool, expected: &[f64], dtype: DType) -> Result<(), String> {
    if !gaps_untouched {
        return Err("wrote outside the destination view".into());
    }
    let error = relative_error(actual, expected);
    if error <= tolerance(dtype) {
        Ok(())
    } else {
        Err(format!("relative error {error:.3e} > {:.1e}", tolerance(dtype)))
    }
}

/// Most distinct entries in a row of an axis's table (at least the device table's width):
/// indices per output, or with `adjoint` outputs per input.
pub fn widest_row(taps: &interp_runtime::reference::AxisTaps, in_len: usize, adjoint: bool) -> usize {
    let mut per_row: Vec<std::collections::BTreeSet<usize>> = vec![Default::default(); if adjoint { in_len } else { taps.len() }];
    for (o, row) in taps.iter().enumerate() {
        for &(i, _) in row {
            if adjoint {
                per_row[i].insert(o);
            } else {
                per_row[o].insert(i);
            }
        }
    }
    per_row.iter().map(|s| s.len()).max().unwrap_or(0)
}

/// The source and destination shapes of `plan`'s forward call, or with `backward` of its
/// backward call (grad_out to grad_in).
pub fn call_shapes(plan: &Plan, backward: bool) -> (&[usize], &[usize]) {
    if backward {
        (&plan.output, &plan.input)
    } else {
        (&plan.input, &plan.output)
    }
}

/// The f64 reference of the forward call on `x`, or with `backward` of the backward call on
/// `x` (a grad_out), for a source of shape `input`.
pub fn reference_of(x: &[f64], input: &[usize], rows: &AxisTaps, cols: &AxisTaps, backward: bool) -> Vec<f64> {
    if backward {
        reference::backward(x, input, rows, cols)
    } else {
        reference::forward(x, input, rows, cols)
    }
}

/// The call in one direction: `source` resized into `dst`, or with `backward` the adjoint.
pub fn resize(
    client: &Client,
    mode: interp_runtime::Mode,
    source: &DeviceTensor,
    dst: &DeviceTensor,
    options: &interp_runtime::Options,
    backward: bool,
) -> Result<(), interp_runtime::InterpError> {
    if backward {
        interp_runtime::interpolate_backward(client, mode, source.view(), dst.view(), options)
    } else {
        interp_runtime::interpolate(client, mode, source.view(), dst.view(), options)
    }
}
