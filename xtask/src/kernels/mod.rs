//! Generated-source checks, without a GPU: every kernel interp launches (each mode's table
//! kernels, the shared gather kernels per dtype, the modes of a user's crate) is defined,
//! compiled to CUDA C++, HIP C++ and WGSL by CubeCL's own compilers, then
//! - CUDA: compiled to PTX by NVRTC for sm_90a and assembled by ptxas for its register,
//!   spill and shared-memory report; a compile error or a spill fails;
//! - WGSL: parsed and validated by naga;
//! - HIP: compiled and linked to AMDGPU code objects for gfx942 and gfx90a by clang 19 with
//!   ROCm 7.2's HIP headers (pinned, `hip_headers`) and ROCm 5.2's device libraries (Debian's
//!   package), for its VGPR, SGPR, spill, scratch and LDS report; a compile error or a spill
//!   fails. Kernels headers could not take (bf16 without `hip_bf16.h`) would be shape-checked
//!   and listed.
//!
//! Sources (and PTX) land in `target/kernel-sources/<backend>/` for inspection. They are not
//! committed: CubeCL 0.10 orders local declarations and shared-memory offsets by hash-map
//! iteration, so the same kernel's source differs from run to run in those places (the
//! committed snapshots are of the `filter!` expansion, which is deterministic).

mod catalog;
mod cuda_tools;
mod hip;
mod hip_headers;
mod nvrtc;
mod ptxas;
mod report;
mod sources;
mod wgsl;

use std::fs;
use std::path::Path;

use interp_runtime::cubecl::prelude::*;
use interp_runtime::cubecl::wgpu::WgpuRuntime;

pub use report::Report;
use report::{Line, Skip};
use sources::Backend;

/// The CUDA architecture checked (the H200's).
const CUDA_ARCH: &str = "sm_90a";

/// Every kernel, or with `only` those whose names contain it (`cargo xtask kernels --only planes`:
/// a quick look at one kernel's registers and sources while working on it).
pub fn run(only: Option<&str>) -> Result<Report, String> {
    let target = crate::project_root().join("target");
    let client = WgpuRuntime::client(&Default::default());
    let mut report = Report::default();
    if wgsl::validate("@compute @workgroup_size(1) fn main() { let x: u32 = 1.5; }").is_ok() {
        return Err("naga accepted a broken shader: the WGSL check is not working".into());
    }
    let cuda = match CudaToolchain::load(&target) {
        Ok(cuda) => Some(cuda.rejecting_broken_kernels()?),
        Err(reason) => {
            report.skips.push(Skip::new("CUDA NVRTC + ptxas", reason));
            None
        }
    };
    let sources = target.join("kernel-sources");
    let hip = match hip::HipToolchain::find_or_install(&target) {
        Ok(mut hip) => {
            fs::create_dir_all(&sources).map_err(|e| format!("{}: {e}", sources.display()))?;
            if let Err(reason) = hip.precompile_headers(&sources) {
                report
                    .notes
                    .push(format!("HIP headers not precompiled, parsed by each compile: {reason}"));
            }
            let hip = hip.rejecting_broken_kernels(&sources)?;
            report.notes.push(format!("HIP: {} for {}", hip.version, hip::ARCHS.join(", ")));
            Some(hip)
        }
        Err(reason) => {
            report
                .skips
                .push(Skip::new("HIP compile", format!("{reason}: sources shape-checked only")));
            None
        }
    };
    let tools = Tools {
        cuda: cuda.as_ref(),
        hip: hip.as_ref(),
    };
    for backend in Backend::ALL {
        check_backend(&client, backend, &sources, &tools, only, &mut report)?;
    }
    if hip.as_ref().is_some_and(|h| !h.has_header("hip/hip_bf16.h")) {
        report.skips.push(Skip::new(
            "HIP gather bf16 compile",
            "these HIP headers have no hip/hip_bf16.h (ROCm 6+): shape-checked only".into(),
        ));
    }
    Ok(report)
}

/// The compilers available for the checks.
struct Tools<'a> {
    cuda: Option<&'a CudaToolchain>,
    hip: Option<&'a hip::HipToolchain>,
}

