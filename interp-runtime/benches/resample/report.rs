//! Tables: one line per case while running, then a Markdown table and a CSV for the docs.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::time::Duration;

use crate::Measured;

/// PyTorch's times for one case (milliseconds), from the JSON-lines file of the Python script.
#[derive(Clone, Debug, Default)]
pub struct TorchTimes {
    pub forward_ms: Option<f64>,
    pub backward_ms: Option<f64>,
    pub deterministic: Option<bool>,
}

/// Reads `{"key": ..., "forward_ms": .., "backward_ms": .., "deterministic": ..}` lines.
/// A tiny hand parser: the file is ours and flat.
pub fn read_pytorch(path: &str) -> HashMap<String, TorchTimes> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| l.trim_start().starts_with('{'))
        .filter_map(|line| {
            let field = |name: &str| -> Option<String> {
                let start = line.find(&format!("\"{name}\":"))? + name.len() + 3;
                let rest = line[start..].trim_start();
                let value = if let Some(stripped) = rest.strip_prefix('"') {
                    stripped[..stripped.find('"')?].to_string()
                } else {
                    rest[..rest.find([',', '}'])?].trim().to_string()
                };
                Some(value)
            };
            let number = |name: &str| field(name).and_then(|v| v.parse::<f64>().ok());
            let times = TorchTimes {
                forward_ms: number("forward_ms"),
                backward_ms: number("backward_ms"),
                deterministic: field("deterministic").map(|v| v == "true"),
            };
            Some((field("key")?, times))
        })
        .collect()
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn gbps(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / d.as_secs_f64() / 1e9
}

pub fn line(m: &Measured, torch: Option<&TorchTimes>) -> String {
    let b = m.case.bytes();
    let torch_ratio = |t: Option<f64>, ours: Duration| t.map(|t| format!("{t:.3} ms ({:.2}x)", t / ms(ours))).unwrap_or("-".into());
    format!(
        "{:<48} fwd {:7.3} ms {:6.0} GB/s | bwd {:7.3} ms {:6.0} GB/s | copy {:6.0} GB/s | host {:5.1} us | torch fwd {} bwd {}",
        m.case.key(),
        ms(m.forward),
        gbps(b, m.forward),
        ms(m.backward),
        gbps(b, m.backward),
        gbps(b, m.copy),
        m.host.as_secs_f64() * 1e6,
        torch_ratio(torch.and_then(|t| t.forward_ms), m.forward),
        torch_ratio(torch.and_then(|t| t.backward_ms), m.backward),
    )
}

/// The verdict against issue 9's targets: speed-ups over PyTorch (geometric means, the cases
/// behind it) per direction, and the share of the copy roofline on tensors above 64 MB.
fn verdict(results: &[Measured], torch: &HashMap<String, TorchTimes>) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "## Verdict\n");
    for (direction, pick) in [("forward", 0), ("backward", 1)] {
        let mut ratios = Vec::new();
        let mut behind = Vec::new();
        for m in results {
            let t = torch.get(&m.case.key());
            let (ours, theirs) = match pick {
                0 => (m.forward, t.and_then(|t| t.forward_ms)),
                _ => (m.backward, t.and_then(|t| t.backward_ms)),
            };
            if let Some(theirs) = theirs {
                let ratio = theirs / ms(ours);
                ratios.push((m.case.input.len(), ratio));
                if ratio < 1.0 {
                    behind.push(format!(
                        "  - {}: interp {:.3} ms, PyTorch {theirs:.3} ms ({ratio:.2}x)",
                        m.case.key(),
                        ms(ours)
                    ));
                }
            }
        }
        let geo = |rs: &[f64]| (rs.iter().map(|r| r.ln()).sum::<f64>() / rs.len().max(1) as f64).exp();
        let all: Vec<f64> = ratios.iter().map(|r| r.1).collect();
        let by_rank: Vec<String> = [3, 4, 5]
            .iter()
            .filter_map(|&rank| {
                let rs: Vec<f64> = ratios.iter().filter(|r| r.0 == rank).map(|r| r.1).collect();
                (!rs.is_empty()).then(|| format!("rank {rank}: {:.2}x over {}", geo(&rs), rs.len()))
            })
            .collect();
        let _ = writeln!(
            md,
            "- {direction}: geometric-mean speed-up over PyTorch {:.2}x on {} cases ({}); behind PyTorch in {}",
            geo(&all),
            all.len(),
            by_rank.join(", "),
            behind.len()
        );
        for line in behind {
            let _ = writeln!(md, "{line}");
        }
    }
    let cheap = |m: &Measured| matches!(m.case.label().as_str(), "nearest" | "nearest-exact" | "bilinear" | "area");
    for (kind, is_cheap, target) in [
        ("cheap modes (nearest, bilinear, area)", true, 70.0),
        ("tap-heavy modes", false, 50.0),
    ] {
        let large: Vec<&Measured> = results
            .iter()
            .filter(|m| m.case.bytes() > 64 << 20 && cheap(m) == is_cheap)
            .collect();
        let share = |d: Duration, m: &Measured| 100.0 * m.copy.as_secs_f64() / d.as_secs_f64();
        let meets = |pick: fn(&Measured) -> Duration| large.iter().filter(|m| share(pick(m), m) >= target).count();
        let _ = writeln!(
            md,
            "- {kind} above 64 MB at >= {target}% of the copy: forward {} of {}, backward {} of {}",
            meets(|m| m.forward),
            large.len(),
            meets(|m| m.backward),
            large.len()
        );
    }
    let raises = results
        .iter()
        .filter(|m| torch.get(&m.case.key()).and_then(|t| t.deterministic) == Some(false))
        .count();
    let _ = writeln!(
        md,
        "- PyTorch's backward raises under deterministic mode in {raises} cases; interp is deterministic in all\n"
    );
    md
}

