//! The shared-memory tiled gather (scalar layouts).

use cubecl::prelude::*;

use super::sum::{blocks_of, CompensatedSum, SUM_BLOCK};
use super::{first_slot, table_slot, tap_step, AxisTable, GatherLayout, Sequence4};

/// Destination tile of [`separable_gather_tiled()`]: `TILE_W` columns (one unit each) by
/// `TILE_H` rows.
pub const TILE_W: u32 = 32;
pub const TILE_H: u32 = 8;
/// Most source rows a tile may read and still take the shared-memory path.
pub const TILE_SOURCE_ROWS: u32 = 64;
// The tile's row loop sums at most `TILE_SOURCE_ROWS` rows plainly (see `sum`).
const _: () = assert!(TILE_SOURCE_ROWS <= SUM_BLOCK);

/// `cols.weight[q, b] * src[row_base + cols.index[q, b] * s.w]`, in the accumulator type.
#[cube]
fn tap<FS: Float, A: Float>(src: &Array<FS>, row_base: u32, strides: Sequence4, cols: &AxisTable, slot: u32) -> A {
    A::cast_from(src[(row_base + cols.index[slot as usize] * strides.w) as usize]) * A::cast_from(cols.weight[slot as usize])
}

/// `sum_b cols.weight[q, b] * src[base + r * s.h + cols.index[q, b] * s.w]`: one source row
/// resampled along the width, in the accumulator type; a row of more than [`SUM_BLOCK`] taps
/// in compensated blocks (see `sum`).
#[cube]
fn row_sum<FS: Float, A: Float>(src: &Array<FS>, base: u32, r: u32, strides: Sequence4, cols: &AxisTable, q: u32) -> A {
    let col_slots = first_slot(cols, q, true);
    let col_step = tap_step(cols, true);
    let row_base = base + r * strides.h;
    let count = cols.count[q as usize];
    let mut sum = A::from_int(0);
    if count <= SUM_BLOCK {
        for b in 0..count {
            sum += tap::<FS, A>(src, row_base, strides, cols, col_slots + b * col_step);
        }
    } else {
        let mut total = CompensatedSum::<A, Const<1>>::new();
        for k in 0..blocks_of(count, SUM_BLOCK) {
            let mut block = A::from_int(0);
            for b in k * SUM_BLOCK..u32::min(k * SUM_BLOCK + SUM_BLOCK, count) {
                block += tap::<FS, A>(src, row_base, strides, cols, col_slots + b * col_step);
            }
            total.add(Vector::new(block));
        }
        sum = total.value()[0];
    }
    sum
}

/// The separable gather of a `TILE_H x TILE_W` tile of one (n, c) plane through shared memory:
/// each source row the tile needs is resampled along the width once (into an f32 tile), then
/// each output sums its rows from there. Work per output is about
/// `taps_x * source_rows / TILE_H + taps_y` instead of `taps_x * taps_y`, with no intermediate
/// in device memory. A tile needing more than `TILE_SOURCE_ROWS` source rows falls back to the
/// direct sum. Scalar elements only.
///
/// Grid: x over column tiles, y over row tiles, z over the `batch * channels` planes.
#[cube(launch_unchecked)]
pub fn separable_gather_tiled<FS: Float, FD: Float, A: Float>(
    src: &Array<FS>,
    dst: &mut Array<FD>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
) {
    let tx = UNIT_POS_X;
    let ty = UNIT_POS_Y;
    let q = CUBE_POS_X * TILE_W + tx;
    let p0 = CUBE_POS_Y * TILE_H;
    let p = p0 + ty;
    let c = CUBE_POS_Z % layout.channels;
    let n = CUBE_POS_Z / layout.channels;
    let s = layout.src_strides;
    let d = layout.dst_strides;
    let base = n * s.n + c * s.c;

    // Source rows of the tile: [first, end), empty when no row has taps. Each row's entries
    // are ascending, so a row spans its first to its last entry; one unit per row reads those
    // two, and every unit combines the tile's rows from shared memory.
    let mut row_first = SharedMemory::<u32>::new(TILE_H as usize);
    let mut row_end = SharedMemory::<u32>::new(TILE_H as usize);
    if tx == 0 {
        let mut lo = 0xFFFF_FFFFu32;
        let mut hi = 0u32;
        if p < layout.height {
            let count = rows.count[p as usize];
            if count > 0 {
                lo = rows.index[table_slot(rows, p, 0, true) as usize];
                hi = rows.index[table_slot(rows, p, count - 1, true) as usize] + 1;
            }
        }
        row_first[ty as usize] = lo;
        row_end[ty as usize] = hi;
    }
    sync_cube();
    let mut first = 0xFFFF_FFFFu32;
    let mut end = 0u32;
    for k in 0..TILE_H {
        first = u32::min(first, row_first[k as usize]);
        end = u32::max(end, row_end[k as usize]);
    }
    first = u32::min(first, end);
    let source_rows = end - first;

    if source_rows <= TILE_SOURCE_ROWS {
        let mut tile = SharedMemory::<A>::new((TILE_SOURCE_ROWS * TILE_W) as usize);
        if q < layout.width {
            let passes = (source_rows + TILE_H - 1 - ty) / TILE_H;
            for k in 0..passes {
                let r = ty + k * TILE_H;
                tile[(r * TILE_W + tx) as usize] = row_sum::<FS, A>(src, base, first + r, s, cols, q);
            }
        }
        sync_cube();
        if q < layout.width && p < layout.height {
            // At most `TILE_SOURCE_ROWS <= SUM_BLOCK` rows: one plain loop.
            let mut sum = A::from_int(0);
            for a in 0..rows.count[p as usize] {
                let slot = table_slot(rows, p, a, true) as usize;
                sum += tile[((rows.index[slot] - first) * TILE_W + tx) as usize] * A::cast_from(rows.weight[slot]);
            }
            dst[(n * d.n + c * d.c + p * d.h + q * d.w) as usize] = FD::cast_from(sum);
        }
    } else if q < layout.width && p < layout.height {
        // Each source row is a block of the compensated sum (a tall downsample has many).
        let mut sum = CompensatedSum::<A, Const<1>>::new();
        for a in 0..rows.count[p as usize] {
            let slot = table_slot(rows, p, a, true) as usize;
            sum.add(Vector::new(
                row_sum::<FS, A>(src, base, rows.index[slot], s, cols, q) * A::cast_from(rows.weight[slot]),
            ));
        }
        dst[(n * d.n + c * d.c + p * d.h + q * d.w) as usize] = FD::cast_from(sum.value()[0]);
    }
}
