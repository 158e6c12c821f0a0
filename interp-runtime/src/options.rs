//! What a call asks for besides the filter: the output size, and how the filter is sampled.

/// One value per spatial axis, outermost first: `[L]` (rank 3), `[H, W]` (rank 4) or
/// `[D, H, W]` (rank 5). Built from an array of one to three values.
///
/// ```
/// use interp_runtime::Spatial;
///
/// assert_eq!(Spatial::from([4, 8, 8]).as_slice(), &[4, 8, 8]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spatial<T> {
    values: [T; 3],
    len: usize,
}

impl<T: Copy> Spatial<T> {
    /// One axis: the length of a rank-3 tensor.
    pub const fn one(length: T) -> Self {
        Self {
            values: [length; 3],
            len: 1,
        }
    }

    /// Two axes: height and width of a rank-4 tensor.
    pub const fn two(height: T, width: T) -> Self {
        Self {
            values: [height, width, width],
            len: 2,
        }
    }

    /// Three axes: depth, height and width of a rank-5 tensor.
    pub const fn three(depth: T, height: T, width: T) -> Self {
        Self {
            values: [depth, height, width],
            len: 3,
        }
    }

    /// The values, outermost axis first.
    pub fn as_slice(&self) -> &[T] {
        &self.values[..self.len]
    }
}

/// For shapes known only at run time: one to three values.
///
/// ```
/// use interp_runtime::{InterpError, Spatial};
///
/// let sizes: Vec<usize> = vec![16, 128, 128];
/// assert_eq!(Spatial::try_from(&sizes[..])?.as_slice(), &[16, 128, 128]);
/// assert!(Spatial::try_from(&[1usize, 2, 3, 4][..]).is_err());
/// # Ok::<(), InterpError>(())
/// ```
impl<T: Copy> TryFrom<&[T]> for Spatial<T> {
    type Error = crate::InterpError;

    fn try_from(values: &[T]) -> Result<Self, Self::Error> {
        match *values {
            [l] => Ok(Self::one(l)),
            [h, w] => Ok(Self::two(h, w)),
            [d, h, w] => Ok(Self::three(d, h, w)),
            _ => Err(crate::InterpError::SpatialAxes { given: values.len() }),
        }
    }
}

impl<T: Copy> From<[T; 1]> for Spatial<T> {
    fn from([length]: [T; 1]) -> Self {
        Self::one(length)
    }
}

impl<T: Copy> From<[T; 2]> for Spatial<T> {
    fn from([height, width]: [T; 2]) -> Self {
        Self::two(height, width)
    }
}

impl<T: Copy> From<[T; 3]> for Spatial<T> {
    fn from([depth, height, width]: [T; 3]) -> Self {
        Self::three(depth, height, width)
    }
}

/// How the output size is chosen, with PyTorch's rules, per spatial axis.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Resize {
    /// Explicit output lengths of the spatial axes; the kernels use `in / out` as the scale.
    Size(Spatial<usize>),
    /// `out = floor(in * factor)` per axis. Unless `recompute` is set (PyTorch's
    /// `recompute_scale_factor=True`), the kernels use `1 / factor` as the scale, as PyTorch does.
    Scale {
        /// Factors of the spatial axes, each finite and > 0.
        factors: Spatial<f64>,
        /// Use `in / out` rather than `1 / factor` as the scale.
        recompute: bool,
    },
}

impl Resize {
    /// How many spatial axes the resize names.
    pub fn axes(&self) -> usize {
        match self {
            Resize::Size(sizes) => sizes.as_slice().len(),
            Resize::Scale { factors, .. } => factors.as_slice().len(),
        }
    }
}

/// What a filter does at the image border.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Border {
    /// PyTorch's non-antialiased rule: `2 ceil(support)` taps around the source coordinate,
    /// indices clamped to the edge (replicate), weights used as they are.
    Clamp,
    /// Pillow's (and PyTorch's antialias) rule: the taps inside the support that fall in the
    /// image, weights renormalized to sum to one.
    Renormalize,
}

