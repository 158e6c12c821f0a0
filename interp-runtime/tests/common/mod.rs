//! Test support: the runtime under test, tensors in several layouts, poison, random data.
#![allow(dead_code)]

pub mod cases;

use interp_runtime::cubecl::prelude::*;
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
