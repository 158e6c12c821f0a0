//! Sums whose rounding error does not grow with the tap count.
//!
//! An output of an extreme downsample (area 10^6 -> 1) or an input of an extreme upsample's
//! backward (read by 10^6 outputs) sums that many products. One sequential f32 loop loses
//! about `n u / 10` of the result on such sums (3.7e-4 relative at 65000 taps). Here, a sum of
//! more than [`SUM_BLOCK`] tap pairs adds its taps plainly in blocks of at most `SUM_BLOCK`
//! and folds each block into a compensated (Kahan) total, so the error stays near
//! `(SUM_BLOCK / 10 + 2) u` at any length. Sums of at most `SUM_BLOCK` pairs (every usual
//! filter and ratio) keep the one plain loop: a single fold of a block into a zero total is
//! exact, so they also have the same bits as before.
//!
//! The compensation needs the compiler to keep `(t - total) - y` as written: CUDA (NVRTC
//! without `--use_fast_math`), HIP and WGSL compilers do; a driver that reassociated it would
//! still give the blocked sum, whose error is about `(SUM_BLOCK + n / SUM_BLOCK) u / 10`.
//!
//! Sums across a cube's units (teams, split pooling) meet in [`tree_sum`]'s fixed tree.

use cubecl::prelude::*;

/// Most tap pairs summed by one plain loop; longer sums go in blocks of this many taps.
pub const SUM_BLOCK: u32 = 64;

/// A compensated running total of block sums.
#[derive(CubeType)]
pub(crate) struct CompensatedSum<A: Float, M: Size> {
    total: Vector<A, M>,
    carry: Vector<A, M>,
}

#[cube]
impl<A: Float, M: Size> CompensatedSum<A, M> {
    pub fn new() -> CompensatedSum<A, M> {
        CompensatedSum::<A, M> {
            total: Vector::new(A::from_int(0)),
            carry: Vector::new(A::from_int(0)),
        }
    }

    /// Adds one block's sum; the part of it that rounding drops from the total goes to the carry.
    pub fn add(&mut self, block: Vector<A, M>) {
        let y = block - self.carry;
        let t = self.total + y;
        self.carry = (t - self.total) - y;
        self.total = t;
    }

    pub fn value(&self) -> Vector<A, M> {
        self.total - self.carry
    }
}

/// Whether `rows x cols` tap pairs go through one plain loop (see the module).
#[cube]
pub(crate) fn plain_sum(rows: u32, cols: u32) -> bool {
    rows <= SUM_BLOCK && cols <= SUM_BLOCK && rows * cols <= SUM_BLOCK
}

/// Blocks of at most `size` items in `count` items.
// `div_ceil` has no `#[cube]` expansion, hence the manual form.
#[allow(clippy::manual_div_ceil)]
#[cube]
pub(crate) fn blocks_of(count: u32, size: u32) -> u32 {
    (count + size - 1) / size
}

/// The partial sums of a cube's `cube_units` units, `members` of them per total, `stride`
/// units apart (member `m` of a total at unit `first + m * stride`), added pairwise in a fixed
/// order in shared memory: member k takes member k + half, halves first. Every unit of the
/// cube calls it (it synchronizes the cube); member 0's slot (`unit`) then holds the total.
#[cube]
pub(crate) fn tree_sum<A: Float, V: Size>(
    partial: Vector<A, V>,
    unit: u32,
    member: u32,
    #[comptime] cube_units: u32,
    #[comptime] members: u32,
    #[comptime] stride: u32,
) -> SharedMemory<Vector<A, V>> {
    let mut sums = SharedMemory::<Vector<A, V>>::new(cube_units as usize);
    sums[unit as usize] = partial;
    sync_cube();
    #[unroll]
    for level in 0..comptime!(members.trailing_zeros()) {
        let half = (members / 2) >> level;
        if member < half {
            sums[unit as usize] = sums[unit as usize] + sums[(unit + half * stride) as usize];
        }
        sync_cube();
    }
    sums
}
