//! Launching the gather kernels: the choice among them, and the one-pass, tiled and two-pass
//! launches (the cooperative ones in `cooperative`).

use std::sync::Arc;

use cubecl::prelude::*;
use interp_kernels::gather::{
    plane_shape_factored, separable_gather, separable_gather_along_width, separable_gather_blocks, separable_gather_cell_edges,
    separable_gather_cells, separable_gather_pixel_strips, separable_gather_plane_pairs, separable_gather_planes, separable_gather_runs,
    separable_gather_strips, separable_gather_tiled, CellEdgesLaunch, CellRunLaunch, BLOCK, SUM_BLOCK, TILE_H, TILE_W,
};

use super::args::{arrays, channel_vector_layout, dispatch_dtypes, extent, layout_arg, scalar_layout, vector_strides};
use super::block_interior::block_interior;
use super::blocks_choice::blocks;
use super::cells::{cells, CellsLaunch};
use super::channel_strips::{channel_strips, scalar_strip, unrolled_strips};
use super::choice::{
    by_rule, channel_tables_tap_major, contiguous_rows, intermediate_shape, pixel_group, pixel_strip_units, planes, strategy, strip_units,
    unit_taps, vectorization, PlanesLaunch, Vectorization,
};
use super::cooperative::{gather_pool_split, gather_teams, gather_teams_channels};
use super::io::GatherIo;
use super::plane_loops::{gather_plane_loops, plane_loops, planes_yield};
use super::pool_split::pool_split;
use super::row_vectors::rows_in_width_vectors;
use super::runs::{runs, RunsLaunch};
use super::table::DeviceTable;
use super::teams_choice::{channel_teams, teams, teams_source_vector};
use crate::options::Strategy;
use crate::tensor::Checked4;
use interp_kernels::UNITS_PER_CUBE;

/// `dst = rows (x) cols` applied to `src`: in one pass, in shared-memory tiles, or one axis at
/// a time (the cost of one pass grows with taps_y * taps_x, of the others with
/// taps_y + taps_x, plus an intermediate's traffic for two passes).
///
/// `identity(len)` gives the identity table of an axis of `len` for the two-pass route (the
/// caller's cache: a `Resampler` uploads each once, not per call).
pub(crate) fn gather<R: Runtime>(
    client: &ComputeClient<R>,
    io: &GatherIo,
    rows: &DeviceTable,
    cols: &DeviceTable,
    identity: &dyn Fn(usize) -> Arc<DeviceTable>,
) {
    // Rows alone along a contiguous width: one pass in width vectors (`row_vectors`).
    if by_rule(io) {
        if let Some((swapped, channels)) = rows_in_width_vectors(client, io, rows, cols, identity) {
            return gather_pass(client, &swapped, rows, &channels);
        }
    }
    let tap_pairs = rows.mean_taps * cols.mean_taps;
    let widths = (rows.width as u64, cols.width as u64);
    let vectors = vectorization(client, io, tap_pairs, widths);
    let channel_vector = match vectors {
        Vectorization::Channels(v) => v,
        _ => 1,
    };
    let uniform = rows.uniform_taps && cols.uniform_taps;
    let source_vector = teams_source_vector(client, io, uniform, cols.window_alignment);
    // Forced cells first: where they do not apply the default rules decide (`by_rule`).
    if let Some(launch) = cells(client, io, rows, cols, vectors) {
        return gather_cells(client, io, rows, cols, launch);
    }
    if let Some(launch) = runs(client, io, rows, cols) {
        return gather_runs(client, io, rows, cols, launch);
    }
    if let Some(launch) = pool_split(client, io, rows, cols, vectors) {
        return gather_pool_split(client, io, rows, cols, launch);
    }
    if let Some(launch) = teams(io, widths, vectors, uniform, source_vector) {
        return gather_teams(client, io, rows, cols, launch);
    }
    if let Some(launch) = channel_teams(io, widths, vectors, uniform) {
        return gather_teams_channels(client, io, rows, cols, launch);
    }
    let widest_vector = client.io_optimized_vector_sizes(io.element_bytes()).next().unwrap_or(1);
    if let Some(launch) = blocks(io, widths, (rows.mean_taps, cols.mean_taps), vectors, widest_vector) {
        return gather_planes(client, io, rows, cols, launch);
    }
    if let Some(launch) = planes(io, widths, (rows.mean_taps, cols.mean_taps), vectors) {
        return gather_planes(client, io, rows, cols, launch);
    }
    match strategy(client, io, tap_pairs, widths, channel_vector) {
        // The rules never pick planes, blocks, cells or teams where `planes`, `blocks`,
        // `cells` or `teams` declined them: one pass then.
        Strategy::OnePass | Strategy::Planes | Strategy::Blocks | Strategy::Cells | Strategy::Teams | Strategy::Runs => {
            return gather_pass(client, io, rows, cols)
        }
        Strategy::Tiled => return gather_tiled(client, io, rows, cols),
        Strategy::TwoPass => {}
    }
    let [_, _, dst_h, dst_w] = io.dst_view.shape;
    let [_, _, src_h, src_w] = io.src_view.shape;
    // Resample first along the axis that leaves the smaller intermediate.
    let (shape, width_first) = intermediate_shape(io);
    let [_, c, h, w] = shape;
    let strides = if io.dst_view.channels_last() {
        [h * w * c, 1, w * c, c]
    } else {
        [c * h * w, h * w, w, 1]
    };
    let acc = io.dst_dtype.accumulator();
    let tmp = client.empty(shape.iter().product::<usize>() * acc.size());
    let tmp_view = Checked4 { shape, strides };
    let first = GatherIo {
        dst: &tmp,
        dst_view: tmp_view,
        dst_dtype: acc,
        ..*io
    };
    let second = GatherIo {
        src: &tmp,
        src_view: tmp_view,
        src_dtype: acc,
        ..*io
    };
    if width_first {
        gather_pass(client, &first, &identity(src_h), cols);
        gather_row_pass(client, &second, rows, &identity(dst_w), identity);
    } else {
        gather_row_pass(client, &first, rows, &identity(src_w), identity);
        gather_pass(client, &second, &identity(dst_h), cols);
    }
}

