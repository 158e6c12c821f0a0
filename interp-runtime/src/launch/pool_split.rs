//! Channels-last area pooling in two launches (`interp_kernels::gather::pool_partials_channels`
//! then `pool_totals_channels`): where a window is large and the outputs few (global
//! pooling), partial sums of splits of each window's rows fill the device with cubes whose
//! warps each read one pixel's 32 channel vectors, instead of teams whose warps spread over
//! 16 pixels. By default wherever it applies and the outputs alone would not fill the device
//! (the v19 A/B on an H100: channels-last global pooling f32 1.18x, bf16 1.03x; docs/PERFORMANCE.md).

use cubecl::prelude::*;
use interp_kernels::gather::{POOL_LANES, POOL_WARPS};

use super::choice::{loop_iterations, loop_limit, Vectorization};
use super::io::GatherIo;
use super::table::DeviceTable;
use crate::dtype::DType;

/// Cubes pass 1 aims for: an H100 or H200 keeps 6 to 8 cubes of 256 units on each of its 132
/// SMs, so about a thousand fill it; more splits than that only add partial sums.
const FILL_CUBES: u64 = 1024;

/// A launch of the split pooling: channel vector lanes, splits of a window's rows and the
/// rows each covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PoolSplitLaunch {
    pub vector: usize,
    pub splits: u32,
    pub rows_per_split: u32,
}

impl PoolSplitLaunch {
    /// Vectors of the accumulator type the partial sums take: a split per destination vector.
    pub fn partials(&self, io: &GatherIo) -> usize {
        let [n, c, h, w] = io.dst_view.shape;
        n * h * w * (c / self.vector) * self.splits as usize
    }
}

/// The most splits of a window's rows by default (`Tuning::pool_splits` sets another count),
/// as timed in the v19 A/B: global pooling of 32 maps x 256 f32 channels (64 blocks of
/// channel vectors) took all 16 to fill `FILL_CUBES`; more splits only add partial sums.
const DEFAULT_POOL_SPLITS: u32 = 16;

/// The split pooling (at most `Tuning::pool_splits` splits, default `DEFAULT_POOL_SPLITS`;
/// fewer where `FILL_CUBES` cubes need fewer, none where the outputs alone fill them) where it
/// applies: sums in f32 (f16, bf16, f32 calls), both tensors channels-last in channel vectors
/// of two lanes or more (`vectorization`), tables of consecutive indices with one weight per
/// row (`uniform`), a window whose rows split in two or more, each unit's loops within the
/// runtime's loop cap.
pub(super) fn pool_split<R: Runtime>(
    client: &ComputeClient<R>,
    io: &GatherIo,
    rows: &DeviceTable,
    cols: &DeviceTable,
    vectorization: Vectorization,
) -> Option<PoolSplitLaunch> {
    // The default where no strategy is forced (a forced one is timed as itself).
    let most = match io.tuning.pool_splits {
        Some(most) => most,
        None if io.tuning.strategy.is_none() => DEFAULT_POOL_SPLITS,
        None => return None,
    };
    if most < 2 {
        return None;
    }
    let vector = match vectorization {
        Vectorization::Channels(v) if v > 1 => v,
        _ => return None,
    };
    // Sums in f32 only: the f64 variant spilled registers (`cargo xtask kernels`).
    let f32_sums = io.dst_dtype.accumulator() == DType::F32;
    let channels_last = io.src_view.channels_last() && io.dst_view.channels_last();
    let uniform = rows.uniform_taps && cols.uniform_taps;
    if !(f32_sums && channels_last && uniform) || rows.width < 2 {
        return None;
    }
    // As many splits as fill the device (`FILL_CUBES`), at most the tuning's and the rows'.
    let [n, c, h, w] = io.dst_view.shape.map(|d| d as u64);
    let blocks = (c / vector as u64).div_ceil(u64::from(POOL_LANES));
    let wanted = FILL_CUBES.div_ceil(n * h * w * blocks).min(u64::from(most)) as u32;
    let rows_per_split = (rows.width as u32).div_ceil(wanted.max(1));
    let splits = (rows.width as u32).div_ceil(rows_per_split);
    let columns = (cols.width as u64).div_ceil(u64::from(POOL_WARPS));
    let within_cap = loop_limit(client).is_none_or(|max| loop_iterations(1, u64::from(rows_per_split), columns) <= max);
    let launch = PoolSplitLaunch {
        vector,
        splits,
        rows_per_split,
    };
    // The kernels index in 32 bits: pass 1's units and the partials' elements; the partials
    // take one allocation.
    let units = n * h * w * u64::from(splits) * blocks * u64::from(POOL_LANES * POOL_WARPS);
    let elements = launch.partials(io) as u64 * vector as u64;
    let indexed = units <= u64::from(u32::MAX) && elements <= u64::from(u32::MAX);
    let fits = elements * io.dst_dtype.accumulator().size() as u64 <= client.properties().memory.max_page_size;
    (within_cap && indexed && fits && splits >= 2).then_some(launch)
}
