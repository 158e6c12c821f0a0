//! What the caller asks for: a mode, align_corners, and an output size or scale factors.

use interp_kernels::{modes, Filter, FilterDesc};

/// How the output size is chosen, with PyTorch's rules.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Resize {
    /// Explicit output height and width; the kernels use `in / out` as the scale.
    Size { height: usize, width: usize },
    /// `out = floor(in * factor)`. Unless `recompute` is set (PyTorch's
    /// `recompute_scale_factor=True`), the kernels use `1 / factor` as the scale, as PyTorch does.
    Scale { height: f64, width: f64, recompute: bool },
}

/// Options common to every mode.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ResizeOptions {
    pub resize: Resize,
    /// Corner pixels aligned (`scale = (in - 1) / (out - 1)`); only for modes that accept it.
    pub align_corners: bool,
}

/// Options of the mode-dispatching entry points.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct InterpolateOptions {
    pub mode: Mode,
    pub resize: Resize,
    pub align_corners: bool,
}

impl InterpolateOptions {
    pub fn new(mode: Mode, resize: Resize) -> Self {
        Self {
            mode,
            resize,
            align_corners: false,
        }
    }

    pub fn align_corners(mut self, align_corners: bool) -> Self {
        self.align_corners = align_corners;
        self
    }

    pub fn resize_options(&self) -> ResizeOptions {
        ResizeOptions {
            resize: self.resize,
            align_corners: self.align_corners,
        }
    }
}

/// Something generic over a filter type, run by [`Mode::visit`].
pub trait FilterVisitor {
    type Output;
    fn visit<F: Filter>(self) -> Self::Output;
}

macro_rules! built_in_modes {
    ($($(#[$doc:meta])* $variant:ident => $filter:ident,)*) => {
        /// The built-in modes, each declared with `filter!` in `interp_kernels::modes`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Mode {
            $($(#[$doc])* $variant,)*
        }

        impl Mode {
            /// Every built-in mode, in declaration order.
            pub const ALL: &'static [Mode] = &[$(Mode::$variant,)*];

            /// Runs `visitor` with this mode's filter type.
            pub fn visit<V: FilterVisitor>(self, visitor: V) -> V::Output {
                match self {
                    $(Mode::$variant => visitor.visit::<modes::$filter>(),)*
                }
            }

            /// The mode's declaration.
            pub fn desc(self) -> FilterDesc {
                match self {
                    $(Mode::$variant => <modes::$filter as Filter>::DESC,)*
                }
            }

            /// The mode's f64 weight function.
            pub fn weight_f64(self, x: f64) -> f64 {
                match self {
                    $(Mode::$variant => <modes::$filter as Filter>::weight_f64(x),)*
                }
            }
        }
    };
}

built_in_modes! {
    /// PyTorch `nearest`.
    Nearest => Nearest,
    /// PyTorch `nearest-exact`.
    NearestExact => NearestExact,
    /// PyTorch `bilinear`.
    Bilinear => Bilinear,
    /// PyTorch `bicubic` (a = -0.75).
    Bicubic => Bicubic,
    /// Lanczos-3, not widened.
    Lanczos3 => Lanczos3,
    /// PyTorch `bilinear`, `antialias=True`.
    BilinearAa => BilinearAa,
    /// PyTorch `bicubic`, `antialias=True` (a = -0.5).
    BicubicAa => BicubicAa,
    /// Antialiased Lanczos-3 (Pillow LANCZOS).
    Lanczos3Aa => Lanczos3Aa,
    /// Pillow BOX.
    Box => Box,
    /// PyTorch `area` (adaptive average pooling).
    Area => Area,
    /// Pillow HAMMING.
    Hamming => Hamming,
    /// Mitchell-Netravali (B = C = 1/3).
    Mitchell => Mitchell,
    /// Catmull-Rom.
    CatmullRom => CatmullRom,
    /// Cubic B-spline.
    BSpline => BSpline,
    /// Gaussian, sigma 0.5.
    Gaussian => Gaussian,
}

impl Mode {
    pub fn name(self) -> &'static str {
        self.desc().name
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
