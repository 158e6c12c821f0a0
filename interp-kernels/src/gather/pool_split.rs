//! Channels-last area pooling of large windows in two launches: partial sums of row splits of
//! each window, a warp reading 32 channel vectors of one pixel at a time, then each output's
//! splits added in order. For few outputs of large windows (global pooling), where a team of
//! units per output inside one cube spreads a warp's loads over many pixels.

use cubecl::prelude::*;

use super::sum::tree_sum;
use super::teams::lane_steps;
use super::{destination_pixel, AxisTable, GatherLayout, Pixel};

/// Channel vectors a cube of [`pool_partials_channels()`] covers: one per lane of a warp.
pub const POOL_LANES: u32 = 32;

/// Warps per cube of [`pool_partials_channels()`]: each takes every `POOL_WARPS`-th column of
/// the cube's rows.
pub const POOL_WARPS: u32 = 8;

/// Pass 1: `partials[pixel, s, c..c+V] = sum over the rows [s * rows_per_split, (s + 1) *
/// rows_per_split) of the window of destination pixel `pixel = (n, p, q)` and all its columns
/// of src[n, row, col, c..c+V]`, for tables of consecutive indices with one weight per row
/// (area pooling; the weights are applied in pass 2).
///
/// A cube is `POOL_WARPS` warps over `POOL_LANES` consecutive channel vectors of one pixel
/// (lane = channel vector: a warp's load covers `POOL_LANES * V` contiguous channels), for one
/// destination pixel and one split of its window's rows; warp `w` takes columns `w, w +
/// POOL_WARPS, ...` of each row, rows in order; the warps' sums are added in a fixed tree in
/// shared memory (warp k takes warp k + half). Deterministic: the splits, the tree and each
/// unit's order are fixed by the shape.
///
/// Grid: cubes numbered with the channel block fastest, then the split, then the destination
/// pixel (`q` fastest, then `p`, then `n`); cubes past the last pixel write nothing. `layout`
/// is the destination's, channels counted in vectors, strides in vectors (the channel stride
/// 1); `partials` holds `pixels * splits * layout.channels` vectors.
#[allow(clippy::manual_div_ceil)]
#[cube(launch_unchecked)]
pub fn pool_partials_channels<FS: Float, A: Float, V: Size>(
    src: &Array<Vector<FS, V>>,
    partials: &mut Array<Vector<A, V>>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
    splits: u32,
    rows_per_split: u32,
) {
    let lane = UNIT_POS % POOL_LANES;
    let warp = UNIT_POS / POOL_LANES;
    let blocks = (layout.channels + POOL_LANES - 1) / POOL_LANES;
    let cube = CUBE_POS as u32;
    let split = (cube / blocks) % splits;
    let pixel = cube / blocks / splits;
    let c = (cube % blocks) * POOL_LANES + lane;
    let pixels = layout.batch * layout.height * layout.width;
    let in_range = pixel < pixels && c < layout.channels;

    let mut partial = Vector::<A, V>::new(A::from_int(0));
    if in_range {
        let q = pixel % layout.width;
        let p = (pixel / layout.width) % layout.height;
        let n = pixel / layout.width / layout.height;
        let s = layout.src_strides;
        let row_count = rows.count[p as usize];
        let first = split * rows_per_split;
        let mut rows_here = 0u32;
        if row_count > first {
            rows_here = u32::min(row_count - first, rows_per_split);
        }
        let col_steps = lane_steps(cols.count[q as usize], warp, POOL_WARPS);
        let first_row = rows.index[(p * rows.width) as usize] + first;
        let first_col = cols.index[(q * cols.width) as usize] + warp;
        // Positions walked by increments (few live registers, as in the teams kernels).
        let col_step = POOL_WARPS * s.w;
        let mut row = n * s.n + c * s.c + first_row * s.h + first_col * s.w;
        for _ in 0..rows_here {
            let mut at = row;
            for _ in 0..col_steps {
                partial += Vector::<A, V>::cast_from(src[at as usize]);
                at += col_step;
            }
            row += s.h;
        }
    }

    // The warps' sums of each channel vector, in a fixed tree.
    let sums = tree_sum::<A, V>(partial, UNIT_POS, warp, POOL_LANES * POOL_WARPS, POOL_WARPS, POOL_LANES);
    if in_range && warp == 0 {
        partials[((pixel * splits + split) * layout.channels + c) as usize] = sums[UNIT_POS as usize];
    }
}

/// Pass 2: `dst[n, p, q, c..c+V] = rows.weight[p, 0] * cols.weight[q, 0] * sum_s partials[pixel,
/// s, c..c+V]`, the splits added in order; a unit per destination vector, channels fastest.
/// `layout` as in [`pool_partials_channels()`], with the destination's strides.
#[cube(launch_unchecked)]
pub fn pool_totals_channels<A: Float, FD: Float, V: Size>(
    partials: &Array<Vector<A, V>>,
    dst: &mut Array<Vector<FD, V>>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
    splits: u32,
) {
    let unit = ABSOLUTE_POS as u32;
    if unit >= layout.batch * layout.channels * layout.height * layout.width {
        terminate!();
    }
    let Pixel { n, c, p, q } = destination_pixel(unit, layout, true);
    let pixel = (n * layout.height + p) * layout.width + q;
    let mut total = Vector::<A, V>::new(A::from_int(0));
    for s in 0..splits {
        total += partials[((pixel * splits + s) * layout.channels + c) as usize];
    }
    let weight = A::cast_from(rows.weight[(p * rows.width) as usize] * cols.weight[(q * cols.width) as usize]);
    let d = layout.dst_strides;
    dst[(n * d.n + c * d.c + p * d.h + q * d.w) as usize] = Vector::cast_from(total * Vector::new(weight));
}
