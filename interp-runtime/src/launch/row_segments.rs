//! The width pass through shared memory (the row segments kernel): where it applies, and its
//! launch.

use cubecl::prelude::*;
use interp_kernels::gather::{separable_gather_row_segments, SEGMENT_SPAN, SEGMENT_UNITS, STRIP_GROUP, SUM_BLOCK};

use super::args::{arrays, dispatch_dtypes, scalar_layout};
use super::choice::{both_channels_last, by_rule, Vectorization};
use super::io::GatherIo;
use super::table::DeviceTable;

/// A launch of the row segments kernel: pixels per cube, and whether its rows are channel
/// planes' (NCHW) rather than channels-last rows of whole pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct SegmentsLaunch {
    pub pixels: u32,
    pub planar: bool,
}

/// The row segments kernel where it applies to this gather: the tuning's choice
/// (`Tuning::row_segments`: `false` never, `true` wherever it applies), else where the
/// default rule takes it ([`segments_pay`]). It applies to gathers of the width alone (the
/// rows table the identity: the first pass of two, a width-only resize) whose columns table's
/// rows hold at most `SUM_BLOCK` taps (one plain loop) and whose source rows hold their pixels
/// contiguously: a channel plane's row (`planar`: the width the innermost axis of both
/// tensors), or a channels-last row of pixels whose channels make no vectors and fill less
/// than a warp (RGB, 19 or 21 classes).
pub(super) fn row_segments(io: &GatherIo, rows: &DeviceTable, cols: &DeviceTable, vectorization: Vectorization) -> Option<SegmentsLaunch> {
    let on = io.tuning.row_segments;
    if on == Some(false) || !(on == Some(true) || by_rule(io)) || !rows.identity || cols.width > SUM_BLOCK as usize {
        return None;
    }
    let channels = io.dst_view.shape[1];
    let [_, src_c, _, src_w] = io.src_view.strides;
    let scalar_channels = !matches!(vectorization, Vectorization::Channels(v) if v > 1);
    let pixel_rows = both_channels_last(io) && src_c == 1 && src_w == channels && channels < STRIP_GROUP as usize && scalar_channels;
    let planar = !pixel_rows && src_w == 1 && io.dst_view.strides[3] == 1;
    if !(pixel_rows || planar) {
        return None;
    }
    let per_pixel = if planar { 1 } else { channels as u32 };
    let launch = SegmentsLaunch {
        pixels: SEGMENT_UNITS / per_pixel,
        planar,
    };
    (on == Some(true) || segments_pay(io, cols, launch.pixels, per_pixel)).then_some(launch)
}

/// Fewest mean taps a row for which the row segments kernel takes a gather by default: below,
/// the one-pass kernels' strips serve it.
const SEGMENTS_MIN_TAPS: f64 = 4.0;

/// Where the row segments kernel runs by default: rows of more than `SEGMENTS_MIN_TAPS` taps
/// whose segment's span fits the stage (about `segment_pixels` times the shrink plus a row's
/// taps, pixels of `per_pixel` elements). Measured: docs/PERFORMANCE.md v31.
fn segments_pay(io: &GatherIo, cols: &DeviceTable, segment_pixels: u32, per_pixel: u32) -> bool {
    let (src_w, dst_w) = (io.src_view.shape[3] as f64, io.dst_view.shape[3] as f64);
    let span = (src_w / dst_w.max(1.0) * f64::from(segment_pixels)).ceil() + cols.width as f64;
    cols.mean_taps > SEGMENTS_MIN_TAPS && span * f64::from(per_pixel) <= f64::from(SEGMENT_SPAN)
}

/// The row segments kernel: a cube of `SEGMENT_UNITS` units per `launch.pixels` pixels of a
/// row (of a channel plane where `launch.planar`).
pub(super) fn gather_row_segments<R: Runtime>(client: &ComputeClient<R>, io: &GatherIo, cols: &DeviceTable, launch: SegmentsLaunch) {
    let [n, c, h, w] = io.dst_view.shape;
    let planes = if launch.planar { c } else { 1 };
    let cubes = n * planes * h * w.div_ceil(launch.pixels as usize);
    let dim = CubeDim::new_1d(SEGMENT_UNITS);
    let count = cubecl::calculate_cube_count_elemwise(client, cubes * SEGMENT_UNITS as usize, dim);
    // SAFETY: shapes, strides and buffer extents were validated; `row_segments` checked that
    // the source's rows hold their pixels contiguously, so a segment's staged span (between two
    // of the row's tap indices) lies inside one source row; every unit guards its pixel.
    unsafe {
        let (src, dst) = arrays(io, 1, 1);
        macro_rules! launch {
            ($fs:ty, $fd:ty, $a:ty) => {
                separable_gather_row_segments::launch_unchecked::<$fs, $fd, $a, R>(
                    client,
                    count,
                    dim,
                    src,
                    dst,
                    cols.arg(true),
                    scalar_layout(io),
                    launch.pixels,
                    launch.planar,
                )
            };
        }
        dispatch_dtypes!(io, launch);
    }
}
