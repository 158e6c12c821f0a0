//! The one-pass gather for weight-one tables whose column runs split into aligned vectors: the
//! adjoint of an integer nearest upsample along the width sums `k` consecutive inputs per
//! output, read here as `k / V` vector loads instead of `k` scalar ones.

use cubecl::prelude::*;

use super::width::{strip_launch_units, strip_unit, StripUnit};
use super::{AxisTable, GatherLayout, STRIP_GROUP};

/// The vectors per column run the kernel is built for (`run_vectors`).
pub const RUN_VECTORS: [u32; 2] = [1, 2];

/// `dst[n, c, p, q] = sum_a sum_b src[n, c, rows.index[p, a], cols.index[q, 0] + b]` over
/// `rows.count[p]` rows and the `cols.count[q]` columns of a run, for tables whose weights are
/// all one and whose column rows are runs of consecutive indices, each empty or exactly
/// `run_vectors * V` long from a multiple of `V` (the runtime checks all of it): the source
/// is read in vectors of `V` along its width, `src_strides` in those vectors (the width's is
/// one), `dst_strides` in elements. The run's loads are unrolled (`run_vectors` is comptime):
/// a runtime loop of them was unrolled 4x by NVVM, whose loads in flight spilled registers.
///
/// Units as in [`separable_gather_strips`](fn@super::separable_gather_strips): each owns `strip`
/// outputs of one row, interleaved with its group of `STRIP_GROUP` units, so a group's vector
/// loads cover consecutive 16-byte pieces (a warp's load of 4-element f32 runs: four whole
/// cache lines, where four scalar loads touch the same four lines each).
///
/// Sums per row, rows in order, each row's vectors in order and each vector's lanes in order:
/// for contiguous rows the order of the one-pass unit-tap kernels (`weighted_sum` with
/// `unit_taps`), so the same bits.
#[cube(launch_unchecked)]
pub fn separable_gather_runs<FS: Float, FD: Float, A: Float, V: Size>(
    src: &Array<Vector<FS, V>>,
    dst: &mut Array<FD>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
    #[comptime] strip: u32,
    #[comptime] run_vectors: u32,
) {
    let unit = ABSOLUTE_POS as u32;
    if unit >= strip_launch_units(layout, strip) {
        terminate!();
    }
    let StripUnit {
        p,
        first,
        src_base,
        dst_row,
    } = strip_unit(unit, layout, strip);
    let (s, d) = (layout.src_strides, layout.dst_strides);
    let row_count = rows.count[p as usize];
    let lanes = V::value() as u32;
    #[unroll]
    for k in 0..strip {
        let q = first + k * STRIP_GROUP;
        if q < layout.width {
            // Tap-major slots: a group's 32 units load 32 consecutive entries.
            let mut acc = A::from_int(0);
            if cols.count[q as usize] > 0 {
                let run_start = src_base + cols.index[q as usize] / lanes;
                // Tap-major row slots walked by increments: fewer live registers (with each
                // slot computed from its tap, the f16 two-vector strips of 3 and 4 spilled).
                let mut slot = p;
                for _ in 0..row_count {
                    let row = run_start + rows.index[slot as usize] * s.h;
                    slot += rows.rows;
                    let mut line = A::from_int(0);
                    #[unroll]
                    for b in 0..run_vectors {
                        let values = Vector::<A, V>::cast_from(src[(row + b) as usize]);
                        #[unroll]
                        for i in 0..V::value() {
                            line += values[i];
                        }
                    }
                    acc += line;
                }
            }
            dst[(dst_row + q * d.w) as usize] = FD::cast_from(acc);
        }
    }
}
