//! Running cargo steps with a visible header and a pass/fail record.

use std::process::Command;
use std::time::Instant;

/// Runs `cargo <args>` in the workspace root; Err names the step.
pub fn cargo(step: &str, args: &[&str]) -> Result<(), String> {
    println!("\n== {step}: cargo {}", args.join(" "));
    let start = Instant::now();
    let status = Command::new(env!("CARGO"))
        .args(args)
        .current_dir(crate::project_root())
        .status()
        .map_err(|e| format!("{step}: could not start cargo: {e}"))?;
    println!(
        "== {step}: {} in {:.0?}",
        if status.success() { "ok" } else { "FAILED" },
        start.elapsed()
    );
    if status.success() {
        Ok(())
    } else {
        Err(format!("{step} failed ({status})"))
    }
}