/// The gather strategies a [`Tuning`] can force (for experiments and benchmarks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// One kernel reading every tap pair of every output.
    OnePass,
    /// One axis at a time through an intermediate in the accumulator type.
    TwoPass,
    /// Shared-memory tiles (scalar layouts only; others fall back to the default rule).
    Tiled,
    /// One pass, a unit per destination pixel looping over several channels with its table
    /// entries in registers (scalar layouts whose tables hold at most 4 taps per axis, or up to
    /// 32 along one axis; others fall back to the default rule, whose two passes then run in
    /// it). Picked by default where the rules of docs/PERFORMANCE.md (v11) say so.
    Planes,
    /// Teams of units per output, each summing a share of its window, added in a fixed tree in
    /// shared memory (scalar layouts whose windows split into shares of at most 64 tap pairs;
    /// others fall back to the default rule). For large downsampling ratios: area and
    /// antialiased pooling, global pooling (docs/PERFORMANCE.md, v12).
    Teams,
    /// A unit per 2x2 block of destination pixels and group of channels, reading the source
    /// window the block shares once (scalar layouts in f16, bf16 or f32 whose tables hold
    /// exactly 2 or 4 taps per axis; others fall back to the default rule). For upsampling with bilinear and bicubic
    /// filters (docs/PERFORMANCE.md, v13).
    Blocks,
    /// A unit per run of repeating cells along a destination row (an integer upsample's
    /// phases, an integer downsample's strided windows) and group of channels, reading the
    /// run's source window once per tap row (NCHW in f16, bf16 or f32 whose column table
    /// repeats in one of the kernel's shapes; others fall back to the default rule). Picked
    /// by default where the rule of docs/PERFORMANCE.md (v17) says so.
    Cells,
    /// A unit per strip of outputs along a destination row, reading weight-one column runs
    /// (the adjoint of an integer nearest upsample along the width) in aligned vectors of the
    /// source's width (width-contiguous tensors whose column runs start and end on a multiple
    /// of two or more elements, weight-one row tables; others fall back to the default rule).
    /// The one-pass unit-tap kernels' sums in their order: the same bits. Picked by default
    /// where its loads are 16 bytes wide or its rows are several runs (a volume's depth
    /// upsample, adjoint), the rule of docs/PERFORMANCE.md v19.
    Runs,
}

impl Strategy {
    /// Every strategy, in the order of [`Strategy::name`]s a tool lists.
    pub const ALL: [Strategy; 8] = [
        Strategy::OnePass,
        Strategy::TwoPass,
        Strategy::Tiled,
        Strategy::Planes,
        Strategy::Teams,
        Strategy::Blocks,
        Strategy::Cells,
        Strategy::Runs,
    ];

    /// The strategy's name on the bench's and tools' command lines: `one-pass`, `two-pass`,
    /// `tiled`, `planes`, `teams`, `blocks`, `cells`, `runs`.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::OnePass => "one-pass",
            Strategy::TwoPass => "two-pass",
            Strategy::Tiled => "tiled",
            Strategy::Planes => "planes",
            Strategy::Teams => "teams",
            Strategy::Blocks => "blocks",
            Strategy::Cells => "cells",
            Strategy::Runs => "runs",
        }
    }

    /// The strategy named `name` (see [`Strategy::name`]).
    ///
    /// ```
    /// use interp_runtime::Strategy;
    /// assert_eq!(Strategy::from_name("blocks"), Some(Strategy::Blocks));
    /// assert_eq!(Strategy::from_name("fastest"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// Overrides of the launch rules, for experiments and benchmarks. The default (`None`
