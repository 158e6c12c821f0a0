//! `--versus`: each case under the base tuning and an alternative, interleaved in one process
//! (same tensors, same flush, the same minutes of the device's clock), and the ratios.

use std::fmt::Write;
use std::time::Duration;

/// Forward and backward times of one case: under the base tuning and the alternative, each the
/// faster of two runs, and the base's run-to-run spread.
pub struct Pair {
    pub base: [Duration; 2],
    pub other: [Duration; 2],
    /// Largest relative difference between the base's two runs (forward or backward).
    pub noise: f64,
}

/// Times `base`, `other`, `base`, `other` ([forward, backward] each).
pub fn interleaved(base: impl Fn() -> [Duration; 2], other: impl Fn() -> [Duration; 2]) -> Pair {
    let (base_1, other_1, base_2, other_2) = (base(), other(), base(), other());
    let faster = |a: [Duration; 2], b: [Duration; 2]| [a[0].min(b[0]), a[1].min(b[1])];
    let noise = (0..2)
        .map(|k| (ms(base_1[k]) - ms(base_2[k])).abs() / ms(base_1[k].min(base_2[k])))
        .fold(0.0, f64::max);
    Pair {
        base: faster(base_1, base_2),
        other: faster(other_1, other_2),
        noise,
    }
}

/// One line: times in ms and base / alternative (> 1: the alternative is faster).
pub fn line(key: &str, pair: &Pair) -> String {
    let side = |k: usize| format!("{:8.4} -> {:8.4} ms ({:5.2}x)", ms(pair.base[k]), ms(pair.other[k]), ratio(pair, k));
    format!("{key:<48} fwd {} | bwd {} | noise {:3.0}%", side(0), side(1), 100.0 * pair.noise)
}

/// Geometric means and the cases the alternative wins or loses beyond the noise; `versus.csv`
/// in `out_dir` when given.
pub fn summary(compared: &[(String, Pair)], out_dir: Option<&str>) {
    let mut text = String::new();
    for (k, side) in ["forward", "backward"].iter().enumerate() {
        let logs: Vec<f64> = compared.iter().map(|(_, p)| ratio(p, k).ln()).collect();
        let mean = (logs.iter().sum::<f64>() / logs.len().max(1) as f64).exp();
        let beyond = |faster: bool| {
            compared
                .iter()
                .filter(|(_, p)| {
                    let r = ratio(p, k);
                    if faster {
                        r > 1.0 + p.noise
                    } else {
                        r < 1.0 / (1.0 + p.noise)
                    }
                })
                .count()
        };
        let _ = writeln!(
            text,
            "{side}: the alternative {mean:.3}x over {} cases; faster beyond the noise in {}, slower in {}",
            compared.len(),
            beyond(true),
            beyond(false)
        );
    }
    eprint!("{text}");
    let Some(dir) = out_dir else { return };
    let mut csv = String::from("case,base_fwd_ms,other_fwd_ms,base_bwd_ms,other_bwd_ms,noise\n");
    for (key, p) in compared {
        let _ = writeln!(
            csv,
            "{key},{:.5},{:.5},{:.5},{:.5},{:.3}",
            ms(p.base[0]),
            ms(p.other[0]),
            ms(p.base[1]),
            ms(p.other[1]),
            p.noise
        );
    }
    let path = format!("{dir}/versus.csv");
    std::fs::write(&path, csv).unwrap_or_else(|e| panic!("{path}: {e}"));
    std::fs::write(format!("{dir}/versus.md"), text).unwrap_or_else(|e| panic!("{dir}/versus.md: {e}"));
}

fn ratio(pair: &Pair, k: usize) -> f64 {
    ms(pair.base[k]) / ms(pair.other[k])
}

/// Milliseconds, at least a nanosecond's worth (a ratio of launch-sized times stays finite).
fn ms(d: Duration) -> f64 {
    d.max(Duration::from_nanos(1)).as_secs_f64() * 1e3
}
