//! Every kernel interp launches, as a [`KernelDefinition`] built without a launch: what the
//! generated-source checks (`cargo xtask verify`) compile to CUDA, HIP and WGSL on a machine
//! without a GPU. The variants listed here are the ones the runtime can pick: every vector
//! width up to a bound, both unit orders, every strip length, the planes, blocks and cells kernels' tap shapes, the team sizes, the tiles.

use cubecl::prelude::*;

use crate::gather::{
    block_vector, cell_vector, cell_window_vector, plane_shape_factored, pool_partials_channels, pool_totals_channels, separable_gather,
    separable_gather_along_width, separable_gather_blocks, separable_gather_cell_edges, separable_gather_cells,
    separable_gather_pixel_strips, separable_gather_plane_loops, separable_gather_plane_pairs, separable_gather_plane_windows,
    separable_gather_planes, separable_gather_runs, separable_gather_strips, separable_gather_teams, separable_gather_teams_channels,
    separable_gather_tiled, team_vector_lanes, AxisTableCompilationArg, BlockInteriorCompilationArg, CellEdgesCompilationArg,
    CellRunCompilationArg, CellShape, GatherLayoutCompilationArg, Sequence4CompilationArg, BLOCK_SHAPES, CELL_SHAPES, CHANNEL_STRIPS,
    CHANNEL_TEAMS, MAX_STRIP, PLANE_LOOP_GROUP, PLANE_SHAPES, POOL_LANES, POOL_WARPS, RUN_VECTORS, STRIP_FIXED_TAPS, TEAMS, TEAM_CUBE,
    TILE_H, TILE_W,
};
use crate::UNITS_PER_CUBE;

/// One kernel variant and its definition.
pub struct NamedKernel {
    /// What the variant is, e.g. `gather f16->f16 v8 nhwc`.
    pub name: String,
    pub definition: KernelDefinition,
}

/// Launch settings of a kernel: its cube shape, 32-bit addressing.
pub fn settings(cube_dim: CubeDim) -> KernelSettings {
    KernelSettings::default().cube_dim(cube_dim).address_type(AddressType::U32)
}

/// The compilation argument of a plain (not in-place) array.
pub fn array() -> ArrayCompilationArg {
    ArrayCompilationArg { inplace: None }
}

fn axis_table() -> AxisTableCompilationArg {
    AxisTableCompilationArg {
        index: array(),
        weight: array(),
        count: array(),
        width: (),
        rows: (),
    }
}

fn gather_layout() -> GatherLayoutCompilationArg {
    let strides = || Sequence4CompilationArg {
        n: (),
        c: (),
        h: (),
        w: (),
    };
    GatherLayoutCompilationArg {
        batch: (),
        channels: (),
        height: (),
        width: (),
        src_strides: strides(),
        dst_strides: strides(),
    }
}

