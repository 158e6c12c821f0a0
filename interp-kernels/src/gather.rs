//! The resampling kernels: a separable gather through two per-axis tables.
//!
//! Forward reads the input through the forward tables; backward reads `grad_out` through the
//! adjoint tables. Each unit owns its destination elements (a vector of channels when the
//! channels are contiguous), sums in the accumulator type `A` (f32 for f16/bf16/f32), and
//! writes once: no atomics, a fixed summation order, bitwise-reproducible results. Source and
//! destination element types may differ (`FS`, `FD`) so that a two-pass resample (one axis at
//! a time, through an identity table on the other) keeps its intermediate in `A`.

use cubecl::prelude::*;

/// A per-axis table as the gather reads it: `width` slots per destination index.
#[derive(CubeType, CubeLaunch)]
pub struct AxisTable {
    pub index: Array<u32>,
    pub weight: Array<f32>,
    pub count: Array<u32>,
    pub width: u32,
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

/// `sum_a sum_b rows.weight[p, a] * cols.weight[q, b] * src[base + rows.index[p, a] * s_h + cols.index[q, b] * s_w]`,
/// in the accumulator type, over vectors of `M` channels.
#[cube]
fn weighted_sum<FS: Float, A: Float, M: Size>(
    src: &Array<Vector<FS, M>>,
    base: u32,
    strides: Sequence4,
    rows: &AxisTable,
    p: u32,
    cols: &AxisTable,
    q: u32,
) -> Vector<A, M> {
    let row_slots = p * rows.width;
    let col_slots = q * cols.width;
    let row_count = rows.count[p as usize];
    let col_count = cols.count[q as usize];
    let mut acc = Vector::<A, M>::new(A::from_int(0));
    for a in 0..row_count {
        let slot = (row_slots + a) as usize;
        let row_base = base + rows.index[slot] * strides.h;
        let mut line = Vector::<A, M>::new(A::from_int(0));
        for b in 0..col_count {
            let cslot = (col_slots + b) as usize;
            let value = Vector::<A, M>::cast_from(src[(row_base + cols.index[cslot] * strides.w) as usize]);
            line += value * Vector::new(A::cast_from(cols.weight[cslot]));
        }
        acc += line * Vector::new(A::cast_from(rows.weight[slot]));
    }
    acc
}

/// `dst[n, c, p, q] = sum_a sum_b rows.weight[p, a] * cols.weight[q, b] * src[n, c, rows.index[p, a], cols.index[q, b]]`,
/// one unit per destination vector of `N` channels (`N = 1` for a scalar per unit).
///
/// `channels_last` orders units with channels fastest (coalesced for NHWC), else width fastest.
#[cube(launch_unchecked)]
pub fn separable_gather<FS: Float, FD: Float, A: Float, N: Size>(
    src: &Array<Vector<FS, N>>,
    dst: &mut Array<Vector<FD, N>>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
    #[comptime] channels_last: bool,
) {
    let total = layout.batch * layout.channels * layout.height * layout.width;
    let unit = ABSOLUTE_POS as u32;
    if unit >= total {
        terminate!();
    }
    let mut rest = unit;
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
    let n = rest;
    let s = layout.src_strides;
    let sum = weighted_sum::<FS, A, N>(src, n * s.n + c * s.c, s, rows, p, cols, q);
    let d = layout.dst_strides;
    dst[(n * d.n + c * d.c + p * d.h + q * d.w) as usize] = Vector::cast_from(sum);
}

/// Like [`separable_gather`] for width-contiguous destinations (NCHW): one unit writes `N`
/// consecutive outputs along the width as one vector store. `layout.width` counts those
/// vectors; `dst_strides` are in vectors, `src_strides` in elements (`M = 1`).
#[cube(launch_unchecked)]
pub fn separable_gather_along_width<FS: Float, FD: Float, A: Float, N: Size, M: Size>(
    src: &Array<Vector<FS, M>>,
    dst: &mut Array<Vector<FD, N>>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
) {
    let total = layout.batch * layout.channels * layout.height * layout.width;
    let unit = ABSOLUTE_POS as u32;
    if unit >= total {
        terminate!();
    }
    let qv = unit % layout.width;
    let mut rest = unit / layout.width;
    let p = rest % layout.height;
    rest /= layout.height;
    let c = rest % layout.channels;
    let n = rest / layout.channels;
    let s = layout.src_strides;
    let base = n * s.n + c * s.c;
    let q0 = qv * N::value() as u32;
    let mut out = Vector::<A, N>::empty();
    #[unroll]
    for lane in 0..N::value() {
        let sum = weighted_sum::<FS, A, M>(src, base, s, rows, p, cols, q0 + lane as u32);
        out[lane] = sum[0];
    }
    let d = layout.dst_strides;
    dst[(n * d.n + c * d.c + p * d.h + qv) as usize] = Vector::cast_from(out);
}

/// Units per strip group: one warp on CUDA, so each load and store instruction of a group
/// touches consecutive addresses.
pub const STRIP_GROUP: u32 = 32;

/// Like [`separable_gather`] for width-contiguous destinations read from a wider source (the
/// backward of an upsample): each unit owns `strip` outputs of one row, interleaved with its
/// group (`q = group_start + k * STRIP_GROUP + lane`), so every load and store instruction of a
/// group stays coalesced while the index arithmetic is paid once per `strip` outputs.
/// `layout.width` is the true width; `M = 1`.
// `div_ceil` has no `#[cube]` expansion, hence the manual form.
#[allow(clippy::manual_div_ceil)]
#[cube(launch_unchecked)]
pub fn separable_gather_strips<FS: Float, FD: Float, A: Float, M: Size>(
    src: &Array<Vector<FS, M>>,
    dst: &mut Array<Vector<FD, M>>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
    #[comptime] strip: u32,
) {
    let span = STRIP_GROUP * strip;
    let groups = (layout.width + span - 1) / span;
    let total = layout.batch * layout.channels * layout.height * groups * STRIP_GROUP;
    let unit = ABSOLUTE_POS as u32;
    if unit >= total {
        terminate!();
    }
    let lane = unit % STRIP_GROUP;
    let mut rest = unit / STRIP_GROUP;
    let g = rest % groups;
    rest /= groups;
    let p = rest % layout.height;
    rest /= layout.height;
    let c = rest % layout.channels;
    let n = rest / layout.channels;
    let s = layout.src_strides;
    let d = layout.dst_strides;
    let base = n * s.n + c * s.c;
    let dst_row = n * d.n + c * d.c + p * d.h;
    #[unroll]
    for k in 0..strip {
        let q = g * span + k * STRIP_GROUP + lane;
        if q < layout.width {
            let sum = weighted_sum::<FS, A, M>(src, base, s, rows, p, cols, q);
            dst[(dst_row + q * d.w) as usize] = Vector::cast_from(sum);
        }
    }
}

/// Destination tile of [`separable_gather_tiled`]: `TILE_W` columns (one unit each) by
/// `TILE_H` rows.
pub const TILE_W: u32 = 32;
pub const TILE_H: u32 = 8;
/// Most source rows a tile may read and still take the shared-memory path.
pub const TILE_SOURCE_ROWS: u32 = 64;

/// `sum_b cols.weight[q, b] * src[base + r * s.h + cols.index[q, b] * s.w]`: one source row
/// resampled along the width, in the accumulator type.
#[cube]
fn row_sum<FS: Float, A: Float>(src: &Array<FS>, base: u32, r: u32, strides: Sequence4, cols: &AxisTable, q: u32) -> A {
    let col_slots = q * cols.width;
    let row_base = base + r * strides.h;
    let mut sum = A::from_int(0);
    for b in 0..cols.count[q as usize] {
        let slot = (col_slots + b) as usize;
        sum += A::cast_from(src[(row_base + cols.index[slot] * strides.w) as usize]) * A::cast_from(cols.weight[slot]);
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
                let slots = p * rows.width;
                lo = rows.index[slots as usize];
                hi = rows.index[(slots + count - 1) as usize] + 1;
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
            let slots = p * rows.width;
            let mut sum = A::from_int(0);
            for a in 0..rows.count[p as usize] {
                let slot = (slots + a) as usize;
                sum += tile[((rows.index[slot] - first) * TILE_W + tx) as usize] * A::cast_from(rows.weight[slot]);
            }
            dst[(n * d.n + c * d.c + p * d.h + q * d.w) as usize] = FD::cast_from(sum);
        }
    } else if q < layout.width && p < layout.height {
        let mut sum = A::from_int(0);
        let slots = p * rows.width;
        for a in 0..rows.count[p as usize] {
            let slot = (slots + a) as usize;
            sum += row_sum::<FS, A>(src, base, rows.index[slot], s, cols, q) * A::cast_from(rows.weight[slot]);
        }
        dst[(n * d.n + c * d.c + p * d.h + q * d.w) as usize] = FD::cast_from(sum);
    }
}
