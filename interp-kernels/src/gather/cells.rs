//! The gather for regular column tables in NCHW: a unit per run of cells along a destination
//! row (an integer upsample's phases, or a downsample's strided windows) reads the run's
//! source window once per tap row and sums every output of the run from it.

use cubecl::prelude::*;

use super::blocks::table_value;
use super::planes::load_row;
use super::{grid_position, table_slot, AxisTable, GatherLayout};

/// A column table's repeating cells, as the host found them: cells `first..end` each read
/// the window of the template cell `first`, shifted by `stride` source indices per cell.
#[derive(CubeType, CubeLaunch, Clone, Copy)]
pub struct CellRun {
    pub first: u32,
    pub end: u32,
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
}

/// The shapes the cells kernel is built for (the runtime launches no other): integer
/// upsampling by 2, 4 and 8 with one tap (nearest, area), two (bilinear) and four
/// (bicubic) per output, their phases split at half the cell; the adjoints of those
/// upsamples and integer downsampling (one phase; 2, 4 and 8 taps per output at a stride of
/// 2 or 4: the adjoints of bicubic 2x and bilinear 4x upsampling, antialiased downsampling).
/// Not built: strides of 8 (area 8x, the adjoints of 8x upsampling), whose half-precision
/// variants ptxas spilled (`cargo xtask kernels`, tried again in their present form: 52
/// bytes). Cells per unit give about 8 outputs for upsampling and 4 for one phase; row tables
/// of as many entries as the column taps (at least 2: a resize by the same ratio on both
/// axes, or a one-axis resize).
#[rustfmt::skip]
pub const CELL_SHAPES: [CellShape; 14] = [
    CellShape::new(2, 2, 1, 1, 0, 4),
    CellShape::new(2, 2, 1, 2, 1, 4),
    CellShape::new(4, 2, 1, 4, 1, 4),
    CellShape::new(2, 4, 1, 1, 0, 2),
    CellShape::new(2, 4, 1, 2, 2, 2),
    CellShape::new(4, 4, 1, 4, 2, 2),
    CellShape::new(2, 8, 1, 1, 0, 1),
    CellShape::new(2, 8, 1, 2, 4, 1),
    CellShape::new(2, 1, 2, 2, 0, 4),
    CellShape::new(4, 1, 2, 4, 0, 4),
    CellShape::new(4, 1, 4, 4, 0, 4),
    CellShape::new(2, 1, 4, 2, 0, 4),
    CellShape::new(8, 1, 2, 8, 0, 4),
    CellShape::new(8, 1, 4, 8, 0, 4),
];

/// The vector a unit of `shape` stores its outputs in where vectors of `max_vector` lanes are
/// the widest: all its outputs at once, or as many as fit.
pub fn cell_vector(shape: CellShape, max_vector: usize) -> usize {
    (shape.outputs() as usize).min(max_vector)
}

/// The shape of [`CELL_SHAPES`] for a column table of `phases`, `stride`, `taps` and `split`.
pub fn cell_shape(phases: u32, stride: u32, taps: u32, split: u32) -> Option<CellShape> {
    CELL_SHAPES
        .iter()
        .copied()
        .find(|s| (s.phases, s.stride, s.taps, s.split) == (phases, stride, taps, split))
}

