//! The f64 CPU reference: per-axis tap lists written from the published formulas (PyTorch's
//! `area_pixel_compute_source_index`, Pillow's `precompute_coeffs`, adaptive pooling windows),
//! a forward gather, and a backward written as a *scatter* (the literal adjoint of the forward).
//! It shares nothing with the runtime's tables (`taps.rs`, exact rationals) but the scale rule
//! of the plan (`AxisPlan::scale`), and computes coordinates in plain f64.

use crate::error::InterpError;
use crate::method::{resolve, Method, Rule, Sampler};
use crate::options::{Border, Options};
pub use crate::plan::{AxisPlan, Plan};

/// `taps[o]` = the (input index, weight) pairs output `o` reads along one axis.
pub type AxisTaps = Vec<Vec<(usize, f64)>>;

/// The plan (shapes and every spatial axis) of a resize of `input`, as the runtime makes it.
pub fn plan(method: impl Into<Method>, input: impl AsRef<[usize]>, options: &Options) -> Result<Plan, InterpError> {
    crate::plan::plan(&resolve(&method.into(), options)?, input.as_ref(), options)
}

/// The reference tap lists of both axes (rows, cols) of a resize of a 4-D `input`.
pub fn taps(method: impl Into<Method>, input: [usize; 4], options: &Options) -> Result<(AxisTaps, AxisTaps), InterpError> {
    let mut axes = axes_taps(method, input, options)?;
    let cols = axes.pop().expect("two axes");
    Ok((axes.pop().expect("two axes"), cols))
}

/// The reference tap lists of every spatial axis of a resize of `input` (any rank), outermost first.
pub fn axes_taps(method: impl Into<Method>, input: impl AsRef<[usize]>, options: &Options) -> Result<Vec<AxisTaps>, InterpError> {
    let rule = resolve(&method.into(), options)?;
    let plan = crate::plan::plan(&rule, input.as_ref(), options)?;
    Ok(plan.axes.iter().map(|axis| axis_taps(&rule, axis)).collect())
}

/// The tap lists of one axis under `rule`.
fn axis_taps(rule: &Rule, axis: &AxisPlan) -> AxisTaps {
    let n_in = axis.in_len;
    let s = axis.scale();
    // PyTorch's nearest modes take their scale in f32.
    let s32 = match axis.factor {
        Some(f) => (1.0 / f) as f32,
        None => n_in as f32 / axis.out_len as f32,
    };
    (0..axis.out_len)
        .map(|o| {
            let of = o as f64;
            match rule {
                Rule::Filter {
                    filter,
                    border: Border::Clamp,
                    ..
                } => {
                    let weight = |x| filter.weight(x);
                    let src = clamp_source(axis, o);
                    let radius = filter.support().ceil() as i64;
                    let base = src.floor() as i64;
                    (base - radius + 1..=base + radius)
                        .map(|j| (j.clamp(0, n_in as i64 - 1) as usize, weight(j as f64 - src)))
                        .collect()
                }
                Rule::Filter {
                    filter,
                    border: Border::Renormalize,
                    antialias,
                } => {
                    let weight = |x| filter.weight(x);
                    let widen = *antialias && s >= 1.0;
                    let support = filter.support() * if widen { s } else { 1.0 };
                    let inv = if widen { 1.0 / s } else { 1.0 };
                    let center = s * (of + 0.5);
                    let lo = ((center - support + 0.5) as i64).max(0);
                    let hi = ((center + support + 0.5) as i64).min(n_in as i64);
                    let taps: Vec<_> = (lo..hi).map(|j| (j as usize, weight((j as f64 - center + 0.5) * inv))).collect();
                    normalized(taps)
                }
                Rule::Sampler(Sampler::Nearest) => {
                    // PyTorch computes nearest indices in f32.
                    let j = ((o as f32) * s32).floor() as usize;
                    vec![(j.min(n_in - 1), 1.0)]
                }
                Rule::Sampler(Sampler::NearestExact) => {
                    // `floorf((o + 0.5) * s)`: a double product, rounded to float by floorf.
                    let j = (((of + 0.5) * s32 as f64) as f32).floor() as usize;
                    vec![(j.min(n_in - 1), 1.0)]
                }
                Rule::Sampler(Sampler::Area) => {
                    let out = axis.out_len;
                    let start = o * n_in / out;
                    let end = ((o + 1) * n_in).div_ceil(out);
                    let w = 1.0 / (end - start) as f64;
                    (start..end).map(|j| (j, w)).collect()
                }
            }
        })
        .collect()
}

