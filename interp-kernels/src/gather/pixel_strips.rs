//! The one-pass gather for channels-last layouts whose channel count makes no vectors (RGB,
//! 21 segmentation classes): a unit serves one channel of several pixels along a row.

use cubecl::prelude::*;

use super::{weighted_sum, AxisTable, GatherLayout};

/// Like [`separable_gather`](fn@super::separable_gather) for channels-last tensors of scalar
/// channels: each unit owns one channel of `strip` pixels of a row, interleaved with its group
/// of `group_pixels` pixels x `layout.channels` channels, so that consecutive units are
/// consecutive elements of the destination (channel `c = lane % channels` of pixel
/// `q = group_start + k * group_pixels + lane / channels`, `k < strip`): every load and store
/// instruction of a group stays coalesced as in the one-output-per-unit kernel, while the
/// index arithmetic (six divisions per output there, most of a cheap filter's instructions)
/// is paid once per `strip` outputs. `layout.width` is the true width; strides in elements
/// (`M = 1`). For rows of at most `SUM_BLOCK` tap pairs only.
#[allow(clippy::manual_div_ceil)]
#[cube(launch_unchecked)]
pub fn separable_gather_pixel_strips<FS: Float, FD: Float, A: Float, M: Size>(
    src: &Array<Vector<FS, M>>,
    dst: &mut Array<Vector<FD, M>>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
    group_pixels: u32,
    #[comptime] strip: u32,
    #[comptime] unit_taps: bool,
) {
    let group = group_pixels * layout.channels;
    let span = group_pixels * strip;
    let groups = (layout.width + span - 1) / span;
    let total = layout.batch * layout.height * groups * group;
    let unit = ABSOLUTE_POS as u32;
    if unit >= total {
        terminate!();
    }
    let lane = unit % group;
    let mut rest = unit / group;
    let g = rest % groups;
    rest /= groups;
    let p = rest % layout.height;
    let n = rest / layout.height;
    let c = lane % layout.channels;
    let first = g * span + lane / layout.channels;
    let s = layout.src_strides;
    let d = layout.dst_strides;
    let base = n * s.n + c * s.c;
    let dst_row = n * d.n + c * d.c + p * d.h;
    #[unroll]
    for k in 0..strip {
        let q = first + k * group_pixels;
        if q < layout.width {
            let sum = weighted_sum::<FS, A, M>(src, base, s, rows, p, cols, q, unit_taps, false, false);
            dst[(dst_row + q * d.w) as usize] = Vector::cast_from(sum);
        }
    }
}