/// The row pass of two passes (`cols` the identity): in width vectors where the width is
/// contiguous (`row_vectors`), else as any pass.
fn gather_row_pass<R: Runtime>(
    client: &ComputeClient<R>,
    io: &GatherIo,
    rows: &DeviceTable,
    cols: &DeviceTable,
    identity: &dyn Fn(usize) -> Arc<DeviceTable>,
) {
    match rows_in_width_vectors(client, io, rows, cols, identity) {
        Some((swapped, channels)) => gather_pass(client, &swapped, rows, &channels),
        None => gather_pass(client, io, rows, cols),
    }
}

/// One launch of a gather kernel: `dst = rows (x) cols` applied to `src`, per (n, c) plane.
fn gather_pass<R: Runtime>(client: &ComputeClient<R>, io: &GatherIo, rows: &DeviceTable, cols: &DeviceTable) {
    let [n, c, h, w] = io.dst_view.shape;
    let tap_pairs = rows.mean_taps * cols.mean_taps;
    let widths = (rows.width as u64, cols.width as u64);
    let vectorization = vectorization(client, io, tap_pairs, widths);
    // Rows of more than SUM_BLOCK tap pairs need the blocked sums, which only
    // `separable_gather` carries (as a variant: they would cost the others registers).
    let wide = widths.0.saturating_mul(widths.1) > u64::from(SUM_BLOCK);
    // Wide tables take the weighted kernels: no unit-tap blocked variant (it spilled registers).
    let unit_taps = unit_taps(rows.unit_taps && cols.unit_taps, tap_pairs) && !wide;
    let single_tap = unit_taps && rows.single_tap() && cols.single_tap();
    if let Some(launch) = planes(io, widths, (rows.mean_taps, cols.mean_taps), vectorization) {
        // Plane loops take the planes kernel's passes of more than 8 mean tap pairs
        // (docs/PERFORMANCE.md v34).
        if !planes_yield(io, plane_shape_factored(launch.shape), tap_pairs, unit_taps, wide) {
            return gather_planes(client, io, rows, cols, launch);
        }
    }
    let vectorization = match vectorization {
        Vectorization::Width(_) | Vectorization::Strips(_) | Vectorization::PixelStrips { .. } if wide => Vectorization::Channels(1),
        Vectorization::Channels(v) if !wide => {
            channel_strips(client, io, v, (unit_taps, single_tap), widths, tap_pairs).unwrap_or(Vectorization::Channels(v))
        }
        Vectorization::PixelStrips { vector: 1, strip, .. } => scalar_strip(io, strip, (unit_taps, single_tap), widths),
        chosen => chosen,
    };
    if let Some(planes) = plane_loops(io, tap_pairs, vectorization, unit_taps, wide) {
        return gather_plane_loops(client, io, rows, cols, planes);
    }
    // Units, and strides in the units each tensor is indexed in.
    let (units_c, units_w, vector, src_vector) = match vectorization {
        Vectorization::Channels(v) | Vectorization::PixelStrips { vector: v, .. } => (c / v, w, v, v),
        Vectorization::Width(v) => (c, w / v, v, 1),
        Vectorization::Strips(_) => (c, w, 1, 1),
    };
    let channel_vectors = matches!(vectorization, Vectorization::Channels(_) | Vectorization::PixelStrips { .. });
    let src_strides = vector_strides(&io.src_view, src_vector, channel_vectors);
    let dst_strides = vector_strides(&io.dst_view, vector, channel_vectors);
    let layout = layout_arg([n, units_c, h, units_w], src_strides, dst_strides);
    let units = match vectorization {
        Vectorization::Strips(strip) => strip_units(io.dst_view.shape, strip),
        Vectorization::PixelStrips { strip, .. } => pixel_strip_units([n, units_c, h, w], strip),
        _ => n * units_c * h * units_w,
    };
    let dim = CubeDim::new_1d(UNITS_PER_CUBE);
    let count = cubecl::calculate_cube_count_elemwise(client, units, dim);
    // Channels fastest when they are the destination's innermost dimension (NHWC), and for
    // every vector of several channels (the kernel is built for that order only).
    let channels_last = io.dst_view.channels_last() || matches!(vectorization, Vectorization::Channels(v) if v > 1);
    let tap_major = !channels_last || channel_tables_tap_major(io, units_c, vector);
    // Scalar weighted rows of consecutive indices: each row's first index alone.
    let contiguous = vector == 1 && !wide && !unit_taps && contiguous_rows(io, rows, cols);
    // SAFETY: shapes, strides and buffer extents were validated; every unit guards its index,
    // and the lengths below are in elements, rounded up to whole vectors.
    unsafe {
        let (src, dst) = arrays(io, src_vector, vector);
        macro_rules! launch {
            ($fs:ty, $fd:ty, $a:ty) => {
                match vectorization {
                    // The kernel's table layouts: tap-major for scalar units in width order.
                    Vectorization::Channels(v) => separable_gather::launch_unchecked::<$fs, $fd, $a, R>(
                        client,
                        count,
                        dim,
                        v,
                        src,
                        dst,
                        rows.arg(tap_major),
                        cols.arg(tap_major),
                        layout,
                        channels_last,
                        unit_taps,
                        wide,
                        tap_major,
                        contiguous,
                    ),
                    Vectorization::Width(v) => separable_gather_along_width::launch_unchecked::<$fs, $fd, $a, R>(
                        client, count, dim, v, 1, src, dst, rows.arg(false), cols.arg(false), layout, unit_taps,
                    ),
                    Vectorization::Strips(strip) => separable_gather_strips::launch_unchecked::<$fs, $fd, $a, R>(
                        client,
                        count,
                        dim,
                        1,
                        src,
                        dst,
                        rows.arg(true),
                        cols.arg(true),
                        layout,
                        strip,
                        unit_taps,
                        single_tap && unrolled_strips(io),
                    ),
                    Vectorization::PixelStrips {
                        vector,
                        strip,
                        single_tap,
                        fixed_taps,
                    } => separable_gather_pixel_strips::launch_unchecked::<$fs, $fd, $a, R>(
                        client,
                        count,
                        dim,
                        vector,
                        src,
                        dst,
                        rows.arg(false),
                        cols.arg(false),
                        layout,
                        pixel_group(units_c),
                        strip,
                        unit_taps,
                        single_tap,
                        fixed_taps,
                    ),
                }
            };
        }
        dispatch_dtypes!(io, launch);
    }
}

