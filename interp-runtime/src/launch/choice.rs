//! How a gather runs: the strategy (one pass, tiles, two passes), the vectorization of a
//! pass and whether its unit-tap kernels run, from the layout and the filter's taps.
//! Thresholds measured on an H200 (docs/PERFORMANCE.md); environment variables override them
//! for experiments.

use cubecl::prelude::*;
use interp_kernels::gather::{MAX_STRIP, STRIP_GROUP, TILE_H, TILE_W};

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
/// A strategy whose launch would not fit the device (tiles beyond its grid, an intermediate
/// beyond its largest allocation) falls back to one that does, so the choice stays a pure
/// function of the shapes and the device.
pub(super) fn strategy<R: Runtime>(client: &ComputeClient<R>, io: &GatherIo, tap_pairs: f64, channel_vectors: bool) -> Strategy {
    let [n, c, h, w] = io.dst_view.shape;
    let (max_x, max_y, max_z) = client.properties().hardware.max_cube_count;
    let fits = |count: usize, max: u32| count <= max as usize;
    let tiles_fit = fits(w.div_ceil(TILE_W as usize), max_x) && fits(h.div_ceil(TILE_H as usize), max_y) && fits(n * c, max_z);
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
    let chosen = if chosen == Strategy::Tiled && !tiles_fit {
        if tap_pairs > 16.0 {
            Strategy::TwoPass
        } else {
            Strategy::OnePass
        }
    } else {
        chosen
    };
    if chosen == Strategy::TwoPass && intermediate_bytes(io) > client.properties().memory.max_page_size {
        return Strategy::OnePass;
    }
    chosen
}

/// Shape of the two-pass intermediate, and whether the width is resampled first: the axis
/// that leaves the smaller intermediate goes first.
pub(super) fn intermediate_shape(io: &GatherIo) -> ([usize; 4], bool) {
    let [n, c, dst_h, dst_w] = io.dst_view.shape;
    let [_, _, src_h, src_w] = io.src_view.shape;
    let width_first = src_h * dst_w <= dst_h * src_w;
    let shape = if width_first { [n, c, src_h, dst_w] } else { [n, c, dst_h, src_w] };
    (shape, width_first)
}

fn intermediate_bytes(io: &GatherIo) -> u64 {
    let (shape, _) = intermediate_shape(io);
    shape.iter().map(|&d| d as u64).product::<u64>() * io.dst_dtype.accumulator().size() as u64
}

/// Whether to run the unit-tap kernels, given that both tables qualify (nearest mappings):
/// they pay where rows hold taps; in the mostly empty adjoint tables of a downsample the
/// generic kernels (fewer registers) are faster (measured on an H200: docs/PERFORMANCE.md, v9).
pub(super) fn unit_taps(tables_qualify: bool, tap_pairs: f64) -> bool {
    tables_qualify && tap_pairs >= 1.0
}

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
        .filter(|&v| v >= 1)
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
    // Strips round each row up to whole groups: their unit count must fit the u32 index.
    if strip_units(dst.shape, strip as u32) > u32::MAX as usize {
        return Vectorization::Channels(1);
    }
    Vectorization::Strips(strip as u32)
}

/// Units of a strips launch over a destination of `shape`.
pub(super) fn strip_units([n, c, h, w]: [usize; 4], strip: u32) -> usize {
    let group = STRIP_GROUP as usize;
    n * c * h * w.div_ceil(group * strip as usize) * group
}
