//! `cargo xtask verify`: every check, in order, stopping at the first failure.

use crate::cmd::{cargo, cargo_test, cargo_with_env};
use crate::kernels::{self, Report};
use crate::{codegen, filters, package, Action};

pub fn run() -> Result<(), String> {
    cargo("format", &["fmt", "--all", "--", "--check"])?;
    cargo("lint", &["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"])?;
    println!("\n== generated files");
    codegen::run(Action::Check)?;
    filters::run(Action::Check)?;
    println!("\n== kernels: CUDA, HIP and WGSL sources of every kernel, compiled and checked");
    let start = std::time::Instant::now();
    let report = kernels::run(None)?;
    fail_on_kernel_errors(&report)?;
    println!("== kernels: ok in {:.0?} (table at the end)", start.elapsed());
    // Every public item documented, every intra-doc link resolving.
    let deny = [("RUSTDOCFLAGS", "-D warnings")];
    cargo_with_env("doc", &["doc", "--workspace", "--no-deps", "--exclude", "xtask"], &deny)?;
    // Each library crate packaged as crates.io would receive it and built from that package,
    // against the other packaged crates; nothing is uploaded.
    package::run()?;
    // The HIP runtime's build: cubecl-hip-sys loads ROCm's libraries at run time, so the
    // library, its tests and examples build and link without ROCm (they need an AMD GPU to run).
    let hip = [
        "build",
        "-p",
        "interp-runtime",
        "--no-default-features",
        "--features",
        "hip,testing",
        "--tests",
        "--examples",
    ];
    cargo("hip build", &hip)?;
    // The tests run on the default runtime: make sure the machine has a device for it.
    crate::vulkan::ensure_device()?;
    // The UI tests (trybuild) run as part of the workspace tests, in interp-macros/tests/ui.rs.
    let counts = cargo_test("tests", &["test", "--workspace", "--", "--nocapture"])?;
    println!("\nverify: all checks passed");
    println!("\ngenerated kernels:\n{}", report.table());
    // The plain closing line CI reads.
    println!("verify: {} passed, {} failed", counts.passed, counts.failed);
    Ok(())
}

/// Err (after the table) lists every failed kernel.
pub fn fail_on_kernel_errors(report: &Report) -> Result<(), String> {
    let failures = report.failures();
    if failures.is_empty() {
        return Ok(());
    }
    println!("{}", report.table());
    Err(format!("{} generated kernels failed:\n{}", failures.len(), failures.join("\n")))
}
