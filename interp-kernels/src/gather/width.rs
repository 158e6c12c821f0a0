//! One-pass gathers that give a unit several outputs along the width (NCHW destinations).

use cubecl::prelude::*;

use super::single_tap::{single_tap_strip, SingleTapStrip};
use super::{first_slot, weighted_sum, AxisTable, GatherLayout};

/// Like [`separable_gather`](fn@super::separable_gather) for width-contiguous destinations (NCHW): one unit writes `N`
/// consecutive outputs along the width as one vector store. `layout.width` counts those
/// vectors; `dst_strides` are in vectors, `src_strides` in elements (`M = 1`). For rows of
/// at most `SUM_BLOCK` tap pairs only (the runtime sends wider tables to `separable_gather`).
#[cube(launch_unchecked)]
pub fn separable_gather_along_width<FS: Float, FD: Float, A: Float, N: Size, M: Size>(
    src: &Array<Vector<FS, M>>,
    dst: &mut Array<Vector<FD, N>>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
    #[comptime] unit_taps: bool,
) {
    let total = layout.batch * layout.channels * layout.height * layout.width;
    let unit = ABSOLUTE_POS as u32;
    if unit >= total {
        terminate!();
    }
    let qv = unit % layout.width;
    let mut rest = unit / layout.width;
    let p = rest % layout.height;
    rest /= layout.height;
    let c = rest % layout.channels;
    let n = rest / layout.channels;
    let s = layout.src_strides;
    let base = n * s.n + c * s.c;
    let q0 = qv * N::value() as u32;
    let mut out = Vector::<A, N>::empty();
    #[unroll]
    for lane in 0..N::value() {
        let sum = weighted_sum::<FS, A, M>(src, base, s, rows, p, cols, q0 + lane as u32, unit_taps, false, false, false);
        out[lane] = sum[0];
    }
    let d = layout.dst_strides;
    dst[(n * d.n + c * d.c + p * d.h + qv) as usize] = Vector::cast_from(out);
}

/// Units per strip group: one warp on CUDA, so each load and store instruction of a group
/// touches consecutive addresses.
pub const STRIP_GROUP: u32 = 32;

/// Longest strip (outputs per unit) the runtime launches.
pub const MAX_STRIP: u32 = 4;

/// Like [`separable_gather`](fn@super::separable_gather) for width-contiguous destinations read from a wider source (the
/// backward of an upsample): each unit owns `strip` outputs of one row, interleaved with its
/// group (`q = group_start + k * STRIP_GROUP + lane`), so every load and store instruction of a
/// group stays coalesced while the index arithmetic is paid once per `strip` outputs.
/// `layout.width` is the true width; `M = 1`. For rows of at most `SUM_BLOCK` tap pairs only.
/// With `single_tap` (unit taps, every count one: nearest, and filters whose taps fall on
/// their zeros, e.g. bilinear at an odd integer downsample) each output is its one source
/// element, summed from zero as `weighted_sum` sums it, with no loops: every load of the
/// strip can issue before the first store.
#[cube(launch_unchecked)]
pub fn separable_gather_strips<FS: Float, FD: Float, A: Float, M: Size>(
    src: &Array<Vector<FS, M>>,
    dst: &mut Array<Vector<FD, M>>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
    #[comptime] strip: u32,
    #[comptime] unit_taps: bool,
    #[comptime] single_tap: bool,
) {
    let unit = ABSOLUTE_POS as u32;
    if unit >= strip_launch_units(layout, strip) {
        terminate!();
    }
    let StripUnit {
        p,
        first,
        src_base,
        dst_row,
    } = strip_unit(unit, layout, strip);
    let s = layout.src_strides;
    let d = layout.dst_strides;
    if comptime!(single_tap) {
        let at = SingleTapStrip {
            row: src_base + rows.index[first_slot(rows, p, true) as usize] * s.h,
            src_w: s.w,
            dst_row,
            dst_w: d.w,
            first,
            step: STRIP_GROUP,
            width: layout.width,
        };
        single_tap_strip::<FS, FD, A, M>(src, dst, cols, at, strip, true);
    } else {
        #[unroll]
        for k in 0..strip {
            let q = first + k * STRIP_GROUP;
            if q < layout.width {
                let sum = weighted_sum::<FS, A, M>(src, src_base, s, rows, p, cols, q, unit_taps, false, true, false);
                dst[(dst_row + q * d.w) as usize] = Vector::cast_from(sum);
            }
        }
    }
}

/// Where a unit of the strips kernels reads and writes: its destination row `p` of plane
/// `(n, c)`, whose first element is `dst_row` in the destination and whose plane starts at
/// `src_base` in the source, and its first column `first`; its outputs are `first + k *
/// STRIP_GROUP` for `k < strip` (those below the width).
#[derive(CubeType)]
pub(crate) struct StripUnit {
    pub p: u32,
    pub first: u32,
    pub src_base: u32,
    pub dst_row: u32,
}

/// Units of a strips launch of `strip` outputs each: every destination row in whole groups of
/// `STRIP_GROUP` units, a group spanning `STRIP_GROUP * strip` columns.
// `div_ceil` has no `#[cube]` expansion, hence the manual form (here and below).
#[allow(clippy::manual_div_ceil)]
#[cube]
pub(crate) fn strip_launch_units(layout: GatherLayout, #[comptime] strip: u32) -> u32 {
    let span = STRIP_GROUP * strip;
    let groups = (layout.width + span - 1) / span;
    layout.batch * layout.channels * layout.height * groups * STRIP_GROUP
}

/// The place of strips unit `unit` (below [`strip_launch_units`]): lanes of a group fastest,
/// then groups along the row, rows, channels, batches.
#[allow(clippy::manual_div_ceil)]
#[cube]
pub(crate) fn strip_unit(unit: u32, layout: GatherLayout, #[comptime] strip: u32) -> StripUnit {
    let span = STRIP_GROUP * strip;
    let groups = (layout.width + span - 1) / span;
    let lane = unit % STRIP_GROUP;
    let mut rest = unit / STRIP_GROUP;
    let g = rest % groups;
    rest /= groups;
    let p = rest % layout.height;
    rest /= layout.height;
    let (n, c) = (rest / layout.channels, rest % layout.channels);
    let (s, d) = (layout.src_strides, layout.dst_strides);
    StripUnit {
        p,
        first: g * span + lane,
        src_base: n * s.n + c * s.c,
        dst_row: n * d.n + c * d.c + p * d.h,
    }
}
