//! The blocks kernel's sums from a shared window: a block's four outputs for a group of
//! channels, from the `(row_taps + 1) x (col_taps + 1)` source values they share.

use cubecl::prelude::*;

use super::blocks::BlockAxis;
use super::GatherLayout;

/// Whether the short-rows kernel of `shape` sums warps of full blocks without guards, and
/// streams its window rows ([`window_sums_streamed`]): 3x3, 4x4 and 6x6. Not 2x2 (measured on an
/// H100, docs/PERFORMANCE.md v21): the streamed form with its unguarded copy took the 2x2
/// kernel from 40 to 48 registers and DeepLab's 8x bilinear f32 forward from 0.092 to 0.19 ms,
/// as v16's unguarded copy did; a 2x2 block's guards are 8 selects beside 9 loads per channel.
pub(super) fn unguarded_inside(shape: (u32, u32)) -> bool {
    shape.0.max(shape.1) >= 3
}

/// The block's four outputs for channels `first..end` from the shared window; with `guarded`
/// each row's taps past its count skipped and outputs past the destination not stored. Both
/// forms add the same products in the same order (`sum_a w_a (sum_b w_b x)`, taps ascending):
/// the same bits.
#[cube]
#[allow(clippy::too_many_arguments)]
pub(super) fn shared_window_sums<FS: Float, FD: Float, A: Float, V: Size>(
    src: &Array<Vector<FS, V>>,
    dst: &mut Array<Vector<FD, V>>,
    layout: GatherLayout,
    n: u32,
    p: u32,
    q: u32,
    first: u32,
    end: u32,
    y: BlockAxis,
    x: BlockAxis,
    row_weight: &Array<f32>,
    col_weight: &Array<f32>,
    #[comptime] row_taps: u32,
    #[comptime] col_taps: u32,
    #[comptime] guarded: bool,
) {
    if comptime!(unguarded_inside((row_taps, col_taps))) {
        window_sums_streamed::<FS, FD, A, V>(
            src, dst, layout, n, p, q, first, end, y, x, row_weight, col_weight, row_taps, col_taps, guarded,
        );
    } else {
        window_sums_by_rows::<FS, FD, A, V>(
            src, dst, layout, n, p, q, first, end, y, x, row_weight, col_weight, row_taps, col_taps, guarded,
        );
    }
}

