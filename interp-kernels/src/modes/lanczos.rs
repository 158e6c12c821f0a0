use interp_macros::filter;

filter! {
    /// Lanczos-3 at the input resolution: `sinc(x) sinc(x/3)`, border taps dropped and
    /// renormalized, support not widened.
    pub struct Lanczos3 {
        name: "lanczos3",
        support: 3.0,
        border: renormalize,
        weight: |x| {
            let px = PI * x;
            if x == 0.0 { 1.0 } else if abs(x) < 3.0 { 3.0 * sin(px) * sin(px / 3.0) / (px * px) } else { 0.0 }
        },
    }
}

filter! {
    /// Antialiased Lanczos-3 (Pillow LANCZOS, PyTorch `mode="lanczos"`): widened when
    /// downsampling.
    pub struct Lanczos3Aa {
        name: "lanczos3-aa",
        support: 3.0,
        border: renormalize,
        antialias: true,
        weight: |x| {
            let px = PI * x;
            if x == 0.0 { 1.0 } else if abs(x) < 3.0 { 3.0 * sin(px) * sin(px / 3.0) / (px * px) } else { 0.0 }
        },
    }
}
