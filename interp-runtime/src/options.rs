//! What a call asks for besides the filter: the output size, and how the filter is sampled.

/// How the output size is chosen, with PyTorch's rules.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Resize {
    /// Explicit output height and width; the kernels use `in / out` as the scale.
    Size {
        /// Output height.
        height: usize,
        /// Output width.
        width: usize,
    },
    /// `out = floor(in * factor)`. Unless `recompute` is set (PyTorch's
    /// `recompute_scale_factor=True`), the kernels use `1 / factor` as the scale, as PyTorch does.
    Scale {
        /// Height factor, finite and > 0.
        height: f64,
        /// Width factor, finite and > 0.
        width: f64,
        /// Use `in / out` rather than `1 / factor` as the scale.
        recompute: bool,
    },
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
}

/// Options of a call: the output size, and how the filter is sampled, as PyTorch takes
/// `(size or scale_factor, antialias, align_corners)`.
///
/// ```
/// use interp_runtime::{Border, Options, Resize};
///
/// let opts = Options::size(224, 224).antialias(true);
/// assert_eq!(opts.resize, Resize::Size { height: 224, width: 224 });
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

    /// An explicit output size.
    pub fn size(height: usize, width: usize) -> Self {
        Self::new(Resize::Size { height, width })
    }

    /// Scale factors (`out = floor(in * factor)`, kernels using `1 / factor`).
    pub fn scale(height: f64, width: f64) -> Self {
        Self::new(Resize::Scale {
            height,
            width,
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
