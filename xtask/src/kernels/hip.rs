//! The HIP tools of the offline checks: clang 19's AMDGPU backend with ROCm 7.2's HIP headers
//! (`hip_headers`, pinned; Debian's ROCm 5.2 headers when they cannot be fetched, bf16 then
//! shape-checked only) and the device libraries of Debian's ROCm 5.2 packages (`clang-19 lld-19
//! libamdhip64-dev rocm-device-libs`, installed with apt-get when the xtask runs as root and
//! they are missing). Each generated HIP kernel is compiled and linked to an AMDGPU code object
//! for every architecture in `ARCHS`, and clang's `kernel-resource-usage` remarks give its
//! registers, spills, scratch and LDS. The HIP headers every kernel includes are parsed once per
//! architecture into a precompiled header (`precompile_headers`): parsing them was about
//! 0.45 of each compile's 0.6 s, and the remarks are the same with it as without.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use super::ptxas::Resources;

/// MI300 (CDNA 3) and MI200 (CDNA 2).
pub const ARCHS: [&str; 2] = ["gfx942", "gfx90a"];

/// The Debian packages that provide the tools (clang 19 from bookworm's updates, ROCm 5.2's
/// device libraries and the fallback headers).
const PACKAGES: [&str; 4] = ["clang-19", "lld-19", "libamdhip64-dev", "rocm-device-libs"];

const CLANG: &str = "clang-19";
/// Debian's ROCm 5.2 headers, used when ROCm 7.2's cannot be fetched.
const SYSTEM_HEADERS: &str = "/usr/include";
const BITCODE: &str = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode";

/// Device libraries linked into every kernel: the work-item and barrier functions the HIP
/// headers call (no math: the gathers' weights are computed on the host).
const LIBRARIES: [&str; 5] = ["hip", "ockl", "opencl", "oclc_wavefrontsize64_on", "oclc_abi_version_500"];

pub struct HipToolchain {
    resource_dir: String,
    /// The include directory: ROCm 7.2's, or Debian's ROCm 5.2 when that cannot be fetched.
    headers: PathBuf,
    /// The toolchain's version line, for the report.
    pub version: String,
    /// A precompiled header of the HIP headers per architecture, once built.
    precompiled: HashMap<&'static str, PathBuf>,
}

impl HipToolchain {
    /// The tools, installing the Debian packages when running as root; Err says why not.
    pub fn find_or_install(target_dir: &Path) -> Result<Self, String> {
        if !Self::present() {
            let command = format!("apt-get install -y {}", PACKAGES.join(" "));
            if !crate::vulkan::is_root() {
                return Err(format!(
                    "clang-19 and ROCm's HIP headers are not installed; run `{command}` as root"
                ));
            }
            println!("kernels: installing {}", PACKAGES.join(" "));
            let status = Command::new("apt-get")
                .args(["install", "-y", "-qq"])
                .args(PACKAGES)
                .env("DEBIAN_FRONTEND", "noninteractive")
                .status()
                .map_err(|e| format!("could not run apt-get: {e}"))?;
            if !status.success() || !Self::present() {
                return Err(format!("`{command}` failed ({status})"));
            }
        }
        let output = |args: &[&str]| -> Result<String, String> {
            let out = Command::new(CLANG).args(args).output().map_err(|e| format!("{CLANG}: {e}"))?;
            Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
        };
        let version = output(&["--version"])?.lines().next().unwrap_or_default().to_string();
        let libraries = Command::new("dpkg-query")
            .args(["-W", "-f=${Version}", "rocm-device-libs"])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).to_string())
            .unwrap_or_default();
        let (headers, origin) = match super::hip_headers::find_or_fetch(target_dir) {
            Ok(headers) => (headers, super::hip_headers::VERSION.to_string()),
            Err(reason) => {
                println!("kernels: {reason}; using Debian's ROCm 5.2 HIP headers instead");
                (
                    PathBuf::from(SYSTEM_HEADERS),
                    format!("Debian's ROCm {libraries} (ROCm 7.2's: {reason})"),
                )
            }
        };
        Ok(HipToolchain {
            resource_dir: output(&["-print-resource-dir"])?,
            headers,
            version: format!("{version}; HIP headers of {origin}; device libraries of Debian's ROCm {libraries}"),
            precompiled: HashMap::new(),
        })
    }

    fn present() -> bool {
        let clang = Command::new(CLANG).arg("--version").output().is_ok_and(|o| o.status.success());
        clang && Path::new(SYSTEM_HEADERS).join("hip/hip_runtime.h").exists() && Path::new(BITCODE).join("ockl.bc").exists()
    }

    /// Itself, once clang has rejected a broken kernel (or a pass would mean nothing).
    pub fn rejecting_broken_kernels(self, dir: &Path) -> Result<Self, String> {
        let file = dir.join("canary.hip");
        let broken = "extern \"C\" __global__ void k(float* out) { out[0] = undeclared; }";
        std::fs::write(&file, broken).map_err(|e| format!("{}: {e}", file.display()))?;
        match self.resources(&file, ARCHS[0]) {
            Ok(_) => Err("clang accepted a broken HIP kernel: the HIP check is not working".into()),
            Err(_) => Ok(self),
        }
    }

    /// Whether a source can be compiled with these headers (e.g. `hip/hip_bf16.h`).
    pub fn has_header(&self, name: &str) -> bool {
        self.headers.join(name).exists()
    }

    /// Precompiles the headers the kernels include (`hip_runtime.h`, and `hip_bf16.h` where
    /// these headers have it) in `dir` for every architecture, for every later compile; Err
    /// says why clang could not (the compiles then parse the headers each).
    pub fn precompile_headers(&mut self, dir: &Path) -> Result<(), String> {
        let prelude = dir.join("prelude.h");
        let headers: Vec<_> = ["hip/hip_runtime.h", "hip/hip_bf16.h"]
            .into_iter()
            .filter(|h| self.has_header(h))
            .map(|h| format!("#include <{h}>\n"))
            .collect();
        std::fs::write(&prelude, headers.concat()).map_err(|e| format!("{}: {e}", prelude.display()))?;
        for arch in ARCHS {
            let pch = dir.join(format!("prelude.{arch}.pch"));
            let output = self
                .command(arch)
                .args(["-Xclang", "-emit-pch", "-c", "-emit-llvm"])
                .arg(&prelude)
                .arg("-o")
                .arg(&pch)
                .output()
                .map_err(|e| format!("could not run {CLANG}: {e}"))?;
            if !output.status.success() {
                return Err(format!(
                    "{CLANG} could not precompile the HIP headers for {arch}:\n{}",
                    String::from_utf8_lossy(&output.stderr)
                ));
            }
            self.precompiled.insert(arch, pch);
        }
        Ok(())
    }

    /// clang for device code of `arch` with these headers (the options a precompiled header
    /// must share with the compiles that use it).
    fn command(&self, arch: &str) -> Command {
        let mut command = Command::new(CLANG);
        command
            .args(["-x", "hip", "--cuda-device-only", "-nogpulib", "-nogpuinc", "-O3"])
            .arg(format!("--offload-arch={arch}"))
            .args(["-isystem", &self.resource_dir, "-include", "__clang_hip_runtime_wrapper.h"])
            .arg(format!("-I{}", self.headers.display()));
        command
    }

    /// Compiles and links `file` to `<file>.<arch>.o` and reads clang's resource remarks.
    pub fn resources(&self, file: &Path, arch: &str) -> Result<Resources, String> {
        let object = file.with_extension(format!("{arch}.o"));
        let mut command = self.command(arch);
        if let Some(pch) = self.precompiled.get(arch) {
            command.arg("-include-pch").arg(pch);
        }
        command.arg("-Rpass-analysis=kernel-resource-usage");
        for library in LIBRARIES.iter().map(|l| l.to_string()).chain([isa_library(arch)]) {
            command
                .args(["-Xclang", "-mlink-builtin-bitcode", "-Xclang"])
                .arg(bitcode(&library));
        }
        let output = command
            .arg("-c")
            .arg(file)
            .arg("-o")
            .arg(&object)
            .output()
            .map_err(|e| format!("could not run {CLANG}: {e}"))?;
        let report = String::from_utf8_lossy(&output.stderr);
        if !output.status.success() {
            return Err(format!("{CLANG} --offload-arch={arch} failed:\n{report}"));
        }
        parse(&report).ok_or_else(|| format!("no resource remarks in clang's output for {arch}:\n{report}"))
    }
}

