//! Plane loops (`separable_gather_plane_loops`): where a scalar NCHW gather of more than 8 mean
//! tap pairs runs a unit per pixel and group of channels, and its launch.

use cubecl::prelude::*;
use interp_kernels::gather::{separable_gather_plane_loops, PLANE_LOOP_GROUP};
use interp_kernels::UNITS_PER_CUBE;

use super::args::{arrays, dispatch_dtypes, scalar_layout};
use super::choice::{by_rule, contiguous_rows, Vectorization};
use super::io::GatherIo;
use super::plane_windows::{gather_plane_windows, window_vector};
use super::table::DeviceTable;

/// Mean tap pairs per output up to which a pass stays with the other kernels by default
/// (`Tuning::plane_loop_min_pairs` replaces it). Rows of up to 8 taps fill the planes kernel's
/// 8-tap one-axis shape and strips share entries across a warp; above 8 the planes kernel runs
/// its 16-tap shape, paying for 16 taps whatever the row holds (a 2.3x antialiased bicubic
/// downsample: 9.4, 59% of it), where a plane loops unit visits each row's taps once
/// (docs/PERFORMANCE.md v34: measured on the suite).
const MIN_TAP_PAIRS: u32 = 8;

/// Fewest units a plane loops launch keeps by default: about half the resident threads of an
/// H100 or H200 (132 SMs x 2048), as for strips (`channel_strips::MIN_STRIP_UNITS`). Below it
/// a unit per channel keeps more loads in flight. A guard, not a measured bound.
const MIN_UNITS: usize = 1 << 17;

/// Channels per unit where the plane loops run the one-output pass of `gather_pass` (its
/// `vectorization` after the wide-row fallback; `unit_taps`, `wide`: that pass's variant),
/// `None` where they do not: the tuning's `plane_loops` where set (`Some(true)` wherever the
/// kernel applies), else by the rule of [`plane_loops_by_rule`].
pub(super) fn plane_loops(io: &GatherIo, tap_pairs: f64, vectorization: Vectorization, unit_taps: bool, wide: bool) -> Option<u32> {
    let applies = vectorization == Vectorization::Channels(1) && sums_rows(io, unit_taps, wide);
    (applies && chosen(io, tap_pairs)).then_some(balanced_planes(io.dst_view.shape[1]))
}

/// Whether the kernel sums the pass's rows: units in width order (NCHW-ordered), weighted rows
/// (unit taps have their own kernels) that the plain sums hold (not `wide`).
fn sums_rows(io: &GatherIo, unit_taps: bool, wide: bool) -> bool {
    !io.dst_view.channels_last() && !unit_taps && !wide
}

/// Whether the planes kernel, having fit the pass in a shape (`factored`: summed
/// `sum_a w_a (sum_b w_b x)`), yields it to plane loops: forced on (an experiment's reach:
/// every shape), or where the rule takes the pass and the shape sums as the one-output kernel
/// does (one axis, or products of weights), so the bits stay, on rows the kernel sums
/// ([`sums_rows`]).
pub(super) fn planes_yield(io: &GatherIo, factored: bool, tap_pairs: f64, unit_taps: bool, wide: bool) -> bool {
    match io.tuning.plane_loops {
        Some(forced) => forced,
        None => !factored && sums_rows(io, unit_taps, wide) && chosen(io, tap_pairs),
    }
}

/// The tuning's `plane_loops` where set, else the rule.
fn chosen(io: &GatherIo, tap_pairs: f64) -> bool {
    let min_pairs = io.tuning.plane_loop_min_pairs.unwrap_or(MIN_TAP_PAIRS);
    let planes = balanced_planes(io.dst_view.shape[1]);
    io.tuning
        .plane_loops
        .unwrap_or_else(|| by_rule(io) && plane_loops_by_rule(io.dst_view.shape, planes, tap_pairs, min_pairs))
}

/// The default rule: more than `min_pairs` mean tap pairs per output, at least two channels
/// to share them, and `MIN_UNITS` units. Why it generalizes: the one-output gather loads an
/// index and a weight beside each source read, so a unit of `planes` channels issues
/// `1 + 2 / planes` loads per output and tap instead of 3 whatever the filter or ratio (`1 + 1
/// / planes` on contiguous rows); its reads stay those of the one-output kernel (a warp's
/// lanes neighbouring columns of one channel at a time); and against the planes kernel it
/// visits each row's own taps, not its shape's.
fn plane_loops_by_rule(shape: [usize; 4], planes: u32, tap_pairs: f64, min_pairs: u32) -> bool {
    let [n, c, h, w] = shape;
    let units = n * c.div_ceil(planes as usize) * h * w;
    planes >= 2 && tap_pairs > f64::from(min_pairs) && units >= MIN_UNITS
}

