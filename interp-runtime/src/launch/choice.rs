//! How a gather runs: the strategy (one pass, tiles, two passes), the vectorization of a
//! pass and whether its unit-tap kernels run, from the layout and the filter's taps.
//! Thresholds measured on an H200 (docs/PERFORMANCE.md); environment variables override them
//! for experiments.

use cubecl::prelude::*;
use interp_kernels::gather::{MAX_STRIP, STRIP_GROUP, TILE_H};

use super::gather::GatherIo;
use crate::tensor::Checked4;

/// How a gather is carried out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Strategy {
    /// One kernel reading every tap pair of every output from device memory.
    OnePass,
    /// One axis at a time through an intermediate in the accumulator type.
    TwoPass,
    /// Tiles through shared memory (scalar layouts only).
    Tiled,
}

/// The strategy for `tap_pairs` per output, from `INTERP_GATHER` (`one-pass` | `two-pass` |
/// `tiled`, a tuning override for experiments) or else measured rules (docs/PERFORMANCE.md):
/// gathers of channel vectors (NHWC) go one pass unless the filter has very many tap pairs;
/// scalar gathers (NCHW) go through shared-memory tiles unless four tap pairs or fewer per
/// output make the one-pass kernels cheaper.
pub(super) fn strategy(io: &GatherIo, tap_pairs: f64, channel_vectors: bool) -> Strategy {
    let [n, c, h, _] = io.dst_view.shape;
    let tiles_fit = n * c <= MAX_GRID && h.div_ceil(TILE_H as usize) <= MAX_GRID;
    let chosen = match std::env::var("INTERP_GATHER").as_deref() {
        Ok("one-pass") => Strategy::OnePass,
        Ok("two-pass") => Strategy::TwoPass,
        Ok("tiled") if !channel_vectors => Strategy::Tiled,
        _ if channel_vectors => {
            if tap_pairs > 64.0 {
                Strategy::TwoPass
            } else {
                Strategy::OnePass
            }
        }
        _ if tap_pairs > 4.0 => Strategy::Tiled,
        _ => Strategy::OnePass,
    };
    if chosen == Strategy::Tiled && !tiles_fit {
        return if tap_pairs > 16.0 { Strategy::TwoPass } else { Strategy::OnePass };
    }
    chosen
}

/// Whether to run the unit-tap kernels, given that both tables qualify (nearest mappings):
/// they pay where rows hold taps; in the mostly empty adjoint tables of a downsample the
/// generic kernels (fewer registers) are faster (measured on an H200: docs/PERFORMANCE.md, v9).
pub(super) fn unit_taps(tables_qualify: bool, tap_pairs: f64) -> bool {
    tables_qualify && tap_pairs >= 1.0
}

/// Largest cube count along the y and z axes of a grid.
const MAX_GRID: usize = 65_535;

/// How the gather is vectorized.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Vectorization {
    /// `n` channels per unit (channels contiguous in both tensors: NHWC).
    Channels(usize),
    /// `n` consecutive outputs along the width per unit (destination width-contiguous: NCHW).
    Width(usize),
    /// `n` outputs per unit along the width, interleaved so loads stay coalesced when the
    /// source is wider than the destination (NCHW, backward of an upsample).
    Strips(u32),
}

/// Most tap pairs per output for which interleaved strips beat one output per unit, from
/// `INTERP_STRIP_MAX_PAIRS` (a tuning override for experiments) or 4 (measured:
/// docs/bench-v7-strips.txt).
fn strip_max_pairs() -> f64 {
    std::env::var("INTERP_STRIP_MAX_PAIRS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4.0)
}

/// Upper bound on vector widths, from `INTERP_MAX_VECTOR` (a tuning override for
/// experiments; unset means no bound).
fn max_vector() -> usize {
    std::env::var("INTERP_MAX_VECTOR")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(usize::MAX)
}

/// Widest vector the layouts allow: along channels when both tensors have them contiguous,
/// else, for cheap filters (about one tap pair per output), along the destination's width
/// when it is contiguous, else scalar. Several outputs per unit serialize their tap loops,
/// which only pays when there are few taps (measured on an H200: docs/PERFORMANCE.md).
pub(super) fn vectorization<R: Runtime>(client: &ComputeClient<R>, io: &GatherIo, tap_pairs: f64) -> Vectorization {
    let [_, channels, _, width] = io.dst_view.shape;
    let divides = |t: &Checked4, v: usize, dims: &[usize]| dims.iter().all(|&d| t.strides[d].is_multiple_of(v) || t.shape[d] == 1);
    let cap = max_vector();
    let element = io.src_dtype.size().max(io.dst_dtype.size());
    let mut sizes = client.io_optimized_vector_sizes(element).filter(move |&v| v <= cap);
    let along_channels = sizes.clone().find(|&v| {
        v > 1
            && channels.is_multiple_of(v)
            && [&io.src_view, &io.dst_view]
                .iter()
                .all(|t| t.strides[1] == 1 && divides(t, v, &[0, 2, 3]))
    });
    if let Some(v) = along_channels {
        return Vectorization::Channels(v);
    }
    let dst = &io.dst_view;
    if dst.strides[3] != 1 || width == 1 {
        return Vectorization::Channels(1);
    }
    // Vector stores pay off while neighbouring units read neighbouring source columns; a
    // wider source would make each load instruction strided: interleaved strips instead.
    let wider_source = io.src_view.shape[3] > width;
    if !wider_source && tap_pairs <= 1.0 {
        if let Some(v) = sizes.find(|&v| v > 1 && width.is_multiple_of(v) && divides(dst, v, &[0, 1, 2])) {
            return Vectorization::Width(v);
        }
    }
    if tap_pairs > if wider_source { strip_max_pairs() } else { 1.0 } {
        return Vectorization::Channels(1);
    }
    let strip = (width / STRIP_GROUP as usize).clamp(1, MAX_STRIP as usize).min(cap);
    Vectorization::Strips(strip as u32)
}
