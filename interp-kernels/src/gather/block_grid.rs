//! Which warps of the blocks kernel run its window's sums without guards: those whose 32 blocks
//! all lie in the box of blocks the host found full on both axes (`BlockInterior`). A warp
//! holding an edge block runs the guarded sums for all its blocks instead (the same bits), so
//! that no warp runs both paths, and the unit order stays row by row (coalesced reads).

use cubecl::prelude::*;

use super::{grid_position, Pixel};

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

/// The block (and channel group) of `unit` in a grid of `width` block columns, `height` block
/// rows and `groups` channel groups: block columns fastest (scalar layouts, where a warp's
/// lanes read neighbouring columns), or with `channels_fastest` channel groups fastest
/// (vectors of a pixel's channels: a warp's lanes read one pixel's neighbouring vectors).
#[cube]
pub(crate) fn block_position(unit: u32, width: u32, height: u32, groups: u32, #[comptime] channels_fastest: bool) -> Pixel {
    if comptime!(channels_fastest) {
        let mut at = grid_position(unit / groups, width, height, 1u32);
        at.c = unit % groups;
        at
    } else {
        grid_position(unit, width, height, groups)
    }
}

/// Whether the warp of `unit`, which serves block `(p, q)` (in blocks) in the order of
/// [`block_position`], serves blocks of that row only, all inside `inner`. With
/// `channels_fastest` the warp's units are consecutive (block, group) pairs of `groups` units
/// per block.
#[cube]
pub(crate) fn warp_inside(unit: u32, groups: u32, p: u32, q: u32, inner: BlockInterior, #[comptime] channels_fastest: bool) -> bool {
    let lane = unit % WARP;
    // The blocks the warp holds before and after this one in its row (if the row holds them):
    // one a unit with block columns fastest, one per `groups` units with groups fastest.
    let mut before = lane;
    let mut after = WARP - 1 - lane;
    if comptime!(channels_fastest) {
        let first = unit - lane;
        before = unit / groups - first / groups;
        after = (first + WARP - 1) / groups - unit / groups;
    }
    q >= before && q - before >= inner.left && q + after < inner.right && p >= inner.top && p < inner.bottom
}
