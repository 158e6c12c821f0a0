//! The gather for upsampling: a unit per 2x2 block of destination pixels (and group of
//! channels, or vector of channels in channels-last tensors) reads the source window the
//! block shares once.

use cubecl::prelude::*;

use super::block_grid::{block_position, warp_inside, BlockInterior};
use super::block_window::{shared_window_sums, unguarded_inside};
use super::{first_slot, table_slot, tap_step, AxisTable, GatherLayout};

/// Destination pixels per unit along each axis of [`separable_gather_blocks()`].
pub const BLOCK: u32 = 2;

/// The (row taps, column taps) shapes [`separable_gather_blocks()`] is built for: the clamp
/// filters' full rows (bilinear: 2, bicubic: 4, lanczos3: 6) and the odd widths of their
/// adjoints (3: lanczos3's 2x downsample, whose adjoint reads 3 outputs per input; the adjoints
/// of downsamples by 1.3x-2x read 2-3). A table runs in a shape only when its widest rows are
/// exactly the shape's: then its inner rows are full and the window holds them.
pub const BLOCK_SHAPES: [(u32, u32); 4] = [(2, 2), (3, 3), (4, 4), (6, 6)];

/// The shape of [`BLOCK_SHAPES`] whose taps are exactly `row_width` and `col_width`.
pub fn block_shape(row_width: u32, col_width: u32) -> Option<(u32, u32)> {
    BLOCK_SHAPES.iter().copied().find(|&shape| shape == (row_width, col_width))
}

/// Most `taps * V` (a shape's widest axis times its channel vector's lanes) the kernel is built
/// for in channel vectors: its four outputs and two row sums hold `6 V` f32 values beside the
/// shape's weights, and the 6x6 shape in vectors of 8 lanes (half precision) spilled on HIP
/// (`cargo xtask kernels`; 4x4 in 8 lanes and 6x6 in 4 took at most 128 CUDA registers).
pub const MAX_BLOCK_LANE_TAPS: u32 = 32;

/// The channel vector [`separable_gather_blocks()`] reads `shape` in where the channels make
/// vectors of `widest` lanes: `widest` halved until `taps * V` is at most
/// [`MAX_BLOCK_LANE_TAPS`] (half precision's 6x6 shape: 4 lanes of 8 bytes).
pub fn block_vector(shape: (u32, u32), widest: usize) -> usize {
    let taps = shape.0.max(shape.1).max(1) as usize;
    let mut vector = widest.max(1);
    while vector > 1 && taps * vector > MAX_BLOCK_LANE_TAPS as usize {
        vector /= 2;
    }
    vector
}

/// Two neighbouring destination indices `o`, `o + 1` along one axis, as the block reads them.
#[derive(CubeType)]
pub(super) struct BlockAxis {
    /// First source index of the window: `o`'s first tap (or `o + 1`'s when `o` has none).
    pub first: u32,
    /// Whether `o + 1`'s taps start one index further (else at the same index).
    pub shifted: bool,
    /// Whether the `taps + 1` window from `first` holds both rows: each row's entries are
    /// consecutive indices (`taps` of them, or with `short_rows` at most `taps`), the second
    /// row starts at the first's index or one further, and without `short_rows` `o + 1` exists.
    pub shared: bool,
    /// Whether it holds both rows full: `shared`, `o + 1` exists and both rows hold `taps`
    /// entries (the window's sums need no guards).
    pub full: bool,
    /// Entries of `o`'s and `o + 1`'s rows (`taps` each without `short_rows`; 0 for an
    /// `o + 1` past the axis).
    pub count: u32,
    pub next_count: u32,
}

/// Loads rows `o` and `o + 1` of `table` (`len` rows): their weights into `weights` (`o`'s
/// then `o + 1`'s, `taps` each) and how they sit in a shared window. The table's width is
/// `taps`, so every slot read is inside the table.
#[cube]
fn block_axis(
    table: &AxisTable,
    o: u32,
    len: u32,
    weights: &mut Array<f32>,
    #[comptime] taps: u32,
    #[comptime] short_rows: bool,
) -> BlockAxis {
    let next = u32::min(o + 1, len - 1);
    let (slots, next_slots) = (first_slot(table, o, false), first_slot(table, next, false));
    let step = tap_step(table, false);
    let first = table.index[slots as usize];
    let next_first = table.index[next_slots as usize];
    #[unroll]
    for k in 0..taps {
        weights[k as usize] = table.weight[(slots + k * step) as usize];
        weights[(taps + k) as usize] = table.weight[(next_slots + k * step) as usize];
    }
    let count = table.count[o as usize];
    let steps = next_first == first || next_first == first + 1;
    let mut axis = BlockAxis {
        first,
        shifted: next_first == first + 1,
        shared: false,
        full: false,
        count: taps,
        next_count: taps,
    };
    if comptime!(short_rows) {
        let next_count = select(o + 1 < len, table.count[next as usize], 0u32);
        // Indices ascend within a row, so `count` entries spanning `count` indices are
        // consecutive (an empty row reads its first slot: in the table, unused).
        let last = table.index[(slots + (u32::max(count, 1) - 1) * step) as usize];
        let next_last = table.index[(next_slots + (u32::max(next_count, 1) - 1) * step) as usize];
        let consecutive = count == 0 || last == first + count - 1;
        let next_consecutive = next_count == 0 || next_last == next_first + next_count - 1;
        axis.first = select(count == 0, select(next_count == 0, 0u32, next_first), first);
        axis.shifted = count > 0 && next_count > 0 && next_first == first + 1;
        axis.shared = consecutive && next_consecutive && (count == 0 || next_count == 0 || steps);
        axis.count = count;
        axis.next_count = next_count;
        axis.full = axis.shared && count == taps && next_count == taps;
    } else {
        let full = count == taps && table.index[(slots + (taps - 1) * step) as usize] == first + taps - 1;
        let next_full =
            table.count[next as usize] == taps && table.index[(next_slots + (taps - 1) * step) as usize] == next_first + taps - 1;
        axis.shared = o + 1 < len && full && next_full && steps;
        axis.full = axis.shared;
    }
    axis
}

