//! The cooperative gather for large downsampling ratios: a team of units per destination
//! element, each summing a share of the element's window, then a fixed-order tree sum in
//! shared memory.

use cubecl::prelude::*;

use super::sum::tree_sum;
use super::{destination_pixel, AxisTable, GatherLayout, Pixel};

/// Units per cube of [`separable_gather_teams()`].
pub const TEAM_CUBE: u32 = 256;

/// The team sizes (units per destination element) the kernel is built for.
pub const TEAMS: [u32; 4] = [2, 8, 32, 256];

/// The most source elements of `element_bytes` a team of `team` units reads per load: 16
/// bytes' worth, 8 for the largest team (whose f32 four-lane variant ptxas spilled, `cargo
/// xtask kernels`), and one f64 (its two-lane variants spilled too).
pub fn team_vector_lanes(team: u32, element_bytes: usize) -> usize {
    let bytes = if team == TEAMS[TEAMS.len() - 1] { 8 } else { 16 };
    if element_bytes >= 8 {
        1
    } else {
        (bytes / element_bytes.max(1)).max(1)
    }
}

/// `dst[n, c, p, q] = sum_b cols.weight[q, b] * sum_a rows.weight[p, a] * src[n, c, rows.index[p, a], cols.index[q, b]]`,
/// each destination element summed by a team of `team` units.
///
/// One unit per output walks a window of `taps_y * taps_x` source elements alone; at 8x-64x
/// (area pooling, antialiased downsampling, global pooling) that is 64 to 4096 reads in a row
/// per unit, and few outputs (a global pool of 8192 planes: 8192 units on a device that holds
/// 270 thousand) leave the device idle. Here the window is split: `col_lanes` units take every
/// `col_lanes`-th column, `team / col_lanes` every so-many-th row; each sums its share down
/// the columns (`sum_a`), weights each column sum, and the team adds its partial sums in a
/// fixed tree (halves, then quarters, ...) in shared memory: deterministic, and the same bits
/// on every device that rounds f32 alike. (Other strategies sum in another order: the
/// strategy is a pure function of the shapes, so a call always gives the same bits.)
///
/// Mapping: without `channels_fastest` (NCHW) a team is `team` consecutive units, so the lanes
/// of a warp read consecutive columns; with it (channels-last) a team's units are
/// `TEAM_CUBE / team` apart and consecutive units are consecutive channels of one tap.
///
/// With `uniform` (both tables read consecutive indices with one weight per row: area
/// pooling) a unit adds its source values, with no table loads per tap, and the team's total
/// is weighted once (PyTorch's adaptive average pooling computes its windows from the index
/// alike).
///
/// With `uniform` the source may be read in vectors of `V` along the width (NCHW): a unit adds
/// each vector's lanes in order, and `col_lanes` counts vectors. The runtime runs
/// `V > 1` only where every window's first column and width are multiples of `V` and the
/// source's strides (in vectors there) are too: a warp's loads of an 8x8 area window then
/// read whole 16-byte pieces, not every eighth element.
///
/// Grid: `ceil(outputs / (TEAM_CUBE / team))` cubes of `TEAM_CUBE` units. Scalar destination
/// elements, strides in elements (the source's in vectors of `V`). The caller keeps each
/// unit's share of a window at most `SUM_BLOCK` pairs (of vectors), so every sum is as short
/// as a one-pass sum of the same window's blocks.
#[allow(clippy::manual_div_ceil)]
#[cube(launch_unchecked)]
pub fn separable_gather_teams<FS: Float, FD: Float, A: Float, V: Size>(
    src: &Array<Vector<FS, V>>,
    dst: &mut Array<FD>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
    col_lanes: u32,
    #[comptime] channels_fastest: bool,
    #[comptime] uniform: bool,
    #[comptime] team: u32,
) {
    let outputs_per_cube = comptime!(TEAM_CUBE / team);
    let unit = UNIT_POS;
    let lane_stride = comptime!(if channels_fastest { TEAM_CUBE / team } else { 1 });
    let lane = (unit / lane_stride) % team;
    let slot = comptime!(if channels_fastest { 1 } else { team });
    let slot = (unit / slot) % outputs_per_cube;
    let output = CUBE_POS as u32 * outputs_per_cube + slot;
    let total = layout.batch * layout.channels * layout.height * layout.width;
    let in_range = output < total;

    let Pixel { n, c, p, q } = destination_pixel(output, layout, channels_fastest);
    let s = layout.src_strides;
    let d = layout.dst_strides;

    let mut partial = A::from_int(0);
    if in_range {
        let row_lanes = team / col_lanes;
        let col_lane = lane % col_lanes;
        let row_lane = lane / col_lanes;
        let lanes = V::value() as u32;
        let row_count = rows.count[p as usize];
        // In vectors: `V > 1` runs only where every window's width is a multiple of `V`.
        let col_count = cols.count[q as usize] / lanes;
        let col_steps = lane_steps(col_count, col_lane, col_lanes);
        let row_steps = lane_steps(row_count, row_lane, row_lanes);
        let base = n * s.n + c * s.c;
        let (row_slots, col_slots) = (p * rows.width, q * cols.width);
        if comptime!(uniform) {
            // Consecutive indices, one weight per row: add the values (each vector's lanes in
            // order); the team's total is weighted once, after the tree.
            let first_row = rows.index[row_slots as usize] + row_lane;
            let first_col = cols.index[col_slots as usize] / lanes + col_lane;
            // Positions walked by increments: few live registers (see the channels-last
            // teams kernel).
            let (row_step, col_step) = (row_lanes * s.h, col_lanes * s.w);
            let mut column = base + first_col * s.w + first_row * s.h;
            for _ in 0..col_steps {
                let mut at = column;
                for _ in 0..row_steps {
                    partial = add_lanes::<A, V>(partial, Vector::<A, V>::cast_from(src[at as usize]));
                    at += row_step;
                }
                column += col_step;
            }
        } else {
            for i in 0..col_steps {
                let col_slot = (col_slots + col_lane + i * col_lanes) as usize;
                let column_base = base + cols.index[col_slot] * s.w;
                let mut column = A::from_int(0);
                for j in 0..row_steps {
                    let row_slot = (row_slots + row_lane + j * row_lanes) as usize;
                    // Weighted tables run with `V = 1`: lane 0 is the element.
                    let value = Vector::<A, V>::cast_from(src[(column_base + rows.index[row_slot] * s.h) as usize]);
                    column += value[0] * A::cast_from(rows.weight[row_slot]);
                }
                partial += column * A::cast_from(cols.weight[col_slot]);
            }
        }
    }

    // The team's partial sums, added pairwise in a fixed order: lane k takes lane k + half.
    let sums = tree_sum::<A, Const<1>>(Vector::new(partial), unit, lane, TEAM_CUBE, team, lane_stride);
    if in_range && lane == 0 {
        // The output's coordinates (and a uniform window's weight) again: keeping them, their
        // index or the table slots live across the sums made ptxas spill one value in the f32
        // width-vector variants.
        let Pixel { n, c, p, q } = destination_pixel(CUBE_POS as u32 * outputs_per_cube + slot, layout, channels_fastest);
        let mut total = sums[unit as usize][0];
        if comptime!(uniform) {
            total *= A::cast_from(rows.weight[(p * rows.width) as usize] * cols.weight[(q * cols.width) as usize]);
        }
        dst[(n * d.n + c * d.c + p * d.h + q * d.w) as usize] = FD::cast_from(total);
    }
}

/// How many of a window's `count` positions (along one axis) the unit at `lane` of `lanes`
/// takes: positions `lane, lane + lanes, ...` below `count`.
#[allow(clippy::manual_div_ceil)]
#[cube]
pub(crate) fn lane_steps(count: u32, lane: u32, lanes: u32) -> u32 {
    let mut steps = 0u32;
    if lane < count {
        steps = (count - lane + lanes - 1) / lanes;
    }
    steps
}

/// `partial + values[0] + values[1] + ...`, added in that order.
#[cube]
fn add_lanes<A: Float, V: Size>(partial: A, values: Vector<A, V>) -> A {
    let mut sum = partial;
    #[unroll]
    for lane in 0..V::value() {
        sum += values[lane];
    }
    sum
}