/// The planes kernel (a unit per destination pixel, or with `launch.pairs` per two pixels of a
/// column) or, with `launch.block`, the blocks kernel (a unit per 2x2 block of pixels), each
/// unit serving a group of `launch.planes` channels.
fn gather_planes<R: Runtime>(client: &ComputeClient<R>, io: &GatherIo, rows: &DeviceTable, cols: &DeviceTable, launch: PlanesLaunch) {
    let [n, c, h, w] = io.dst_view.shape;
    let vector = launch.vector;
    let channels_fastest = launch.channels_fastest;
    let layout = if vector > 1 {
        channel_vector_layout(io, vector)
    } else {
        scalar_layout(io)
    };
    let side = if launch.block { BLOCK as usize } else { 1 };
    let height = if launch.pairs { 2 } else { side };
    // At most n * c * h * w units, which validation bounds by u32.
    let units = n * (c / vector).div_ceil(launch.planes as usize) * h.div_ceil(height) * w.div_ceil(side);
    let dim = CubeDim::new_1d(UNITS_PER_CUBE);
    let count = cubecl::calculate_cube_count_elemwise(client, units, dim);
    // SAFETY: as in `gather_pass`; every unit guards its index and reads only table slots
    // below its rows' counts (planes) or the tables' widths, which are the shape (blocks);
    // channel vectors divide the channels and both tensors' other strides (`vectorization`).
    unsafe {
        let (src, dst) = arrays(io, vector, vector);
        // Tap-major tables for the planes kernel, row-major for the blocks kernel (each
        // kernel's compiled layout).
        let interior = block_interior(rows, cols, io.tuning.block_unguarded.unwrap_or(true));
        let (rows, cols) = (rows.arg(!launch.block), cols.arg(!launch.block));
        let (planes, (row_taps, col_taps)) = (launch.planes, launch.shape);
        macro_rules! launch {
            ($fs:ty, $fd:ty, $a:ty) => {
                if launch.block {
                    separable_gather_blocks::launch_unchecked::<$fs, $fd, $a, R>(
                        client,
                        count,
                        dim,
                        vector,
                        src,
                        dst,
                        rows,
                        cols,
                        layout,
                        interior,
                        planes,
                        row_taps,
                        col_taps,
                        launch.short_rows,
                        channels_fastest,
                    )
                } else if launch.pairs {
                    separable_gather_plane_pairs::launch_unchecked::<$fs, $fd, $a, R>(
                        client, count, dim, src, dst, rows, cols, layout, planes, row_taps, col_taps,
                    )
                } else {
                    separable_gather_planes::launch_unchecked::<$fs, $fd, $a, R>(
                        client, count, dim, src, dst, rows, cols, layout, planes, row_taps, col_taps,
                    )
                }
            };
        }
        dispatch_dtypes!(io, launch);
    }
}