/// `dst[n, c, p, q] = sum_a rows.weight[p, a] * sum_b cols.weight[q, b] * src[n, c, rows.index[p, a], cols.index[q, b]]`
/// for tables whose rows hold `row_taps` and `col_taps` entries at most, a unit per 2x2 block
/// of destination pixels and group of `planes` consecutive channels.
///
/// In an upsample, neighbouring outputs read overlapping taps: the four outputs of a block
/// read `(row_taps + 1) x (col_taps + 1)` source values where the planes kernel reads
/// `4 row_taps col_taps` (bicubic: 25 against 64), and their table entries are loaded once
/// for all channels. Each window row is summed along the width for the block's two columns,
/// then the rows along the height (`sum_a w_a (sum_b w_b x)`, the factored order of the
/// tiles and the factored planes shape). Where the window does not hold the block's rows full
/// (the edges, where clamped taps merge; an axis that shrinks; an odd last row or column) the
/// unit sums each output's taps from the tables, in the same order: the same bits as the
/// shared window for every row it could have served. With `short_rows` the shared window also
/// serves rows of fewer consecutive entries (the edges, an absent last row or column), each
/// tap past a row's count skipped by a guard: only rows with gaps or axes that shrink take the
/// per-output sums.
///
/// With `short_rows`, full blocks take the unguarded sums only in warps wholly inside
/// `interior` (`block_grid::warp_inside`): a warp then runs one path.
///
/// Elements in vectors of `V` channels: `V = 1` for scalar layouts (NCHW, and channels-last
/// pixels whose channels make no vectors), units in block-column order; `V > 1` for
/// channels-last tensors read in channel vectors, with `channels_fastest` (a warp's lanes then
/// read one pixel's neighbouring vectors, whole cache lines, as the one-pass channel gather's
/// do). `layout` counts channels and strides in vectors.
///
/// Grid: `ceil(width / 2) * ceil(height / 2) * batch * ceil(channels / planes)` units, block
/// columns fastest, or with `channels_fastest` channel groups fastest.
#[allow(clippy::manual_div_ceil)]
#[cube(launch_unchecked)]
#[allow(clippy::too_many_arguments)]
pub fn separable_gather_blocks<FS: Float, FD: Float, A: Float, V: Size>(
    src: &Array<Vector<FS, V>>,
    dst: &mut Array<Vector<FD, V>>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
    interior: BlockInterior,
    planes: u32,
    #[comptime] row_taps: u32,
    #[comptime] col_taps: u32,
    #[comptime] short_rows: bool,
    #[comptime] channels_fastest: bool,
) {
    let groups = (layout.channels + planes - 1) / planes;
    let blocks_w = (layout.width + BLOCK - 1) / BLOCK;
    let blocks_h = (layout.height + BLOCK - 1) / BLOCK;
    let unit = ABSOLUTE_POS as u32;
    if unit >= blocks_w * blocks_h * groups * layout.batch {
        terminate!();
    }
    let block = block_position(unit, blocks_w, blocks_h, groups, channels_fastest);
    let (n, group, p, q) = (block.n, block.c, block.p * BLOCK, block.q * BLOCK);
    let first = group * planes;
    let end = u32::min(first + planes, layout.channels);

    let mut row_weight = Array::<f32>::new((2 * row_taps) as usize);
    let mut col_weight = Array::<f32>::new((2 * col_taps) as usize);
    let y = block_axis(rows, p, layout.height, &mut row_weight, row_taps, short_rows);
    let x = block_axis(cols, q, layout.width, &mut col_weight, col_taps, short_rows);
    let full = y.full && x.full;
    if comptime!(short_rows) {
        // Unguarded only in warps wholly inside the full box: a warp holding an edge block
        // runs the guarded sums for all its blocks, so that none runs both.
        let mut unguarded = false;
        if comptime!(unguarded_inside((row_taps, col_taps))) {
            unguarded = full && warp_inside(unit, groups, block.p, block.q, interior, channels_fastest);
        }
        if unguarded {
            shared_window_sums::<FS, FD, A, V>(
                src,
                dst,
                layout,
                n,
                p,
                q,
                first,
                end,
                y,
                x,
                &row_weight,
                &col_weight,
                row_taps,
                col_taps,
                false,
            );
        } else if y.shared && x.shared {
            shared_window_sums::<FS, FD, A, V>(
                src,
                dst,
                layout,
                n,
                p,
                q,
                first,
                end,
                y,
                x,
                &row_weight,
                &col_weight,
                row_taps,
                col_taps,
                true,
            );
        } else {
            block_table_sums::<FS, FD, A, V>(src, dst, rows, cols, layout, n, p, q, first, end, row_taps, col_taps);
        }
    } else if full {
        shared_window_sums::<FS, FD, A, V>(
            src,
            dst,
            layout,
            n,
            p,
            q,
            first,
            end,
            y,
            x,
            &row_weight,
            &col_weight,
            row_taps,
            col_taps,
            false,
        );
    } else {
        block_table_sums::<FS, FD, A, V>(src, dst, rows, cols, layout, n, p, q, first, end, row_taps, col_taps);
    }
}

