//! The taps of one output sample along one axis: which input indices it reads and with what
//! filter argument. Used by both table kernels, so forward and adjoint agree by construction.

use cubecl::prelude::*;

use crate::geometry::TapRule;

/// Runtime description of one axis of a resize, shared by the table kernels.
#[derive(CubeType, CubeLaunch, Clone, Copy)]
pub struct AxisGeometry {
    /// Input length along the axis.
    pub in_len: u32,
    /// Output length along the axis.
    pub out_len: u32,
    /// Input pixels per output pixel (PyTorch's `area_pixel_compute_scale`).
    pub scale: f32,
    /// Support radius in input pixels, widened by the scale when antialiasing.
    pub support: f32,
    /// Factor from input-pixel distance to filter argument (`1/max(scale,1)` when antialiasing).
    pub filter_scale: f32,
    /// 1 when `align_corners` (source = scale * o), else 0 (half-pixel centres).
    pub align_corners: u32,
    /// Tap slots per output: the forward table's row width.
    pub taps: u32,
    /// Candidate window of the adjoint: an input `j` can only be read by outputs `o` with
    /// `(j + lo_offset)/scale - shift - 1 <= o <= (j + hi_offset)/scale - shift + 1`.
    pub lo_offset: f32,
    pub hi_offset: f32,
    pub shift: f32,
}

/// The taps of one output sample: indices `first .. first + count` (clamped to the image for
/// [`TapRule::Clamp`]), filter argument `(index - origin) * filter_scale`.
#[derive(CubeType, Clone, Copy)]
pub struct TapSpan {
    pub first: i32,
    pub count: u32,
    pub origin: f32,
}

/// Taps of output `o` under `rule`.
// `div_ceil` has no `#[cube]` expansion, hence the manual form.
#[allow(clippy::manual_div_ceil)]
#[cube]
pub fn tap_span(o: u32, geom: &AxisGeometry, #[comptime] rule: TapRule) -> TapSpan {
    let in_len = geom.in_len as i32;
    let of = o as f32;
    match comptime!(rule) {
        TapRule::Clamp => {
            let src = if geom.align_corners == 1 {
                geom.scale * of
            } else {
                geom.scale * (of + 0.5) - 0.5
            };
            let base = f32::floor(src) as i32;
            TapSpan {
                first: base - (geom.taps / 2) as i32 + 1,
                count: geom.taps,
                origin: src,
            }
        }
        TapRule::Renormalize => {
            let center = geom.scale * (of + 0.5);
            // `as i32` truncates toward zero, like Pillow's and PyTorch's `(int)` casts.
            let lo = i32::max((center - geom.support + 0.5) as i32, 0);
            let hi = i32::min((center + geom.support + 0.5) as i32, in_len);
            let count = i32::min(i32::max(hi - lo, 0), geom.taps as i32);
            TapSpan {
                first: lo,
                count: count as u32,
                origin: center - 0.5,
            }
        }
        TapRule::Nearest => {
            let j = i32::min(f32::floor(of * geom.scale) as i32, in_len - 1);
            TapSpan {
                first: j,
                count: 1,
                origin: j as f32,
            }
        }
        TapRule::NearestExact => {
            let j = i32::min(f32::floor((of + 0.5) * geom.scale) as i32, in_len - 1);
            TapSpan {
                first: j,
                count: 1,
                origin: j as f32,
            }
        }
        TapRule::Area => {
            // Exact integer window of adaptive average pooling; the launcher guarantees
            // `out_len * in_len` fits in u32.
            let start = (o * geom.in_len) / geom.out_len;
            let end = ((o + 1) * geom.in_len + geom.out_len - 1) / geom.out_len;
            TapSpan {
                first: start as i32,
                count: u32::min(end - start, geom.taps),
                origin: start as f32,
            }
        }
    }
}

/// Input index actually read by tap `k` (edge-clamped under [`TapRule::Clamp`]).
#[cube]
pub fn tap_index(span: &TapSpan, k: u32, geom: &AxisGeometry) -> u32 {
    let j = span.first + k as i32;
    i32::clamp(j, 0, geom.in_len as i32 - 1) as u32
}

/// Filter argument of tap `k`: signed distance from the sample position, in filter units.
#[cube]
pub fn tap_argument(span: &TapSpan, k: u32, geom: &AxisGeometry) -> f32 {
    ((span.first + k as i32) as f32 - span.origin) * geom.filter_scale
}

/// Outputs whose taps may include input `j`: an inclusive range, already clipped to the axis.
#[cube]
pub fn candidate_outputs(j: u32, geom: &AxisGeometry) -> (u32, u32) {
    let last = geom.out_len as i32 - 1;
    let jf = j as f32;
    let mut lo = 0i32;
    let mut hi = last;
    if geom.scale > 0.0 {
        lo = f32::floor((jf + geom.lo_offset) / geom.scale - geom.shift) as i32 - 1;
        hi = f32::ceil((jf + geom.hi_offset) / geom.scale - geom.shift) as i32 + 1;
    }
    // Edge-clamped taps pile onto the first and last input.
    if j == 0 {
        lo = 0;
    }
    if j == geom.in_len - 1 {
        hi = last;
    }
    (i32::max(lo, 0) as u32, i32::min(hi, last) as u32)
}
