//! What a call resamples with: a built-in [`Mode`], a [`Sampler`] (no weight), or any
//! [`Filter`]; and how that, with the call's options, becomes the rule that builds the taps.

use std::sync::Arc;

use crate::error::InterpError;
use crate::filter::{Filter, MAX_SUPPORT};
use crate::filters::{BoxFilter, Cubic, Gaussian, Hamming, Lanczos3, Linear, MitchellNetravali};
use crate::options::{Border, Options};

/// The resampling rules that have no weight: each output reads inputs chosen by index
/// arithmetic alone. They take no antialias, border or align_corners (PyTorch refuses
/// align_corners for them too).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sampler {
    /// PyTorch `nearest`: `j = min(floor(o * s), in - 1)`, `s` in f32 (the legacy OpenCV rule).
    Nearest,
    /// PyTorch `nearest-exact`: `j = min(floor((o + 0.5) * s), in - 1)` (Pillow, scipy).
    NearestExact,
    /// PyTorch `area`: adaptive average pooling over the exact integer windows
    /// `[floor(o in / out), ceil((o + 1) in / out))`.
    Area,
}

impl Sampler {
    /// PyTorch's name of the sampler.
    pub fn name(self) -> &'static str {
        match self {
            Sampler::Nearest => "nearest",
            Sampler::NearestExact => "nearest-exact",
            Sampler::Area => "area",
        }
    }
}

