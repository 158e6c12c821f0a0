//! The taps of every output along one axis, computed on the host with exact geometry: integer
//! indices from integer (or, for a user scale factor, f64) arithmetic, distances from the
//! nearest tap known to f64 precision whatever the axis length, weights evaluated in f64 with
//! the filter's declared weight and rounded to f32 once. The backward's table is the exact
//! transpose of the forward's, entry for entry.
//!
//! Rules followed (docs/ACCURACY.md):
//! - clamp filters (PyTorch's non-antialiased bilinear/bicubic): `src = s (o + 0.5) - 0.5` (or
//!   `s o` with align_corners) as an exact rational `(2o + 1) in - out) / (2 out)` for an
//!   explicit size, taps `floor(src) - r + 1 ..= floor(src) + r`, indices clamped to the edge;
//! - renormalizing filters (Pillow, PyTorch antialias): Pillow's `precompute_coeffs` in f64,
//!   operation for operation, so ties at half pixels (box) fall as Pillow's do;
//! - the nearest and nearest-exact samplers: PyTorch's f32 index formulas, operation for operation (CPU and CUDA
//!   agree on them);
//! - the area sampler: the exact integer windows of adaptive average pooling.

use crate::error::InterpError;
use crate::filter::Filter;
use crate::method::{Rule, Sampler};
use crate::options::Border;
use crate::plan::AxisPlan;

/// One axis's taps in compressed rows: row `r` holds entries `offsets[r] .. offsets[r + 1]`,
/// in increasing index order, each index at most once, no zero weights.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct AxisTaps {
    pub offsets: Vec<usize>,
    pub index: Vec<u32>,
    pub weight: Vec<f32>,
}

impl AxisTaps {
    pub fn rows(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Most entries in one row.
    pub fn width(&self) -> usize {
        self.offsets.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0)
    }

    /// Mean entries per row.
    pub fn mean(&self) -> f64 {
        self.index.len() as f64 / self.rows().max(1) as f64
    }

    /// Whether every row reads consecutive indices, all with weight exactly one: then the
    /// gathers need only each row's first index and count.
    pub fn unit_contiguous(&self) -> bool {
        self.weight.iter().all(|&w| w == 1.0) && self.uniform_contiguous()
    }

    /// Whether every row reads consecutive indices (any weights): then a sum needs each
    /// row's first index alone, its others following it.
    pub fn contiguous(&self) -> bool {
        self.offsets
            .windows(2)
            .all(|w| self.index[w[0]..w[1]].windows(2).all(|p| p[1] == p[0] + 1))
    }

    /// Whether every row reads consecutive indices with one weight for all of them (area
    /// pooling, box filters, nearest): then a sum needs each row's first index, count and
    /// weight, and can add its source values before weighting them once.
    pub fn uniform_contiguous(&self) -> bool {
        self.contiguous()
            && self.offsets.windows(2).all(|w| {
                let weight = &self.weight[w[0]..w[1]];
                weight.iter().all(|&v| v == weight[0])
            })
    }

    /// Whether every row `r` reads index `r` alone with weight one (an axis the resize leaves
    /// as it is: same length, a filter whose other taps fall on its zeros).
    pub fn is_identity(&self) -> bool {
        self.offsets
            .windows(2)
            .enumerate()
            .all(|(r, w)| w[1] - w[0] == 1 && self.index[w[0]] as usize == r && self.weight[w[0]] == 1.0)
    }

    /// The largest power of two up to 8 that divides every non-empty row's first index and
    /// entry count: rows of consecutive indices then split into aligned vectors of that many.
    pub fn window_alignment(&self) -> u32 {
        self.offsets.windows(2).filter(|w| w[1] > w[0]).fold(8u32, |align, w| {
            let both = self.index[w[0]] | (w[1] - w[0]) as u32;
            align.min(1 << both.trailing_zeros().min(3))
        })
    }

    /// Whether every entry has weight exactly one (the nearest samplers, either direction).
    pub fn unit_weights(&self) -> bool {
        self.weight.iter().all(|&w| w == 1.0)
    }

    /// The taps of two axes read as one, `self` outer: row `r * inner.rows() + q` reads index
    /// `i * inner_len + j` for each entry `i` of row `r` and `j` of `inner`'s row `q`, in that
    /// order (increasing), weight the product. Exact where the weights are one.
    pub fn outer_product(&self, inner: &AxisTaps, inner_len: usize) -> AxisTaps {
        let mut taps = AxisTaps {
            offsets: vec![0],
            index: Vec::new(),
            weight: Vec::new(),
        };
        for r in 0..self.rows() {
            for q in 0..inner.rows() {
                for (i, wi) in self.row(r) {
                    for (j, wj) in inner.row(q) {
                        taps.index.push(i * inner_len as u32 + j);
                        taps.weight.push(wi * wj);
                    }
                }
                taps.offsets.push(taps.index.len());
            }
        }
        taps
    }

