//! Project automation, in the style of rust-analyzer's xtask: `cargo xtask <command>`.
//!
//! - `verify`: every check CI runs (fmt, clippy, tests, UI tests, codegen snapshots).
//! - `codegen`: regenerate the committed expansion snapshots of the built-in modes.
//! - `gpu-bundle`: build the CUDA tests, demo and bench into `.gpu/bin` for the GPU machine.

mod cmd;
mod codegen;
mod gpu;
mod verify;

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask <verify | codegen | gpu-bundle>";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("verify") => verify::run(),
        Some("codegen") => codegen::run(codegen::Mode::Overwrite),
        Some("gpu-bundle") => gpu::run(),
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

/// The workspace root (xtask lives one level below it).
pub fn project_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the workspace")
        .to_path_buf()
}