/// [`shared_window_sums`] with each window row added to the outputs as soon as it is summed
/// (no arrays of row sums), the second output's weights aligned to the window positions
/// once per unit, and the guards as bit masks: fewer registers for 4x4 and 6x6 windows.
#[cube]
#[allow(clippy::too_many_arguments)]
fn window_sums_streamed<FS: Float, FD: Float, A: Float, V: Size>(
    src: &Array<Vector<FS, V>>,
    dst: &mut Array<Vector<FD, V>>,
    layout: GatherLayout,
    n: u32,
    p: u32,
    q: u32,
    first: u32,
    end: u32,
    y: BlockAxis,
    x: BlockAxis,
    row_weight: &Array<f32>,
    col_weight: &Array<f32>,
    #[comptime] row_taps: u32,
    #[comptime] col_taps: u32,
    #[comptime] guarded: bool,
) {
    let s = layout.src_strides;
    let d = layout.dst_strides;
    let mut row_offset = Array::<u32>::new((row_taps + 1) as usize);
    let mut col_offset = Array::<u32>::new((col_taps + 1) as usize);
    window_offsets(&y, s.h, &mut row_offset, row_taps, guarded);
    window_offsets(&x, s.w, &mut col_offset, col_taps, guarded);
    // The second output's weights by window position (`taps + 1`: its taps start one further
    // when shifted), so that each window value is multiplied where it stands, and whether a
    // position holds one of its taps (the ends hold one only shifted, or only not).
    let mut right_weight = Array::<f32>::new((col_taps + 1) as usize);
    let mut lower_weight = Array::<f32>::new((row_taps + 1) as usize);
    #[unroll]
    for j in 0..col_taps + 1 {
        right_weight[j as usize] = shifted_weight(col_weight, j, x.shifted, col_taps);
    }
    #[unroll]
    for i in 0..row_taps + 1 {
        lower_weight[i as usize] = shifted_weight(row_weight, i, y.shifted, row_taps);
    }
    // With `guarded`, the window positions holding taps of each output as bit masks (one
    // register per axis and output rather than a predicate per position).
    let (x_first, x_second) = (tap_mask(x.count, false), tap_mask(x.next_count, x.shifted));
    let (y_first, y_second) = (tap_mask(y.count, false), tap_mask(y.next_count, y.shifted));
    let out = n * d.n + p * d.h + q * d.w;
    for c in first..end {
        let base = n * s.n + c * s.c;
        let mut top_left = Vector::<A, V>::new(A::from_int(0));
        let mut top_right = Vector::<A, V>::new(A::from_int(0));
        let mut bottom_left = Vector::<A, V>::new(A::from_int(0));
        let mut bottom_right = Vector::<A, V>::new(A::from_int(0));
        // Window row by row: summed along the width for the block's left and right column,
        // then added to the outputs whose taps it is, in tap order (the same sums as each
        // output's own rows: `sum_a w_a (sum_b w_b x)`).
        #[unroll]
        for i in 0..row_taps + 1 {
            let row_base = base + row_offset[i as usize];
            let mut l = Vector::<A, V>::new(A::from_int(0));
            let mut r = Vector::<A, V>::new(A::from_int(0));
            #[unroll]
            for j in 0..col_taps + 1 {
                let value = Vector::<A, V>::cast_from(src[(row_base + col_offset[j as usize]) as usize]);
                if j < col_taps {
                    l = add_tap::<A, V>(l, value, A::cast_from(col_weight[j as usize]), bit(x_first, j), guarded);
                }
                let holds = shifted_tap(j, x.shifted, x_second, col_taps, guarded);
                r = add_tap::<A, V>(r, value, A::cast_from(right_weight[j as usize]), holds, true);
            }
            if i < row_taps {
                let upper = A::cast_from(row_weight[i as usize]);
                top_left = add_tap::<A, V>(top_left, l, upper, bit(y_first, i), guarded);
                top_right = add_tap::<A, V>(top_right, r, upper, bit(y_first, i), guarded);
            }
            let lower = A::cast_from(lower_weight[i as usize]);
            let below = shifted_tap(i, y.shifted, y_second, row_taps, guarded);
            bottom_left = add_tap::<A, V>(bottom_left, l, lower, below, true);
            bottom_right = add_tap::<A, V>(bottom_right, r, lower, below, true);
        }
        let block = BlockSums::<A, V> {
            top_left,
            top_right,
            bottom_left,
            bottom_right,
        };
        store_block::<FD, A, V>(dst, layout, out + c * d.c, p, q, block, guarded);
    }
}

/// The source offsets (along one axis, `stride` apart) of the window's `taps + 1` positions;
/// past the last index the block uses (`taps - 1`, or `taps` when the second output's taps
/// start further; with `guarded` the last of its rows' counts) the last one again, so that
/// no read leaves the source.
#[cube]
fn window_offsets(axis: &BlockAxis, stride: u32, offsets: &mut Array<u32>, #[comptime] taps: u32, #[comptime] guarded: bool) {
    let mut last = taps - 1 + select(axis.shifted, 1u32, 0u32);
    if comptime!(guarded) {
        last = window_last(axis);
    }
    #[unroll]
    for i in 0..taps + 1 {
        offsets[i as usize] = (axis.first + u32::min(i, last)) * stride;
    }
}