/// The block's outputs (those inside the destination) for channels `first..end`, each summed
/// from its table rows.
#[cube]
#[allow(clippy::too_many_arguments)]
fn block_table_sums<FS: Float, FD: Float, A: Float, V: Size>(
    src: &Array<Vector<FS, V>>,
    dst: &mut Array<Vector<FD, V>>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
    n: u32,
    p: u32,
    q: u32,
    first: u32,
    end: u32,
    #[comptime] row_taps: u32,
    #[comptime] col_taps: u32,
) {
    for k in 0..BLOCK * BLOCK {
        let (pp, qq) = (p + k / BLOCK, q + k % BLOCK);
        if pp < layout.height && qq < layout.width {
            for c in first..end {
                table_sum::<FS, FD, A, V>(src, dst, rows, cols, layout, n, c, pp, qq, row_taps, col_taps);
            }
        }
    }
}

/// One output `(n, c, p, q)` summed from its table rows and stored (see [`table_value`]).
#[cube]
#[allow(clippy::too_many_arguments)]
fn table_sum<FS: Float, FD: Float, A: Float, V: Size>(
    src: &Array<Vector<FS, V>>,
    dst: &mut Array<Vector<FD, V>>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
    n: u32,
    c: u32,
    p: u32,
    q: u32,
    #[comptime] row_taps: u32,
    #[comptime] col_taps: u32,
) {
    let d = layout.dst_strides;
    let value = table_value::<FS, A, V>(src, rows, cols, layout, n, c, p, q, row_taps, col_taps);
    dst[(n * d.n + c * d.c + p * d.h + q * d.w) as usize] = Vector::cast_from(value);
}

/// One output `(n, c, p, q)` summed from its table rows (at most `row_taps` and `col_taps`
/// entries: the tables' widths), in the order of the shared window. The loops run over the
/// widths, unrolled, each entry past a row's count skipped: with loops over the counts
/// ptxas spilled registers in the 2-tap f32 kernel (`cargo xtask kernels`).
#[cube]
#[allow(clippy::too_many_arguments)]
pub(super) fn table_value<FS: Float, A: Float, V: Size>(
    src: &Array<Vector<FS, V>>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
    n: u32,
    c: u32,
    p: u32,
    q: u32,
    #[comptime] row_taps: u32,
    #[comptime] col_taps: u32,
) -> Vector<A, V> {
    let s = layout.src_strides;
    let (row_count, col_count) = (rows.count[p as usize], cols.count[q as usize]);
    let base = n * s.n + c * s.c;
    let mut acc = Vector::<A, V>::new(A::from_int(0));
    #[unroll]
    for a in 0..row_taps {
        if a < row_count {
            let slot = table_slot(rows, p, a, false) as usize;
            let row_base = base + rows.index[slot] * s.h;
            let mut row = Vector::<A, V>::new(A::from_int(0));
            #[unroll]
            for b in 0..col_taps {
                if b < col_count {
                    let cslot = table_slot(cols, q, b, false) as usize;
                    let value = Vector::<A, V>::cast_from(src[(row_base + cols.index[cslot] * s.w) as usize]);
                    row += value * Vector::new(A::cast_from(cols.weight[cslot]));
                }
            }
            acc += row * Vector::new(A::cast_from(rows.weight[slot]));
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The widest vector where `taps * V` stays within `MAX_BLOCK_LANE_TAPS`: half precision's
    /// 6x6 shape in 4 lanes, everything else in the widest (8 lanes for 16 bytes of f16).
    #[test]
    fn blocks_take_the_widest_vector_their_registers_allow() {
        assert_eq!(block_vector((6, 6), 8), 4);
        assert_eq!(block_vector((4, 4), 8), 8);
        assert_eq!(block_vector((3, 3), 8), 8);
        assert_eq!(block_vector((2, 2), 8), 8);
        assert_eq!(block_vector((6, 6), 4), 4);
        assert_eq!(block_vector((6, 6), 1), 1);
    }
}
