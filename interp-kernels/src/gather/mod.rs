//! The resampling kernels: a separable gather through two per-axis tables.
//!
//! Forward reads the input through the forward tables; backward reads `grad_out` through the
//! adjoint tables. Each unit owns its destination elements (a vector of channels when the
//! channels are contiguous), sums in the accumulator type `A` (f32 for f16/bf16/f32), and
//! writes once: no atomics, a fixed summation order, bitwise-reproducible results. Source and
//! destination element types may differ (`FS`, `FD`) so that a two-pass resample (one axis at
//! a time, through an identity table on the other) keeps its intermediate in `A`.

use cubecl::prelude::*;

mod block_grid;
mod block_window;
mod blocks;
mod cells;
mod pixel_strips;
mod plane_loops;
mod plane_pairs;
mod plane_windows;
mod planes;
mod pool_split;
mod runs;
mod single_tap;
mod sum;
mod teams;
mod teams_channels;
mod tiled;
mod width;

use sum::{blocks_of, plain_sum, CompensatedSum};

pub use block_grid::{BlockInterior, BlockInteriorCompilationArg, BlockInteriorLaunch};
pub use blocks::{block_shape, block_vector, separable_gather_blocks, BLOCK, BLOCK_SHAPES, MAX_BLOCK_LANE_TAPS};
pub use cells::{
    cell_shape, cell_vector, cell_window_vector, separable_gather_cell_edges, separable_gather_cells, CellEdges, CellEdgesCompilationArg,
    CellEdgesLaunch, CellRun, CellRunCompilationArg, CellRunLaunch, CellShape, CELL_SHAPES,
};
pub use pixel_strips::{separable_gather_pixel_strips, CHANNEL_STRIPS, STRIP_FIXED_TAPS};
pub use plane_loops::{separable_gather_plane_loops, PLANE_LOOP_GROUP};
pub use plane_pairs::{separable_gather_plane_pairs, PAIR_SHIFT};
pub use plane_windows::separable_gather_plane_windows;
pub use planes::{plane_shape, plane_shape_factored, separable_gather_planes, PLANE_SHAPES};
pub use pool_split::{pool_partials_channels, pool_totals_channels, POOL_LANES, POOL_WARPS};
pub use runs::{separable_gather_runs, RUN_VECTORS};
pub use sum::SUM_BLOCK;
pub use teams::{separable_gather_teams, team_vector_lanes, TEAMS, TEAM_CUBE};
pub use teams_channels::{separable_gather_teams_channels, CHANNEL_TEAMS};
pub use tiled::{separable_gather_tiled, TILE_H, TILE_SOURCE_ROWS, TILE_W};
pub use width::{separable_gather_along_width, separable_gather_strips, MAX_STRIP, STRIP_GROUP};

/// A per-axis table as the gather reads it: `rows` destination indices of `width` slots each,
/// in one of two layouts, which each kernel fixes at compile time (see `table_slot`):
///
/// - tap-major (tap `k` of index `o` at `k * rows + o`), for kernels whose neighbouring units
///   serve neighbouring destination indices: a warp's loads of one tap read consecutive
///   slots, one cache line, where row-major rows of 19 taps (an antialiased 8x axis) spread
///   them over 19 lines;
/// - row-major (at `o * width + k`), for kernels whose neighbouring units share an index (the
///   channel vectors of one pixel: any layout broadcasts; row-major keeps the slot arithmetic
///   one register smaller) or read neighbouring taps of one index (teams).
#[derive(CubeType, CubeLaunch)]
pub struct AxisTable {
    pub index: Array<u32>,
    pub weight: Array<f32>,
    pub count: Array<u32>,
    pub width: u32,
    pub rows: u32,
}

/// The slot of tap 0 of destination index `o` in `table`, laid out tap-major or row-major.
#[cube]
pub(crate) fn first_slot(table: &AxisTable, o: u32, #[comptime] tap_major: bool) -> u32 {
    if comptime!(tap_major) {
        o
    } else {
        o * table.width
    }
}

/// Slots from one tap of an index to its next.
#[cube]
pub(crate) fn tap_step(table: &AxisTable, #[comptime] tap_major: bool) -> u32 {
    if comptime!(tap_major) {
        table.rows
    } else {
        u32::new(1)
    }
}

/// The slot of tap `k` of destination index `o` in `table`.
#[cube]
pub(crate) fn table_slot(table: &AxisTable, o: u32, k: u32, #[comptime] tap_major: bool) -> u32 {
    first_slot(table, o, tap_major) + k * tap_step(table, tap_major)
}

