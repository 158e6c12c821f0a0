//! The one-pass gather for channels-last layouts in pixel strips: a unit serves one channel
//! (channels that make no vectors: RGB, 21 segmentation classes) or one channel vector of
//! several pixels along a row.

use cubecl::prelude::*;

use super::planes::load_row;
use super::single_tap::{single_tap_strip, SingleTapStrip};
use super::{first_slot, weighted_sum, AxisTable, GatherLayout};

/// Pixels per unit built for channel vectors (`M > 1`, the widest vectors of a dtype): a unit
/// of the one-output kernel issues one load chain per output; a strip issues `strip`
/// independent ones and pays its index arithmetic once.
pub const CHANNEL_STRIPS: [u32; 2] = [2, 4];

/// Taps per axis of the fixed-shape channel strips (weighted rows of at most 2x2 taps:
/// bilinear, area 2x): their sums unrolled, every load of a strip free to issue at once.
pub const STRIP_FIXED_TAPS: u32 = 2;

/// Like [`separable_gather`](fn@super::separable_gather) for channels-last tensors of scalar
/// channels: each unit owns one channel of `strip` pixels of a row, interleaved with its group
/// of `group_pixels` pixels x `layout.channels` channels, so that consecutive units are
/// consecutive elements of the destination (channel `c = lane % channels` of pixel
/// `q = group_start + k * group_pixels + lane / channels`, `k < strip`): every load and store
/// instruction of a group stays coalesced as in the one-output-per-unit kernel, while the
/// index arithmetic (six divisions per output there, most of a cheap filter's instructions)
/// is paid once per `strip` outputs. `layout.width` is the true width; `layout.channels` and
/// the strides count vectors of `M` channels (elements for `M = 1`). For rows of at most
/// `SUM_BLOCK` tap pairs only. The sums are the one-output kernel's (`weighted_sum`, row-major
/// tables): the same bits. With `single_tap` (unit taps, every count one) each output is its
/// one source element, summed from zero as `weighted_sum` sums it; with `fixed_taps` (weighted
/// rows of at most that many taps on both axes) the sums run unrolled, taps past a row's
/// count skipped.
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
    #[comptime] single_tap: bool,
    #[comptime] fixed_taps: u32,
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
    if comptime!(single_tap) {
        // One weight-one tap per output (every row's count is one: nearest forward).
        let at = SingleTapStrip {
            row: base + rows.index[first_slot(rows, p, false) as usize] * s.h,
            src_w: s.w,
            dst_row,
            dst_w: d.w,
            first,
            step: group_pixels,
            width: layout.width,
        };
        single_tap_strip::<FS, FD, A, M>(src, dst, cols, at, strip, false);
    } else if comptime!(fixed_taps > 0) {
        // Weighted rows of at most `fixed_taps` taps on both axes: no loops. The row's taps
        // serve the whole strip; a pixel past the row loads the row's last pixel's taps
        // and stores nothing, so the strip's loads can issue together.
        let row_count = rows.count[p as usize];
        let mut row_offset = Array::<u32>::new(fixed_taps as usize);
        let mut row_weight = Array::<f32>::new(fixed_taps as usize);
        load_row(rows, p, row_count, s.h, &mut row_offset, &mut row_weight, fixed_taps, false);
        #[unroll]
        for k in 0..strip {
            let q = first + k * group_pixels;
            let last = u32::min(q, layout.width - 1);
            let col_count = cols.count[last as usize];
            let mut col_offset = Array::<u32>::new(fixed_taps as usize);
            let mut col_weight = Array::<f32>::new(fixed_taps as usize);
            load_row(cols, last, col_count, s.w, &mut col_offset, &mut col_weight, fixed_taps, false);
            // `weighted_sum`'s order and f32 weight products: the same bits.
            let mut acc = Vector::<A, M>::new(A::from_int(0));
            #[unroll]
            for a in 0..fixed_taps {
                #[unroll]
                for b in 0..fixed_taps {
                    // Taps past a count have offset zero (`load_row`): a load of the plane's
                    // first vector, always there, made unconditionally so that it issues with
                    // the others; the select keeps it out of the sum.
                    let x = Vector::<A, M>::cast_from(src[(base + row_offset[a as usize] + col_offset[b as usize]) as usize]);
                    let sum = acc + x * Vector::new(A::cast_from(row_weight[a as usize] * col_weight[b as usize]));
                    acc = select(a < row_count && b < col_count, sum, acc);
                }
            }
            let out = Vector::<FD, M>::cast_from(acc);
            if q < layout.width {
                dst[(dst_row + q * d.w) as usize] = out;
            }
        }
    } else {
        #[unroll]
        for k in 0..strip {
            let q = first + k * group_pixels;
            if q < layout.width {
                let sum = weighted_sum::<FS, A, M>(src, base, s, rows, p, cols, q, unit_taps, false, false, false);
                dst[(dst_row + q * d.w) as usize] = Vector::cast_from(sum);
            }
        }
    }
}