/// Prints the Markdown table and writes it (and a CSV) under `out_dir`.
pub fn summary(results: &[Measured], torch: &HashMap<String, TorchTimes>, runtime: &str, out_dir: Option<&str>) {
    let mut md = verdict(results, torch);
    let _ = writeln!(md, "## All cases\n\nRuntime: {runtime}. interp times one `Resampler` per case (tables built once, as a layer keeps it), median device time of 21 runs, each right behind an L2 flush (the flush alone timed beside it and subtracted: cubecl 0.10 times CUDA on the host clock). `host us`: host time of one forward call. GB/s = (grad_out bytes read + grad_in bytes written) / time; forward counts input + output bytes the same way. `copy` is a device-to-device copy moving the same bytes. PyTorch ratio = PyTorch time / interp time (> 1: interp faster).\n");
    let _ = writeln!(md, "| case | interp bwd ms | bwd GB/s | % copy | PyTorch bwd ms | bwd ratio | PyTorch deterministic | interp fwd ms | fwd GB/s | PyTorch fwd ms | fwd ratio |");
    let _ = writeln!(md, "|---|---:|---:|---:|---:|---:|:-:|---:|---:|---:|---:|");
    let mut csv = String::from("case,mode,dtype,layout,bytes,interp_fwd_ms,interp_bwd_ms,copy_ms,torch_fwd_ms,torch_bwd_ms,host_fwd_us\n");
    for m in results {
        let b = m.case.bytes();
        let t = torch.get(&m.case.key()).cloned().unwrap_or_default();
        let opt = |v: Option<f64>| v.map(|v| format!("{v:.3}")).unwrap_or("n/a".into());
        let ratio = |v: Option<f64>, d: Duration| v.map(|v| format!("{:.1}x", v / ms(d))).unwrap_or("n/a".into());
        let det = match t.deterministic {
            Some(true) => "yes",
            Some(false) => "raises",
            None => "n/a",
        };
        let _ = writeln!(
            md,
            "| {} | {:.3} | {:.0} | {:.0}% | {} | {} | {det} | {:.3} | {:.0} | {} | {} |",
            m.case.key(),
            ms(m.backward),
            gbps(b, m.backward),
            100.0 * m.copy.as_secs_f64() / m.backward.as_secs_f64(),
            opt(t.backward_ms),
            ratio(t.backward_ms, m.backward),
            ms(m.forward),
            gbps(b, m.forward),
            opt(t.forward_ms),
            ratio(t.forward_ms, m.forward),
        );
        let layout = if m.case.layout == interp_runtime::testing::Layout::Nhwc {
            "nhwc"
        } else {
            "nchw"
        };
        let _ = writeln!(
            csv,
            "{},{},{},{layout},{b},{:.5},{:.5},{:.5},{},{},{:.1}",
            m.case.key(),
            m.case.label(),
            m.case.dtype,
            ms(m.forward),
            ms(m.backward),
            ms(m.copy),
            t.forward_ms.map(|v| v.to_string()).unwrap_or_default(),
            t.backward_ms.map(|v| v.to_string()).unwrap_or_default(),
            m.host.as_secs_f64() * 1e6
        );
    }
    println!("{md}");
    if let Some(dir) = out_dir {
        std::fs::write(format!("{dir}/bench_table.md"), &md).expect("write table");
        std::fs::write(format!("{dir}/bench.csv"), &csv).expect("write csv");
    }
}