/// A block's four sums.
#[derive(CubeType)]
struct BlockSums<A: Float, V: Size> {
    top_left: Vector<A, V>,
    top_right: Vector<A, V>,
    bottom_left: Vector<A, V>,
    bottom_right: Vector<A, V>,
}

/// Stores a block's sums from destination offset `at` (its top left output `(p, q)`); with
/// `guarded` not those past the destination (an odd last column or row).
#[cube]
fn store_block<FD: Float, A: Float, V: Size>(
    dst: &mut Array<Vector<FD, V>>,
    layout: GatherLayout,
    at: u32,
    p: u32,
    q: u32,
    sums: BlockSums<A, V>,
    #[comptime] guarded: bool,
) {
    let d = layout.dst_strides;
    dst[at as usize] = Vector::cast_from(sums.top_left);
    if comptime!(guarded) {
        if q + 1 < layout.width {
            dst[(at + d.w) as usize] = Vector::cast_from(sums.top_right);
        }
        if p + 1 < layout.height {
            dst[(at + d.h) as usize] = Vector::cast_from(sums.bottom_left);
            if q + 1 < layout.width {
                dst[(at + d.h + d.w) as usize] = Vector::cast_from(sums.bottom_right);
            }
        }
    } else {
        dst[(at + d.w) as usize] = Vector::cast_from(sums.top_right);
        dst[(at + d.h) as usize] = Vector::cast_from(sums.bottom_left);
        dst[(at + d.h + d.w) as usize] = Vector::cast_from(sums.bottom_right);
    }
}

/// The last window position either output of `axis` reads (at least 0).
#[cube]
fn window_last(axis: &BlockAxis) -> u32 {
    u32::max(u32::max(axis.count, select(axis.shifted, 1u32, 0u32) + axis.next_count), 1) - 1
}

/// The weight the second output of an axis gives window position `j` (0..=`taps`): its tap
/// `j - 1` when shifted, else `j` (its second half of `weights`); at an end where it has no tap,
/// any of its weights (unused: `shifted_tap` says no).
#[cube]
fn shifted_weight(weights: &Array<f32>, j: u32, shifted: bool, #[comptime] taps: u32) -> f32 {
    let (before, at) = (u32::max(j, 1) - 1, u32::min(j, taps - 1));
    select(shifted, weights[(taps + before) as usize], weights[(taps + at) as usize])
}

/// Whether window position `j` (0..=`taps`) holds a tap of the axis's second output: position
/// 0 only unshifted, `taps` only shifted; with `guarded` the bit of `mask` (its first `count`
/// taps: [`tap_mask`]).
#[cube]
fn shifted_tap(j: u32, shifted: bool, mask: u32, #[comptime] taps: u32, #[comptime] guarded: bool) -> bool {
    let mut holds = (j > 0 && j < taps) || (j == 0 && !shifted) || (j == taps && shifted);
    if comptime!(guarded) {
        holds = bit(mask, j);
    }
    holds
}

/// Window positions `s..s + count` as bits, `s` one where `shifted`: those holding an output's
/// `count` taps.
#[cube]
fn tap_mask(count: u32, shifted: bool) -> u32 {
    ((1u32 << count) - 1) << select(shifted, 1u32, 0u32)
}

/// Bit `j` of `mask`.
#[cube]
fn bit(mask: u32, j: u32) -> bool {
    (mask >> j) & 1 == 1
}

