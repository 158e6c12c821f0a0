//! `cargo xtask gpu-bundle`: build the CUDA test, example and bench binaries here (the GPU machine
//! has no package registry) and put them in `.gpu/bin`, ready to carry and run with
//! `bench/gpu_run.sh`.

use std::fs;
use std::process::Command;

/// (what, prefix of the copied names, cargo arguments).
const BINARIES: [(&str, &str, &[&str]); 5] = [
    (
        "tests",
        "",
        &["test", "--release", "-p", "interp-runtime", "--features", "cuda", "--no-run"],
    ),
    (
        "user-mode tests",
        "user_mode_",
        &[
            "test",
            "--release",
            "-p",
            "interp-user-mode",
            "--features",
            "interp-runtime/cuda",
            "--no-run",
        ],
    ),
    (
        "bench",
        "",
        &[
            "bench",
            "-p",
            "interp-runtime",
            "--features",
            "cuda",
            "--bench",
            "resample",
            "--no-run",
        ],
    ),
    (
        "examples",
        "",
        &[
            "build",
            "--release",
            "-p",
            "interp-runtime",
            "--features",
            "cuda",
            "--example",
            "tour",
            "--example",
            "run_cases",
        ],
    ),
    (
        "Burn training step bench",
        "",
        &[
            "build",
            "--release",
            "-p",
            "interp-burn",
            "--no-default-features",
            "--features",
            "cuda",
            "--example",
            "step_bench",
        ],
    ),
];

pub fn run() -> Result<(), String> {
    let root = crate::project_root();
    let bin = root.join(".gpu/bin");
    fs::create_dir_all(&bin).map_err(|e| e.to_string())?;
    for (what, prefix, args) in BINARIES {
        println!("== building {what}: cargo {}", args.join(" "));
        let output = Command::new(env!("CARGO"))
            .args(args.iter().copied())
            .arg("--message-format=json-render-diagnostics")
            .current_dir(&root)
            .output()
            .map_err(|e| e.to_string())?;
        if !output.status.success() {
            return Err(format!("building {what} failed:\n{}", String::from_utf8_lossy(&output.stderr)));
        }
        for path in executables(&String::from_utf8_lossy(&output.stdout)) {
            let name = std::path::Path::new(&path).file_name().and_then(|n| n.to_str()).unwrap_or_default();
            // Test and bench executables carry a hash suffix: keep the target name.
            let stem = name.rsplit_once('-').map(|(stem, _)| stem).unwrap_or(name);
            let short = format!("{prefix}{stem}");
            fs::copy(&path, bin.join(&short)).map_err(|e| format!("{path}: {e}"))?;
            println!("   .gpu/bin/{short}");
        }
    }
    println!("\nrun on the GPU machine (carry `.gpu`): bash bench/gpu_run.sh");
    Ok(())
}

/// `"executable":"..."` values of cargo's JSON messages.
fn executables(json: &str) -> Vec<String> {
    json.lines()
        .filter_map(|line| {
            let start = line.find("\"executable\":\"")? + 14;
            let end = line[start..].find('"')?;
            Some(line[start..start + end].to_string())
        })
        .collect()
}