/// everywhere) is the measured rule set of docs/PERFORMANCE.md; results are the same bits
/// whichever strategy runs only where docs/ACCURACY.md says so, so leave it alone for training.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tuning {
    /// Force a gather strategy (a strategy that cannot launch on the device still falls back).
    pub strategy: Option<Strategy>,
    /// Largest vector width (lanes) to use; values below 1 count as 1.
    pub max_vector: Option<usize>,
    /// Most tap pairs per output for which interleaved strips run (default 4).
    pub strip_max_pairs: Option<f64>,
    /// Channels one unit of the planes (and blocks) kernel serves (default: up to 8, 16 in half
    /// precision, fewer when the tensor is too small to fill the device, down to
    /// `least_planes`); values below 1 count as 1.
    pub planes: Option<usize>,
    /// Fewest channels one planes or blocks unit serves by default, while the launch keeps at
    /// least 65536 units (default 4: docs/PERFORMANCE.md v28; 1 gives v27's rule, one channel
    /// a unit in tensors of up to a million outputs). The same bits either way.
    pub least_planes: Option<usize>,
    /// Most taps per axis of the planes kernel's 2-D shapes (default 8; 4 gives v11's
    /// shapes, where 5-8 taps per axis took tiles or two passes).
    pub max_plane_taps: Option<u32>,
    /// Fewest units per output of the teams kernels (each takes the smallest of its team sizes
    /// at least this whose shares hold at most 32 tap pairs: 2, 8, 32 and 256 units per
    /// output; 8, 32 and 128 per vector of channels in the channels-last kernel).
    pub min_team: Option<u32>,
    /// Whether the blocks kernel also serves rows shorter than its shape (edges, absent last
    /// rows or columns, short adjoint rows) from its shared window, taps past a row's count
    /// skipped, instead of summing those blocks' outputs from the tables (default: yes, 1.1-2.6x
    /// faster on the H200: docs/PERFORMANCE.md v14; the same bits either way).
    pub block_short_rows: Option<bool>,
    /// Whether the blocks kernel's short-rows variant runs its window's sums without per-tap
    /// guards in warps whose blocks are all full (default: yes for the 4x4 and 6x6 shapes; the
    /// 2x2 shape always guards, docs/PERFORMANCE.md v21); with `false` every warp sums with the
    /// guards (the same bits either way).
    pub block_unguarded: Option<bool>,
    /// Pixels per unit of one-pass gathers of channel vectors (channels-last, the runtime's
    /// widest vectors, a call's own dtype in and out): 2 or 4 (other values, e.g. 1: one pixel
    /// per unit). Default: the measured rule of docs/PERFORMANCE.md v18 (nearest forward,
    /// bilinear and widening gathers of up to 16 tap pairs in f16, bf16 and f32, while the
    /// launch keeps enough units). The same bits either way.
    pub channel_strip: Option<u32>,
    /// Whether one-pass gathers of scalar outputs in strips (NCHW strips; channels-last pixel
    /// strips of channels that make no vectors: 21 classes, 5 channels) run the unrolled
    /// variants where the tables fit them, in a call's own dtype: one weight-one tap per
    /// output (nearest; bilinear where its taps fall on its zeros, e.g. an odd integer
    /// downsample), or, in pixel strips, weighted rows of at most 2 taps per axis (bilinear,
    /// area 2x) with f32 sums. Default: yes (docs/PERFORMANCE.md v22); with `false` they sum
    /// in loops. The same bits either way.
    pub strip_unrolled: Option<bool>,
    /// Whether a volume's depth and height are read as one axis, through the outer product of
    /// their tables, where both views fold depth into height: `Some(true)` for every filter
    /// (its weights the f32 products `w_d * w_h`, rounded once: other bits than the two passes'
    /// sums, docs/ACCURACY.md) in every layout; `Some(false)` never (two passes). Default
    /// (docs/PERFORMANCE.md v18, v19): the nearest samplers (weight one: exact), rows of
    /// several runs (the adjoint of a depth upsample) channels-last, or NCHW where the runs
    /// kernel reads them; and the weighted product of filters of at most two forward taps per
    /// axis (trilinear without antialias) for channels-last calls in f16 and bf16.
    pub volume_product: Option<bool>,
    /// Splits of each window's rows for channels-last area pooling in two launches (partial
    /// sums of the splits, a warp reading 32 channel vectors of one pixel, then each output's
    /// splits added in order; f16, bf16 and f32 calls in channel vectors of two lanes or more,
    /// tables of consecutive indices with one weight per row): at most this many, at least 2
    /// (other values, e.g. 1: not used). Default: at most 16 splits, where the outputs alone
    /// would not fill the device (global pooling; docs/PERFORMANCE.md v19). Other bits than
    /// the teams' sums, deterministic as they are (a pure function of the shape).
    pub pool_splits: Option<u32>,
    /// Whether a gather that resamples the rows alone (its column table the identity: the
    /// depth pass of a volume, the row pass of two passes, an unchanged width) along a
    /// contiguous width reads that width as vectors, a unit per vector of consecutive
    /// columns, as channels-last gathers read channels; channels-last rows of pixels whose
    /// channels make no vectors (RGB) count as one contiguous width of `width * channels`
    /// (v31). Default: yes (docs/PERFORMANCE.md v23, v31); with `false` those gathers take the
    /// scalar kernels. The same bits either way.
    pub row_vectors: Option<bool>,
    /// Whether the factored planes shape (antialiased or adjoint gathers of 5-8 taps per
    /// axis, halving both axes, scalar layouts) runs a unit per two vertically neighbouring
    /// pixels, each source row of their shared window summed along the width once for both.
    /// Default: yes (docs/PERFORMANCE.md v24); with `false` a unit per pixel. The same bits
    /// either way.
    pub plane_pairs: Option<bool>,
    /// Whether scalar gathers of more than 16 tap pairs that shrink both axes by less than 4x
    /// run two passes instead of tiles: `true` for all of them, `false` for none (the rule of
    /// v11-v24). Default: NCHW gathers of at least 64 tap pairs (docs/PERFORMANCE.md v25).
    /// Other bits than tiles (another factoring of the sums), deterministic either way: a pure
    /// function of the shape.
    pub passes_when_shrinking: Option<bool>,
    /// Whether the cells kernel loads its window rows in aligned vectors along the source's
    /// width (where the width, the source's other strides and the columns between two units'
    /// windows are multiples of the vector) instead of one value at a time: `true` for every
    /// window, `false` for none. Default (docs/PERFORMANCE.md v26): half precision, and f32
    /// windows of 4 or more taps per output. The same bits either way.
    pub cell_window_vectors: Option<bool>,
    /// Whether channels-last gathers read in 16-byte channel vectors take the blocks kernel (a
    /// unit per 2x2 block of pixels and vector of channels, reading the window the block
    /// shares once) where its shapes fit, and so channels-last pixels wider than 16 bytes whose
    /// channels make no vectors (in channel order, one channel a unit): `true` wherever they
    /// fit, `false` never (one output per unit, or two passes). Default: the rules of
    /// docs/PERFORMANCE.md v27 and v29. Other bits than
    /// the one-pass channel gather (its sums factored per row, `sum_a w_a (sum_b w_b x)`, as
    /// the NCHW blocks, cells and tiles sum), deterministic either way: a pure function of
    /// the shape.
    pub channel_blocks: Option<bool>,
    /// Whether the one-output-per-unit gather in channel order over scalar channels
    /// (channels-last tensors whose channels make no vectors) reads its tables tap-major (a
    /// warp's load of one tap reads its pixels' consecutive slots) instead of row-major (each
    /// pixel's taps consecutive): `true` always, `false` never; vectors of channels read
    /// row-major either way. Default: tap-major where a pixel holds fewer units than a warp
    /// (docs/PERFORMANCE.md v31). The same bits either way.
    pub channel_tables_tap_major: Option<bool>,
    /// Whether the one-output-per-unit gather of scalar outputs in width order (NCHW) over
    /// weighted rows of at most 64 tap pairs runs a unit per pixel and group of up to 4
    /// channels, each table entry loaded once for the group (`separable_gather_plane_loops`):
    /// `true` wherever it applies (in the passes of two, before the planes kernel too), `false`
    /// never. Default: more than `plane_loop_min_pairs` mean tap pairs per output (the passes
    /// of antialiased downsampling beyond 2x, adjoints of upsampling by 3x and more), two
    /// channels or more, and enough units, before the planes kernel (docs/PERFORMANCE.md v32,
    /// v34). The same bits either way.
    pub plane_loops: Option<bool>,
    /// Mean tap pairs per output up to which the default rule leaves a pass to the other
    /// kernels (default 8; v32's rule was 16). Read by the rule alone, not where `plane_loops`
    /// is set.
    pub plane_loop_min_pairs: Option<u32>,
    /// Whether the weighted gathers of scalar outputs that one unit sums in loops (one output
    /// a unit, plane loops) read each table row by its first index alone where every row reads
    /// consecutive indices (the tables of every filter once merged at the borders): one load
    /// per tap fewer. Default: yes (docs/PERFORMANCE.md v33); `false` loads every tap's index.
    /// The same bits either way.
    pub contiguous_rows: Option<bool>,
    /// Whether plane loops (`plane_loops`) read each column window as the aligned source
    /// vectors that cover it (`separable_gather_plane_windows`), where both tables' rows read
    /// consecutive indices and every source row is whole 16-byte vectors: `true` wherever that
    /// holds, `false` never (a value load per tap). Default: never, until a GPU A/B has timed
    /// it (docs/PERFORMANCE.md v35; the rule in waiting: windows of at least a vector's taps
    /// on average). The same bits either way.
    pub window_vectors: Option<bool>,
}