/// Every gather kernel from `FS` to `FD` accumulating in `A`, with vectors of at most
/// `max_vector` lanes.
pub fn gather_kernels<FS: Float, FD: Float, A: Float, R: Runtime>(client: &ComputeClient<R>, max_vector: usize) -> Vec<NamedKernel> {
    let types = format!("{}->{}", short_name::<FS>(), short_name::<FD>());
    let own_type = FS::as_type_native_unchecked() == FD::as_type_native_unchecked();
    let line = || settings(CubeDim::new_1d(UNITS_PER_CUBE));
    let widths = || (0..).map(|i| 1usize << i).take_while(|&v| v <= max_vector);
    let mut kernels = Vec::new();
    let mut push = |name: String, definition| kernels.push(NamedKernel { name, definition });
    // Every gather takes (src, dst, rows, cols, layout), then its own vector sizes and comptime
    // arguments.
    macro_rules! define {
        ($kernel:ty, $settings:expr $(, $extra:expr)*) => {
            <$kernel>::new($settings, client.clone(), array(), array(), axis_table(), axis_table(), gather_layout() $(, $extra)*).define()
        };
    }
    for unit_taps in [false, true] {
        let taps = if unit_taps { " unit-taps" } else { "" };
        for v in widths() {
            // Vectors of several channels run channels fastest only.
            for channels_last in [false, true].into_iter().filter(|&last| last || v == 1) {
                let order = if channels_last { "nhwc" } else { "nchw" };
                // Wide tables run the weighted sums (unit tables hold weight-one taps): the
                // unit-tap blocked variants spilled registers.
                for wide in [false, true].into_iter().filter(|&wide| !(wide && unit_taps)) {
                    let blocked = if wide { " wide" } else { "" };
                    // Width order reads tap-major tables; scalar channels in channel order either
                    // layout (few units a pixel: tap-major); vectors row-major (their tap-major
                    // variants spilled registers).
                    for tap_major in [true, false]
                        .into_iter()
                        .filter(|&major| if channels_last { v == 1 || !major } else { major })
                    {
                        let slots = if tap_major { "" } else { " row-major" };
                        // Rows read by their first index: scalar weighted plain sums only.
                        let contiguous_built = v == 1 && !wide && !unit_taps;
                        for contiguous in [false, true].into_iter().filter(|&c| !c || contiguous_built) {
                            let rows = if contiguous { " contiguous" } else { "" };
                            let definition = define!(
                                separable_gather::SeparableGather<FS, FD, A, R>,
                                line(),
                                v,
                                channels_last,
                                unit_taps,
                                wide,
                                tap_major,
                                contiguous
                            );
                            push(format!("gather {types} v{v} {order}{taps}{blocked}{slots}{rows}"), definition);
                        }
                    }
                }
            }
        }
        for v in widths().skip(1) {
            let definition = define!(separable_gather_along_width::SeparableGatherAlongWidth<FS, FD, A, R>, line(), v, 1, unit_taps);
            push(format!("gather {types} width v{v}{taps}"), definition);
        }
        for strip in 1..=MAX_STRIP {
            let definition = define!(separable_gather_strips::SeparableGatherStrips<FS, FD, A, R>, line(), 1, strip, unit_taps, false);
            push(format!("gather {types} strips x{strip}{taps}"), definition);
            // One tap per output, unrolled: a call's own dtype.
            if unit_taps && own_type {
                let definition = define!(separable_gather_strips::SeparableGatherStrips<FS, FD, A, R>, line(), 1, strip, true, true);
                push(format!("gather {types} strips x{strip} single-tap"), definition);
            }
            let definition =
                define!(separable_gather_pixel_strips::SeparableGatherPixelStrips<FS, FD, A, R>, line(), (), 1, strip, unit_taps, false, 0);
            push(format!("gather {types} pixel strips x{strip}{taps}"), definition);
        }
        // Pixel strips of the unrolled variants, in a call's own dtype: channel vectors at the
        // runtime's widest vectors (`CHANNEL_STRIPS`), scalar channels (channels that make no
        // vectors) at every strip length; unit taps of one tap per output only (the unit-tap
        // loops spilled f32 vectors).
        let vector_strips = CHANNEL_STRIPS
            .into_iter()
            .filter(|_| max_vector > 1)
            .map(|strip| (max_vector, strip));
        let scalar_strips = (1..=MAX_STRIP).map(|strip| (1, strip));
        for (v, strip) in vector_strips.chain(scalar_strips).filter(|_| own_type) {
            // Unit taps: single taps only; weighted: runtime loops (vectors only: the scalar
            // loops are the variants above), or the fixed 2x2 shape (not in f64: it spilled 8
            // bytes).
            let fixed_shape = !unit_taps && A::as_type_native_unchecked().size() == 4;
            let shapes: &[u32] = match (fixed_shape, v > 1) {
                (true, true) => &[0, STRIP_FIXED_TAPS],
                (true, false) => &[STRIP_FIXED_TAPS],
                (false, true) => &[0],
                (false, false) if unit_taps => &[0],
                (false, false) => &[],
            };
            for &fixed in shapes {
                let kind = match (unit_taps, fixed) {
                    (true, _) => " single-tap".to_string(),
                    (false, 0) => String::new(),
                    (false, taps) => format!(" {taps}x{taps}"),
                };
                let definition = define!(
                    separable_gather_pixel_strips::SeparableGatherPixelStrips<FS, FD, A, R>,
                    line(),
                    (),
                    v,
                    strip,
                    unit_taps,
                    unit_taps,
                    fixed
                );
                push(format!("gather {types} pixel strips x{strip} v{v}{kind}"), definition);
            }
        }
    }
    // Weight-one column runs read in width vectors of two lanes or more, every strip length.
    for v in widths().skip(1) {
        for strip in 1..=MAX_STRIP {
            for run_vectors in RUN_VECTORS {
                let definition = define!(separable_gather_runs::SeparableGatherRuns<FS, FD, A, R>, line(), v, strip, run_vectors);
                push(format!("gather {types} runs x{strip} v{v} of {run_vectors}"), definition);
            }
        }
    }
    for (row_taps, col_taps) in PLANE_SHAPES {
        let definition = define!(separable_gather_planes::SeparableGatherPlanes<FS, FD, A, R>, line(), (), row_taps, col_taps);
        push(format!("gather {types} planes {row_taps}x{col_taps}"), definition);
    }
    for contiguous in [false, true] {
        let rows = if contiguous { " contiguous" } else { "" };
        let definition =
            define!(separable_gather_plane_loops::SeparableGatherPlaneLoops<FS, FD, A, R>, line(), (), PLANE_LOOP_GROUP, contiguous);
        push(format!("gather {types} plane loops x{PLANE_LOOP_GROUP}{rows}"), definition);
    }
    // Plane loops' windows in source vectors of two lanes or more (contiguous rows only).
    for v in widths().skip(1) {
        let definition =
            define!(separable_gather_plane_windows::SeparableGatherPlaneWindows<FS, FD, A, R>, line(), (), v, PLANE_LOOP_GROUP);
        push(format!("gather {types} plane windows x{PLANE_LOOP_GROUP} v{v}"), definition);
    }
    for (row_taps, col_taps) in PLANE_SHAPES.into_iter().filter(|&shape| plane_shape_factored(shape)) {
        let definition = define!(separable_gather_plane_pairs::SeparableGatherPlanePairs<FS, FD, A, R>, line(), (), row_taps, col_taps);
        push(format!("gather {types} plane pairs {row_taps}x{col_taps}"), definition);
    }
    // Blocks run where the sums are f32 (f64 takes the planes kernel: its blocks spilled
    // registers): one pass of a call's own f16, bf16 or f32, and the plane pass of a volume
    // from its f32 intermediate into f16 or bf16 (upsampling volumes, the adjoints of
    // downsampling ones).
    let f32_sums = A::as_type_native_unchecked().size() == 4;
    let into_half = FS::as_type_native_unchecked().size() == 4 && FD::as_type_native_unchecked().size() == 2;
    // Scalar elements (block columns fastest), and in a call's own dtype scalars in channel
    // order (wide channels-last pixels) and channel vectors (channels fastest) of the widest
    // width or, for shapes too wide for it, the width `block_vector` gives: the only widths
    // the runtime launches them in.
    for (row_taps, col_taps) in BLOCK_SHAPES.into_iter().filter(|_| f32_sums && (own_type || into_half)) {
        let vector = block_vector((row_taps, col_taps), max_vector);
        let layouts = [(1, false)]
            .into_iter()
            .chain(own_type.then_some((1, true)))
            .chain((vector > 1 && own_type).then_some((vector, true)));
        for (vector, channels_fastest) in layouts {
            for short_rows in [false, true] {
                let rows = if short_rows { " short-rows" } else { "" };
                let definition = define!(
                    separable_gather_blocks::SeparableGatherBlocks<FS, FD, A, R>,
                    line(),
                    BlockInteriorCompilationArg {
                        top: (),
                        bottom: (),
                        left: (),
                        right: ()
                    },
                    (),
                    vector,
                    row_taps,
                    col_taps,
                    short_rows,
                    channels_fastest
                );
                let vectors = match (vector, channels_fastest) {
                    (1, false) => String::new(),
                    (1, true) => " channel-order nhwc".to_string(),
                    _ => format!(" v{vector} nhwc"),
                };
                push(format!("gather {types} blocks {row_taps}x{col_taps}{rows}{vectors}"), definition);
            }
        }
    }
    // Cells, like blocks, in a call's own f16, bf16 or f32; their edges' kernel for each
    // (row taps, column taps) of the shapes.
    let mut edge_shapes = Vec::new();
    for shape in CELL_SHAPES.into_iter().filter(|_| f32_sums && own_type) {
        let CellShape {
            row_taps,
            phases,
            stride,
            taps,
            split,
            cells,
        } = shape;
        // Scalar stores and loads; one vector per `cell_vector` outputs, its windows read in
        // scalars or in `cell_window_vector` lanes from either end of a vector: skew 0 and
        // `V - 1` take the fewest and the most loads a window row can (`ceil(len / V)`, one
        // more at most), and every skew between takes one of those two counts.
        let window = cell_window_vector(shape, max_vector);
        let store = cell_vector(shape, max_vector);
        let mut variants = vec![(1, 1, 0), (store, 1, 0)];
        if window > 1 {
            variants.extend([(store, window, 0), (store, window, window as u32 - 1)]);
        }
        for (v, w, skew) in variants {
            let definition = define!(
                separable_gather_cells::SeparableGatherCells<FS, FD, A, R>,
                line(),
                CellRunCompilationArg {
                    template: (),
                    first_unit: (),
                    units: ()
                },
                (),
                v,
                w,
                row_taps,
                phases,
                stride,
                taps,
                split,
                cells,
                skew
            );
            let loads = if w > 1 { format!(" loads v{w} skew {skew}") } else { String::new() };
            push(
                format!("gather {types} cells {phases} phases stride {stride} x{taps} rows {row_taps} v{v}{loads}"),
                definition,
            );
        }
        if !edge_shapes.contains(&shape.edge_taps()) {
            edge_shapes.push(shape.edge_taps());
        }
    }
    for (row_taps, col_taps) in edge_shapes {
        let definition = define!(
            separable_gather_cell_edges::SeparableGatherCellEdges<FS, FD, A, R>,
            line(),
            CellEdgesCompilationArg { left: (), right: () },
            (),
            row_taps,
            col_taps
        );
        push(format!("gather {types} cell edges {row_taps}x{col_taps}"), definition);
    }
    for team in TEAMS {
        for channels_fastest in [false, true] {
            for uniform in [false, true] {
                // Width vectors of the source: uniform windows in NCHW order only.
                let widest = size_of::<FS>().max(size_of::<FD>());
                let built = move |v: usize| v == 1 || (uniform && !channels_fastest && v <= team_vector_lanes(team, widest));
                for v in widths().filter(|&v| built(v)) {
                    let order = if channels_fastest { "nhwc" } else { "nchw" };
                    let sums = if uniform { " uniform" } else { "" };
                    let vectors = if v > 1 { format!(" v{v}") } else { String::new() };
                    let definition = define!(
                        separable_gather_teams::SeparableGatherTeams<FS, FD, A, R>,
                        settings(CubeDim::new_1d(TEAM_CUBE)),
                        (),
                        v,
                        channels_fastest,
                        uniform,
                        team
                    );
                    push(format!("gather {types} teams x{team} {order}{sums}{vectors}"), definition);
                }
            }
        }
    }
    // Split pooling of channel vectors (channels-last area windows): pass 1 from the source
    // into the accumulator type, pass 2 from it into the destination; f32 sums only (the f64
    // pass 1 spilled 16 bytes).
    for v in widths().skip(1).filter(|_| f32_sums) {
        let pool = settings(CubeDim::new_1d(POOL_LANES * POOL_WARPS));
        let definition = define!(pool_partials_channels::PoolPartialsChannels<FS, A, R>, pool, (), (), v);
        push(format!("gather {types} pool partials v{v}"), definition);
        let definition = define!(pool_totals_channels::PoolTotalsChannels<A, FD, R>, line(), (), v);
        push(format!("gather {types} pool totals v{v}"), definition);
    }
    for team in CHANNEL_TEAMS {
        for v in widths() {
            let definition = define!(
                separable_gather_teams_channels::SeparableGatherTeamsChannels<FS, FD, A, R>,
                settings(CubeDim::new_1d(TEAM_CUBE)),
                (),
                v,
                team
            );
            push(format!("gather {types} teams x{team} channels v{v}"), definition);
        }
    }
    let tiles = settings(CubeDim::new_2d(TILE_W, TILE_H));
    push(
        format!("gather {types} tiled"),
        define!(separable_gather_tiled::SeparableGatherTiled<FS, FD, A, R>, tiles),
    );
    kernels
}

/// `f16` for `half::f16`.
fn short_name<T>() -> &'static str {
    let full = std::any::type_name::<T>();
    full.rsplit("::").next().unwrap_or(full)
}
