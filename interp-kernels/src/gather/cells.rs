//! The gather for regular column tables in NCHW: a unit per run of cells along a destination
//! row (an integer upsample's phases, or a downsample's strided windows) reads the run's
//! source window once per tap row and sums every output of the run from it.

use cubecl::prelude::*;

use super::planes::{factored_sum, load_row};
use super::{grid_position, table_slot, AxisTable, GatherLayout};

/// Where a launch's inner units lie: the run's first cell (`template`, whose table rows
/// every cell of the run repeats, shifted), and the units (of `cells` cells each) that lie
/// wholly inside the run: `units` per destination row from unit `first_unit` on. The
/// columns outside them (the edges) go to [`separable_gather_cell_edges()`].
#[derive(CubeType, CubeLaunch, Clone, Copy)]
pub struct CellRun {
    pub template: u32,
    pub first_unit: u32,
    pub units: u32,
}

/// The columns of a destination row outside a launch's inner units: `0..left` and
/// `right..width`.
#[derive(CubeType, CubeLaunch, Clone, Copy)]
pub struct CellEdges {
    pub left: u32,
    pub right: u32,
}

/// A shape of [`separable_gather_cells()`]: `phases` outputs per cell, `stride` source
/// indices from one cell to the next, `taps` per output, phases from `split` on reading one
/// index further (0: none do), `cells` per unit, and `row_taps`: the most entries of a row
/// table it runs with (each row's entries past its count skipped).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CellShape {
    pub row_taps: u32,
    pub phases: u32,
    pub stride: u32,
    pub taps: u32,
    pub split: u32,
    pub cells: u32,
}

impl CellShape {
    /// The shape of `row_taps`, `phases`, `stride`, `taps`, `split` and `cells`.
    pub const fn new(row_taps: u32, phases: u32, stride: u32, taps: u32, split: u32, cells: u32) -> Self {
        Self {
            row_taps,
            phases,
            stride,
            taps,
            split,
            cells,
        }
    }

    /// Destination columns per unit.
    pub const fn outputs(&self) -> u32 {
        self.phases * self.cells
    }

    /// The (row taps, column taps) its edges' kernel ([`separable_gather_cell_edges()`]) is
    /// built with: the shape's, but 6 (lanczos3) widened to 8: ptxas spilled the 6x6 edges
    /// kernel at 48 registers (`cargo xtask kernels`), where the 8x8 one (each row's entries
    /// past its count skipped: the same sums) holds them in 64.
    pub const fn edge_taps(&self) -> (u32, u32) {
        const fn widened(taps: u32) -> u32 {
            if taps == 6 {
                8
            } else {
                taps
            }
        }
        (widened(self.row_taps), widened(self.taps))
    }
}

/// Most window values a unit loads at once (whole tap rows, a power of two of them): 4 rows
/// of 14 (8 taps at a stride of 2) spilled registers in ptxas (`cargo xtask kernels`).
const MOST_WINDOW_VALUES: u32 = 40;

/// Tap rows whose windows (of `window_len` values) a unit loads at once, for `row_taps` rows.
const fn row_batch(row_taps: u32, window_len: u32) -> u32 {
    let mut batch = row_taps;
    while batch > 1 && batch * window_len > MOST_WINDOW_VALUES {
        batch /= 2;
    }
    batch
}

