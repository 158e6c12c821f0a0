//! The cooperative gather for pooling channels-last tensors: a team of units per destination
//! vector of channels, each adding a share of the window's pixels, then a fixed-order tree sum
//! in shared memory.

use cubecl::prelude::*;

use super::sum::tree_sum;
use super::teams::lane_steps;
use super::{destination_pixel, AxisTable, GatherLayout, Pixel};
use crate::gather::TEAM_CUBE;

/// The team sizes (units per destination vector) the kernel is built for: at most 128, so a
/// cube holds at least two destination vectors and a warp's loads of a pixel cover whole
/// 32-byte sectors (with one vector per cube a warp's 32 loads of 16 bytes would each fetch
/// a sector of 32).
pub const CHANNEL_TEAMS: [u32; 3] = [8, 32, 128];

/// `dst[n, p, q, c..c+V] = rows.weight[p, 0] * cols.weight[q, 0] * sum_a sum_b src[n, rows.index[p, 0] + a, cols.index[q, 0] + b, c..c+V]`
/// over `rows.count[p]` rows and `cols.count[q]` columns: area pooling of vectors of `V`
/// channels (tables of consecutive indices with one weight per row), each destination vector
/// summed by a team of `team` units.
///
/// [`separable_gather_teams`](fn@super::separable_gather_teams)' split for channels-last layouts
/// read in channel vectors: a window of `rows x cols` pixels is split as there (`col_lanes`
/// units take every `col_lanes`-th column, the rest of the team every so-many-th row), each
/// unit adds its pixels' vectors in order, and the team adds its partial sums in the same
/// fixed tree (halves, then quarters, ...): deterministic. Global pooling of 32 maps of 64x64
/// pixels and 256 channels has 2048 destination vectors of 16 bytes: two passes give each to
/// one unit walking 64 taps after a first pass of 131 thousand units walking 64 taps each;
/// teams of 128 units give 262 thousand units 32 taps each.
///
/// Mapping: a cube holds `TEAM_CUBE / team` destination vectors of consecutive channels and
/// their teams, consecutive units being consecutive vectors of one pixel, so a warp reads
/// whole runs of a pixel's channels (128 bytes for 8 vectors of 16).
///
/// Grid: `ceil(outputs / (TEAM_CUBE / team))` cubes of `TEAM_CUBE` units, `outputs` counting
/// destination vectors. `layout` counts channels in vectors, its strides in vectors too (the
/// channel stride 1). The caller keeps each unit's share of a window at most
/// [`SUM_BLOCK`](super::SUM_BLOCK) pixels.
#[allow(clippy::manual_div_ceil)]
#[cube(launch_unchecked)]
pub fn separable_gather_teams_channels<FS: Float, FD: Float, A: Float, V: Size>(
    src: &Array<Vector<FS, V>>,
    dst: &mut Array<Vector<FD, V>>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
    col_lanes: u32,
    #[comptime] team: u32,
) {
    let outputs_per_cube = comptime!(TEAM_CUBE / team);
    let unit = UNIT_POS;
    let lane = unit / outputs_per_cube;
    let slot = unit % outputs_per_cube;
    let output = CUBE_POS as u32 * outputs_per_cube + slot;
    let total = layout.batch * layout.channels * layout.height * layout.width;
    let in_range = output < total;

    let mut partial = Vector::<A, V>::new(A::from_int(0));
    if in_range {
        let Pixel { n, c, p, q } = destination_pixel(output, layout, true);
        let s = layout.src_strides;
        let row_lanes = team / col_lanes;
        let col_lane = lane % col_lanes;
        let row_lane = lane / col_lanes;
        let row_count = rows.count[p as usize];
        let col_count = cols.count[q as usize];
        let col_steps = lane_steps(col_count, col_lane, col_lanes);
        let row_steps = lane_steps(row_count, row_lane, row_lanes);
        let first_row = rows.index[(p * rows.width) as usize] + row_lane;
        let first_col = cols.index[(q * cols.width) as usize] + col_lane;
        // Positions walked by increments: few live registers, so that eight cubes of 256
        // units fit an SM (at 40 registers six did, and a global pool's 1024 cubes took two
        // waves).
        let (row_step, col_step) = (row_lanes * s.h, col_lanes * s.w);
        let mut column = n * s.n + c * s.c + first_col * s.w + first_row * s.h;
        for _ in 0..col_steps {
            let mut at = column;
            for _ in 0..row_steps {
                partial += Vector::<A, V>::cast_from(src[at as usize]);
                at += row_step;
            }
            column += col_step;
        }
    }

    let sums = tree_sum::<A, V>(partial, unit, lane, TEAM_CUBE, team, outputs_per_cube);
    if in_range && lane == 0 {
        // Coordinates and the window's weight taken again after the tree (fewer live registers
        // across it, as in the scalar teams kernel).
        let Pixel { n, c, p, q } = destination_pixel(CUBE_POS as u32 * outputs_per_cube + slot, layout, true);
        let weight = A::cast_from(rows.weight[(p * rows.width) as usize] * cols.weight[(q * cols.width) as usize]);
        let d = layout.dst_strides;
        dst[(n * d.n + c * d.c + p * d.h + q * d.w) as usize] = Vector::cast_from(sums[unit as usize] * Vector::new(weight));
    }
}
