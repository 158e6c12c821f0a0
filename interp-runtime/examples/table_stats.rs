// temporary: table widths and mean taps per axis, forward and adjoint
use interp_runtime::{reference, Mode, Options};
use std::collections::BTreeMap;
fn stats(t: &reference::AxisTaps, in_len: usize, adjoint: bool) -> (usize, f64) {
    let rows: Vec<BTreeMap<usize, f64>> = if !adjoint {
        t.iter()
            .map(|r| {
                let mut m = BTreeMap::new();
                for &(i, w) in r {
                    *m.entry(i).or_insert(0.0) += w;
                }
                m
            })
            .collect()
    } else {
        let mut a = vec![BTreeMap::new(); in_len];
        for (o, r) in t.iter().enumerate() {
            for &(i, w) in r {
                *a[i].entry(o).or_insert(0.0) += w;
            }
        }
        a
    };
    let counts: Vec<usize> = rows.iter().map(|m| m.values().filter(|&&w| w != 0.0).count()).collect();
    (
        *counts.iter().max().unwrap(),
        counts.iter().sum::<usize>() as f64 / counts.len() as f64,
    )
}
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let mode = *Mode::ALL.iter().find(|m| m.name() == a[1].trim_end_matches("-aa")).unwrap();
    let aa = a[1].ends_with("-aa");
    let dims: Vec<usize> = a[2..].iter().map(|s| s.parse().unwrap()).collect();
    let (h, w, oh, ow) = (dims[0], dims[1], dims[2], dims[3]);
    let opts = Options::size(oh, ow).antialias(aa);
    let (r, c) = reference::taps(mode, [1, 1, h, w], &opts).unwrap();
    let (fr, fc) = (stats(&r, h, false), stats(&c, w, false));
    let (br, bc) = (stats(&r, h, true), stats(&c, w, true));
    println!(
        "fwd {} {:.2} {} {:.2} bwd {} {:.2} {} {:.2}",
        fr.0, fr.1, fc.0, fc.1, br.0, br.1, bc.0, bc.1
    );
}
