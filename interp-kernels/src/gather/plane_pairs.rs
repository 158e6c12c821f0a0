//! The factored planes shape for two destination rows at once: a unit per pair of vertically
//! neighbouring pixels (and group of channels) sums each source row of their shared window
//! along the width once, for both.

use cubecl::prelude::*;

use super::planes::{factored_sum, load_row, window_row};
use super::{grid_position, table_slot, AxisTable, GatherLayout};

/// Most source rows the second row of a pair may start below the first and still share its
/// window: the window holds `row_taps + PAIR_SHIFT` rows, so a downsample of up to 4x with full
/// rows (its rows start about the ratio apart) sums every source row once for both outputs.
pub const PAIR_SHIFT: u32 = 4;

/// `dst[n, c, p, q] = sum_a rows.weight[p, a] * sum_b cols.weight[q, b] * src[n, c, rows.index[p, a], cols.index[q, b]]`
/// for tables of at most `row_taps` and `col_taps` entries per row (the factored planes
/// shapes), one unit per destination column `q` of two rows `p = 2k, 2k + 1`, batch `n` and
/// group of `planes` consecutive channels.
///
/// The factored planes kernel reads `row_taps x col_taps` source values per output. When the
/// two rows' taps are consecutive source rows, the second starting at most [`PAIR_SHIFT`]
/// rows below the first, both outputs read one window of at most `row_taps + PAIR_SHIFT`
/// rows: each is summed along the width once and weighted into the output(s) whose taps hold
/// it (a 2x downsample with 8 taps: 10 row sums for two outputs, against 16). Neighbouring
/// units are neighbouring columns, as in the planes kernel, so reads stay coalesced.
///
/// Same sums in the same order as `factored_sum` (each row's sum over the columns in table
/// order, the rows weighted and added in table order, rows past a count skipped): the bits of
/// the factored planes shape. Pairs whose rows are not consecutive or start too far apart
/// (clamped edges of some filters) sum each output with `factored_sum`.
///
/// Grid: `width * ceil(height / 2) * batch * ceil(channels / planes)` units, width fastest.
#[allow(clippy::manual_div_ceil)]
#[cube(launch_unchecked)]
pub fn separable_gather_plane_pairs<FS: Float, FD: Float, A: Float>(
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
    let pairs = (layout.height + 1) / 2;
    let unit = ABSOLUTE_POS as u32;
    if unit >= layout.width * pairs * groups * layout.batch {
        terminate!();
    }
    let position = grid_position(unit, layout.width, pairs, groups);
    let (n, group, q) = (position.n, position.c, position.q);
    let p = position.p * 2;
    let has_next = p + 1 < layout.height;
    let next = u32::min(p + 1, layout.height - 1);
    let s = layout.src_strides;
    let d = layout.dst_strides;

    let col_count = cols.count[q as usize];
    let mut col_offset = Array::<u32>::new(col_taps as usize);
    let mut col_weight = Array::<f32>::new(col_taps as usize);
    load_row(cols, q, col_count, s.w, &mut col_offset, &mut col_weight, col_taps, true);

    // Where the two rows' taps sit: consecutive source rows from `first` and `next_first`.
    let count = rows.count[p as usize];
    let next_count = select(has_next, rows.count[next as usize], 0u32);
    let first = rows.index[table_slot(rows, p, 0, true) as usize];
    let last = rows.index[table_slot(rows, p, u32::max(count, 1) - 1, true) as usize];
    let next_first = rows.index[table_slot(rows, next, 0, true) as usize];
    let next_last = rows.index[table_slot(rows, next, u32::max(next_count, 1) - 1, true) as usize];
    let consecutive = count == 0 || last == first + count - 1;
    let next_consecutive = next_count == 0 || next_last == next_first + next_count - 1;
    // The window starts at the first output's first row (the second's when the first has none).
    let top = select(count == 0, next_first, first);
    let shift = next_first - top;
    let window = comptime!(row_taps + PAIR_SHIFT);
    let shared = consecutive && next_consecutive && (next_count == 0 || (next_first >= top && shift + next_count <= window));

    let first_channel = group * planes;
    let end = u32::min(first_channel + planes, layout.channels);
    let dst_pixel = n * d.n + p * d.h + q * d.w;
    if shared {
        // Each output's row weights by window row: the first's from row 0, the second's from
        // `shift` (zeros elsewhere, never read: the guards below skip those rows; a row's
        // count is at most `row_taps`, the tables' width).
        let mut weight = Array::<f32>::new(row_taps as usize);
        let mut next_weight = Array::<f32>::new(window as usize);
        #[unroll]
        for a in 0..row_taps {
            weight[a as usize] = 0.0;
            if a < count {
                weight[a as usize] = rows.weight[table_slot(rows, p, a, true) as usize];
            }
        }
        #[unroll]
        for j in 0..window {
            next_weight[j as usize] = 0.0;
            if j >= shift && j < shift + next_count {
                next_weight[j as usize] = rows.weight[table_slot(rows, next, j - shift, true) as usize];
            }
        }
        for c in first_channel..end {
            // Window row `j` starts at `row_base` (stepped, not `j * s.h`: one register).
            let mut row_base = n * s.n + c * s.c + top * s.h;
            let mut acc = A::from_int(0);
            let mut next_acc = A::from_int(0);
            #[unroll]
            for j in 0..row_taps {
                let mine = j < count;
                let theirs = j >= shift && j < shift + next_count;
                if mine || theirs {
                    let row = window_row::<FS, A>(src, row_base, &col_offset, &col_weight, col_count, col_taps);
                    if mine {
                        acc += row * A::cast_from(weight[j as usize]);
                    }
                    if theirs {
                        next_acc += row * A::cast_from(next_weight[j as usize]);
                    }
                }
                row_base += s.h;
            }
            // Rows past the first output's taps serve the second alone (in a loop of their own:
            // fewer guards, which AMD's compiler keeps in scalar registers across the channels).
            #[unroll]
            for j in row_taps..window {
                if j >= shift && j < shift + next_count {
                    let row = window_row::<FS, A>(src, row_base, &col_offset, &col_weight, col_count, col_taps);
                    next_acc += row * A::cast_from(next_weight[j as usize]);
                }
                row_base += s.h;
            }
            dst[(dst_pixel + c * d.c) as usize] = FD::cast_from(acc);
            if has_next {
                dst[(dst_pixel + d.h + c * d.c) as usize] = FD::cast_from(next_acc);
            }
        }
    } else {
        let mut row_offset = Array::<u32>::new(row_taps as usize);
        let mut row_weight = Array::<f32>::new(row_taps as usize);
        #[unroll]
        for r in 0..2u32 {
            if r == 0 || has_next {
                let o = p + r;
                let o_count = rows.count[o as usize];
                load_row(rows, o, o_count, s.h, &mut row_offset, &mut row_weight, row_taps, true);
                for c in first_channel..end {
                    let base = n * s.n + c * s.c;
                    let acc = factored_sum::<FS, A>(
                        src,
                        base,
                        &row_offset,
                        &row_weight,
                        o_count,
                        &col_offset,
                        &col_weight,
                        col_count,
                        row_taps,
                        col_taps,
                    );
                    dst[(dst_pixel + r * d.h + c * d.c) as usize] = FD::cast_from(acc);
                }
            }
        }
    }
}