/// Options of a call: the output size, and how the filter is sampled, as PyTorch takes
/// `(size or scale_factor, antialias, align_corners)`.
///
/// ```
/// use interp_runtime::{Border, Options, Resize};
///
/// let opts = Options::size(224, 224).antialias(true);
/// assert_eq!(opts.resize, Resize::Size([224, 224].into()));
/// assert_eq!(opts.border_rule(), Border::Renormalize); // antialias implies Pillow's border
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Options {
    /// The output size or scale factors.
    pub resize: Resize,
    /// Corner pixels aligned (`scale = (in - 1) / (out - 1)`); filters only, as in PyTorch.
    pub align_corners: bool,
    /// Widen the filter by the scale when downsampling (needs [`Border::Renormalize`]).
    pub antialias: bool,
    /// The border rule; `None` means [`Border::Renormalize`] with antialias, else
    /// [`Border::Clamp`] (PyTorch's defaults).
    pub border: Option<Border>,
    /// Launch-rule overrides; the default is right for almost everyone.
    pub tuning: Tuning,
}

impl Options {
    /// Options for `resize`, with PyTorch's defaults (no antialias, no align_corners).
    pub fn new(resize: Resize) -> Self {
        Self {
            resize,
            align_corners: false,
            antialias: false,
            border: None,
            tuning: Tuning::default(),
        }
    }

