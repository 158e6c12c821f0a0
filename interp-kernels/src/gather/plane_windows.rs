//! Plane loops whose column windows are read in source vectors: a unit loads the aligned
//! vectors that cover each of its windows, where plane loops load one value per tap.

use cubecl::prelude::*;

use super::{contiguous_start, first_slot, grid_position, tap_index, tap_step, AxisTable, GatherLayout, Pixel};

/// `dst[n, c, p, q] = sum_a sum_b rows.weight[p, a] * cols.weight[q, b] * src[n, c, rows.index[p, a], cols.index[q, 0] + b]`,
/// a unit per destination pixel `(n, p, q)` and group of `planes` consecutive channels, as in
/// [`separable_gather_plane_loops`](fn@super::separable_gather_plane_loops), for tables whose
/// rows read consecutive indices.
///
/// Plane loops load one source value per tap: in the width pass of a downsample, neighbouring
/// lanes read values a ratio apart (8.6 at 1080 -> 224), so each load instruction of a warp
/// touches about 17 sectors for 64 bytes of bf16 values, and the L1 bounds the pass (its time
/// followed the sectors, docs/PERFORMANCE.md v32). Here a unit reads the aligned vectors of
/// `V` elements that cover its window, `ceil` of about `(taps + V - 1) / V` loads per row and
/// channel instead of `taps`, each element with its tap's weight where it lies inside the
/// window.
///
/// Each channel's sum is plane loops' (rows in order, each row's taps in order, the same f32
/// weight products added in the accumulator type): the same bits. Elements outside the window
/// are skipped, not weighted by zero (`0 * inf` would be NaN).
///
/// `src_strides` in vectors for the batch, channel and height axes, the width contiguous (its
/// stride unused), every source row a whole number of vectors, so no vector leaves its row;
/// `dst_strides` in elements. Both tables' rows read consecutive indices (each row's first
/// index alone is loaded: a variant of indexed rows spilled registers in half-precision
/// vectors of 8). For rows of at most `SUM_BLOCK` tap pairs.
///
/// Grid: `width * height * batch * ceil(channels / planes)` units, width fastest.
#[allow(clippy::manual_div_ceil)]
#[cube(launch_unchecked)]
pub fn separable_gather_plane_windows<FS: Float, FD: Float, A: Float, V: Size>(
    src: &Array<Vector<FS, V>>,
    dst: &mut Array<FD>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
    planes: u32,
    #[comptime] group: u32,
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
    let lanes = V::value() as u32;

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
    let first_row = contiguous_start(rows, row_slots, true);
    // The window: elements [window, end) of each source row, in the vectors [first_vector,
    // first_vector + vectors).
    let window = cols.index[col_slots as usize];
    let end = window + col_count;
    let first_vector = window / lanes;
    let mut vectors = 0u32;
    if col_count > 0 {
        vectors = (end + lanes - 1) / lanes - first_vector;
    }
    let mut weights = Array::<A>::new(V::value());
    for a in 0..row_count {
        let slot = (row_slots + a * row_step) as usize;
        let row_index = tap_index(rows, first_row, a, slot, true);
        let row_base = base + row_index * s.h + first_vector;
        let row_weight = rows.weight[slot];
        for v in 0..vectors {
            let start = (first_vector + v) * lanes;
            // Each element's weight where it lies in the window (its tap `start + i - window`).
            #[unroll]
            for i in 0..V::value() {
                let at = start + i as u32;
                if at >= window && at < end {
                    let cslot = col_slots + (at - window) * col_step;
                    weights[i] = A::cast_from(row_weight * cols.weight[cslot as usize]);
                }
            }
            #[unroll]
            for k in 0..group {
                if k < count {
                    let values = src[(row_base + v + k * s.c) as usize];
                    #[unroll]
                    for i in 0..V::value() {
                        let at = start + i as u32;
                        if at >= window && at < end {
                            acc[k as usize] += A::cast_from(values[i]) * weights[i];
                        }
                    }
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
