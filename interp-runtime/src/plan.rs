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

/// A whole resize: shapes and both axes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    /// Input shape (N, C, H, W).
    pub input: [usize; 4],
    /// Output shape.
    pub output: [usize; 4],
    /// The height axis.
    pub rows: AxisPlan,
    /// The width axis.
    pub cols: AxisPlan,
}

/// Plans both axes of a resize of `input` by a resolved rule (options already checked
/// against it).
pub(crate) fn plan(rule: &Rule, input: [usize; 4], options: &Options) -> Result<Plan, InterpError> {
    let area = matches!(rule, Rule::Sampler(Sampler::Area));
    let [n, c, h, w] = input;
    check_axis("height", "input", h)?;
    check_axis("width", "input", w)?;
    element_count("input", input)?;
    let ((out_h, fh), (out_w, fw)) = match options.resize {
        Resize::Size { height, width } => (
            output_length("height", h, Some(height), None)?,
            output_length("width", w, Some(width), None)?,
        ),
        Resize::Scale { height, width, recompute } => {
            // Area always recomputes (PyTorch forces it: adaptive pooling needs integer sizes).
            let recompute = recompute || area;
            (
                output_length("height", h, None, Some((height, recompute)))?,
                output_length("width", w, None, Some((width, recompute)))?,
            )
        }
    };
    let axis = |in_len, out_len, factor: Option<f64>| AxisPlan {
        in_len,
        out_len,
        // Area windows are integer: a factor only chooses the output size.
        factor: factor.filter(|_| !area),
        align_corners: options.align_corners,
    };
    let (rows, cols) = (axis(h, out_h, fh), axis(w, out_w, fw));
    let output = [n, c, out_h, out_w];
    element_count("output", output)?;
    Ok(Plan { input, output, rows, cols })
}

/// Elements of a shape, refused when the product does not fit the kernels' 32-bit indices.
fn element_count(tensor: &'static str, shape: [usize; 4]) -> Result<u64, InterpError> {
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
        plan(&resolve(&mode.into(), options)?, input, options)
    }

    #[test]
    fn pytorch_scale_rules() {
        let opts = Options::scale(2.5, 0.3);
        // Given factor, not recomputed: out = floor(in * factor), the kernels use 1 / factor.
        let plan = planned(Mode::Bilinear, [1, 1, 10, 10], &opts).unwrap();
        assert_eq!(plan.output, [1, 1, 25, 3]);
        assert_eq!(plan.rows.scale(), 1.0 / 2.5);
        assert_eq!(plan.cols.scale(), 1.0 / 0.3);
        // Area: the factor only sets the size.
        assert_eq!(planned(Mode::Area, [1, 1, 10, 10], &opts).unwrap().cols.factor, None);
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
