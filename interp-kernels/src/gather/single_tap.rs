//! Strips of outputs that are each one weight-one source element (nearest forward; filters
//! whose taps fall on their zeros), with no loops: every load of a strip can issue before its
//! first store. Shared by the strips kernels of NCHW rows and of channels-last pixels.

use cubecl::prelude::*;

use super::{first_slot, AxisTable};

/// Where a strip reads and writes: its source row's first element `row` and the source's
/// column stride `src_w`, its destination row's first element `dst_row` and column stride
/// `dst_w`, its first column `first` and the `step` between its columns, and the row's `width`.
#[derive(CubeType)]
pub(crate) struct SingleTapStrip {
    pub row: u32,
    pub src_w: u32,
    pub dst_row: u32,
    pub dst_w: u32,
    pub first: u32,
    pub step: u32,
    pub width: u32,
}

/// Stores the `strip` outputs `first + k * step` (`k < strip`) of a row whose every column
/// reads one source column with weight one (`cols` laid out tap-major or row-major), each
/// summed as `weighted_sum` sums a unit tap: a row's sum from zero, added to the output's from
/// zero (`0 + (0 + x)`, signed zeros included: the same bits). A column past the row reads the
/// row's last column instead (always there) and stores nothing; the branch holds the store
/// alone (a predicated store, not a jump over it).
#[cube]
pub(crate) fn single_tap_strip<FS: Float, FD: Float, A: Float, M: Size>(
    src: &Array<Vector<FS, M>>,
    dst: &mut Array<Vector<FD, M>>,
    cols: &AxisTable,
    at: SingleTapStrip,
    #[comptime] strip: u32,
    #[comptime] tap_major: bool,
) {
    #[unroll]
    for k in 0..strip {
        let q = at.first + k * at.step;
        let last = u32::min(q, at.width - 1);
        let x = src[(at.row + cols.index[first_slot(cols, last, tap_major) as usize] * at.src_w) as usize];
        let zero = Vector::<A, M>::new(A::from_int(0));
        let out = Vector::<FD, M>::cast_from(zero + (zero + Vector::<A, M>::cast_from(x)));
        if q < at.width {
            dst[(at.dst_row + q * at.dst_w) as usize] = out;
        }
    }
}