/// PyTorch's source coordinate `s (o + 0.5) - 0.5` (`s o` with align_corners). For an explicit
/// size it is computed as one f64 division of exact integers, `((2o + 1) in - out) / (2 out)`
/// (`o (in - 1) / (out - 1)` aligned), so an exact half-pixel tie stays exact and a
/// discontinuous filter (box) falls on the side its own definition gives; `s (o + 0.5) - 0.5`
/// with a rounded `s` would tip it either way.
fn clamp_source(axis: &AxisPlan, o: usize) -> f64 {
    let (o, n_in, out) = (o as f64, axis.in_len as f64, axis.out_len as f64);
    match (axis.align_corners, axis.factor) {
        (true, _) if axis.out_len > 1 => o * (n_in - 1.0) / (out - 1.0),
        (true, _) => 0.0,
        (false, None) => ((2.0 * o + 1.0) * n_in - out) / (2.0 * out),
        (false, Some(_)) => axis.scale() * (o + 0.5) - 0.5,
    }
}

fn normalized(taps: Vec<(usize, f64)>) -> Vec<(usize, f64)> {
    let sum: f64 = taps.iter().map(|t| t.1).sum();
    if sum == 0.0 {
        return taps;
    }
    taps.into_iter().map(|(j, w)| (j, w / sum)).collect()
}

/// Index of element (n, c, h, w) in a contiguous NCHW array of `shape`.
fn at(shape: [usize; 4], n: usize, c: usize, h: usize, w: usize) -> usize {
    ((n * shape[1] + c) * shape[2] + h) * shape[3] + w
}

/// `y = resize(x)` for contiguous NCHW f64 data: a gather over the tap lists.
pub fn forward(x: &[f64], input: impl AsRef<[usize]>, rows: &AxisTaps, cols: &AxisTaps) -> Vec<f64> {
    let input: [usize; 4] = input.as_ref().try_into().expect("a 4-D shape");
    let output = [input[0], input[1], rows.len(), cols.len()];
    let mut y = vec![0.0; output.iter().product()];
    for n in 0..input[0] {
        for c in 0..input[1] {
            for (p, row) in rows.iter().enumerate() {
                for (q, col) in cols.iter().enumerate() {
                    let mut acc = 0.0;
                    for &(i, wy) in row {
                        for &(j, wx) in col {
                            acc += wy * wx * x[at(input, n, c, i, j)];
                        }
                    }
                    y[at(output, n, c, p, q)] = acc;
                }
            }
        }
    }
    y
}

/// `dx = resize^T(dy)`: every output gradient scattered back onto the inputs it was read from.
pub fn backward(dy: &[f64], input: impl AsRef<[usize]>, rows: &AxisTaps, cols: &AxisTaps) -> Vec<f64> {
    let input: [usize; 4] = input.as_ref().try_into().expect("a 4-D shape");
    let output = [input[0], input[1], rows.len(), cols.len()];
    let mut dx = vec![0.0; input.iter().product()];
    for n in 0..input[0] {
        for c in 0..input[1] {
            for (p, row) in rows.iter().enumerate() {
                for (q, col) in cols.iter().enumerate() {
                    let g = dy[at(output, n, c, p, q)];
                    for &(i, wy) in row {
                        for &(j, wx) in col {
                            dx[at(input, n, c, i, j)] += wy * wx * g;
                        }
                    }
                }
            }
        }
    }
    dx
}

/// `y = resize(x)` for contiguous f64 data of any rank (N, C, spatial...): each spatial axis
/// gathered in turn (exact in f64 up to rounding, as the resize is a tensor product).
pub fn forward_axes(x: &[f64], input: &[usize], axes: &[AxisTaps]) -> Vec<f64> {
    let mut shape = input.to_vec();
    let mut values = x.to_vec();
    for (k, taps) in axes.iter().enumerate() {
        let axis = k + 2;
        let (outer, inner): (usize, usize) = (shape[..axis].iter().product(), shape[axis + 1..].iter().product());
        let (n_in, n_out) = (shape[axis], taps.len());
        let mut next = vec![0.0; outer * n_out * inner];
        for a in 0..outer {
            for (o, row) in taps.iter().enumerate() {
                for b in 0..inner {
                    next[(a * n_out + o) * inner + b] = row.iter().map(|&(i, w)| w * values[(a * n_in + i) * inner + b]).sum();
                }
            }
        }
        shape[axis] = n_out;
        values = next;
    }
    values
}

