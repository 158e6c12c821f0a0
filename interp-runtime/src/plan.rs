//! Host-side geometry: output size, per-axis scale, support and table widths. Pure functions,
//! checked before anything touches the device.

use crate::error::InterpError;
use crate::method::{Rule, Sampler};
use crate::options::{Options, Resize};

/// One axis of a resize, as asked: lengths, the user's scale factor when the kernels use it,
/// and align_corners. The taps follow from it exactly (`taps.rs`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxisPlan {
    /// Input length.
    pub in_len: usize,
    /// Output length.
    pub out_len: usize,
    /// The user's scale factor when PyTorch's rule makes the kernels use `1 / factor` (a
    /// `Resize::Scale` without `recompute`); `None` means `in / out`.
    pub factor: Option<f64>,
    /// Corners aligned.
    pub align_corners: bool,
}

impl AxisPlan {
    /// Input pixels per output pixel in f64: `(in - 1) / (out - 1)` with align_corners (0 for
    /// one output), else `1 / factor` or `in / out` (PyTorch's `area_pixel_compute_scale`).
    pub fn scale(&self) -> f64 {
        match (self.align_corners, self.factor) {
            (true, _) if self.out_len > 1 => (self.in_len as f64 - 1.0) / (self.out_len as f64 - 1.0),
            (true, _) => 0.0,
            (false, Some(factor)) => 1.0 / factor,
            (false, None) => self.in_len as f64 / self.out_len as f64,
        }
    }
}

/// Longest axis the kernels index (tap indices are 32-bit; PyTorch's own limit for one axis).
pub const MAX_AXIS: usize = i32::MAX as usize;

/// Output length and the scale the kernels use, following PyTorch's `compute_output_size`
/// and `area_pixel_compute_scale`.
fn output_length(
    axis: &'static str,
    in_len: usize,
    size: Option<usize>,
    factor: Option<(f64, bool)>,
) -> Result<(usize, Option<f64>), InterpError> {
    match (size, factor) {
        (Some(out), _) => {
            if out == 0 {
                return Err(InterpError::InvalidSize { axis, value: out });
            }
            check_axis(axis, "output", out)?;
            Ok((out, None))
        }
        (None, Some((factor, recompute))) => {
            if !(factor.is_finite() && factor > 0.0) {
                return Err(InterpError::InvalidScale { axis, value: factor });
            }
            let out = (in_len as f64 * factor).floor();
            if out < 1.0 {
                return Err(InterpError::EmptyOutput {
                    axis,
                    input: in_len,
                    scale: factor,
                });
            }
            if out > MAX_AXIS as f64 {
                return Err(InterpError::AxisTooLong {
                    axis,
                    tensor: "output",
                    length: out as u64,
                    max: MAX_AXIS as u64,
                });
            }
            Ok((out as usize, (!recompute).then_some(factor)))
        }
        (None, None) => unreachable!("Resize always gives a size or a factor"),
    }
}

fn check_axis(axis: &'static str, tensor: &'static str, length: usize) -> Result<(), InterpError> {
    if length > MAX_AXIS {
        return Err(InterpError::AxisTooLong {
            axis,
            tensor,
            length: length as u64,
            max: MAX_AXIS as u64,
        });
    }
    Ok(())
}

/// A whole resize: shapes (N, C, spatial axes...) and one plan per spatial axis.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Input shape: (N, C, L), (N, C, H, W) or (N, C, D, H, W).
    pub input: Vec<usize>,
    /// Output shape, of the same rank.
    pub output: Vec<usize>,
    /// The spatial axes, outermost first.
    pub axes: Vec<AxisPlan>,
}

/// Ranks a resize accepts: batch and channels, then one to three spatial axes.
pub const RANKS: [usize; 3] = [3, 4, 5];

/// Names of the spatial axes of a tensor of `rank`, outermost first.
pub(crate) fn axis_names(rank: usize) -> &'static [&'static str] {
    match rank {
        3 => &["length"],
        4 => &["height", "width"],
        _ => &["depth", "height", "width"],
    }
}