/// The cells kernel: a unit per `launch.shape.cells` cells of a destination row and group of
/// `launch.planes` channels.
fn gather_cells<R: Runtime>(client: &ComputeClient<R>, io: &GatherIo, rows: &DeviceTable, cols: &DeviceTable, launch: CellsLaunch) {
    let [n, c, h, w] = io.dst_view.shape;
    let layout = || scalar_layout::<R>(io);
    let shape = launch.shape;
    let groups = c.div_ceil(launch.planes as usize);
    let dim = CubeDim::new_1d(UNITS_PER_CUBE);
    let (left, right) = launch.inner_columns();
    // At most n * c * h * w units each, which validation bounds by u32.
    let inner_units = n * groups * h * launch.units as usize;
    let edge_units = n * groups * h * (w - (right - left) as usize);
    // SAFETY: as in `gather_pass`; inner units read the window their cells' table rows read
    // (the host checked every cell of the run) or, for rows past a row's count, the same
    // columns of the plane's first row; edge units read only slots below their rows' counts,
    // which are at most the shape's taps (`cells` checked the tables' widths) and so at most
    // its edges' kernel's; vectors of `launch.vector` outputs divide the width and the other
    // strides (`cells` checked), and inner units start at multiples of their outputs.
    unsafe {
        let src = || ArrayArg::from_raw_parts(io.src.clone(), extent(&io.src_view, 1));
        if edge_units > 0 {
            let count = cubecl::calculate_cube_count_elemwise(client, edge_units, dim);
            let dst = ArrayArg::from_raw_parts(io.dst.clone(), extent(&io.dst_view, 1));
            let edges = CellEdgesLaunch::new(left, right);
            let edge_taps = shape.edge_taps();
            macro_rules! launch {
                ($fs:ty, $fd:ty, $a:ty) => {
                    separable_gather_cell_edges::launch_unchecked::<$fs, $fd, $a, R>(
                        client,
                        count,
                        dim,
                        src(),
                        dst,
                        rows.arg(false),
                        cols.arg(false),
                        layout(),
                        edges,
                        launch.planes,
                        edge_taps.0,
                        edge_taps.1,
                    )
                };
            }
            dispatch_dtypes!(io, launch);
        }
        let count = cubecl::calculate_cube_count_elemwise(client, inner_units, dim);
        let dst = ArrayArg::from_raw_parts(io.dst.clone(), extent(&io.dst_view, launch.vector));
        let run = CellRunLaunch::new(launch.cells.first, launch.first_unit, launch.units);
        let window = launch.window;
        // Window vectors (`cells::window_loads` checked) lie inside their source rows.
        let window_src = ArrayArg::from_raw_parts(io.src.clone(), extent(&io.src_view, window.vector));
        macro_rules! launch {
            ($fs:ty, $fd:ty, $a:ty) => {
                separable_gather_cells::launch_unchecked::<$fs, $fd, $a, R>(
                    client,
                    count,
                    dim,
                    launch.vector,
                    window.vector,
                    window_src,
                    dst,
                    rows.arg(false),
                    cols.arg(false),
                    layout(),
                    run,
                    launch.planes,
                    shape.row_taps,
                    shape.phases,
                    shape.stride,
                    shape.taps,
                    shape.split,
                    shape.cells,
                    window.skew,
                )
            };
        }
        dispatch_dtypes!(io, launch);
    }
}

