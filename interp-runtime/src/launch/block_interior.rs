//! Where the blocks kernel's full blocks lie: along each axis, the blocks whose two rows its
//! shared window holds full, found on the host from the table, so that warps wholly inside
//! run the window's sums without guards (`interp_kernels::gather::BlockInterior`).

use cubecl::prelude::*;
use interp_kernels::gather::BlockInteriorLaunch;

use super::table::DeviceTable;

/// Blocks `lo..hi` along an axis of `count.len()` rows of `width` slots (row-major `index`):
/// from the first block (rows `2b`, `2b + 1`) that the blocks kernel reads from its window
/// with full rows to the last one; `(0, 0)` where none is. A block is full where both rows
/// exist and hold `width` consecutive indices and the second starts at the first's index or
/// one further: the kernel's own test (`block_axis`), which it still makes for every block,
/// so a block inside the range that fails it is only summed the slower way.
pub(crate) fn window_blocks(index: &[u32], count: &[u32], width: usize) -> (u32, u32) {
    let first = |r: usize| index[r * width];
    let full = |r: usize| count[r] as usize == width && index[r * width + width - 1] == first(r) + width as u32 - 1;
    let shared = |b: usize| {
        let (o, next) = (2 * b, 2 * b + 1);
        full(o) && full(next) && (first(next) == first(o) || first(next) == first(o) + 1)
    };
    let blocks = count.len() / 2;
    match ((0..blocks).find(|&b| shared(b)), (0..blocks).rfind(|&b| shared(b))) {
        (Some(lo), Some(hi)) => (lo as u32, hi as u32 + 1),
        _ => (0, 0),
    }
}

/// The kernel's box of full blocks for these row and column tables: empty where either axis
/// has no full block, or without `unguarded` (`Tuning::block_unguarded`: every warp then sums
/// with the guards).
pub(super) fn block_interior<R: Runtime>(rows: &DeviceTable, cols: &DeviceTable, unguarded: bool) -> BlockInteriorLaunch<R> {
    let ((top, bottom), (left, right)) = (rows.window_blocks, cols.window_blocks);
    if !unguarded || top == bottom || left == right {
        return BlockInteriorLaunch::new(0, 0, 0, 0);
    }
    BlockInteriorLaunch::new(top, bottom, left, right)
}

#[cfg(test)]
mod tests {
    use super::window_blocks;

    /// Rows of 4 slots: `(first index, count)` each, consecutive indices.
    fn table(rows: &[(u32, u32)]) -> (Vec<u32>, Vec<u32>) {
        let index = rows
            .iter()
            .flat_map(|&(first, count)| (0..4).map(move |k| first + k.min(count.max(1) - 1)))
            .collect();
        (index, rows.iter().map(|&(_, count)| count).collect())
    }

    #[test]
    fn inner_blocks_between_the_edges() {
        // A bicubic 2x upsample's shape: merged (short) rows at both edges, an odd last row.
        let (index, count) = table(&[(0, 3), (0, 4), (0, 4), (1, 4), (1, 4), (2, 4), (2, 4), (3, 4), (5, 3)]);
        assert_eq!(window_blocks(&index, &count, 4), (1, 4));
        // Rows two apart (a shrinking axis) never share a window.
        let (index, count) = table(&[(0, 4), (2, 4), (4, 4), (6, 4)]);
        assert_eq!(window_blocks(&index, &count, 4), (0, 0));
        // One full pair: a box of one block.
        let (index, count) = table(&[(0, 2), (0, 4), (0, 4), (1, 4)]);
        assert_eq!(window_blocks(&index, &count, 4), (1, 2));
        // A short row inside leaves the range as it is (that block only sums per output).
        let (index, count) = table(&[(0, 4), (0, 4), (1, 2), (1, 4), (2, 4), (2, 4)]);
        assert_eq!(window_blocks(&index, &count, 4), (0, 3));
    }

    #[test]
    fn gaps_within_a_row_are_not_full() {
        let (index, count) = (vec![0, 1, 2, 4, 0, 1, 2, 3], vec![4, 4]);
        assert_eq!(window_blocks(&index, &count, 4), (0, 0));
    }
}
