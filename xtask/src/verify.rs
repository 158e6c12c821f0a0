//! `cargo xtask verify`: every check, in order, stopping at the first failure.

use crate::cmd::{cargo, cargo_test};
use crate::{codegen, filters, Action};

pub fn run() -> Result<(), String> {
    cargo("format", &["fmt", "--all", "--", "--check"])?;
    cargo("lint", &["clippy", "--workspace", "--all-targets", "--", "-D", "warnings"])?;
    println!("\n== generated files");
    codegen::run(Action::Check)?;
    filters::run(Action::Check)?;
    // The UI tests (trybuild) run as part of the workspace tests, in interp-macros/tests/ui.rs.
    let counts = cargo_test("tests", &["test", "--workspace", "--", "--nocapture"])?;
    println!("\nverify: all checks passed");
    // The plain closing line CI reads.
    println!("verify: {} passed, {} failed", counts.passed, counts.failed);
    Ok(())
}
