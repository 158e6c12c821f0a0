//! A user's crate: two modes declared with `filter!` outside interp-kernels, depending only on
//! interp-kernels and interp-macros. `cargo xtask verify` compiles their kernels to CUDA, HIP
//! and WGSL like the built-in ones; `tests/numerics.rs` runs them against the f64 reference.

use interp_macros::filter;

filter! {
    /// Welch-windowed sinc of radius 2: `sinc(x) (1 - (x/2)^2)`, taps renormalized at the
    /// border, widened when downsampling.
    pub struct Welch2 {
        name: "welch2",
        support: 2.0,
        border: renormalize,
        antialias: true,
        weight: |x| {
            let px = PI * x;
            if x == 0.0 { 1.0 } else if abs(x) < 2.0 { sin(px) / px * (1.0 - x * x / 4.0) } else { 0.0 }
        },
    }
}

filter! {
    /// Cosine interpolation: two taps like bilinear, with a raised-cosine ramp instead of a
    /// triangle; clamped at the border.
    pub struct CosineRamp {
        name: "cosine-ramp",
        support: 1.0,
        border: clamp,
        weight: |x| if abs(x) < 1.0 { 0.5 + 0.5 * cos(PI * x) } else { 0.0 },
    }
}