/// The first index of the row of `table` whose slot 0 is `slot` where rows read consecutive
/// indices (`contiguous`): it stands for the row's indices (see [`tap_index`]). Else 0, unused.
/// Slot 0 of every row exists (padded where the row is empty, whose loops then run no taps).
#[cube]
pub(crate) fn contiguous_start(table: &AxisTable, slot: u32, #[comptime] contiguous: bool) -> u32 {
    if comptime!(contiguous) {
        table.index[slot as usize]
    } else {
        u32::new(0)
    }
}

/// The source index of tap `k` (at table slot `slot`) of a row starting at `start`
/// ([`contiguous_start`]): `start + k` without a load for contiguous rows, else the table's.
#[cube]
pub(crate) fn tap_index(table: &AxisTable, start: u32, k: u32, slot: usize, #[comptime] contiguous: bool) -> u32 {
    if comptime!(contiguous) {
        start + k
    } else {
        table.index[slot]
    }
}

/// Shape of the destination and strides of both tensors, in vectors (not elements).
#[derive(CubeType, CubeLaunch, Clone, Copy)]
pub struct GatherLayout {
    pub batch: u32,
    pub channels: u32,
    pub height: u32,
    pub width: u32,
    pub src_strides: Sequence4,
    pub dst_strides: Sequence4,
}

/// Strides of an NCHW-indexed tensor, in vectors.
#[derive(CubeType, CubeLaunch, Clone, Copy)]
pub struct Sequence4 {
    pub n: u32,
    pub c: u32,
    pub h: u32,
    pub w: u32,
}

/// Coordinates of one destination element.
#[derive(CubeType)]
pub(crate) struct Pixel {
    pub n: u32,
    pub c: u32,
    pub p: u32,
    pub q: u32,
}

/// The destination element at `index` in unit order: width fastest (NCHW), or with
/// `channels_last` channels fastest so that neighbouring units read neighbouring channels.
#[cube]
pub(crate) fn destination_pixel(index: u32, layout: GatherLayout, #[comptime] channels_last: bool) -> Pixel {
    let mut rest = index;
    let mut c = 0u32;
    if comptime!(channels_last) {
        c = rest % layout.channels;
        rest /= layout.channels;
    }
    let q = rest % layout.width;
    rest /= layout.width;
    let p = rest % layout.height;
    rest /= layout.height;
    if comptime!(!channels_last) {
        c = rest % layout.channels;
        rest /= layout.channels;
    }
    Pixel { n: rest, c, p, q }
}

/// The position of `unit` in a grid of `width` columns (fastest), `height` rows, `groups`
/// channel groups and batches: `c` is the group. The planes and blocks kernels' unit order
/// (columns of pixels or of blocks).
#[cube]
pub(crate) fn grid_position(unit: u32, width: u32, height: u32, groups: u32) -> Pixel {
    let q = unit % width;
    let mut rest = unit / width;
    let p = rest % height;
    rest /= height;
    Pixel {
        n: rest / groups,
        c: rest % groups,
        p,
        q,
    }
}

/// `sum_a sum_b rows.weight[p, a] * cols.weight[q, b] * src[base + rows.index[p, a] * s_h + cols.index[q, b] * s_w]`,
/// in the accumulator type, over vectors of `M` channels.
///
/// With `unit_taps` (tables of nearest mappings: each destination index reads consecutive
/// indices, all with weight one) only the first index of each row is read and no weights:
/// 4 table loads per output instead of 2 + 2 per tap + 2 per tap pair. With `wide` (tables
/// whose rows can hold more than [`SUM_BLOCK`] tap pairs) such outputs go through
/// `blocked_sum` (see `sum`); without it the kernel carries no blocked path, whose registers
/// would cost every output (measured: vectors of 8 half-precision channels 1.6x slower).
#[cube]
#[allow(clippy::too_many_arguments, unused_assignments)] // `acc` is set on every branch
pub(crate) fn weighted_sum<FS: Float, A: Float, M: Size>(
    src: &Array<Vector<FS, M>>,
    base: u32,
    strides: Sequence4,
    rows: &AxisTable,
    p: u32,
    cols: &AxisTable,
    q: u32,
    #[comptime] unit_taps: bool,
    #[comptime] wide: bool,
    #[comptime] tap_major: bool,
    #[comptime] contiguous: bool,
) -> Vector<A, M> {
    let mut acc = Vector::<A, M>::new(A::from_int(0));
    if comptime!(wide) {
        if plain_sum(rows.count[p as usize], cols.count[q as usize]) {
            acc = plain_weighted_sum::<FS, A, M>(src, base, strides, rows, p, cols, q, unit_taps, tap_major, contiguous);
        } else {
            acc = blocked_sum::<FS, A, M>(src, base, strides, rows, p, cols, q, unit_taps, tap_major);
        }
    } else {
        acc = plain_weighted_sum::<FS, A, M>(src, base, strides, rows, p, cols, q, unit_taps, tap_major, contiguous);
    }
    acc
}

