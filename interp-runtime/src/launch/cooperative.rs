//! Launching the cooperative gathers, whose units add partial sums in shared memory: teams
//! (scalar and channels-last) and split pooling (partial sums, then their totals).

use cubecl::prelude::*;
use interp_kernels::gather::{
    pool_partials_channels, pool_totals_channels, separable_gather_teams, separable_gather_teams_channels, POOL_LANES, POOL_WARPS,
    TEAM_CUBE,
};
use interp_kernels::UNITS_PER_CUBE;

use super::args::{arrays, channel_vector_layout, dispatch_dtypes, layout_arg};
use super::io::GatherIo;
use super::pool_split::PoolSplitLaunch;
use super::table::DeviceTable;
use super::teams_choice::TeamsLaunch;

/// The teams kernel: cubes of `TEAM_CUBE` units, `TEAM_CUBE / team` outputs each.
pub(super) fn gather_teams<R: Runtime>(
    client: &ComputeClient<R>,
    io: &GatherIo,
    rows: &DeviceTable,
    cols: &DeviceTable,
    launch: TeamsLaunch,
) {
    let [n, c, h, w] = io.dst_view.shape;
    let vector = launch.vector as usize;
    // The source's strides in vectors along its (contiguous) width; `teams_source_vector`
    // checked that they divide.
    let s = io.src_view.strides;
    let src_strides = [s[0] / vector, s[1] / vector, s[2] / vector, 1];
    let layout = layout_arg(io.dst_view.shape, if vector > 1 { src_strides } else { s }, io.dst_view.strides);
    let cubes = (n * c * h * w).div_ceil((TEAM_CUBE / launch.team) as usize);
    let dim = CubeDim::new_1d(TEAM_CUBE);
    let count = cubecl::calculate_cube_count_elemwise(client, cubes * TEAM_CUBE as usize, dim);
    // Reads dominate: units follow the source's order (a 1x1 destination has no order).
    let channels_fastest = io.src_view.channels_last();
    // SAFETY: as in `gather_pass`; every unit guards its output and reads only table slots
    // below its rows' counts; with vectors, only whole vectors inside its windows.
    unsafe {
        let (src, dst) = arrays(io, vector, 1);
        macro_rules! launch {
            ($fs:ty, $fd:ty, $a:ty) => {
                separable_gather_teams::launch_unchecked::<$fs, $fd, $a, R>(
                    client,
                    count,
                    dim,
                    vector,
                    src,
                    dst,
                    rows.arg(false),
                    cols.arg(false),
                    layout,
                    launch.col_lanes,
                    channels_fastest,
                    rows.uniform_taps && cols.uniform_taps,
                    launch.team,
                )
            };
        }
        dispatch_dtypes!(io, launch);
    }
}

/// The channels-last teams kernel: cubes of `TEAM_CUBE` units, `TEAM_CUBE / team`
/// destination vectors of `launch.vector` channels each.
pub(super) fn gather_teams_channels<R: Runtime>(
    client: &ComputeClient<R>,
    io: &GatherIo,
    rows: &DeviceTable,
    cols: &DeviceTable,
    launch: TeamsLaunch,
) {
    let [n, c, h, w] = io.dst_view.shape;
    let v = launch.vector as usize;
    let layout = channel_vector_layout(io, v);
    let cubes = (n * (c / v) * h * w).div_ceil((TEAM_CUBE / launch.team) as usize);
    let dim = CubeDim::new_1d(TEAM_CUBE);
    let count = cubecl::calculate_cube_count_elemwise(client, cubes * TEAM_CUBE as usize, dim);
    // SAFETY: as in `gather_pass` (the channel vectors are `vectorization`'s, whose strides
    // it checked); every unit guards its output and reads only whole vectors inside its window.
    unsafe {
        let (src, dst) = arrays(io, v, v);
        macro_rules! launch {
            ($fs:ty, $fd:ty, $a:ty) => {
                separable_gather_teams_channels::launch_unchecked::<$fs, $fd, $a, R>(
                    client,
                    count,
                    dim,
                    v,
                    src,
                    dst,
                    rows.arg(false),
                    cols.arg(false),
                    layout,
                    launch.col_lanes,
                    launch.team,
                )
            };
        }
        dispatch_dtypes!(io, launch);
    }
}

/// Split pooling: pass 1 writes each destination vector's partial sums (one per split of its
/// window's rows) into an intermediate in the accumulator type, pass 2 adds them in order.
pub(super) fn gather_pool_split<R: Runtime>(
    client: &ComputeClient<R>,
    io: &GatherIo,
    rows: &DeviceTable,
    cols: &DeviceTable,
    launch: PoolSplitLaunch,
) {
    let [n, c, h, w] = io.dst_view.shape;
    let v = launch.vector;
    let layout = || channel_vector_layout(io, v);
    let acc = io.dst_dtype.accumulator();
    let partial_elements = launch.partials(io) * v;
    let partials = client.empty(partial_elements * acc.size());
    let blocks = (c / v).div_ceil(POOL_LANES as usize);
    let pool_dim = CubeDim::new_1d(POOL_LANES * POOL_WARPS);
    let pool_units = n * h * w * launch.splits as usize * blocks * (POOL_LANES * POOL_WARPS) as usize;
    let pool_count = cubecl::calculate_cube_count_elemwise(client, pool_units, pool_dim);
    let totals_dim = CubeDim::new_1d(UNITS_PER_CUBE);
    let totals_count = cubecl::calculate_cube_count_elemwise(client, n * (c / v) * h * w, totals_dim);
    // SAFETY: as in `gather_teams_channels` (the channel vectors are `vectorization`'s, whose
    // strides it checked); pass 1 reads whole vectors inside each window and writes the
    // partials of in-range cubes, every one of which pass 2 reads (`pool_split` checked the
    // intermediate fits one allocation).
    unsafe {
        let (src, dst) = arrays(io, v, v);
        let mid = || ArrayArg::from_raw_parts(partials.clone(), partial_elements);
        macro_rules! launch {
            ($fs:ty, $fd:ty, $a:ty) => {{
                pool_partials_channels::launch_unchecked::<$fs, $a, R>(
                    client,
                    pool_count,
                    pool_dim,
                    v,
                    src,
                    mid(),
                    rows.arg(false),
                    cols.arg(false),
                    layout(),
                    launch.splits,
                    launch.rows_per_split,
                );
                pool_totals_channels::launch_unchecked::<$a, $fd, R>(
                    client,
                    totals_count,
                    totals_dim,
                    v,
                    mid(),
                    dst,
                    rows.arg(false),
                    cols.arg(false),
                    layout(),
                    launch.splits,
                )
            }};
        }
        dispatch_dtypes!(io, launch);
    }
}