/// `dst[n, c, p, q] = sum_a rows.weight[p, a] * sum_b cols.weight[q, b] * src[n, c, rows.index[p, a], cols.index[q, b]]`
/// for width-contiguous tensors (NCHW) whose column table repeats in cells (`run`, the
/// comptime shape), one unit per `cells` consecutive cells of a destination row and group of
/// `planes` channels.
///
/// Where neighbouring outputs read overlapping taps (an upsample's phases) or neighbouring
/// windows (a downsample), the planes kernel loads `taps` values per output; here a unit loads
/// its cells' window once per tap row (bilinear up 2x: 6 values for 8 outputs instead of 16)
/// and its column weights once, from the template cell, for every channel. Sums in the
/// factored order of the blocks and tiles kernels, `sum_a w_a (sum_b w_b x)`: the same bits.
/// Units whose cells leave the run (the edges) sum each output from the tables, in that
/// order (rows of at most `taps` entries: the runtime launches no wider column table).
///
/// A unit stores its outputs in vectors of `N` along the width (the runtime picks `N > 1`
/// where the width and the destination's other strides are multiples of it, so every vector
/// is whole and aligned).
///
/// Grid: `ceil(width / (phases cells)) * height * batch * ceil(channels / planes)` units.
/// Scalar source elements, vectors of `N` destination elements; strides in elements,
/// `src_strides.w` and `dst_strides.w` 1.
#[allow(clippy::manual_div_ceil, clippy::too_many_arguments)]
#[cube(launch_unchecked)]
pub fn separable_gather_cells<FS: Float, FD: Float, A: Float, N: Size>(
    src: &Array<FS>,
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
) {
    let outputs = comptime!(phases * cells);
    let vector_len = N::value();
    let lanes = comptime!(vector_len as u32);
    let vectors = comptime!(outputs / lanes);
    let groups = (layout.channels + planes - 1) / planes;
    let units_w = (layout.width + outputs - 1) / outputs;
    let unit = ABSOLUTE_POS as u32;
    if unit >= units_w * layout.height * groups * layout.batch {
        terminate!();
    }
    let at = grid_position(unit, units_w, layout.height, groups);
    let (n, group, p) = (at.n, at.c, at.p);
    let first_cell = at.q * cells;
    let first = group * planes;
    let end = u32::min(first + planes, layout.channels);
    let s = layout.src_strides;
    let d = layout.dst_strides;
    let dst_row = n * d.n + p * d.h + first_cell * phases;

    if first_cell >= run.first && first_cell + cells <= run.end {
        let row_count = rows.count[p as usize];
        let mut row_offset = Array::<u32>::new(row_taps as usize);
        let mut row_weight = Array::<f32>::new(row_taps as usize);
        load_row(rows, p, row_count, s.h, &mut row_offset, &mut row_weight, row_taps, false);
        // The template cell's weights (every unit reads the same slots: broadcast) and the
        // window's first source column.
        let template = run.first * phases;
        let mut col_weight = Array::<A>::new((phases * taps) as usize);
        #[unroll]
        for r in 0..phases {
            #[unroll]
            for t in 0..taps {
                col_weight[(r * taps + t) as usize] = A::cast_from(cols.weight[table_slot(cols, template + r, t, false) as usize]);
            }
        }
        let window_start = cols.index[table_slot(cols, template, 0, false) as usize] + (first_cell - run.first) * stride;
        // Phases before the split read from their cell's start, the others one further.
        let lead = comptime!(if split == 0 { phases } else { split });
        let window_len = comptime!(stride * (cells - 1) + taps + if split > 0 { 1 } else { 0 });
        for c in first..end {
            let base = n * s.n + c * s.c + window_start;
            let mut acc = Array::<A>::new(outputs as usize);
            #[unroll]
            for j in 0..outputs {
                acc[j as usize] = A::from_int(0);
            }
            #[unroll]
            for a in 0..row_taps {
                if a < row_count {
                    let row_base = base + row_offset[a as usize];
                    let mut window = Array::<A>::new(window_len as usize);
                    #[unroll]
                    for l in 0..window_len {
                        window[l as usize] = A::cast_from(src[(row_base + l) as usize]);
                    }
                    let weight = A::cast_from(row_weight[a as usize]);
                    #[unroll]
                    for m in 0..cells {
                        #[unroll]
                        for r in 0..lead {
                            let mut sum = A::from_int(0);
                            #[unroll]
                            for t in 0..taps {
                                sum += window[(m * stride + t) as usize] * col_weight[(r * taps + t) as usize];
                            }
                            acc[(m * phases + r) as usize] += sum * weight;
                        }
                        #[unroll]
                        for r in lead..phases {
                            let mut sum = A::from_int(0);
                            #[unroll]
                            for t in 0..taps {
                                sum += window[(m * stride + 1 + t) as usize] * col_weight[(r * taps + t) as usize];
                            }
                            acc[(m * phases + r) as usize] += sum * weight;
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
    } else {
        // Each output summed from the tables into local memory (a runtime loop over the
        // outputs: the lanes unrolled, or loops over the rows' counts, made ptxas or the HIP
        // compiler spill registers, `cargo xtask kernels`), then stored as whole vectors.
        let mut values = Array::<A>::new(outputs as usize);
        let q0 = first_cell * phases;
        // A bound the compiler cannot see: unrolled, the loop held every output's table
        // entries at once (120 registers for bilinear, where the inner units need 32).
        let in_width = u32::min(outputs, layout.width - q0);
        for c in first..end {
            for j in 0..in_width {
                values[j as usize] = table_value::<FS, A>(src, rows, cols, layout, n, c, p, q0 + j, row_taps, taps);
            }
            #[unroll]
            for k in 0..vectors {
                if q0 + k * lanes < layout.width {
                    let mut vector = Vector::<FD, N>::empty();
                    #[unroll]
                    for lane in 0..N::value() {
                        vector[lane] = FD::cast_from(values[(k * lanes + lane as u32) as usize]);
                    }
                    dst[((dst_row + c * d.c) / lanes + k) as usize] = vector;
                }
            }
        }
    }
}