    fn row(&self, r: usize) -> impl Iterator<Item = (u32, f32)> + '_ {
        let span = self.offsets[r]..self.offsets[r + 1];
        self.index[span.clone()].iter().copied().zip(self.weight[span].iter().copied())
    }

    /// The transpose: for each of `len` indices, the rows that read it (increasing) with the
    /// same f32 weights, so the backward is the exact adjoint of the forward.
    pub fn transpose(&self, len: usize) -> AxisTaps {
        let mut offsets = vec![0usize; len + 1];
        for &j in &self.index {
            offsets[j as usize + 1] += 1;
        }
        for j in 0..len {
            offsets[j + 1] += offsets[j];
        }
        let mut next = offsets.clone();
        let mut index = vec![0u32; self.index.len()];
        let mut weight = vec![0f32; self.index.len()];
        for o in 0..self.rows() {
            for (j, w) in self.row(o) {
                let slot = &mut next[j as usize];
                index[*slot] = o as u32;
                weight[*slot] = w;
                *slot += 1;
            }
        }
        AxisTaps { offsets, index, weight }
    }
}

/// Accumulates rows of (index, f64 weight), merging repeated indices and dropping zeros.
struct Builder {
    taps: AxisTaps,
    row: Vec<(i64, f64)>,
}

impl Builder {
    fn new(rows: usize) -> Self {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        Self {
            taps: AxisTaps {
                offsets,
                index: Vec::new(),
                weight: Vec::new(),
            },
            row: Vec::new(),
        }
    }

    /// Ends a row whose entries were pushed in non-decreasing index order; `scale` multiplies
    /// every weight (the renormalization) before the one rounding to f32.
    fn finish_row(&mut self, scale: f64) {
        let mut pending: Option<(i64, f64)> = None;
        for &(j, w) in &self.row {
            match &mut pending {
                Some(last) if last.0 == j => last.1 += w,
                _ => {
                    if let Some(done) = pending.replace((j, w)) {
                        push_entry(&mut self.taps, done, scale);
                    }
                }
            }
        }
        if let Some(done) = pending {
            push_entry(&mut self.taps, done, scale);
        }
        self.taps.offsets.push(self.taps.index.len());
        self.row.clear();
    }
}

/// Appends one merged entry, its weight scaled and rounded to f32 once; zeros are dropped.
fn push_entry(taps: &mut AxisTaps, (j, w): (i64, f64), scale: f64) {
    let w = (w * scale) as f32;
    if w != 0.0 {
        taps.index.push(j as u32);
        taps.weight.push(w);
    }
}

/// The forward taps of `axis` under `rule`; a weight that is not finite is refused.
pub(crate) fn forward_taps(rule: &Rule, axis: &AxisPlan) -> Result<AxisTaps, InterpError> {
    let (n_in, n_out) = (axis.in_len as i64, axis.out_len);
    let mut b = Builder::new(n_out);
    for o in 0..n_out as i64 {
        match rule {
            Rule::Filter {
                filter,
                border: Border::Clamp,
                ..
            } => {
                let (base, frac) = clamp_source(axis, o);
                let radius = filter.support().ceil() as i64;
                for j in base - radius + 1..=base + radius {
                    let x = (j - base) as f64 - frac;
                    b.row.push((j.clamp(0, n_in - 1), checked_weight(&**filter, x)?));
                }
                b.finish_row(1.0);
            }
            Rule::Filter {
                filter,
                border: Border::Renormalize,
                antialias,
            } => {
                // Pillow's precompute_coeffs, in its order of operations.
                let scale = axis.scale();
                let widen = *antialias && scale >= 1.0;
                let support = if widen { filter.support() * scale } else { filter.support() };
                let ss = if widen { 1.0 / scale } else { 1.0 };
                let center = (o as f64 + 0.5) * scale;
                // `as i64` truncates toward zero (and saturates), as C's `(int)` cast truncates.
                let lo = ((center - support + 0.5) as i64).max(0);
                let hi = ((center + support + 0.5) as i64).min(n_in);
                let mut sum = 0.0;
                for j in lo..hi {
                    let w = checked_weight(&**filter, (j as f64 - center + 0.5) * ss)?;
                    sum += w;
                    b.row.push((j, w));
                }
                b.finish_row(if sum != 0.0 { 1.0 / sum } else { 1.0 });
            }
            Rule::Sampler(sampler @ (Sampler::Nearest | Sampler::NearestExact)) => {
                b.row.push((nearest_source(*sampler, axis, o), 1.0));
                b.finish_row(1.0);
            }
            Rule::Sampler(Sampler::Area) => {
                let (start, end) = area_window(axis, o);
                let w = 1.0 / (end - start) as f64;
                b.row.extend((start..end).map(|j| (j, w)));
                b.finish_row(1.0);
            }
        }
    }
    Ok(b.taps)
}

