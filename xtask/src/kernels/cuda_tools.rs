//! The CUDA tools of the offline checks: NVRTC (with the CUDA headers) and ptxas, from PyPI's
//! `nvidia-cuda-*` wheels installed into `target/cuda-tools` on first use (pinned to CUDA
//! 13.0, the NVRTC of the GPU machine), or from the prefix in `INTERP_CUDA_TOOLS`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Pinned wheels: NVRTC, the runtime headers (`cuda_fp16.h`, `cuda_bf16.h`), ptxas.
const WHEELS: [&str; 3] = [
    "nvidia-cuda-nvrtc==13.0.88",
    "nvidia-cuda-runtime==13.0.96",
    "nvidia-cuda-nvcc==13.0.88",
];

/// A CUDA installation prefix: `bin/ptxas`, `lib/libnvrtc.so*`, `include/`.
pub struct CudaTools {
    pub prefix: PathBuf,
}

impl CudaTools {
    /// The tools, installing the wheels when needed; Err says why they are unavailable.
    pub fn find_or_install(target_dir: &Path) -> Result<Self, String> {
        if let Some(prefix) = std::env::var_os("INTERP_CUDA_TOOLS") {
            let tools = CudaTools { prefix: prefix.into() };
            return tools.complete().map(|()| tools);
        }
        let folder = target_dir.join("cuda-tools");
        let tools = CudaTools {
            prefix: folder.join("nvidia/cu13"),
        };
        if tools.complete().is_ok() {
            return Ok(tools);
        }
        println!("kernels: installing {} into {}", WHEELS.join(" "), folder.display());
        let output = Command::new("python3")
            .args(["-m", "pip", "install", "--quiet", "--no-deps", "--upgrade", "--target"])
            .arg(&folder)
            .args(WHEELS)
            .output()
            .map_err(|e| format!("could not run python3 -m pip: {e}"))?;
        if !output.status.success() {
            return Err(format!(
                "pip install of the CUDA wheels failed: {}",
                String::from_utf8_lossy(&output.stderr).lines().last().unwrap_or("")
            ));
        }
        tools.complete().map(|()| tools)
    }

    pub fn lib_dir(&self) -> PathBuf {
        self.prefix.join("lib")
    }

    pub fn include_dir(&self) -> PathBuf {
        self.prefix.join("include")
    }

    pub fn ptxas(&self) -> PathBuf {
        self.prefix.join("bin/ptxas")
    }

    /// Ok when every file the checks use is present.
    fn complete(&self) -> Result<(), String> {
        let needed = [
            self.ptxas(),
            self.include_dir().join("cuda_fp16.h"),
            self.include_dir().join("cuda_bf16.h"),
        ];
        match needed.iter().find(|p| !p.exists()) {
            Some(missing) => Err(format!("{} is missing", missing.display())),
            None => Ok(()),
        }
    }
}
