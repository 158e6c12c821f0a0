//! Project automation, in the style of rust-analyzer's xtask: `cargo xtask <command>`.
//!
//! - `verify`: every check CI runs (fmt, clippy, snapshots, the generated-kernel checks, tests,
//!   UI tests), closing with the kernel table and `verify: N passed, M failed`.
//! - `codegen`: regenerate the committed expansion snapshots of the built-in modes.
//! - `filters`: redraw `docs/filters.svg`, every mode's weight and frequency response.
//! - `kernels`: the generated-source checks alone (CUDA, HIP, WGSL; see `kernels`).
//! - `gpu-bundle`: build the CUDA tests, demo and bench into `.gpu/bin` for the GPU machine.

mod cmd;
mod codegen;
mod filters;
mod gpu;
mod kernels;
mod modes;
mod verify;

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <verify | codegen | filters | kernels | gpu-bundle>";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("verify") => verify::run(),
        Some("codegen") => codegen::run(Action::Overwrite),
        Some("filters") => filters::run(Action::Overwrite),
        Some("gpu-bundle") => gpu::run(),
        Some("kernels") => kernels::run().and_then(|report| {
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
