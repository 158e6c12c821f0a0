//! The width pass through shared memory (row segments): a cube stages the source span of a
//! segment of one row once, in coalesced loads, and its units sum their taps from there.

use cubecl::prelude::*;

use super::{first_slot, tap_step, AxisTable, GatherLayout};

/// Units per cube of [`separable_gather_row_segments()`]: a segment is as many pixels as
/// whole pixels of channels fit.
pub const SEGMENT_UNITS: u32 = 256;

/// Source elements a cube stages (f32 in shared memory: 16 KB, so that eight cubes of
/// `SEGMENT_UNITS` stay resident on an SM).
pub const SEGMENT_SPAN: u32 = 4096;

/// Staging loads a unit issues before its first store.
const STAGE_LOADS: u32 = SEGMENT_SPAN / SEGMENT_UNITS;

/// `dst[n, c, p, q] = sum_b cols.weight[q, b] * src[n, c, p, cols.index[q, b]]`: the gather of
/// the width alone (the rows table the identity) along source rows that hold their pixels
/// contiguously: with `planar` a row of one channel plane (NCHW: `src_strides.w == 1`), else a
/// channels-last row of whole pixels (`src_strides.c == 1`, `src_strides.w == channels`). A
/// unit per output, in channel order within a pixel (channel `u % channels` of pixel
/// `q0 + u / channels`; planar rows: pixel `q0 + u`).
///
/// Each cube serves `segment_pixels` consecutive pixels of one destination row. Its source
/// span runs from the first tap of its first pixel to the last tap of its last one; the cube
/// loads the span's first `SEGMENT_SPAN` elements into shared memory (as the accumulator type)
/// with consecutive units reading consecutive elements, and a unit whose taps all lie in the
/// staged part sums them from there, any other (a span longer than the stage, a table whose
/// rows do not ascend with the index) from the source. Either way each output sums its taps
/// in order with its f32 weights: the bits of the one-output-per-unit gather (`weighted_sum`
/// with row weight one). `cols` tap-major; rows of at most `SUM_BLOCK` taps (one plain loop).
///
/// Why: a warp of the one-output gather reads 32 outputs' windows per tap load, which at an
/// 8.6x shrink lie 8.6 source pixels apart: a dozen cache lines a load (the L1 at 73-78% of
/// its peak, DRAM at 21%, docs/PERFORMANCE.md v31). Staged, each source line is read once per
/// cube and each tap is one shared-memory wavefront.
///
/// Grid: cubes numbered with the segment fastest, then the row `p`, the channel plane
/// (planar only) and the batch; units past the row's end and cubes past the last row write
/// nothing.
#[allow(clippy::manual_div_ceil)]
#[cube(launch_unchecked)]
pub fn separable_gather_row_segments<FS: Float, FD: Float, A: Float>(
    src: &Array<FS>,
    dst: &mut Array<FD>,
    cols: &AxisTable,
    layout: GatherLayout,
    segment_pixels: u32,
    #[comptime] planar: bool,
) {
    let segments = (layout.width + segment_pixels - 1) / segment_pixels;
    let planes = if comptime!(planar) { layout.channels } else { u32::new(1) };
    let cube = CUBE_POS as u32;
    if cube >= segments * layout.height * planes * layout.batch {
        terminate!();
    }
    let q0 = (cube % segments) * segment_pixels;
    let mut rest = cube / segments;
    let p = rest % layout.height;
    rest /= layout.height;
    let plane = rest % planes;
    let n = rest / planes;
    // Elements a pixel holds along the row.
    let channels = if comptime!(planar) { u32::new(1) } else { layout.channels };
    let s = layout.src_strides;
    let d = layout.dst_strides;
    let step = tap_step(cols, true);

    // The span from the first tap of the segment's first pixel to the last tap of its last.
    let q_last = u32::min(q0 + segment_pixels, layout.width) - 1;
    let first_count = cols.count[q0 as usize];
    let last_count = cols.count[q_last as usize];
    let mut first = 0u32;
    let mut end = 0u32;
    if first_count > 0 && last_count > 0 {
        first = cols.index[first_slot(cols, q0, true) as usize];
        end = cols.index[(first_slot(cols, q_last, true) + (last_count - 1) * step) as usize] + 1;
    }
    end = u32::max(end, first);
    let staged_pixels = u32::min(end - first, SEGMENT_SPAN / channels);
    let staged = staged_pixels * channels;
    let row = n * s.n + plane * s.c + p * s.h;
    let span_base = row + first * s.w;

    let mut stage = SharedMemory::<A>::new(SEGMENT_SPAN as usize);
    #[unroll]
    for k in 0..STAGE_LOADS {
        let i = UNIT_POS + k * SEGMENT_UNITS;
        if i < staged {
            stage[i as usize] = A::cast_from(src[(span_base + i) as usize]);
        }
    }
    sync_cube();

    let q = q0 + UNIT_POS / channels;
    let c = UNIT_POS % channels;
    if UNIT_POS < segment_pixels * channels && q < layout.width {
        let slots = first_slot(cols, q, true);
        let count = cols.count[q as usize];
        let mut inside = true;
        if count > 0 {
            let lo = cols.index[slots as usize];
            let hi = cols.index[(slots + (count - 1) * step) as usize];
            inside = lo >= first && hi < first + staged_pixels;
        }
        let mut acc = A::from_int(0);
        if inside {
            for b in 0..count {
                let slot = (slots + b * step) as usize;
                acc += stage[((cols.index[slot] - first) * channels + c) as usize] * A::cast_from(cols.weight[slot]);
            }
        } else {
            for b in 0..count {
                let slot = (slots + b * step) as usize;
                acc += A::cast_from(src[(row + cols.index[slot] * s.w + c) as usize]) * A::cast_from(cols.weight[slot]);
            }
        }
        dst[(n * d.n + (plane + c) * d.c + p * d.h + q * d.w) as usize] = FD::cast_from(acc);
    }
}
