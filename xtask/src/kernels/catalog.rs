//! Which kernels are checked on a backend: the gather kernels per dtype, including the
//! mixed-type passes of a two-pass gather through an accumulator intermediate. Every mode,
//! built-in or declared with `filter!`, runs these same kernels: a filter only fills the
//! host-built tap tables they read.

use half::{bf16, f16};
use interp_kernels::definitions::{gather_kernels, NamedKernel};
use interp_runtime::cubecl::prelude::*;
use interp_runtime::cubecl::wgpu::WgpuRuntime;

use super::sources::Backend;

type Client = ComputeClient<WgpuRuntime>;

/// Kernels checked together and reported on one line.
pub struct Group {
    /// `gather f32`, `gather f16`...
    pub label: String,
    pub kernels: Vec<NamedKernel>,
}

/// Why a dtype's gathers are not checked on a backend, if they are not.
pub fn skip_reason(backend: Backend, dtype: &str) -> Option<&'static str> {
    match (backend, dtype) {
        (Backend::Wgsl, "bf16") => Some("WGSL has no bf16"),
        (Backend::Wgsl, "f64") => Some("WGSL has no f64"),
        _ => None,
    }
}

/// Dtypes of the gathers, as named in the report.
pub const DTYPES: [&str; 4] = ["f32", "f16", "bf16", "f64"];

/// Every group checked on `backend`, built with `client` (definitions need one; nothing runs).
pub fn groups(client: &Client, backend: Backend) -> Vec<Group> {
    let mut groups = Vec::new();
    for dtype in DTYPES {
        if skip_reason(backend, dtype).is_none() {
            groups.push(Group {
                label: format!("gather {dtype}"),
                kernels: gathers(client, backend, dtype),
            });
        }
    }
    groups
}

/// The gathers of one dtype: same type in and out, and (below f64) the two halves of a
/// two-pass gather, whose intermediate is f32.
fn gathers(client: &Client, backend: Backend, dtype: &str) -> Vec<NamedKernel> {
    fn all<FS: Float, FD: Float, A: Float>(client: &Client, backend: Backend) -> Vec<NamedKernel> {
        let widest = size_of::<FS>().max(size_of::<FD>());
        gather_kernels::<FS, FD, A, WgpuRuntime>(client, backend.max_vector(widest))
    }
    match dtype {
        "f32" => all::<f32, f32, f32>(client, backend),
        "f16" => [all::<f16, f16, f32>, all::<f16, f32, f32>, all::<f32, f16, f32>]
            .iter()
            .flat_map(|f| f(client, backend))
            .collect(),
        "bf16" => [all::<bf16, bf16, f32>, all::<bf16, f32, f32>, all::<f32, bf16, f32>]
            .iter()
            .flat_map(|f| f(client, backend))
            .collect(),
        "f64" => all::<f64, f64, f64>(client, backend),
        other => unreachable!("no gathers for {other}"),
    }
}
