//! The widest row and the mean entries a row of both axes' tables of a 2-D resize, forward and
//! adjoint (backward), from the f64 reference's taps merged and without zero weights as the
//! runtime's tables hold them: what the launch rules' fill bounds read (docs/PERFORMANCE.md
//! v31 placed the blocks rule with it). `cargo run --release --example table_stats -- MODE H W
//! OUT_H OUT_W` (MODE a `Mode` name, `-aa` appended for antialiasing) prints
//! `fwd ROW_WIDTH ROW_MEAN COL_WIDTH COL_MEAN bwd ...`.

use std::collections::BTreeMap;

use interp_runtime::{reference, Mode, Options};

/// (widest row, mean entries a row) of `taps` (an axis of `in_len` inputs), or of its adjoint.
fn stats(taps: &reference::AxisTaps, in_len: usize, adjoint: bool) -> (usize, f64) {
    let mut rows: Vec<BTreeMap<usize, f64>> = vec![BTreeMap::new(); if adjoint { in_len } else { taps.len() }];
    for (o, row) in taps.iter().enumerate() {
        for &(i, w) in row {
            let (r, k) = if adjoint { (i, o) } else { (o, i) };
            *rows[r].entry(k).or_insert(0.0) += w;
        }
    }
    let counts: Vec<usize> = rows.iter().map(|m| m.values().filter(|&&w| w != 0.0).count()).collect();
    let widest = counts.iter().copied().max().unwrap_or(0);
    (widest, counts.iter().sum::<usize>() as f64 / counts.len().max(1) as f64)
}

fn main() {
    let usage = "usage: table_stats MODE[-aa] H W OUT_H OUT_W";
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args.first().expect(usage);
    let mode = *Mode::ALL
        .iter()
        .find(|m| m.name() == name.trim_end_matches("-aa"))
        .expect("a Mode name");
    let dims: Vec<usize> = args[1..].iter().map(|s| s.parse().expect(usage)).collect();
    let [h, w, out_h, out_w] = dims[..] else { panic!("{usage}") };
    let options = Options::size(out_h, out_w).antialias(name.ends_with("-aa"));
    let (rows, cols) = reference::taps(mode, [1, 1, h, w], &options).expect("a valid resize");
    let (fr, fc) = (stats(&rows, h, false), stats(&cols, w, false));
    let (br, bc) = (stats(&rows, h, true), stats(&cols, w, true));
    println!(
        "fwd {} {:.2} {} {:.2} bwd {} {:.2} {} {:.2}",
        fr.0, fr.1, fc.0, fc.1, br.0, br.1, bc.0, bc.1
    );
}
