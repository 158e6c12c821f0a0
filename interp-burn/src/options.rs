//! The options of a call, and how Burn's own `InterpolateOptions` map onto them.

use burn::tensor::ops::{InterpolateMode, InterpolateOptions as BurnOptions};
use interp_runtime::{Border, Method, Mode, Options, Resize};

/// What to resample with and how: a method (a [`Mode`], a sampler or any filter) and the
/// sampling options PyTorch takes. Defaults are PyTorch's (no antialias, no align_corners).
#[derive(Clone, Debug)]
pub struct InterpolateOptions {
    /// The method: `Mode::Bicubic`, `Sampler::Area`, `filters::Cubic::new(-0.5)`, a `filter!` type...
    pub method: Method,
    /// Widen the filter by the scale when downsampling (PyTorch's `antialias=True`).
    pub antialias: bool,
    /// Align corner pixels (filters only, as in PyTorch).
    pub align_corners: bool,
    /// The border rule; `None` is PyTorch's default for the options.
    pub border: Option<Border>,
}

impl InterpolateOptions {
    /// Options for `method` with PyTorch's defaults.
    pub fn new(method: impl Into<Method>) -> Self {
        Self {
            method: method.into(),
            antialias: false,
            align_corners: false,
            border: None,
        }
    }

    /// Sets antialias.
    pub fn antialias(mut self, antialias: bool) -> Self {
        self.antialias = antialias;
        self
    }

    /// Sets align_corners.
    pub fn align_corners(mut self, align_corners: bool) -> Self {
        self.align_corners = align_corners;
        self
    }

    /// Sets the border rule.
    pub fn border(mut self, border: Border) -> Self {
        self.border = Some(border);
        self
    }

    /// interp-runtime's options for an output of `size`.
    pub(crate) fn runtime_options(&self, size: OutputSize) -> Options {
        let resize = match size {
            OutputSize::Size(sizes) => Resize::Size(sizes.into()),
            OutputSize::Scale(factors) => Resize::Scale {
                factors: factors.into(),
                recompute: false,
            },
        };
        let options = Options::new(resize).antialias(self.antialias).align_corners(self.align_corners);
        match self.border {
            Some(border) => options.border(border),
            None => options,
        }
    }
}

impl From<Mode> for InterpolateOptions {
    fn from(mode: Mode) -> Self {
        Self::new(mode)
    }
}

/// Burn's options, with Burn's semantics where they differ from PyTorch's defaults:
/// - `Nearest` is interp's nearest; Burn ignores `align_corners` for it, and so does this
///   mapping (interp refuses align_corners for samplers, as PyTorch does).
/// - `Bilinear` and `Bicubic` (a = -0.75) keep `align_corners` (Burn defaults it to `true`).
/// - `Lanczos3`: Burn drops the taps outside the image and renormalizes, which is interp's
///   `Border::Renormalize` without antialias. With `align_corners = true` Burn centres the taps
///   at `s o`, while interp's renormalized rule (PyTorch's antialias path) centres them at
///   `s (o + 1/2)` whatever align_corners is: the two then differ by that shift.
impl From<BurnOptions> for InterpolateOptions {
    fn from(options: BurnOptions) -> Self {
        match options.mode {
            InterpolateMode::Nearest => Self::new(Mode::Nearest),
            InterpolateMode::Bilinear => Self::new(Mode::Bilinear).align_corners(options.align_corners),
            InterpolateMode::Bicubic => Self::new(Mode::Bicubic).align_corners(options.align_corners),
            InterpolateMode::Lanczos3 => Self::new(Mode::Lanczos3)
                .align_corners(options.align_corners)
                .border(Border::Renormalize),
        }
    }
}

/// The output of a resize: an explicit `[height, width]`, or `[f64; 2]` scale factors
/// (`out = floor(in * factor)`, the kernels using `1 / factor`, as PyTorch).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum OutputSize {
    /// Output height and width.
    Size([usize; 2]),
    /// Height and width scale factors.
    Scale([f64; 2]),
}

impl From<[usize; 2]> for OutputSize {
    fn from(size: [usize; 2]) -> Self {
        OutputSize::Size(size)
    }
}

impl From<[f64; 2]> for OutputSize {
    fn from(factors: [f64; 2]) -> Self {
        OutputSize::Scale(factors)
    }
}
