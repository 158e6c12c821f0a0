//! One-pass gathers that give a unit several outputs along the width (NCHW destinations).

use cubecl::prelude::*;

use super::{weighted_sum, AxisTable, GatherLayout};

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
        let sum = weighted_sum::<FS, A, M>(src, base, s, rows, p, cols, q0 + lane as u32, unit_taps, false, false);
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
// `div_ceil` has no `#[cube]` expansion, hence the manual form.
#[allow(clippy::manual_div_ceil)]
#[cube(launch_unchecked)]
pub fn separable_gather_strips<FS: Float, FD: Float, A: Float, M: Size>(
    src: &Array<Vector<FS, M>>,
    dst: &mut Array<Vector<FD, M>>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
    #[comptime] strip: u32,
    #[comptime] unit_taps: bool,
) {
    let span = STRIP_GROUP * strip;
    let groups = (layout.width + span - 1) / span;
    let total = layout.batch * layout.channels * layout.height * groups * STRIP_GROUP;
    let unit = ABSOLUTE_POS as u32;
    if unit >= total {
        terminate!();
    }
    let lane = unit % STRIP_GROUP;
    let mut rest = unit / STRIP_GROUP;
    let g = rest % groups;
    rest /= groups;
    let p = rest % layout.height;
    rest /= layout.height;
    let c = rest % layout.channels;
    let n = rest / layout.channels;
    let s = layout.src_strides;
    let d = layout.dst_strides;
    let base = n * s.n + c * s.c;
    let dst_row = n * d.n + c * d.c + p * d.h;
    #[unroll]
    for k in 0..strip {
        let q = g * span + k * STRIP_GROUP + lane;
        if q < layout.width {
            let sum = weighted_sum::<FS, A, M>(src, base, s, rows, p, cols, q, unit_taps, false, true);
            dst[(dst_row + q * d.w) as usize] = Vector::cast_from(sum);
        }
    }
}