/// Every kernel on one backend; sources into `out/<extension>/`.
fn check_backend(
    client: &ComputeClient<WgpuRuntime>,
    backend: Backend,
    out: &Path,
    tools: &Tools,
    only: Option<&str>,
    report: &mut Report,
) -> Result<(), String> {
    let dir = out.join(backend.extension());
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for dtype in catalog::DTYPES {
        if let Some(reason) = catalog::skip_reason(backend, dtype) {
            let what = format!("{} gather {dtype}", backend.label());
            report.skips.push(Skip::new(&what, reason.into()));
        }
    }
    // The compilers' figures per kernel (ptxas's: for comparing with a driver's JIT,
    // bench/ptx_resources.py; clang's: worst over the AMDGPU architectures).
    let mut resources = String::from("kernel,registers,scalar_registers,spill_stores,spill_loads,shared_bytes,stack_bytes\n");
    for group in catalog::groups(client, backend) {
        let mut line = Line::new(backend, &group.label);
        for kernel in group.kernels.into_iter().filter(|k| only.is_none_or(|o| k.name.contains(o))) {
            let stem = file_stem(&kernel.name);
            let file = dir.join(format!("{stem}.{}", backend.extension()));
            let checked = check(backend, kernel.definition, &file, tools);
            if let Checked::Ok(Some(r)) = &checked {
                let row = [
                    r.registers,
                    r.scalar_registers,
                    r.spill_stores,
                    r.spill_loads,
                    r.shared_bytes,
                    r.stack_bytes,
                ];
                resources.push_str(&format!("{stem},{}\n", row.map(|n| n.to_string()).join(",")));
            }
            line.record(&kernel.name, checked);
        }
        report.lines.push(line);
    }
    let compiled = match backend {
        Backend::Cuda => tools.cuda.is_some(),
        Backend::Hip => tools.hip.is_some(),
        Backend::Wgsl => false,
    };
    if compiled {
        let path = dir.join("resources.csv");
        fs::write(&path, resources).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// NVRTC and ptxas, ready to check CUDA sources.
struct CudaToolchain {
    tools: cuda_tools::CudaTools,
    nvrtc: nvrtc::Nvrtc,
}

impl CudaToolchain {
    /// Err says why the tools are unavailable.
    fn load(target: &Path) -> Result<Self, String> {
        let tools = cuda_tools::CudaTools::find_or_install(target)?;
        let nvrtc = nvrtc::Nvrtc::load(&tools.lib_dir(), &tools.include_dir(), CUDA_ARCH)?;
        Ok(CudaToolchain { tools, nvrtc })
    }

    /// Itself, once NVRTC has rejected a broken kernel (or a pass would mean nothing).
    fn rejecting_broken_kernels(self) -> Result<Self, String> {
        let broken = "extern \"C\" __global__ void k(float* out) { out[0] = undeclared; }";
        match self.nvrtc.compile(broken, "canary.cu") {
            Ok(_) => Err("NVRTC accepted a broken kernel: the CUDA check is not working".into()),
            Err(_) => Ok(self),
        }
    }

    /// PTX of `source` (written beside `file`) and ptxas's report of it.
    fn resources(&self, source: &str, file: &Path) -> Result<ptxas::Resources, String> {
        let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("kernel.cu");
        let ptx = self.nvrtc.compile(source, name)?;
        let ptx_file = file.with_extension("ptx");
        fs::write(&ptx_file, ptx).map_err(|e| format!("{}: {e}", ptx_file.display()))?;
        ptxas::resources(&self.tools.ptxas(), &ptx_file, CUDA_ARCH)
    }
}

/// What one kernel's check found.
pub enum Checked {
    /// Compiled (and, for CUDA with the tools, assembled: its resources).
    Ok(Option<ptxas::Resources>),
    Failed(String),
}

fn check(backend: Backend, definition: KernelDefinition, file: &Path, tools: &Tools) -> Checked {
    let outcome = (|| {
        let sources::Compiled { source, shared_bytes } = backend.compile(definition)?;
        fs::write(file, &source).map_err(|e| format!("{}: {e}", file.display()))?;
        // cubecl declares shared memory dynamically: the compilers count only static arrays.
        let with_shared = |mut r: ptxas::Resources| {
            r.shared_bytes += shared_bytes as u32;
            r
        };
        match backend {
            Backend::Wgsl => wgsl::validate(&source).map(|()| None),
            Backend::Hip => {
                hip_shape(&source)?;
                match tools.hip {
                    Some(hip) if !source.contains("hip/hip_bf16.h") || hip.has_header("hip/hip_bf16.h") => {
                        // One clang per architecture, side by side (the check's longest step).
                        let reports: Vec<Result<ptxas::Resources, String>> = std::thread::scope(|scope| {
                            let jobs: Vec<_> = hip::ARCHS
                                .iter()
                                .map(|arch| scope.spawn(move || hip.resources(file, arch)))
                                .collect();
                            jobs.into_iter().map(|job| job.join().expect("a clang job panicked")).collect()
                        });
                        let mut worst = ptxas::Resources::default();
                        for report in reports {
                            worst = worst.max(report?);
                        }
                        Ok(Some(with_shared(worst)))
                    }
                    _ => Ok(None),
                }
            }
            Backend::Cuda => match tools.cuda {
                None => Ok(None),
                Some(cuda) => cuda.resources(&source, file).map(|r| Some(with_shared(r))),
            },
        }
    })();
    match outcome {
        Ok(resources) => Checked::Ok(resources),
        Err(message) => Checked::Failed(format!("{}: {message}", file.display())),
    }
}

/// What can be checked of HIP C++ without ROCm: one `__global__` entry point, balanced braces.
fn hip_shape(source: &str) -> Result<(), String> {
    let entries = source.matches("extern \"C\" __global__").count();
    let depth = source.chars().try_fold(0i64, |depth, c| match c {
        '{' => Some(depth + 1),
        '}' if depth == 0 => None,
        '}' => Some(depth - 1),
        _ => Some(depth),
    });
    match (entries, depth) {
        (1, Some(0)) => Ok(()),
        (1, _) => Err("unbalanced braces".into()),
        (n, _) => Err(format!("{n} __global__ entry points, expected 1")),
    }
}

/// A file name for a kernel name like `gather f16->f32 v4 nhwc`.
fn file_stem(name: &str) -> String {
    name.replace("->", "-to-").replace(' ', "_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hip_shape_wants_one_entry_and_balanced_braces() {
        let entry = "extern \"C\" __global__ void k() { if (1) { } }";
        assert!(hip_shape(entry).is_ok());
        assert!(hip_shape("extern \"C\" __global__ void k() { if (1) { }").is_err());
        assert!(hip_shape("void k() { }").is_err());
        assert!(hip_shape(&format!("{entry}\n{entry}")).is_err());
    }

    #[test]
    fn naga_validates_wgsl() {
        let buffer = "@group(0) @binding(0) var<storage, read_write> out: array<f32>;\n";
        assert!(wgsl::validate(&format!("{buffer}@compute @workgroup_size(1) fn main() {{ out[0] = 1.0; }}")).is_ok());
        assert!(wgsl::validate(&format!("{buffer}@compute @workgroup_size(1) fn main() {{ out[0] = 1u; }}")).is_err());
    }
}
