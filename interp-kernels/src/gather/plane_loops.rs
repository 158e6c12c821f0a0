//! The gather for scalar layouts with rows too wide for the planes kernel's registers: a unit
//! per destination pixel and group of channels, its taps in loops, each table entry loaded
//! once for every channel of the group.

use cubecl::prelude::*;

use super::{contiguous_start, first_slot, grid_position, tap_index, tap_step, AxisTable, GatherLayout, Pixel};

/// Most channels one unit serves: its accumulators are registers, one a channel.
pub const PLANE_LOOP_GROUP: u32 = 4;

/// `dst[n, c, p, q] = sum_a sum_b rows.weight[p, a] * cols.weight[q, b] * src[n, c, rows.index[p, a], cols.index[q, b]]`,
/// one unit per destination pixel `(n, p, q)` and group of `planes` consecutive channels
/// (`planes <= group`; the last group may hold fewer).
///
/// The one-output gather loads two table entries (index, weight) per tap beside its one source
/// read: in the width pass of an antialiased downsample (35 taps a row at 1080 -> 224) those
/// loads are two of every three the L1 serves (docs/PERFORMANCE.md v32). The planes kernel
/// shares them over channels from registers, which rows of more than 16 taps do not fit. Here
/// the taps stay in the one-output kernel's loops and each entry serves the unit's `planes`
/// channels: `1 + 2 / planes` loads per output and tap instead of 3. Neighbouring units are
/// neighbouring columns (tap-major tables: a warp's table loads are consecutive slots).
///
/// With `contiguous` (tables whose rows read consecutive indices, as every filter's do once
/// merged at the borders) a row's first index stands for all its taps: one weight load per tap
/// is left, `1 + 1 / planes` loads per output and tap.
///
/// Each channel's sum is the one-output kernel's (`weighted_sum` without blocks: the same
/// taps, order and f32 weight products): the same bits. For rows of at most `SUM_BLOCK` tap
/// pairs (the runtime sends wider ones to `separable_gather`). Scalar elements, strides in
/// elements.
///
/// Grid: `width * height * batch * ceil(channels / planes)` units, width fastest.
#[allow(clippy::manual_div_ceil)]
#[cube(launch_unchecked)]
pub fn separable_gather_plane_loops<FS: Float, FD: Float, A: Float>(
    src: &Array<FS>,
    dst: &mut Array<FD>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
    planes: u32,
    #[comptime] group: u32,
    #[comptime] contiguous: bool,
) {
    let groups = (layout.channels + planes - 1) / planes;
    let unit = ABSOLUTE_POS as u32;
    if unit >= layout.width * layout.height * groups * layout.batch {
        terminate!();
    }
    let Pixel { n, c: g, p, q } = grid_position(unit, layout.width, layout.height, groups);
    let s = layout.src_strides;
    let first = g * planes;
    let count = u32::min(planes, layout.channels - first);
    let base = n * s.n + first * s.c;

    let mut acc = Array::<A>::new(group as usize);
    #[unroll]
    for k in 0..group {
        acc[k as usize] = A::from_int(0);
    }
    let row_slots = first_slot(rows, p, true);
    let col_slots = first_slot(cols, q, true);
    let (row_step, col_step) = (tap_step(rows, true), tap_step(cols, true));
    let row_count = rows.count[p as usize];
    let col_count = cols.count[q as usize];
    let first_row = contiguous_start(rows, row_slots, contiguous);
    let first_col = contiguous_start(cols, col_slots, contiguous);
    for a in 0..row_count {
        let slot = (row_slots + a * row_step) as usize;
        let row_index = tap_index(rows, first_row, a, slot, contiguous);
        let row_base = base + row_index * s.h;
        let row_weight = rows.weight[slot];
        for b in 0..col_count {
            let cslot = (col_slots + b * col_step) as usize;
            let col_index = tap_index(cols, first_col, b, cslot, contiguous);
            let offset = row_base + col_index * s.w;
            let weight = A::cast_from(row_weight * cols.weight[cslot]);
            #[unroll]
            for k in 0..group {
                if k < count {
                    acc[k as usize] += A::cast_from(src[(offset + k * s.c) as usize]) * weight;
                }
            }
        }
    }

    let d = layout.dst_strides;
    let pixel = n * d.n + first * d.c + p * d.h + q * d.w;
    #[unroll]
    for k in 0..group {
        if k < count {
            dst[(pixel + k * d.c) as usize] = FD::cast_from(acc[k as usize]);
        }
    }
}
