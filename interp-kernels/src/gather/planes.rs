//! The gather for scalar layouts with few taps per axis: a unit per destination pixel that
//! loops over several channels (planes), its table entries loaded once into registers.

use cubecl::prelude::*;

use super::{grid_position, table_slot, AxisTable, GatherLayout, Pixel};

/// The (row taps, column taps) shapes [`separable_gather_planes()`] is built for: squares of
/// up to 8 taps per axis for 2-D filters, and one-axis shapes of up to 32 taps for the passes
/// of a two-pass gather and one-axis resizes (beside a one-entry identity table). A table runs
/// in the smallest shape that covers its widest row on both axes. No 8-tap one-axis shapes:
/// ptxas spilled 8 bytes in their half-precision variants (`cargo xtask kernels`), which the
/// 16-tap shapes, their taps past a row's count skipped, do not.
pub const PLANE_SHAPES: [(u32, u32); 8] = [(1, 1), (2, 2), (4, 4), (8, 8), (1, 16), (16, 1), (1, 32), (32, 1)];

/// Whether a shape sums in factored form, `sum_a w_a (sum_b w_b x)` (along the width first,
/// as the tiles do), instead of over tap pairs with their weight products: the shapes of more
/// than 16 pairs, whose pair arrays would hold too many registers (8x8: 128). Factored
/// shapes keep `2 (row_taps + col_taps)` values per unit.
pub fn plane_shape_factored((row_taps, col_taps): (u32, u32)) -> bool {
    row_taps > 1 && col_taps > 1 && row_taps * col_taps > 16
}

/// The smallest of [`PLANE_SHAPES`] covering rows of `row_width` and `col_width` taps.
pub fn plane_shape(row_width: u32, col_width: u32) -> Option<(u32, u32)> {
    PLANE_SHAPES
        .iter()
        .copied()
        .filter(|&(rows, cols)| row_width <= rows && col_width <= cols)
        .min_by_key(|&(rows, cols)| rows * cols)
}

/// `dst[n, c, p, q] = sum_a sum_b rows.weight[p, a] * cols.weight[q, b] * src[n, c, rows.index[p, a], cols.index[q, b]]`
/// for tables of at most `row_taps` and `col_taps` entries per row, one unit per destination
/// pixel `(n, p, q)` and group of `planes` consecutive channels.
///
/// The one-pass gathers load a unit's table entries (counts, indices, weights) for every
/// output; for a cheap filter (bilinear: 4 taps) those loads outnumber the source reads. Here
/// they are loaded once, into registers (loops over the taps unrolled), and serve `planes`
/// channels: per output, the source reads and one store remain. Neighbouring units are
/// neighbouring columns, so every read and store instruction of a warp stays coalesced along
/// the width (NCHW) or within a few lines (channels-last with few channels).
///
/// Same sums, in the same order, with the same f32 weight products as the one-pass kernels:
/// the same bits; except the factored shapes (see [`plane_shape_factored`]), which weight
/// each row's sum. Scalar elements, strides in elements.
///
/// Grid: `width * height * batch * ceil(channels / planes)` units, width fastest.
#[allow(clippy::manual_div_ceil)]
#[cube(launch_unchecked)]
pub fn separable_gather_planes<FS: Float, FD: Float, A: Float>(
    src: &Array<FS>,
    dst: &mut Array<FD>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
    planes: u32,
    #[comptime] row_taps: u32,
    #[comptime] col_taps: u32,
) {
    let groups = (layout.channels + planes - 1) / planes;
    let unit = ABSOLUTE_POS as u32;
    if unit >= layout.width * layout.height * groups * layout.batch {
        terminate!();
    }
    let Pixel { n, c: group, p, q } = grid_position(unit, layout.width, layout.height, groups);
    let s = layout.src_strides;
    let d = layout.dst_strides;

    // The pixel's taps: source offsets within a plane and weights.
    let row_count = rows.count[p as usize];
    let col_count = cols.count[q as usize];
    let mut row_offset = Array::<u32>::new(row_taps as usize);
    let mut row_weight = Array::<f32>::new(row_taps as usize);
    let mut col_offset = Array::<u32>::new(col_taps as usize);
    let mut col_weight = Array::<f32>::new(col_taps as usize);
    load_row(rows, p, row_count, s.h, &mut row_offset, &mut row_weight, row_taps, true);
    load_row(cols, q, col_count, s.w, &mut col_offset, &mut col_weight, col_taps, true);

    let first = group * planes;
    let end = u32::min(first + planes, layout.channels);
    let dst_pixel = n * d.n + p * d.h + q * d.w;
    if comptime!(plane_shape_factored((row_taps, col_taps))) {
        for c in first..end {
            let base = n * s.n + c * s.c;
            let acc = factored_sum::<FS, A>(
                src,
                base,
                &row_offset,
                &row_weight,
                row_count,
                &col_offset,
                &col_weight,
                col_count,
                row_taps,
                col_taps,
            );
            dst[(dst_pixel + c * d.c) as usize] = FD::cast_from(acc);
        }
    } else {
        // Each tap pair's offset and f32 weight product, once for every channel (the one-pass
        // kernels form the same product per output: same bits).
        let pairs = row_taps * col_taps;
        let mut pair_offset = Array::<u32>::new(pairs as usize);
        let mut pair_weight = Array::<A>::new(pairs as usize);
        #[unroll]
        for a in 0..row_taps {
            #[unroll]
            for b in 0..col_taps {
                let k = (a * col_taps + b) as usize;
                pair_offset[k] = row_offset[a as usize] + col_offset[b as usize];
                pair_weight[k] = A::cast_from(row_weight[a as usize] * col_weight[b as usize]);
            }
        }
        for c in first..end {
            let base = n * s.n + c * s.c;
            let mut acc = A::from_int(0);
            #[unroll]
            for a in 0..row_taps {
                #[unroll]
                for b in 0..col_taps {
                    if a < row_count && b < col_count {
                        let k = (a * col_taps + b) as usize;
                        acc += A::cast_from(src[(base + pair_offset[k]) as usize]) * pair_weight[k];
                    }
                }
            }
            dst[(dst_pixel + c * d.c) as usize] = FD::cast_from(acc);
        }
    }
}