    /// An explicit output height and width (rank-4 tensors).
    pub fn size(height: usize, width: usize) -> Self {
        Self::sizes([height, width])
    }

    /// Explicit output lengths for any rank: `[L]`, `[H, W]` or `[D, H, W]`.
    pub fn sizes(sizes: impl Into<Spatial<usize>>) -> Self {
        Self::new(Resize::Size(sizes.into()))
    }

    /// Height and width scale factors (`out = floor(in * factor)`, kernels using `1 / factor`).
    pub fn scale(height: f64, width: f64) -> Self {
        Self::scales([height, width])
    }

    /// Scale factors for any rank: `[L]`, `[H, W]` or `[D, H, W]`.
    pub fn scales(factors: impl Into<Spatial<f64>>) -> Self {
        Self::new(Resize::Scale {
            factors: factors.into(),
            recompute: false,
        })
    }

    /// Sets `align_corners`.
    pub fn align_corners(mut self, align_corners: bool) -> Self {
        self.align_corners = align_corners;
        self
    }

    /// Sets `antialias`.
    pub fn antialias(mut self, antialias: bool) -> Self {
        self.antialias = antialias;
        self
    }

    /// Sets the border rule explicitly.
    pub fn border(mut self, border: Border) -> Self {
        self.border = Some(border);
        self
    }

    /// Sets launch-rule overrides.
    pub fn tuning(mut self, tuning: Tuning) -> Self {
        self.tuning = tuning;
        self
    }

    /// The border rule a filter is sampled with: the explicit one, else PyTorch's default.
    pub fn border_rule(&self) -> Border {
        self.border
            .unwrap_or(if self.antialias { Border::Renormalize } else { Border::Clamp })
    }
}
