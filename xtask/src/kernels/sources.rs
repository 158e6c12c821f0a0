//! A kernel definition to CUDA C++, HIP C++ or WGSL source, with CubeCL's own compilers and
//! the options its runtimes use for the targets checked here (CUDA sm_90, any HIP, WGSL).

use interp_runtime::cubecl::prelude::*;
use interp_runtime::cubecl::wgpu::WgslCompiler;
use interp_runtime::cubecl::{Compiler, WgpuCompilationOptions};

use cubecl_cpp::cuda::{mma::CudaWmmaCompiler, CudaDialect};
use cubecl_cpp::hip::{mma::WmmaIntrinsicCompiler, HipDialect};
use cubecl_cpp::shared::{CompilationOptions, CppCompiler, CppSupportedFeatures};
use cubecl_cpp::{ComputeKernel, Dialect};

/// The three source languages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Backend {
    Cuda,
    Hip,
    Wgsl,
}

impl Backend {
    pub const ALL: [Backend; 3] = [Backend::Cuda, Backend::Hip, Backend::Wgsl];

    pub fn label(self) -> &'static str {
        match self {
            Backend::Cuda => "CUDA",
            Backend::Hip => "HIP",
            Backend::Wgsl => "WGSL",
        }
    }

    /// File extension of the source.
    pub fn extension(self) -> &'static str {
        match self {
            Backend::Cuda => "cu",
            Backend::Hip => "hip",
            Backend::Wgsl => "wgsl",
        }
    }

    /// Widest vector (lanes) of `element_bytes`-sized elements the runtime may pick: 128-bit
    /// loads on CUDA and HIP, four lanes in WGSL.
    pub fn max_vector(self, element_bytes: usize) -> usize {
        match self {
            Backend::Cuda | Backend::Hip => 16 / element_bytes,
            Backend::Wgsl => 4,
        }
    }

    /// Source of `definition` and, for the C++ dialects, the dynamic shared memory it is
    /// launched with (bytes); or the compiler's error.
    pub fn compile(self, definition: KernelDefinition) -> Result<Compiled, String> {
        let mode = ExecutionMode::Unchecked;
        let address = AddressType::U32.unsigned_type();
        let compiled = match self {
            Backend::Cuda => CppCompiler::<CudaDialect<CudaWmmaCompiler>>::default()
                .compile(definition, &cuda_sm90_options(), mode, address)
                .map(Compiled::cpp),
            Backend::Hip => CppCompiler::<HipDialect<WmmaIntrinsicCompiler>>::default()
                .compile(definition, &CompilationOptions::default(), mode, address)
                .map(Compiled::cpp),
            Backend::Wgsl => WgslCompiler::default()
                .compile(definition, &WgpuCompilationOptions::default(), mode, address)
                .map(|repr| Compiled {
                    source: repr.to_string(),
                    shared_bytes: 0,
                }),
        };
        compiled.map_err(|e| e.to_string())
    }
}

/// A kernel's source in one language.
pub struct Compiled {
    pub source: String,
    /// Shared memory the C++ kernels declare dynamically (ptxas sees none of it); 0 for WGSL.
    pub shared_bytes: usize,
}

impl Compiled {
    fn cpp<D: Dialect>(kernel: ComputeKernel<D>) -> Self {
        Compiled {
            source: kernel.to_string(),
            shared_bytes: kernel.shared_memory_size(),
        }
    }
}

/// The features cubecl-cuda's runtime enables on an sm_90 device.
fn cuda_sm90_options() -> CompilationOptions {
    CompilationOptions {
        warp_size: 32,
        supports_features: CppSupportedFeatures {
            grid_constants: true,
            clusters: true,
            fast_math: true,
            fast_tanh: true,
            elect_sync: true,
        },
    }
}
