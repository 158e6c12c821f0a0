//! The HIP headers of the offline HIP check: ROCm 7.2's, from Debian experimental's
//! `libamdhip64-dev` package, fetched once into `target/hip-headers` and checked against a
//! pinned SHA-256. cubecl-hip 0.10 targets ROCm 7 (cubecl-hip-sys 7.x): its bf16 kernels need
//! `hip/hip_bf16.h` with `__hip_bfloat16`'s conversion operators (ROCm 6+), which Debian
//! bookworm's ROCm 5.2 lacks and trixie's 5.7 has without the operators.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The package, its version and where Debian serves it.
pub const VERSION: &str = "ROCm 7.2.4 (Debian experimental's libamdhip64-dev 7.2.4-1~exp2)";
const URL: &str = "http://deb.debian.org/debian/pool/main/r/rocm-hipamd/libamdhip64-dev_7.2.4-1~exp2_amd64.deb";
const SHA256: &str = "28ae316c5be2d33b53fae8f2151e76a758f84aa3493abafeaef935e49cc5ba07";

/// The include directory (holding `hip/hip_runtime.h`), fetching the package when missing.
pub fn find_or_fetch(target_dir: &Path) -> Result<PathBuf, String> {
    let folder = target_dir.join("hip-headers").join(SHA256);
    let include = folder.join("usr/include");
    if include.join("hip/hip_runtime.h").exists() {
        return Ok(include);
    }
    fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
    let package = folder.join("libamdhip64-dev.deb");
    println!("kernels: fetching the HIP headers of {VERSION}");
    run(Command::new("curl")
        .args(["--fail", "--silent", "--show-error", "--location", "--output"])
        .arg(&package)
        .arg(URL))?;
    let output = run(Command::new("sha256sum").arg(&package))?;
    let sum = output.split_whitespace().next().unwrap_or_default();
    if sum != SHA256 {
        let _ = fs::remove_file(&package);
        return Err(format!("{URL}: SHA-256 {sum} is not the pinned {SHA256}"));
    }
    run(Command::new("dpkg-deb").arg("-x").arg(&package).arg(&folder))?;
    if include.join("hip/hip_runtime.h").exists() {
        Ok(include)
    } else {
        Err(format!("{URL} holds no usr/include/hip/hip_runtime.h"))
    }
}

/// Runs a command; its stdout, or Err with its stderr.
fn run(command: &mut Command) -> Result<String, String> {
    let program = command.get_program().to_string_lossy().to_string();
    let output = command.output().map_err(|e| format!("could not run {program}: {e}"))?;
    if !output.status.success() {
        return Err(format!("{program} failed: {}", String::from_utf8_lossy(&output.stderr).trim()));
    }
    Ok(String::from_utf8_lossy(&output.stdout).to_string())
}