/// The shapes the cells kernel is built for (the runtime launches no other): integer
/// upsampling by 2, 4 and 8 with one tap (nearest, area), two (bilinear) and four
/// (bicubic) per output, their phases split at half the cell, and by 2 with six (lanczos3);
/// the adjoints of those
/// upsamples and integer downsampling (one phase; 2, 4 and 8 taps per output at a stride of
/// 2 or 4: the adjoints of bicubic 2x and bilinear 4x upsampling, antialiased downsampling).
/// Not built: strides of 8 (area 8x, the adjoints of 8x upsampling), whose half-precision
/// variants ptxas spilled (`cargo xtask kernels`: 52 bytes). Cells per unit give about 8
/// outputs for upsampling and 4 for one phase. Each comes with row tables of one entry (1-D
/// signals, resizes of the width alone: no row loads wasted) and of as many entries as the
/// column taps, at least 2 (a resize by the same ratio on both axes).
#[rustfmt::skip]
pub const CELL_SHAPES: [CellShape; 30] = [
    CellShape::new(1, 2, 1, 1, 0, 4),
    CellShape::new(2, 2, 1, 1, 0, 4),
    CellShape::new(1, 2, 1, 2, 1, 4),
    CellShape::new(2, 2, 1, 2, 1, 4),
    CellShape::new(1, 2, 1, 4, 1, 4),
    CellShape::new(4, 2, 1, 4, 1, 4),
    CellShape::new(1, 2, 1, 6, 1, 4),
    CellShape::new(6, 2, 1, 6, 1, 4),
    CellShape::new(1, 4, 1, 1, 0, 2),
    CellShape::new(2, 4, 1, 1, 0, 2),
    CellShape::new(1, 4, 1, 2, 2, 2),
    CellShape::new(2, 4, 1, 2, 2, 2),
    CellShape::new(1, 4, 1, 4, 2, 2),
    CellShape::new(4, 4, 1, 4, 2, 2),
    CellShape::new(1, 8, 1, 1, 0, 1),
    CellShape::new(2, 8, 1, 1, 0, 1),
    CellShape::new(1, 8, 1, 2, 4, 1),
    CellShape::new(2, 8, 1, 2, 4, 1),
    CellShape::new(1, 1, 2, 2, 0, 4),
    CellShape::new(2, 1, 2, 2, 0, 4),
    CellShape::new(1, 1, 2, 4, 0, 4),
    CellShape::new(4, 1, 2, 4, 0, 4),
    CellShape::new(1, 1, 4, 4, 0, 4),
    CellShape::new(4, 1, 4, 4, 0, 4),
    CellShape::new(1, 1, 4, 2, 0, 4),
    CellShape::new(2, 1, 4, 2, 0, 4),
    CellShape::new(1, 1, 2, 8, 0, 4),
    CellShape::new(8, 1, 2, 8, 0, 4),
    CellShape::new(1, 1, 4, 8, 0, 4),
    CellShape::new(8, 1, 4, 8, 0, 4),
];

/// The vector a unit of `shape` stores its outputs in where vectors of `max_vector` lanes are
/// the widest: all its outputs at once, or as many as fit.
pub fn cell_vector(shape: CellShape, max_vector: usize) -> usize {
    (shape.outputs() as usize).min(max_vector)
}

/// The widest vector of at most `max_vector` (a power of two) source elements a unit of
/// `shape` can load its window rows in: one that divides the columns from one unit's window
/// to the next (`cells * stride`), so every unit's window starts at the same place in its
/// vector.
pub fn cell_window_vector(shape: CellShape, max_vector: usize) -> usize {
    let step = (shape.cells * shape.stride) as usize;
    let mut vector = max_vector.max(1);
    while !step.is_multiple_of(vector) {
        vector /= 2;
    }
    vector
}

/// The shape of [`CELL_SHAPES`] for a column table of `phases`, `stride`, `taps` and `split`
/// beside a row table of rows of at most `row_width` entries: the fewest row taps that hold
/// them.
pub fn cell_shape(phases: u32, stride: u32, taps: u32, split: u32, row_width: u32) -> Option<CellShape> {
    CELL_SHAPES
        .iter()
        .copied()
        .filter(|s| (s.phases, s.stride, s.taps, s.split) == (phases, stride, taps, split) && row_width <= s.row_taps)
        .min_by_key(|s| s.row_taps)
}

