//! A user's crate: two modes declared with `filter!` outside interp-kernels, depending only on
//! interp-kernels and interp-macros. `cargo xtask verify` compiles their kernels to CUDA, HIP
//! and WGSL like the built-in ones; `tests/numerics.rs` runs them against the f64 reference.

use interp_macros::filter;

filter! {
    /// A Gaussian (sigma 0.5) truncated at 1.5, taps renormalized at the border, widened when
    /// downsampling.
    pub struct Gaussian {
        name: "gaussian",
        support: 1.5,
        border: renormalize,
        antialias: true,
        const SIGMA = 0.5,
        weight: |x| exp(-(x * x) / (2.0 * SIGMA * SIGMA)),
    }
}

filter! {
    /// Mitchell-Netravali (B = C = 1/3), clamped at the border, at the input resolution.
    pub struct Mitchell {
        name: "mitchell",
        support: 2.0,
        border: clamp,
        weight: |x| {
            let t = abs(x);
            if t < 1.0 {
                (7.0 * t * t * t - 12.0 * t * t + 16.0 / 3.0) / 6.0
            } else if t < 2.0 {
                (-7.0 / 3.0 * t * t * t + 12.0 * t * t - 20.0 * t + 32.0 / 3.0) / 6.0
            } else {
                0.0
            }
        },
    }
}