/// The filter's weight at `x`, refused when it is not finite (a NaN weight would poison every
/// output that reads the tap).
fn checked_weight(filter: &dyn Filter, x: f64) -> Result<f64, InterpError> {
    let w = filter.weight(x);
    if w.is_finite() {
        Ok(w)
    } else {
        Err(InterpError::InvalidFilter {
            filter: filter.name().to_string(),
            reason: format!("weight({x}) = {w}, not a finite number"),
        })
    }
}

/// `src = base + frac` with `frac` in `[0, 1)`: exact rationals for explicit sizes and
/// align_corners, f64 from `1 / factor` for a user scale factor (PyTorch's rule).
fn clamp_source(axis: &AxisPlan, o: i64) -> (i64, f64) {
    let (n_in, n_out) = (axis.in_len as i128, axis.out_len as i128);
    let o128 = o as i128;
    let (num, den) = match (axis.align_corners, axis.factor) {
        (true, _) if n_out > 1 => (o128 * (n_in - 1), n_out - 1),
        (true, _) => (0, 1),
        (false, Some(factor)) => {
            let src = (1.0 / factor) * (o as f64 + 0.5) - 0.5;
            let base = src.floor();
            return (base as i64, src - base);
        }
        (false, None) => ((2 * o128 + 1) * n_in - n_out, 2 * n_out),
    };
    let base = num.div_euclid(den);
    let rem = num.rem_euclid(den);
    (base as i64, rem as f64 / den as f64)
}

/// PyTorch's nearest index: `min(floor(o * s), in - 1)` (nearest) or
/// `min(floorf((o + 0.5) * s), in - 1)` (nearest-exact, the product in double then rounded to
/// float by `floorf`), with the scale in f32.
fn nearest_source(sampler: Sampler, axis: &AxisPlan, o: i64) -> i64 {
    let s: f32 = match axis.factor {
        Some(factor) => (1.0 / factor) as f32,
        None => axis.in_len as f32 / axis.out_len as f32,
    };
    let j = if sampler == Sampler::Nearest {
        ((o as f32) * s).floor()
    } else {
        (((o as f64 + 0.5) * s as f64) as f32).floor()
    };
    (j as i64).min(axis.in_len as i64 - 1)
}

