//! Running cargo steps with a visible header and a pass/fail record.

use std::process::Command;
use std::time::Instant;

/// Runs `cargo <args>` in the workspace root; Err names the step.
pub fn cargo(step: &str, args: &[&str]) -> Result<(), String> {
    cargo_with_env(step, args, &[])
}

/// [`cargo`] with extra environment variables.
pub fn cargo_with_env(step: &str, args: &[&str], env: &[(&str, &str)]) -> Result<(), String> {
    let shown: Vec<String> = env.iter().map(|(k, v)| format!("{k}={v} ")).collect();
    println!("\n== {step}: {}cargo {}", shown.concat(), args.join(" "));
    let start = Instant::now();
    let status = Command::new(env!("CARGO"))
        .args(args)
        .envs(env.iter().copied())
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

/// Test counts gathered from cargo's `test result:` lines.
#[derive(Default, Clone, Copy)]
pub struct Counts {
    pub passed: usize,
    pub failed: usize,
}

/// Like [`cargo`] for `cargo test`: echoes its output and adds up its `test result:` lines.
pub fn cargo_test(step: &str, args: &[&str]) -> Result<Counts, String> {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;

    println!("\n== {step}: cargo {}", args.join(" "));
    let start = Instant::now();
    let mut child = Command::new(env!("CARGO"))
        .args(args)
        .current_dir(crate::project_root())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{step}: could not start cargo: {e}"))?;
    let mut counts = Counts::default();
    let stdout = child.stdout.take().expect("piped stdout");
    for line in BufReader::new(stdout).lines().map_while(Result::ok) {
        println!("{line}");
        if let Some(rest) = line.strip_prefix("test result: ") {
            counts.passed += number_before(rest, " passed").unwrap_or(0);
            counts.failed += number_before(rest, " failed").unwrap_or(0);
        }
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    println!(
        "== {step}: {} in {:.0?}",
        if status.success() { "ok" } else { "FAILED" },
        start.elapsed()
    );
    if status.success() {
        Ok(counts)
    } else {
        Err(format!(
            "{step} failed ({status}): {} passed, {} failed",
            counts.passed, counts.failed
        ))
    }
}

/// The number just before `label` in `text` ("ok. 4 passed; 0 failed" -> 4 for " passed").
pub fn number_before(text: &str, label: &str) -> Option<usize> {
    let end = text.find(label)?;
    text[..end].rsplit(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}