/// The ISA-version library of `arch`; ROCm 5.2 predates gfx942, whose closest is gfx940's
/// (it only sets the ISA-version constant a few library functions read).
fn isa_library(arch: &str) -> String {
    let name = format!("oclc_isa_version_{}", arch.trim_start_matches("gfx"));
    if bitcode(&name).exists() {
        name
    } else {
        "oclc_isa_version_940".into()
    }
}

fn bitcode(name: &str) -> PathBuf {
    Path::new(BITCODE).join(format!("{name}.bc"))
}

/// Reads `VGPRs: N`, `SGPRs: N`, `ScratchSize [bytes/lane]: N`, `VGPRs Spill: N`, `SGPRs Spill: N`,
/// `LDS Size [bytes/block]: N`, and refuses a dynamic stack (an unresolved call makes the
/// other figures meaningless).
fn parse(report: &str) -> Option<Resources> {
    let field = |label: &str| {
        report
            .lines()
            .filter_map(|l| l.split_once(&format!("remark:     {label}: ")))
            .filter_map(|(_, rest)| rest.split_whitespace().next()?.parse::<u32>().ok())
            .max()
    };
    if report.contains("Dynamic Stack: True") {
        return None;
    }
    Some(Resources {
        registers: field("VGPRs")?,
        scalar_registers: field("SGPRs")?,
        spill_stores: field("VGPRs Spill")? + field("SGPRs Spill")?,
        spill_loads: 0,
        shared_bytes: field("LDS Size [bytes/block]")?,
        stack_bytes: field("ScratchSize [bytes/lane]")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_clang_resource_remarks() {
        let r = |label: &str, n: u32| format!("k.hip:19:1: remark:     {label}: {n} [-Rpass-analysis=kernel-resource-usage]\n");
        let mut report = [("SGPRs", 71), ("VGPRs", 24), ("AGPRs", 0), ("ScratchSize [bytes/lane]", 16)]
            .map(|(l, n)| r(l, n))
            .concat();
        report += "k.hip:19:1: remark:     Dynamic Stack: False [-Rpass-analysis=kernel-resource-usage]\n";
        report += &[("SGPRs Spill", 2), ("VGPRs Spill", 3), ("LDS Size [bytes/block]", 512)]
            .map(|(l, n)| r(l, n))
            .concat();
        let parsed = parse(&report).unwrap();
        assert_eq!(
            (
                parsed.registers,
                parsed.scalar_registers,
                parsed.spill_stores,
                parsed.stack_bytes,
                parsed.shared_bytes
            ),
            (24, 71, 5, 16, 512)
        );
        assert!(parse(&report.replace("Dynamic Stack: False", "Dynamic Stack: True")).is_none());
    }
}