/// [`shared_window_sums`] with each window row's sums kept until the rows are summed, the
/// second output's taps picked by selects on `shifted` (the form of v13-v20).
#[cube]
#[allow(clippy::too_many_arguments)]
fn window_sums_by_rows<FS: Float, FD: Float, A: Float, V: Size>(
    src: &Array<Vector<FS, V>>,
    dst: &mut Array<Vector<FD, V>>,
    layout: GatherLayout,
    n: u32,
    p: u32,
    q: u32,
    first: u32,
    end: u32,
    y: BlockAxis,
    x: BlockAxis,
    row_weight: &Array<f32>,
    col_weight: &Array<f32>,
    #[comptime] row_taps: u32,
    #[comptime] col_taps: u32,
    #[comptime] guarded: bool,
) {
    let s = layout.src_strides;
    let d = layout.dst_strides;
    let mut row_offset = Array::<u32>::new((row_taps + 1) as usize);
    let mut col_offset = Array::<u32>::new((col_taps + 1) as usize);
    window_offsets(&y, s.h, &mut row_offset, row_taps, guarded);
    window_offsets(&x, s.w, &mut col_offset, col_taps, guarded);
    let out = n * d.n + p * d.h + q * d.w;
    for c in first..end {
        let base = n * s.n + c * s.c;
        // Each window row summed along the width for the block's left and right column.
        let mut left = Array::<Vector<A, V>>::new((row_taps + 1) as usize);
        let mut right = Array::<Vector<A, V>>::new((row_taps + 1) as usize);
        #[unroll]
        for i in 0..row_taps + 1 {
            let row_base = base + row_offset[i as usize];
            let mut window = Array::<Vector<A, V>>::new((col_taps + 1) as usize);
            #[unroll]
            for j in 0..col_taps + 1 {
                window[j as usize] = Vector::<A, V>::cast_from(src[(row_base + col_offset[j as usize]) as usize]);
            }
            let mut l = Vector::<A, V>::new(A::from_int(0));
            let mut r = Vector::<A, V>::new(A::from_int(0));
            #[unroll]
            for b in 0..col_taps {
                l = add_tap::<A, V>(l, window[b as usize], A::cast_from(col_weight[b as usize]), b < x.count, guarded);
                let value = select(x.shifted, window[(b + 1) as usize], window[b as usize]);
                let weight = A::cast_from(col_weight[(col_taps + b) as usize]);
                r = add_tap::<A, V>(r, value, weight, b < x.next_count, guarded);
            }
            left[i as usize] = l;
            right[i as usize] = r;
        }
        let mut top_left = Vector::<A, V>::new(A::from_int(0));
        let mut top_right = Vector::<A, V>::new(A::from_int(0));
        let mut bottom_left = Vector::<A, V>::new(A::from_int(0));
        let mut bottom_right = Vector::<A, V>::new(A::from_int(0));
        #[unroll]
        for a in 0..row_taps {
            let (upper, lower) = (
                A::cast_from(row_weight[a as usize]),
                A::cast_from(row_weight[(row_taps + a) as usize]),
            );
            top_left = add_tap::<A, V>(top_left, left[a as usize], upper, a < y.count, guarded);
            top_right = add_tap::<A, V>(top_right, right[a as usize], upper, a < y.count, guarded);
            // The second row's taps: the window rows from one further when it is shifted.
            let below_left = select(y.shifted, left[(a + 1) as usize], left[a as usize]);
            let below_right = select(y.shifted, right[(a + 1) as usize], right[a as usize]);
            bottom_left = add_tap::<A, V>(bottom_left, below_left, lower, a < y.next_count, guarded);
            bottom_right = add_tap::<A, V>(bottom_right, below_right, lower, a < y.next_count, guarded);
        }
        let block = BlockSums::<A, V> {
            top_left,
            top_right,
            bottom_left,
            bottom_right,
        };
        store_block::<FD, A, V>(dst, layout, out + c * d.c, p, q, block, guarded);
    }
}

/// `acc + value * weight`, or with `guarded` `acc` where the position does not `hold` a tap
/// of the output (past a short row's end: the window value there is not the row's).
#[cube]
fn add_tap<A: Float, V: Size>(acc: Vector<A, V>, value: Vector<A, V>, weight: A, holds: bool, #[comptime] guarded: bool) -> Vector<A, V> {
    let sum = acc + value * Vector::new(weight);
    if comptime!(guarded) {
        select(holds, sum, acc)
    } else {
        sum
    }
}