/// Channels per unit: the fewest groups of at most `PLANE_LOOP_GROUP` channels, as even as
/// they divide (RGB: one group of 3; 5 channels: 3 and 2; 64: sixteen of 4).
fn balanced_planes(channels: usize) -> u32 {
    let group = PLANE_LOOP_GROUP as usize;
    let groups = channels.div_ceil(group).max(1);
    channels.div_ceil(groups).max(1) as u32
}

/// The launch grid of the plane loops and plane windows kernels: a unit per destination pixel
/// and group of `planes` channels.
pub(super) fn plane_loop_grid<R: Runtime>(client: &ComputeClient<R>, io: &GatherIo, planes: u32) -> (CubeCount, CubeDim) {
    let [n, c, h, w] = io.dst_view.shape;
    // At most n * c * h * w units, which validation bounds by u32.
    let units = n * c.div_ceil(planes as usize) * h * w;
    let dim = CubeDim::new_1d(UNITS_PER_CUBE);
    (cubecl::calculate_cube_count_elemwise(client, units, dim), dim)
}

/// The plane loops kernel: a unit per destination pixel and group of `planes` channels, its
/// windows read in vectors where `window_vector` says so.
pub(super) fn gather_plane_loops<R: Runtime>(
    client: &ComputeClient<R>,
    io: &GatherIo,
    rows: &DeviceTable,
    cols: &DeviceTable,
    planes: u32,
) {
    if let Some(vector) = window_vector(client, io, rows, cols) {
        return gather_plane_windows(client, io, rows, cols, planes, vector);
    }
    let (count, dim) = plane_loop_grid(client, io, planes);
    // Rows of consecutive indices: the kernel reads each row's first index alone.
    let contiguous = contiguous_rows(io, rows, cols);
    // SAFETY: as in `gather_pass`: shapes, strides and buffer extents were validated; every unit
    // guards its index and reads only the channels of its group below the channel count, and
    // table slots below its rows' counts or slot 0 of its rows (tables hold at least one slot a
    // row), tap-major (the kernel's layout); contiguous rows' indices are those of the table.
    unsafe {
        let (src, dst) = arrays(io, 1, 1);
        macro_rules! launch {
            ($fs:ty, $fd:ty, $a:ty) => {
                separable_gather_plane_loops::launch_unchecked::<$fs, $fd, $a, R>(
                    client,
                    count,
                    dim,
                    src,
                    dst,
                    rows.arg(true),
                    cols.arg(true),
                    scalar_layout(io),
                    planes,
                    PLANE_LOOP_GROUP,
                    contiguous,
                )
            };
        }
        dispatch_dtypes!(io, launch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn channels_split_into_even_groups() {
        let planes: Vec<u32> = [1, 2, 3, 4, 5, 6, 7, 8, 9, 64, 21].into_iter().map(balanced_planes).collect();
        assert_eq!(planes, [1, 2, 3, 4, 3, 3, 4, 4, 3, 4, 4]);
    }

    /// The width pass of 8 RGB 1080p frames to 224 (35 taps a row) and CLIP's 512 -> 224 passes
    /// (9.4) take them; 8 taps or fewer, one channel or a small tensor do not; a bound of 16
    /// leaves the 9.4-tap passes.
    #[test]
    fn the_rule_takes_wide_rows_of_several_channels() {
        let (width_pass, clip_pass) = ([8, 3, 1080, 224], [64, 3, 512, 224]);
        let rgb = balanced_planes(3);
        assert!(plane_loops_by_rule(width_pass, rgb, 35.0, MIN_TAP_PAIRS));
        assert!(plane_loops_by_rule(clip_pass, rgb, 9.4, MIN_TAP_PAIRS));
        assert!(!plane_loops_by_rule(clip_pass, rgb, 9.4, 16));
        assert!(!plane_loops_by_rule(width_pass, rgb, 8.0, MIN_TAP_PAIRS));
        assert!(!plane_loops_by_rule([8, 1, 1080, 224], balanced_planes(1), 35.0, MIN_TAP_PAIRS));
        assert!(!plane_loops_by_rule([1, 3, 64, 64], rgb, 35.0, MIN_TAP_PAIRS));
    }
}
