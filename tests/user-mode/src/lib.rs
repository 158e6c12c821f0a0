//! A user's crate: filters declared with `filter!`, depending on interp-runtime alone. The
//! sampling (border rule, antialias, align_corners) is chosen per call; `tests/numerics.rs`
//! runs them on the device against an f64 reference built from hand-written weights.

use interp_runtime::filter;

filter! {
    /// Welch-windowed sinc: `sinc(x) (1 - (x / SUPPORT)^2)`, radius 2 by default.
    pub struct Welch {
        name: "welch",
        support: 2.0,
        weight: |x| if abs(x) < SUPPORT { sinc(x) * (1.0 - x * x / (SUPPORT * SUPPORT)) } else { 0.0 },
    }
}

filter! {
    /// Cosine interpolation: two taps like bilinear, a raised-cosine ramp instead of a
    /// triangle; `sharpness` above 1 narrows the ramp (1 is the plain cosine).
    pub struct CosineRamp {
        name: "cosine-ramp",
        support: 1.0,
        param sharpness = 1.0,
        weight: |x| if abs(x) < 1.0 { 0.5 + 0.5 * cos(PI * min(1.0, abs(x) * sharpness)) } else { 0.0 },
    }
}