/// `dst[n, c, p, q] = sum_a rows.weight[p, a] * sum_b cols.weight[q, b] * src[n, c, rows.index[p, a], cols.index[q, b]]`
/// for width-contiguous tensors (NCHW) whose column table repeats in cells (`run`, the
/// comptime shape), one unit per `cells` consecutive cells of a destination row inside the
/// run and group of `planes` channels; the columns outside (the edges) are left to
/// [`separable_gather_cell_edges()`], so that no warp splits between two paths.
///
/// Where neighbouring outputs read overlapping taps (an upsample's phases) or neighbouring
/// windows (a downsample), the planes kernel loads `taps` values per output; here a unit loads
/// its cells' window once per tap row (bilinear up 2x: 6 values for 8 outputs instead of 16)
/// and its column weights once, from the template cell, for every channel. Sums in the
/// factored order of the blocks and tiles kernels, `sum_a w_a (sum_b w_b x)`: the same bits.
/// Every tap row's window is loaded before any sum (rows past the row's count read the
/// plane's first row, in bounds, and add `-0.0`, which leaves every sum's bits as they are),
/// so a channel costs one round trip to memory, not one per tap row.
///
/// A unit stores its outputs in vectors of `N` along the width (the runtime picks `N > 1`
/// where the width and the destination's other strides are multiples of it, so every vector
/// is whole and aligned), and loads each window row in aligned vectors of `V` source elements:
/// every unit's window then starts `skew` elements past a vector's start (the runtime picks
/// `V > 1` where `V` divides the source's width and other strides and the columns from one
/// unit's window to the next, `cells * stride`), so a row of `window_len` values takes
/// `ceil((skew + window_len) / V)` loads instead of `window_len` (a warp's scalar loads at a
/// stride of `cells * stride` elements touch as many cache lines each as its vector loads:
/// the L1, not the bytes, bounded the scalar kernel). The vectors stay inside the source row
/// (it is whole vectors long), and the values are the same: the same bits.
///
/// Grid: `run.units * height * batch * ceil(channels / planes)` units.
/// Vectors of `V` source elements, vectors of `N` destination elements; strides in elements,
/// `src_strides.w` and `dst_strides.w` 1.
#[allow(clippy::manual_div_ceil, clippy::too_many_arguments)]
#[cube(launch_unchecked)]
pub fn separable_gather_cells<FS: Float, FD: Float, A: Float, N: Size, V: Size>(
    src: &Array<Vector<FS, V>>,
    dst: &mut Array<Vector<FD, N>>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
    run: CellRun,
    planes: u32,
    #[comptime] row_taps: u32,
    #[comptime] phases: u32,
    #[comptime] stride: u32,
    #[comptime] taps: u32,
    #[comptime] split: u32,
    #[comptime] cells: u32,
    #[comptime] skew: u32,
) {
    let outputs = comptime!(phases * cells);
    let vector_len = N::value();
    let lanes = comptime!(vector_len as u32);
    let vectors = comptime!(outputs / lanes);
    let groups = (layout.channels + planes - 1) / planes;
    let unit = ABSOLUTE_POS as u32;
    if unit >= run.units * layout.height * groups * layout.batch {
        terminate!();
    }
    let at = grid_position(unit, run.units, layout.height, groups);
    let (n, group, p) = (at.n, at.c, at.p);
    let first_cell = (run.first_unit + at.q) * cells;
    let first = group * planes;
    let end = u32::min(first + planes, layout.channels);
    let s = layout.src_strides;
    let d = layout.dst_strides;
    let dst_row = n * d.n + p * d.h + first_cell * phases;

    let src_vector_len = V::value();
    let src_lanes = comptime!(src_vector_len as u32);
    let row_count = rows.count[p as usize];
    // Row offsets in source vectors (the runtime checked that `V` divides the row stride).
    let mut row_offset = Array::<u32>::new(row_taps as usize);
    let mut row_weight = Array::<f32>::new(row_taps as usize);
    load_row(
        rows,
        p,
        row_count,
        s.h / src_lanes,
        &mut row_offset,
        &mut row_weight,
        row_taps,
        false,
    );
    // Rows past the count: their (zeroed) window sums weighted by -0.0, which adds nothing
    // to any sum, signed zeros included.
    let mut weight = Array::<A>::new(row_taps as usize);
    #[unroll]
    for a in 0..row_taps {
        weight[a as usize] = select(a < row_count, A::cast_from(row_weight[a as usize]), A::cast_from(-0.0f32));
    }
    // The template cell's weights (every unit reads the same slots: broadcast) and the
    // window's first source column.
    let template = run.template * phases;
    let mut col_weight = Array::<A>::new((phases * taps) as usize);
    #[unroll]
    for r in 0..phases {
        #[unroll]
        for t in 0..taps {
            col_weight[(r * taps + t) as usize] = A::cast_from(cols.weight[table_slot(cols, template + r, t, false) as usize]);
        }
    }
    let window_start = cols.index[table_slot(cols, template, 0, false) as usize] + (first_cell - run.template) * stride;
    // Phases from the split on read one column further than the cell's start.
    let window_len = comptime!(stride * (cells - 1) + taps + if split > 0 { 1 } else { 0 });
    // Each window row's vectors, the first holding its first value `skew` elements in.
    let loads = comptime!((skew + window_len).div_ceil(src_lanes));
    // Tap rows in batches, each batch's windows (every value loaded) before its sums.
    let batch = comptime!(row_batch(row_taps, loads * src_lanes));
    let batches = comptime!(row_taps / batch);
    for c in first..end {
        // In source vectors: `skew` is 0 for scalars, and with vectors every unit's window
        // starts `skew` elements into one (the runtime checked it).
        let base = (n * s.n + c * s.c + window_start - skew) / src_lanes;
        let mut acc = Array::<A>::new(outputs as usize);
        #[unroll]
        for j in 0..outputs {
            acc[j as usize] = A::from_int(0);
        }
        #[unroll]
        for b in 0..batches {
            let mut window = Array::<A>::new((batch * window_len) as usize);
            #[unroll]
            for i in 0..batch {
                let a = b * batch + i;
                let live = a < row_count;
                let row_base = base + row_offset[a as usize];
                #[unroll]
                for k in 0..loads {
                    let values = src[(row_base + k) as usize];
                    #[unroll]
                    for e in 0..V::value() {
                        let at = comptime!(k * src_lanes + e as u32);
                        if comptime!(at >= skew && at < skew + window_len) {
                            let x = A::cast_from(values[e]);
                            window[(i * window_len + at - skew) as usize] = select(live, x, A::from_int(0));
                        }
                    }
                }
            }
            #[unroll]
            for i in 0..batch {
                let a = b * batch + i;
                #[unroll]
                for m in 0..cells {
                    #[unroll]
                    for r in 0..phases {
                        let shift = comptime!(if split > 0 && r >= split { 1 } else { 0 });
                        let mut sum = A::from_int(0);
                        #[unroll]
                        for t in 0..taps {
                            sum += window[(i * window_len + m * stride + shift + t) as usize] * col_weight[(r * taps + t) as usize];
                        }
                        acc[(m * phases + r) as usize] += sum * weight[a as usize];
                    }
                }
            }
        }
        let out = (dst_row + c * d.c) / lanes;
        #[unroll]
        for k in 0..vectors {
            let mut vector = Vector::<FD, N>::empty();
            #[unroll]
            for lane in 0..N::value() {
                vector[lane] = FD::cast_from(acc[(k * lanes + lane as u32) as usize]);
            }
            dst[(out + k) as usize] = vector;
        }
    }
}