/// [`weighted_sum`] of at most [`SUM_BLOCK`] tap pairs: one loop over the rows, one over the
/// columns, one accumulator. With `contiguous` (weighted tables whose rows read consecutive
/// indices) the column table's first index of the output stands for its taps: a weight load
/// per column tap, no index load.
#[cube]
#[allow(clippy::too_many_arguments)]
fn plain_weighted_sum<FS: Float, A: Float, M: Size>(
    src: &Array<Vector<FS, M>>,
    base: u32,
    strides: Sequence4,
    rows: &AxisTable,
    p: u32,
    cols: &AxisTable,
    q: u32,
    #[comptime] unit_taps: bool,
    #[comptime] tap_major: bool,
    #[comptime] contiguous: bool,
) -> Vector<A, M> {
    let row_slots = first_slot(rows, p, tap_major);
    let col_slots = first_slot(cols, q, tap_major);
    let (row_step, col_step) = (tap_step(rows, tap_major), tap_step(cols, tap_major));
    let row_count = rows.count[p as usize];
    let col_count = cols.count[q as usize];
    let mut acc = Vector::<A, M>::new(A::from_int(0));
    if comptime!(unit_taps) {
        // Most inputs of a downsample are read by no output: skip their index loads.
        if row_count > 0 && col_count > 0 {
            let first_row = rows.index[row_slots as usize];
            let first_col = cols.index[col_slots as usize];
            let corner = base + first_row * strides.h + first_col * strides.w;
            for a in 0..row_count {
                let row_base = corner + a * strides.h;
                let mut line = Vector::<A, M>::new(A::from_int(0));
                for b in 0..col_count {
                    line += Vector::<A, M>::cast_from(src[(row_base + b * strides.w) as usize]);
                }
                acc += line;
            }
        }
    } else {
        // Slot 0 of every row exists (tables hold at least one slot a row). Rows keep their
        // index loads (one a row; one more live register spilled f32 sources under the
        // 32-register bound).
        let first_col = contiguous_start(cols, col_slots, contiguous);
        for a in 0..row_count {
            let slot = (row_slots + a * row_step) as usize;
            let row_base = base + rows.index[slot] * strides.h;
            let row_weight = rows.weight[slot];
            // One weight product per tap pair, no per-row partial sum: fewer live registers
            // (ptxas spilled the partial sums of some vector widths under the 256-unit bound).
            for b in 0..col_count {
                let cslot = (col_slots + b * col_step) as usize;
                let col_index = tap_index(cols, first_col, b, cslot, contiguous);
                let value = Vector::<A, M>::cast_from(src[(row_base + col_index * strides.w) as usize]);
                acc += value * Vector::new(A::cast_from(row_weight * cols.weight[cslot]));
            }
        }
    }
    acc
}

/// [`weighted_sum`] of more than [`SUM_BLOCK`] tap pairs, in blocks of about `SUM_BLOCK` taps,
/// each block folded into a compensated total: whole rows per block when rows are narrow (a
/// tall sum), else each row in blocks of `SUM_BLOCK` columns (a wide sum). The branch is taken
/// once per output and each structure keeps llvmpipe's loop count near one per tap (see the
/// runtime's `loop_iterations`).
#[cube]
#[allow(clippy::too_many_arguments)]
fn blocked_sum<FS: Float, A: Float, M: Size>(
    src: &Array<Vector<FS, M>>,
    base: u32,
    strides: Sequence4,
    rows: &AxisTable,
    p: u32,
    cols: &AxisTable,
    q: u32,
    #[comptime] unit_taps: bool,
    #[comptime] tap_major: bool,
) -> Vector<A, M> {
    let row_slots = first_slot(rows, p, tap_major);
    let col_slots = first_slot(cols, q, tap_major);
    let row_step = tap_step(rows, tap_major);
    let row_count = rows.count[p as usize];
    let col_count = cols.count[q as usize];
    // Unit taps: consecutive rows and columns from the first of each, weight one.
    let corner = base + rows.index[row_slots as usize] * strides.h + cols.index[col_slots as usize] * strides.w;
    let mut sum = CompensatedSum::<A, M>::new();
    if col_count <= SUM_BLOCK {
        let rows_per_block = SUM_BLOCK / u32::max(col_count, 1);
        for k in 0..blocks_of(row_count, rows_per_block) {
            let mut block = Vector::<A, M>::new(A::from_int(0));
            for a in k * rows_per_block..u32::min(k * rows_per_block + rows_per_block, row_count) {
                let slot = (row_slots + a * row_step) as usize;
                let row_base = if comptime!(unit_taps) {
                    corner + a * strides.h
                } else {
                    base + rows.index[slot] * strides.h
                };
                let row_weight = if comptime!(unit_taps) { f32::new(1.0) } else { rows.weight[slot] };
                block += row_block::<FS, A, M>(
                    src, row_base, strides, cols, col_slots, row_weight, 0, col_count, unit_taps, tap_major,
                );
            }
            sum.add(block);
        }
    } else {
        for a in 0..row_count {
            let slot = (row_slots + a * row_step) as usize;
            let row_base = if comptime!(unit_taps) {
                corner + a * strides.h
            } else {
                base + rows.index[slot] * strides.h
            };
            let row_weight = if comptime!(unit_taps) { f32::new(1.0) } else { rows.weight[slot] };
            for k in 0..blocks_of(col_count, SUM_BLOCK) {
                let start = k * SUM_BLOCK;
                let end = u32::min(start + SUM_BLOCK, col_count);
                sum.add(row_block::<FS, A, M>(
                    src, row_base, strides, cols, col_slots, row_weight, start, end, unit_taps, tap_major,
                ));
            }
        }
    }
    sum.value()
}

