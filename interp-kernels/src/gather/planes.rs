//! The gather for scalar layouts with few taps per axis: a unit per destination pixel that
//! loops over several channels (planes), its table entries loaded once into registers.

use cubecl::prelude::*;

use super::{AxisTable, GatherLayout};

/// Most taps per axis [`separable_gather_planes()`] takes (its `taps`: 1, 2 or 4).
pub const PLANE_TAPS: u32 = 4;

/// `dst[n, c, p, q] = sum_a sum_b rows.weight[p, a] * cols.weight[q, b] * src[n, c, rows.index[p, a], cols.index[q, b]]`
/// for tables of at most `taps` entries per row, one unit per destination pixel `(n, p, q)`
/// and group of `planes` consecutive channels.
///
/// The one-pass gathers load a unit's table entries (counts, indices, weights) for every
/// output; for a cheap filter (bilinear: 4 taps) those loads outnumber the source reads. Here
/// they are loaded once, into registers (loops over `taps` unrolled), and serve `planes`
/// channels: per output, the source reads and one store remain. Neighbouring units are
/// neighbouring columns, so every read and store instruction of a warp stays coalesced along
/// the width (NCHW) or within a few lines (channels-last with few channels).
///
/// Same sums, in the same order, with the same f32 weight products as the one-pass kernels:
/// the same bits. Scalar elements, strides in elements.
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
    #[comptime] taps: u32,
) {
    let groups = (layout.channels + planes - 1) / planes;
    let unit = ABSOLUTE_POS as u32;
    if unit >= layout.width * layout.height * groups * layout.batch {
        terminate!();
    }
    let q = unit % layout.width;
    let mut rest = unit / layout.width;
    let p = rest % layout.height;
    rest /= layout.height;
    let group = rest % groups;
    let n = rest / groups;
    let s = layout.src_strides;
    let d = layout.dst_strides;

    // The pixel's taps: source offsets within a plane and weights; entries past a row's count
    // are never read from the source.
    let row_count = rows.count[p as usize];
    let col_count = cols.count[q as usize];
    let mut row_offset = Array::<u32>::new(taps as usize);
    let mut row_weight = Array::<f32>::new(taps as usize);
    let mut col_offset = Array::<u32>::new(taps as usize);
    let mut col_weight = Array::<f32>::new(taps as usize);
    #[unroll]
    for k in 0..taps {
        row_offset[k as usize] = 0;
        row_weight[k as usize] = 0.0;
        col_offset[k as usize] = 0;
        col_weight[k as usize] = 0.0;
        if k < row_count {
            let slot = (p * rows.width + k) as usize;
            row_offset[k as usize] = rows.index[slot] * s.h;
            row_weight[k as usize] = rows.weight[slot];
        }
        if k < col_count {
            let slot = (q * cols.width + k) as usize;
            col_offset[k as usize] = cols.index[slot] * s.w;
            col_weight[k as usize] = cols.weight[slot];
        }
    }

    let first = group * planes;
    let end = u32::min(first + planes, layout.channels);
    let dst_pixel = n * d.n + p * d.h + q * d.w;
    for c in first..end {
        let base = n * s.n + c * s.c;
        let mut acc = A::from_int(0);
        #[unroll]
        for a in 0..taps {
            #[unroll]
            for b in 0..taps {
                if a < row_count && b < col_count {
                    let value = A::cast_from(src[(base + row_offset[a as usize] + col_offset[b as usize]) as usize]);
                    acc += value * A::cast_from(row_weight[a as usize] * col_weight[b as usize]);
                }
            }
        }
        dst[(dst_pixel + c * d.c) as usize] = FD::cast_from(acc);
    }
}
