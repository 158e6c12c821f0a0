//! Host-side geometry: output size, per-axis scale, support and table widths. Pure functions,
//! checked before anything touches the device.

use interp_kernels::{FilterDesc, Mapping, TapRule};

use crate::error::InterpError;
use crate::options::{Resize, ResizeOptions};

/// Everything the table kernels need for one axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AxisPlan {
    pub in_len: usize,
    pub out_len: usize,
    /// Input pixels per output pixel, in f32 as PyTorch's CUDA kernels compute it.
    pub scale: f32,
    /// Support in input pixels (widened when antialiasing a downsample).
    pub support: f32,
    /// Input-pixel distance to filter argument.
    pub filter_scale: f32,
    pub align_corners: bool,
    /// Forward table width: most taps one output reads.
    pub taps: usize,
    /// About how many taps one output reads (nonzero weights, away from the borders).
    pub mean_forward_taps: f64,
    /// Adjoint table width: an upper bound on the outputs that read one input.
    pub adjoint_width: usize,
    pub lo_offset: f32,
    pub hi_offset: f32,
    pub shift: f32,
}

impl AxisPlan {
    /// About how many taps one destination index reads: an output's taps, or for the adjoint
    /// that times `out / in` (each input is read by that many outputs on average).
    pub fn mean_taps(&self, adjoint: bool) -> f64 {
        if adjoint {
            self.mean_forward_taps * self.out_len as f64 / self.in_len as f64
        } else {
            self.mean_forward_taps
        }
    }
}

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
            if out > u32::MAX as f64 {
                return Err(InterpError::IndexOverflow {
                    what: format!("{axis} output length"),
                    value: out as u64,
                    max: u32::MAX as u64,
                });
            }
            Ok((out as usize, (!recompute).then_some(factor)))
        }
        (None, None) => unreachable!("Resize always gives a size or a factor"),
    }
}

/// Plans one axis of a resize with filter `desc`.
pub fn plan_axis(desc: &FilterDesc, in_len: usize, out_len: usize, factor: Option<f64>, align_corners: bool) -> AxisPlan {
    let rule = desc.rule();
    let scale: f32 = if align_corners {
        if out_len > 1 {
            (in_len as f32 - 1.0) / (out_len as f32 - 1.0)
        } else {
            0.0
        }
    } else {
        match factor {
            Some(f) if desc.mapping != Mapping::Area => (1.0 / f) as f32,
            _ => in_len as f32 / out_len as f32,
        }
    };
    let widen = desc.antialias && scale >= 1.0;
    let base_support = desc.support as f32;
    let support = if widen { base_support * scale } else { base_support };
    let filter_scale = if widen { 1.0 / scale } else { 1.0 };
    let taps = match rule {
        TapRule::Clamp => 2 * base_support.ceil() as usize,
        TapRule::Renormalize => 2 * support.ceil() as usize + 1,
        TapRule::Nearest | TapRule::NearestExact => 1,
        TapRule::Area => in_len.div_ceil(out_len) + 1,
    };
    let mean_forward_taps = match rule {
        TapRule::Renormalize => (2.0 * support as f64).min(in_len as f64),
        TapRule::Area => in_len as f64 / out_len as f64,
        _ => taps as f64,
    };
    let half = (taps / 2) as f32;
    let (lo_offset, hi_offset, shift) = match rule {
        TapRule::Clamp if align_corners => (-half, half, 0.0),
        TapRule::Clamp => (0.5 - half, half + 0.5, 0.5),
        TapRule::Renormalize => (-support - 0.5, support + 1.5, 0.5),
        TapRule::Nearest | TapRule::Area => (0.0, 1.0, 0.0),
        TapRule::NearestExact => (0.0, 1.0, 0.5),
    };
    // Candidate range length: span/scale, +2 for floor/ceil, +2 margins, +2 edge extension.
    let adjoint_width = if scale > 0.0 {
        let span = ((hi_offset - lo_offset) / scale).floor() as usize + 6;
        span.min(out_len)
    } else {
        out_len
    };
    AxisPlan {
        in_len,
        out_len,
        scale,
        support,
        filter_scale,
        align_corners,
        taps,
        mean_forward_taps,
        adjoint_width,
        lo_offset,
        hi_offset,
        shift,
    }
}

