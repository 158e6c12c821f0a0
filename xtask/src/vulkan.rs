//! A first run on a bare machine: wgpu needs a Vulkan driver. Without a GPU that is Mesa's
//! software driver (llvmpipe); installed here when we run as root, else the command is printed.

use std::process::Command;

const PACKAGES: [&str; 2] = ["mesa-vulkan-drivers", "libvulkan1"];

/// Ok when the default runtime has a device (installing the software Vulkan driver first if
/// needed and possible).
pub fn ensure_device() -> Result<(), String> {
    let Err(missing) = interp_runtime::default_client() else {
        return Ok(());
    };
    let command = format!("apt-get install -y {}", PACKAGES.join(" "));
    if !is_root() || Command::new("apt-get").arg("--version").output().is_err() {
        return Err(format!("{missing}\n(run `{command}` as root, then this again)"));
    }
    println!("\n== no Vulkan device ({missing}); installing the software driver: {command}");
    run("apt-get", &["update", "-qq"])?;
    run("apt-get", &["install", "-y", "-qq", PACKAGES[0], PACKAGES[1]])?;
    interp_runtime::default_client()
        .map(|_| ())
        .map_err(|still| format!("after installing {}: {still}", PACKAGES.join(" ")))
}

pub(crate) fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| String::from_utf8_lossy(&out.stdout).trim() == "0")
}

fn run(program: &str, args: &[&str]) -> Result<(), String> {
    let status = Command::new(program)
        .args(args)
        .env("DEBIAN_FRONTEND", "noninteractive")
        .status()
        .map_err(|e| format!("could not start {program}: {e}"))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{program} {}` failed ({status})", args.join(" ")))
    }
}
