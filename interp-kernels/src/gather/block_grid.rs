//! Which warps of the blocks kernel run its window's sums without guards: those whose 32 blocks
//! all lie in the box of blocks the host found full on both axes (`BlockInterior`). A warp
//! holding an edge block runs the guarded sums for all its blocks instead (the same bits), so
//! that no warp runs both paths, and the unit order stays row by row (coalesced reads).

use cubecl::prelude::*;

/// Units per warp: the warps of a one-dimensional cube are 32 consecutive units.
const WARP: u32 = 32;

/// The blocks full on both axes: block rows `top..bottom`, block columns `left..right` (block
/// `b` holds destination indices `2b` and `2b + 1`); all zero where an axis has none. Only a
/// hint: every unit still checks its own rows, so any box gives the same outputs.
#[derive(CubeType, CubeLaunch, Clone, Copy)]
pub struct BlockInterior {
    pub top: u32,
    pub bottom: u32,
    pub left: u32,
    pub right: u32,
}

/// Whether the warp of `unit`, which serves block `(p, q)` (in blocks) with columns fastest,
/// serves blocks of that row only, all inside `inner`.
#[cube]
pub(crate) fn warp_inside(unit: u32, p: u32, q: u32, inner: BlockInterior) -> bool {
    let lane = unit % WARP;
    // The warp's first block is `lane` columns back in this row (if the row holds it); its
    // last `WARP - 1` further.
    let first = q - u32::min(lane, q);
    q >= lane && first >= inner.left && first + WARP - 1 < inner.right && p >= inner.top && p < inner.bottom
}