/// A whole resize: shapes and both axes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Plan {
    pub input: [usize; 4],
    pub output: [usize; 4],
    pub rows: AxisPlan,
    pub cols: AxisPlan,
}

/// Validates the options against the filter and plans both axes.
pub fn plan(desc: &FilterDesc, input: [usize; 4], options: &ResizeOptions) -> Result<Plan, InterpError> {
    if options.align_corners && !desc.align_corners {
        return Err(InterpError::AlignCornersUnsupported { mode: desc.name });
    }
    let [n, c, h, w] = input;
    let ((out_h, fh), (out_w, fw)) = match options.resize {
        Resize::Size { height, width } => (
            output_length("height", h, Some(height), None)?,
            output_length("width", w, Some(width), None)?,
        ),
        Resize::Scale { height, width, recompute } => {
            // Area always recomputes (PyTorch forces it: adaptive pooling needs integer sizes).
            let recompute = recompute || desc.mapping == Mapping::Area;
            (
                output_length("height", h, None, Some((height, recompute)))?,
                output_length("width", w, None, Some((width, recompute)))?,
            )
        }
    };
    let rows = plan_axis(desc, h, out_h, fh, options.align_corners);
    let cols = plan_axis(desc, w, out_w, fw, options.align_corners);
    check_index_range(&rows)?;
    check_index_range(&cols)?;
    Ok(Plan {
        input,
        output: [n, c, out_h, out_w],
        rows,
        cols,
    })
}

/// Table sizes and the area window arithmetic must stay inside u32.
fn check_index_range(axis: &AxisPlan) -> Result<(), InterpError> {
    let max = u32::MAX as u64;
    let checks = [
        ("forward table entries", axis.out_len as u64 * axis.taps as u64),
        ("adjoint table entries", axis.in_len as u64 * axis.adjoint_width as u64),
        ("input length x (output length + 1)", axis.in_len as u64 * (axis.out_len as u64 + 1)),
    ];
    for (what, value) in checks {
        if value > max {
            return Err(InterpError::IndexOverflow {
                what: what.to_string(),
                value,
                max,
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Mode;

    #[test]
    fn pytorch_scale_rules() {
        let bilinear = Mode::Bilinear.desc();
        // Explicit size: in/out.
        let p = plan_axis(&bilinear, 5, 13, None, false);
        assert_eq!(p.scale, 5.0f32 / 13.0);
        // Given factor, not recomputed: 1/factor, out = floor(in * factor).
        let opts = ResizeOptions {
            resize: Resize::Scale {
                height: 2.5,
                width: 0.3,
                recompute: false,
            },
            align_corners: false,
        };
        let plan = plan(&bilinear, [1, 1, 10, 10], &opts).unwrap();
        assert_eq!(plan.output, [1, 1, 25, 3]);
        assert_eq!(plan.rows.scale, (1.0 / 2.5f64) as f32);
        assert_eq!(plan.cols.scale, (1.0 / 0.3f64) as f32);
        // align_corners: (in-1)/(out-1), 0 for a single output.
        assert_eq!(plan_axis(&bilinear, 4, 7, None, true).scale, 0.5);
        assert_eq!(plan_axis(&bilinear, 4, 1, None, true).scale, 0.0);
    }

    #[test]
    fn antialias_widens_only_when_downsampling() {
        let aa = Mode::BicubicAa.desc();
        let down = plan_axis(&aa, 12, 4, None, false);
        assert_eq!((down.support, down.filter_scale, down.taps), (6.0, 1.0 / 3.0, 13));
        let up = plan_axis(&aa, 4, 12, None, false);
        assert_eq!((up.support, up.filter_scale, up.taps), (2.0, 1.0, 5));
    }
}