/// Plans every spatial axis of a resize of `input` by a resolved rule (options already
/// checked against it).
pub(crate) fn plan(rule: &Rule, input: &[usize], options: &Options) -> Result<Plan, InterpError> {
    let area = matches!(rule, Rule::Sampler(Sampler::Area));
    if !RANKS.contains(&input.len()) {
        return Err(InterpError::WrongRank {
            tensor: "input",
            rank: input.len(),
            shape: input.to_vec(),
        });
    }
    let names = axis_names(input.len());
    let spatial = &input[2..];
    if options.resize.axes() != spatial.len() {
        return Err(InterpError::ResizeAxes {
            given: options.resize.axes(),
            rank: input.len(),
            shape: input.to_vec(),
        });
    }
    for (&axis, &len) in names.iter().zip(spatial) {
        check_axis(axis, "input", len)?;
    }
    element_count("input", input)?;
    let mut axes = Vec::with_capacity(spatial.len());
    for (k, (&axis, &in_len)) in names.iter().zip(spatial).enumerate() {
        let (out_len, factor) = match options.resize {
            Resize::Size(sizes) => output_length(axis, in_len, Some(sizes.as_slice()[k]), None)?,
            // Area always recomputes (PyTorch forces it: adaptive pooling needs integer sizes).
            Resize::Scale { factors, recompute } => output_length(axis, in_len, None, Some((factors.as_slice()[k], recompute || area)))?,
        };
        axes.push(AxisPlan {
            in_len,
            out_len,
            // Area windows are integer: a factor only chooses the output size.
            factor: factor.filter(|_| !area),
            align_corners: options.align_corners,
        });
    }
    let output: Vec<usize> = input[..2].iter().copied().chain(axes.iter().map(|a| a.out_len)).collect();
    element_count("output", &output)?;
    Ok(Plan {
        input: input.to_vec(),
        output,
        axes,
    })
}

/// Elements of a shape, refused when the product does not fit the kernels' 32-bit indices.
fn element_count(tensor: &'static str, shape: &[usize]) -> Result<u64, InterpError> {
    let max = u32::MAX as u64;
    let count = shape
        .iter()
        .try_fold(1u64, |acc, &d| acc.checked_mul(d as u64).filter(|&v| v <= max));
    count.ok_or_else(|| InterpError::IndexOverflow {
        what: format!("{tensor} elements of shape {shape:?}"),
        value: shape.iter().fold(1u64, |acc, &d| acc.saturating_mul(d as u64)),
        max,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::method::{resolve, Mode};

    fn planned(mode: Mode, input: [usize; 4], options: &Options) -> Result<Plan, InterpError> {
        plan(&resolve(&mode.into(), options)?, &input, options)
    }

    #[test]
    fn pytorch_scale_rules() {
        let opts = Options::scale(2.5, 0.3);
        // Given factor, not recomputed: out = floor(in * factor), the kernels use 1 / factor.
        let plan = planned(Mode::Bilinear, [1, 1, 10, 10], &opts).unwrap();
        assert_eq!(plan.output, [1, 1, 25, 3]);
        assert_eq!(plan.axes[0].scale(), 1.0 / 2.5);
        assert_eq!(plan.axes[1].scale(), 1.0 / 0.3);
        // Area: the factor only sets the size.
        assert_eq!(planned(Mode::Area, [1, 1, 10, 10], &opts).unwrap().axes[1].factor, None);
        // align_corners: (in-1)/(out-1), 0 for a single output.
        let aligned = |in_len, out_len| AxisPlan {
            in_len,
            out_len,
            factor: None,
            align_corners: true,
        };
        assert_eq!(aligned(4, 7).scale(), 0.5);
        assert_eq!(aligned(4, 1).scale(), 0.0);
    }

    #[test]
    fn sizes_beyond_the_index_range_are_refused() {
        let input = [1, 1, 4, 4];
        let err = planned(Mode::Bilinear, input, &Options::size((1 << 63) + 1, 4)).unwrap_err();
        assert!(matches!(err, InterpError::AxisTooLong { axis: "height", .. }), "{err}");
        let err = planned(Mode::Bilinear, input, &Options::size(70_000, 70_000)).unwrap_err();
        assert!(matches!(err, InterpError::IndexOverflow { .. }), "{err}");
        // A long axis alone is fine: no bound of one rule applies to the others.
        assert!(planned(Mode::Bilinear, [1, 1, 1, 70_000], &Options::size(1, 70_000)).is_ok());
        assert!(planned(Mode::Bilinear, [1, 1, 1, 100_000], &Options::size(1, 50_000)).is_ok());
    }
}