/// `dx = resize^T(dy)` for any rank: each axis's output gradients scattered back onto the
/// inputs they were read from, axis by axis.
pub fn backward_axes(dy: &[f64], input: &[usize], axes: &[AxisTaps]) -> Vec<f64> {
    let mut shape: Vec<usize> = input[..2].iter().copied().chain(axes.iter().map(Vec::len)).collect();
    let mut values = dy.to_vec();
    for (k, taps) in axes.iter().enumerate().rev() {
        let axis = k + 2;
        let (outer, inner): (usize, usize) = (shape[..axis].iter().product(), shape[axis + 1..].iter().product());
        let (n_in, n_out) = (input[axis], taps.len());
        let mut next = vec![0.0; outer * n_in * inner];
        for a in 0..outer {
            for (o, row) in taps.iter().enumerate() {
                for b in 0..inner {
                    let g = values[(a * n_out + o) * inner + b];
                    for &(i, w) in row {
                        next[(a * n_in + i) * inner + b] += w * g;
                    }
                }
            }
        }
        shape[axis] = n_in;
        values = next;
    }
    values
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::method::Mode;

    fn taps(mode: Mode, in_len: usize, out_len: usize, antialias: bool) -> AxisTaps {
        let options = Options::size(out_len, out_len).antialias(antialias);
        super::taps(mode, [1, 1, in_len, in_len], &options).unwrap().0
    }

    #[test]
    fn bilinear_upsample_matches_pytorch_weights() {
        // PyTorch: src = 0.5 * (o + 0.5) - 0.5; o = 1 -> src = 0.25 -> 0.75 x0 + 0.25 x1.
        let t = taps(Mode::Bilinear, 4, 8, false);
        assert_eq!(t[1], vec![(0, 0.75), (1, 0.25)]);
        // o = 0 -> src = -0.25: both taps clamp to x0.
        assert_eq!(t[0].iter().map(|&(j, w)| (j, w)).collect::<Vec<_>>(), vec![(0, 0.25), (0, 0.75)]);
    }

    #[test]
    fn bicubic_weights_are_keys_minus_075() {
        // t = 0.5: Keys(a=-0.75) gives [-0.09375, 0.59375, 0.59375, -0.09375].
        let t = taps(Mode::Bicubic, 8, 4, false); // s = 2, src = 2o + 0.5
        let w: Vec<f64> = t[1].iter().map(|p| p.1).collect();
        assert_eq!(w, vec![-0.09375, 0.59375, 0.59375, -0.09375]);
        assert_eq!(t[1].iter().map(|p| p.0).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
    }

    #[test]
    fn area_windows_are_exact() {
        let t = taps(Mode::Area, 5, 3, false);
        let windows: Vec<Vec<usize>> = t.iter().map(|r| r.iter().map(|p| p.0).collect()).collect();
        assert_eq!(windows, vec![vec![0, 1], vec![1, 2, 3], vec![3, 4]]);
    }

    #[test]
    fn scatter_backward_is_the_adjoint_of_forward() {
        let rows = taps(Mode::Lanczos3, 7, 3, true);
        let cols = taps(Mode::Bicubic, 3, 8, false);
        let input = [1, 2, 7, 3];
        let x: Vec<f64> = (0..42).map(|i| ((i * 37 % 11) as f64 - 5.0) / 3.0).collect();
        let g: Vec<f64> = (0..48).map(|i| ((i * 13 % 7) as f64 - 3.0) / 2.0).collect();
        let y = forward(&x, input, &rows, &cols);
        let dx = backward(&g, input, &rows, &cols);
        let lhs: f64 = y.iter().zip(&g).map(|(a, b)| a * b).sum();
        let rhs: f64 = x.iter().zip(&dx).map(|(a, b)| a * b).sum();
        assert!((lhs - rhs).abs() < 1e-12 * lhs.abs().max(1.0), "{lhs} vs {rhs}");
        // The axis-by-axis forms agree with the 2-D ones.
        let axes = [rows, cols];
        let close = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(a, b)| (a - b).abs() < 1e-12);
        assert!(close(&forward_axes(&x, &input, &axes), &y));
        assert!(close(&backward_axes(&g, &input, &axes), &dx));
    }

    #[test]
    fn volume_adjoint_and_separability() {
        let input = [1, 2, 3, 4, 5];
        let axes = axes_taps(Mode::Bicubic, input, &Options::sizes([5, 2, 7])).unwrap();
        let x: Vec<f64> = (0..120).map(|i| ((i * 37 % 11) as f64 - 5.0) / 3.0).collect();
        let g: Vec<f64> = (0..140).map(|i| ((i * 13 % 7) as f64 - 3.0) / 2.0).collect();
        let (y, dx) = (forward_axes(&x, &input, &axes), backward_axes(&g, &input, &axes));
        assert_eq!((y.len(), dx.len()), (140, 120));
        let lhs: f64 = y.iter().zip(&g).map(|(a, b)| a * b).sum();
        let rhs: f64 = x.iter().zip(&dx).map(|(a, b)| a * b).sum();
        assert!((lhs - rhs).abs() < 1e-12 * lhs.abs().max(1.0), "{lhs} vs {rhs}");
        // A constant volume stays constant (every bicubic row sums to one).
        let ones = forward_axes(&vec![1.0; 120], &input, &axes);
        assert!(ones.iter().all(|v| (v - 1.0).abs() < 1e-12));
    }
}