/// Taps `[start, end)` of one source row: `sum_b row_weight * cols.weight[q, b] * src[row_base +
/// cols.index[q, b] * s.w]`, or with unit taps `sum_b src[row_base + b * s.w]`.
#[cube]
#[allow(clippy::too_many_arguments)]
fn row_block<FS: Float, A: Float, M: Size>(
    src: &Array<Vector<FS, M>>,
    row_base: u32,
    strides: Sequence4,
    cols: &AxisTable,
    col_slots: u32,
    row_weight: f32,
    start: u32,
    end: u32,
    #[comptime] unit_taps: bool,
    #[comptime] tap_major: bool,
) -> Vector<A, M> {
    let col_step = tap_step(cols, tap_major);
    let mut block = Vector::<A, M>::new(A::from_int(0));
    for b in start..end {
        if comptime!(unit_taps) {
            block += Vector::<A, M>::cast_from(src[(row_base + b * strides.w) as usize]);
        } else {
            let cslot = (col_slots + b * col_step) as usize;
            let value = Vector::<A, M>::cast_from(src[(row_base + cols.index[cslot] * strides.w) as usize]);
            block += value * Vector::new(A::cast_from(row_weight * cols.weight[cslot]));
        }
    }
    block
}

/// `dst[n, c, p, q] = sum_a sum_b rows.weight[p, a] * cols.weight[q, b] * src[n, c, rows.index[p, a], cols.index[q, b]]`,
/// one unit per destination vector of `N` channels (`N = 1` for a scalar per unit).
///
/// `channels_last` orders units with channels fastest (coalesced for NHWC; the order of every
/// vector of several channels), else width fastest;
/// `wide`: the variant that sums rows of more than [`SUM_BLOCK`] tap pairs in compensated
/// blocks (the runtime launches it only for such tables);
/// `tap_major`: the tables' slot layout (see [`AxisTable`]): tap-major wherever a warp's
/// units span several pixels (width order, or channels fastest with few units a pixel),
/// row-major where they share one pixel's taps;
/// `contiguous`: weighted tables whose rows read consecutive indices, each output's column taps
/// read from its first column index (one index load per tap fewer; rows keep their one index
/// load a row; the same sums).
#[cube(launch_unchecked)]
pub fn separable_gather<FS: Float, FD: Float, A: Float, N: Size>(
    src: &Array<Vector<FS, N>>,
    dst: &mut Array<Vector<FD, N>>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
    #[comptime] channels_last: bool,
    #[comptime] unit_taps: bool,
    #[comptime] wide: bool,
    #[comptime] tap_major: bool,
    #[comptime] contiguous: bool,
) {
    let total = layout.batch * layout.channels * layout.height * layout.width;
    let unit = ABSOLUTE_POS as u32;
    if unit >= total {
        terminate!();
    }
    let Pixel { n, c, p, q } = destination_pixel(unit, layout, channels_last);
    let s = layout.src_strides;
    let sum = weighted_sum::<FS, A, N>(src, n * s.n + c * s.c, s, rows, p, cols, q, unit_taps, wide, tap_major, contiguous);
    let d = layout.dst_strides;
    dst[(n * d.n + c * d.c + p * d.h + q * d.w) as usize] = Vector::cast_from(sum);
}