/// The columns of a cells launch outside its inner units (`edges`), a unit per destination
/// pixel and group of `planes` channels, its table entries (at most `row_taps` and
/// `col_taps`) in registers as in the planes kernel, summed in the factored order of the
/// cells kernel: the bits of the blocks kernel.
///
/// Grid: `(edges.left + width - edges.right) * height * batch * ceil(channels / planes)`
/// units. Scalar elements, strides in elements.
#[allow(clippy::manual_div_ceil)]
#[cube(launch_unchecked)]
pub fn separable_gather_cell_edges<FS: Float, FD: Float, A: Float>(
    src: &Array<FS>,
    dst: &mut Array<FD>,
    rows: &AxisTable,
    cols: &AxisTable,
    layout: GatherLayout,
    edges: CellEdges,
    planes: u32,
    #[comptime] row_taps: u32,
    #[comptime] col_taps: u32,
) {
    let columns = edges.left + layout.width - edges.right;
    let groups = (layout.channels + planes - 1) / planes;
    let unit = ABSOLUTE_POS as u32;
    if unit >= columns * layout.height * groups * layout.batch {
        terminate!();
    }
    let at = grid_position(unit, columns, layout.height, groups);
    let (n, group, p) = (at.n, at.c, at.p);
    let q = select(at.q < edges.left, at.q, edges.right + at.q - edges.left);
    let s = layout.src_strides;
    let d = layout.dst_strides;
    let row_count = rows.count[p as usize];
    let col_count = cols.count[q as usize];
    let mut row_offset = Array::<u32>::new(row_taps as usize);
    let mut row_weight = Array::<f32>::new(row_taps as usize);
    let mut col_offset = Array::<u32>::new(col_taps as usize);
    let mut col_weight = Array::<f32>::new(col_taps as usize);
    load_row(rows, p, row_count, s.h, &mut row_offset, &mut row_weight, row_taps, false);
    load_row(cols, q, col_count, 1, &mut col_offset, &mut col_weight, col_taps, false);
    let first = group * planes;
    let end = u32::min(first + planes, layout.channels);
    let dst_pixel = n * d.n + p * d.h + q;
    for c in first..end {
        let base = n * s.n + c * s.c;
        let acc = factored_sum::<FS, A>(
            src,
            base,
            &row_offset,
            &row_weight,
            row_count,
            &col_offset,
            &col_weight,
            col_count,
            row_taps,
            col_taps,
        );
        dst[(dst_pixel + c * d.c) as usize] = FD::cast_from(acc);
    }
}