/// `sum_a row_weight[a] * sum_b col_weight[b] * src[base + row_offset[a] + col_offset[b]]`
/// over the first `row_count` of `row_taps` rows and `col_count` of `col_taps` columns: one
/// output of the factored planes shapes and of the cells kernel's edges (the blocks kernel's
/// order, so both give its bits).
#[cube]
#[allow(clippy::too_many_arguments)]
pub(super) fn factored_sum<FS: Float, A: Float>(
    src: &Array<FS>,
    base: u32,
    row_offset: &Array<u32>,
    row_weight: &Array<f32>,
    row_count: u32,
    col_offset: &Array<u32>,
    col_weight: &Array<f32>,
    col_count: u32,
    #[comptime] row_taps: u32,
    #[comptime] col_taps: u32,
) -> A {
    let mut acc = A::from_int(0);
    #[unroll]
    for a in 0..row_taps {
        if a < row_count {
            let row = window_row::<FS, A>(src, base + row_offset[a as usize], col_offset, col_weight, col_count, col_taps);
            acc += row * A::cast_from(row_weight[a as usize]);
        }
    }
    acc
}

/// `sum_b col_weight[b] * src[row_base + col_offset[b]]` over the first `col_count` of
/// `col_taps` columns: one source row summed along the width, each row of [`factored_sum`] and
/// of the plane pairs.
#[cube]
pub(super) fn window_row<FS: Float, A: Float>(
    src: &Array<FS>,
    row_base: u32,
    col_offset: &Array<u32>,
    col_weight: &Array<f32>,
    col_count: u32,
    #[comptime] col_taps: u32,
) -> A {
    let mut row = A::from_int(0);
    #[unroll]
    for b in 0..col_taps {
        if b < col_count {
            row += A::cast_from(src[(row_base + col_offset[b as usize]) as usize]) * A::cast_from(col_weight[b as usize]);
        }
    }
    row
}

/// The first `taps` entries of row `o` of `table` (`count` entries): each index times
/// `stride` (a source offset) into `offsets`, each weight into `weights`; zeros past the
/// count, which the sums never read from the source.
#[cube]
#[allow(clippy::too_many_arguments)]
pub(super) fn load_row(
    table: &AxisTable,
    o: u32,
    count: u32,
    stride: u32,
    offsets: &mut Array<u32>,
    weights: &mut Array<f32>,
    #[comptime] taps: u32,
    #[comptime] tap_major: bool,
) {
    #[unroll]
    for k in 0..taps {
        offsets[k as usize] = 0;
        weights[k as usize] = 0.0;
        if k < count {
            let slot = table_slot(table, o, k, tap_major) as usize;
            offsets[k as usize] = table.index[slot] * stride;
            weights[k as usize] = table.weight[slot];
        }
    }
}