macro_rules! built_in_modes {
    ($($(#[$doc:meta])* $variant:ident = $name:literal,)*) => {
        /// The built-in modes, by PyTorch's names where PyTorch has them: the samplers and the
        /// [`filters`](crate::filters) with their usual parameters. Antialias, border and
        /// align_corners are options of the call ([`Options`]).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Mode {
            $($(#[$doc])* $variant,)*
        }

        impl Mode {
            /// Every built-in mode, in this order.
            pub const ALL: &'static [Mode] = &[$(Mode::$variant,)*];

            /// The mode's name, as in errors and benchmarks.
            pub fn name(self) -> &'static str {
                match self {
                    $(Mode::$variant => $name,)*
                }
            }
        }
    };
}

built_in_modes! {
    /// [`Sampler::Nearest`].
    Nearest = "nearest",
    /// [`Sampler::NearestExact`].
    NearestExact = "nearest-exact",
    /// [`Sampler::Area`].
    Area = "area",
    /// PyTorch `bilinear`: the [`Linear`] (triangle) filter.
    Bilinear = "bilinear",
    /// PyTorch `bicubic`: [`Cubic`] with a = -0.75, or a = -0.5 with antialias, as PyTorch.
    Bicubic = "bicubic",
    /// [`Lanczos3`] (Pillow LANCZOS with antialias).
    Lanczos3 = "lanczos3",
    /// [`BoxFilter`] (Pillow BOX with antialias).
    Box = "box",
    /// [`Hamming`] (Pillow HAMMING with antialias).
    Hamming = "hamming",
    /// [`MitchellNetravali`] with B = C = 1/3.
    Mitchell = "mitchell",
    /// [`MitchellNetravali`] with B = 0, C = 1/2 (Catmull-Rom).
    CatmullRom = "catmull-rom",
    /// [`MitchellNetravali`] with B = 1, C = 0 (the cubic B-spline; smoothing, k(0) = 2/3).
    BSpline = "bspline",
    /// [`Gaussian`] with sigma 0.5.
    Gaussian = "gaussian",
}

impl Mode {
    /// What the mode resamples with under `antialias`: its sampler, or its filter (the bicubic
    /// filter depends on it).
    ///
    /// ```
    /// use interp_runtime::{Method, Mode, Sampler};
    ///
    /// assert!(matches!(Mode::Area.method(false), Method::Sampler(Sampler::Area)));
    /// let Method::Filter(cubic) = Mode::Bicubic.method(true) else { unreachable!() };
    /// assert_eq!(cubic.weight(1.5), -0.5 * (1.5f64.powi(3) - 5.0 * 1.5f64.powi(2) + 8.0 * 1.5 - 4.0));
    /// ```
    pub fn method(self, antialias: bool) -> Method {
        match self {
            Mode::Nearest => Sampler::Nearest.into(),
            Mode::NearestExact => Sampler::NearestExact.into(),
            Mode::Area => Sampler::Area.into(),
            Mode::Bilinear => Linear.into(),
            // PyTorch (after Pillow) switches to a = -0.5 when antialiasing.
            Mode::Bicubic => Cubic::new(if antialias { -0.5 } else { -0.75 }).into(),
            Mode::Lanczos3 => Lanczos3.into(),
            Mode::Box => BoxFilter.into(),
            Mode::Hamming => Hamming.into(),
            Mode::Mitchell => MitchellNetravali::default().into(),
            Mode::CatmullRom => MitchellNetravali::new(0.0, 0.5).into(),
            Mode::BSpline => MitchellNetravali::new(1.0, 0.0).into(),
            Mode::Gaussian => Gaussian::default().into(),
        }
    }

    /// Whether the mode is a sampler (takes no antialias, border or align_corners).
    pub fn is_sampler(self) -> bool {
        matches!(self.method(false), Method::Sampler(_))
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a call resamples with. Every entry point takes `impl Into<Method>`: a [`Mode`], a
/// [`Sampler`], or any [`Filter`] by value (built-in or declared with `filter!`).
#[derive(Clone)]
pub enum Method {
    /// A built-in mode.
    Mode(Mode),
    /// A sampler without weights.
    Sampler(Sampler),
    /// A filter.
    Filter(Arc<dyn Filter>),
}

impl Method {
    /// The name used in errors.
    pub fn name(&self) -> &str {
        match self {
            Method::Mode(mode) => mode.name(),
            Method::Sampler(sampler) => sampler.name(),
            Method::Filter(filter) => filter.name(),
        }
    }
}

impl std::fmt::Debug for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Method::Mode(mode) => write!(f, "Mode({mode:?})"),
            Method::Sampler(sampler) => write!(f, "Sampler({sampler:?})"),
            Method::Filter(filter) => write!(f, "Filter({:?})", filter.name()),
        }
    }
}

impl From<Mode> for Method {
    fn from(mode: Mode) -> Self {
        Method::Mode(mode)
    }
}

impl From<Sampler> for Method {
    fn from(sampler: Sampler) -> Self {
        Method::Sampler(sampler)
    }
}

impl<F: Filter> From<F> for Method {
    fn from(filter: F) -> Self {
        Method::Filter(Arc::new(filter))
    }
}

/// How the taps of one axis are built: a sampler's index rule, or a filter's weight with a
/// border rule. The result of checking a method against a call's options.
#[derive(Clone)]
pub(crate) enum Rule {
    Sampler(Sampler),
    Filter {
        filter: Arc<dyn Filter>,
        border: Border,
        antialias: bool,
    },
}

/// The rule `method` follows under `options`, or why that combination is refused.
pub(crate) fn resolve(method: &Method, options: &Options) -> Result<Rule, InterpError> {
    let name = method.name().to_string();
    let refuse = |option: &'static str, reason: &'static str| InterpError::UnsupportedOption {
        mode: name.clone(),
        option,
        reason,
    };
    match method {
        Method::Mode(mode) => {
            let rule = resolve(&mode.method(options.antialias), options);
            // Errors name the mode the caller chose, not the filter behind it.
            rule.map_err(|e| e.renamed(mode.name()))
        }
        Method::Sampler(sampler) => {
            let reason = "a sampler has no weight to widen, renormalize or align";
            if options.antialias {
                return Err(refuse("antialias", reason));
            }
            if options.align_corners {
                return Err(refuse("align_corners", reason));
            }
            if options.border.is_some() {
                return Err(refuse("border", reason));
            }
            Ok(Rule::Sampler(*sampler))
        }
        Method::Filter(filter) => {
            let support = filter.support();
            if !(support.is_finite() && support > 0.0 && support <= MAX_SUPPORT) {
                return Err(InterpError::InvalidFilter {
                    filter: name,
                    reason: format!("support {support} is not in (0, {MAX_SUPPORT}]"),
                });
            }
            let border = options.border_rule();
            if options.antialias && border == Border::Clamp {
                return Err(refuse(
                    "antialias with Border::Clamp",
                    "a widened support needs the renormalize border (PyTorch's and Pillow's antialias)",
                ));
            }
            Ok(Rule::Filter {
                filter: filter.clone(),
                border,
                antialias: options.antialias,
            })
        }
    }
}
