//! Project automation, in the style of rust-analyzer's xtask: `cargo xtask <command>`.
//!
//! - `verify`: every check CI runs (fmt, clippy, snapshots, the generated-kernel checks, tests,
//!   UI tests), closing with the kernel table and `verify: N passed, M failed`.
//! - `fuzz --cases N [--seed S]`: the property suite with N random cases (or the one seed S), in
//!   release, on the default runtime.
//! - `codegen`: regenerate the committed expansion snapshots of the built-in modes.
//! - `filters`: redraw `docs/filters.svg`, every mode's weight and frequency response.
//! - `kernels [--only NAME]`: the generated-source checks alone (CUDA, HIP, WGSL; see `kernels`),
//!   of every kernel or of those whose names contain NAME.
//! - `tour`: the demo (`cargo run --release --example tour -p interp-runtime`), after making
//!   sure the machine has a device for it (see `vulkan`).
//! - `package`: verify's package step alone (each library crate packaged and built from the
//!   package; stale copies of earlier runs removed first, see `package`).
//! - `gpu-bundle`: build the CUDA tests, demo and bench into `.gpu/bin` for the GPU machine.

mod cmd;
mod codegen;
mod filters;
mod gpu;
mod kernels;
mod modes;
mod package;
mod verify;
mod vulkan;

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str =
    "usage: cargo xtask <verify | tour | fuzz [--cases N | --seed S] | codegen | filters | kernels [--only NAME] | package | gpu-bundle>";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("verify") => verify::run(),
        Some("tour") => {
            vulkan::ensure_device().and_then(|()| cmd::cargo("tour", &["run", "--release", "--example", "tour", "-p", "interp-runtime"]))
        }
        Some("fuzz") => fuzz(&args[1..]),
        Some("codegen") => codegen::run(Action::Overwrite),
        Some("filters") => filters::run(Action::Overwrite),
        Some("package") => package::run(),
        Some("gpu-bundle") => gpu::run(),
        Some("kernels") => kernels_only(&args[1..]).and_then(kernels::run).and_then(|report| {
            verify::fail_on_kernel_errors(&report)?;
            println!("{}", report.table());
            Ok(())
        }),
        _ => Err(USAGE.to_string()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("xtask: {message}");
            ExitCode::FAILURE
        }
    }
}

/// `cargo xtask kernels [--only NAME]`: the kernels whose names contain NAME, or all.
fn kernels_only(args: &[String]) -> Result<Option<&str>, String> {
    match args {
        [] => Ok(None),
        [flag, name] if flag == "--only" => Ok(Some(name.as_str())),
        _ => Err(format!("kernels: unknown arguments {args:?}\n{USAGE}")),
    }
}

/// `cargo xtask fuzz --cases N` / `--seed S`: the property suite, more cases than CI runs.
fn fuzz(args: &[String]) -> Result<(), String> {
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1));
    let mut env = vec![];
    if let Some(cases) = value("--cases") {
        env.push(("INTERP_PROPERTY_CASES", cases.as_str()));
    }
    if let Some(seed) = value("--seed") {
        env.push(("INTERP_PROPERTY_SEED", seed.as_str()));
    }
    if env.is_empty() && !args.is_empty() {
        return Err(format!("fuzz: unknown arguments {args:?}\n{USAGE}"));
    }
    // The seed replays the one case it names: with it a case count would be ignored.
    if value("--cases").is_some() && value("--seed").is_some() {
        return Err(format!(
            "fuzz: --cases and --seed exclude each other (--seed S replays case S alone)\n{USAGE}"
        ));
    }
    vulkan::ensure_device()?;
    let test = [
        "test",
        "--release",
        "-p",
        "interp-runtime",
        "--test",
        "properties",
        "--",
        "--nocapture",
    ];
    cmd::cargo_with_env("fuzz", &test, &env)
}

/// What to do with a generated file.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Write it.
    Overwrite,
    /// Fail when it is missing or stale.
    Check,
}

/// The workspace root (xtask lives one level below it).
pub fn project_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the workspace")
        .to_path_buf()
}