/// The tiled kernel: cubes of `TILE_W x TILE_H` units over (column tile, row tile, plane).
fn gather_tiled<R: Runtime>(client: &ComputeClient<R>, io: &GatherIo, rows: &DeviceTable, cols: &DeviceTable) {
    let [n, c, h, w] = io.dst_view.shape;
    let layout = scalar_layout(io);
    let dim = CubeDim::new_2d(TILE_W, TILE_H);
    let count = CubeCount::Static(
        w.div_ceil(TILE_W as usize) as u32,
        h.div_ceil(TILE_H as usize) as u32,
        (n * c) as u32,
    );
    // SAFETY: as in `gather_pass`; every unit guards its row and column.
    unsafe {
        let (src, dst) = arrays(io, 1, 1);
        macro_rules! launch {
            ($fs:ty, $fd:ty, $a:ty) => {
                separable_gather_tiled::launch_unchecked::<$fs, $fd, $a, R>(
                    client,
                    count,
                    dim,
                    src,
                    dst,
                    rows.arg(true),
                    cols.arg(true),
                    layout,
                )
            };
        }
        dispatch_dtypes!(io, launch);
    }
}

/// The runs kernel: strips of `launch.strip` outputs per unit (as `separable_gather_strips`),
/// the source read in vectors of `launch.vector` along its width.
fn gather_runs<R: Runtime>(client: &ComputeClient<R>, io: &GatherIo, rows: &DeviceTable, cols: &DeviceTable, launch: RunsLaunch) {
    let vector = launch.vector as usize;
    // `runs` checked that the vector divides the source's other strides; its width's is one.
    let src_strides = vector_strides(&io.src_view, vector, false);
    let layout = layout_arg(io.dst_view.shape, src_strides, io.dst_view.strides);
    let dim = CubeDim::new_1d(UNITS_PER_CUBE);
    let count = cubecl::calculate_cube_count_elemwise(client, strip_units(io.dst_view.shape, launch.strip), dim);
    // SAFETY: as in `gather_pass`; every unit guards its output and reads only whole vectors
    // inside its column runs (aligned to the vector, `runs` checked) of rows below its count.
    unsafe {
        let (src, dst) = arrays(io, vector, 1);
        macro_rules! launch {
            ($fs:ty, $fd:ty, $a:ty) => {
                separable_gather_runs::launch_unchecked::<$fs, $fd, $a, R>(
                    client,
                    count,
                    dim,
                    vector,
                    src,
                    dst,
                    rows.arg(true),
                    cols.arg(true),
                    layout,
                    launch.strip,
                    launch.run_vectors,
                )
            };
        }
        dispatch_dtypes!(io, launch);
    }
}