/// Adaptive average pooling's window `[floor(o in / out), ceil((o + 1) in / out))`, exact.
fn area_window(axis: &AxisPlan, o: i64) -> (i64, i64) {
    let (n_in, n_out, o) = (axis.in_len as i128, axis.out_len as i128, o as i128);
    let start = o * n_in / n_out;
    let end = ((o + 1) * n_in + n_out - 1) / n_out;
    (start as i64, end as i64)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::method::{resolve, Mode};
    use crate::options::Options;

    /// The taps of a built-in mode (no align_corners) along `axis`.
    fn taps(mode: Mode, antialias: bool, axis: &AxisPlan) -> AxisTaps {
        let rule = resolve(&mode.into(), &Options::size(1, 1).antialias(antialias)).unwrap();
        forward_taps(&rule, axis).unwrap()
    }

    /// The taps of a built-in mode from `in_len` to `out_len` (an explicit size, no
    /// align_corners), for other modules' tests.
    pub(crate) fn mode_taps(mode: Mode, antialias: bool, in_len: usize, out_len: usize) -> AxisTaps {
        taps(mode, antialias, &axis(in_len, out_len, None, false))
    }

    fn axis(in_len: usize, out_len: usize, factor: Option<f64>, align_corners: bool) -> AxisPlan {
        AxisPlan {
            in_len,
            out_len,
            factor,
            align_corners,
        }
    }

    fn rows(t: &AxisTaps) -> Vec<Vec<(u32, f32)>> {
        (0..t.rows()).map(|r| t.row(r).collect()).collect()
    }

    #[test]
    fn clamped_taps_merge_at_the_edge() {
        // PyTorch bilinear 4 -> 8: o = 0 reads src = -0.25 (both taps on x0), o = 1 src = 0.25.
        let t = taps(Mode::Bilinear, false, &axis(4, 8, None, false));
        let r = rows(&t);
        assert_eq!(r[0], vec![(0, 1.0)]);
        assert_eq!(r[1], vec![(0, 0.75), (1, 0.25)]);
        assert_eq!(r[7], vec![(3, 1.0)]);
    }

    #[test]
    fn exact_source_far_along_a_long_axis() {
        // 20_000_000 -> 200: src = 100000 (o + 0.5) - 0.5 exactly; f32 would collapse neighbours.
        let t = taps(Mode::Bilinear, false, &axis(20_000_000, 200, None, false));
        for o in 0..200 {
            let expected = 100_000 * o as u32 + 49_999;
            assert_eq!(rows(&t)[o], vec![(expected, 0.5), (expected + 1, 0.5)], "output {o}");
        }
    }

    #[test]
    fn transpose_is_exact_and_ordered() {
        let t = taps(Mode::Bicubic, true, &axis(13, 5, None, false));
        let a = t.transpose(13);
        for j in 0..13 {
            let mine: Vec<(u32, f32)> = a.row(j).collect();
            let from_forward: Vec<(u32, f32)> = (0..5)
                .flat_map(|o| t.row(o).filter(|e| e.0 == j as u32).map(move |e| (o as u32, e.1)))
                .collect();
            assert_eq!(mine, from_forward);
        }
        assert_eq!(a.transpose(5), t);
    }

    #[test]
    fn nearest_follows_pytorch_float_rounding() {
        // 14 -> 46: 14f / 46f lies below 7/23, so o = 23 gives floor(6.9999995) = 6, as
        // PyTorch does (the exact index would be 7).
        let t = taps(Mode::Nearest, false, &axis(14, 46, None, false));
        assert_eq!(rows(&t)[23], vec![(6, 1.0)]);
        assert!(t.unit_contiguous() && t.transpose(14).unit_contiguous());
        // nearest-exact 2 -> 219: (109 + 0.5) * (2f / 219f) rounds to 0.99999994 in float, so
        // output 109 reads input 0, as PyTorch CUDA and PyTorch CPU's channels-last kernel do
        // (its channels-first kernel, through `s (o + 0.5) - 0.5` and back, reads input 1;
        // docs/ACCURACY.md).
        let t = taps(Mode::NearestExact, false, &axis(2, 219, None, false));
        assert_eq!(rows(&t)[109], vec![(0, 1.0)]);
        assert_eq!(rows(&t)[110], vec![(1, 1.0)]);
    }

    #[test]
    fn area_windows_are_exact_for_huge_products() {
        // (o + 1) * in is far beyond u32 here; the windows stay exact.
        let (n_in, n_out) = (2_147_483_647usize, 2_147_483_646usize);
        let a = axis(n_in, n_out, None, false);
        assert_eq!(area_window(&a, 0), (0, 2));
        assert_eq!(area_window(&a, n_out as i64 - 1), (n_in as i64 - 2, n_in as i64));
        let t = taps(Mode::Area, false, &axis(10, 4, None, false));
        assert_eq!(rows(&t)[1], vec![(2, 1.0 / 3.0), (3, 1.0 / 3.0), (4, 1.0 / 3.0)]);
    }

    #[test]
    fn the_outer_product_reads_both_axes_as_one() {
        // Outer: 2 rows over a source of 3; inner: 3 rows over a source of 4.
        let outer = AxisTaps {
            offsets: vec![0, 1, 3],
            index: vec![0, 1, 2],
            weight: vec![1.0, 1.0, 1.0],
        };
        let inner = AxisTaps {
            offsets: vec![0, 2, 2, 3],
            index: vec![1, 2, 3],
            weight: vec![1.0, 1.0, 1.0],
        };
        let both = outer.outer_product(&inner, 4);
        assert_eq!(both.rows(), 6);
        assert_eq!(both.offsets, vec![0, 2, 2, 3, 7, 7, 9]);
        assert_eq!(both.index, vec![1, 2, 3, 5, 6, 9, 10, 7, 11]);
        assert!(both.unit_weights());
        // The product's transpose is the product of the transposes (the adjoint's table).
        let transposed = outer.transpose(3).outer_product(&inner.transpose(4), 3);
        assert_eq!(both.transpose(12), transposed);
    }
}
