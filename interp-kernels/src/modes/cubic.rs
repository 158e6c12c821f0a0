use interp_macros::filter;

filter! {
    /// PyTorch `mode="bicubic"`: Keys cubic with a = -0.75 (OpenCV), replicate border.
    pub struct Bicubic {
        name: "bicubic",
        support: 2.0,
        border: clamp,
        align_corners: true,
        const A = -0.75,
        weight: |x| {
            let t = abs(x);
            if t <= 1.0 { ((A + 2.0) * t - (A + 3.0)) * t * t + 1.0 }
            else if t < 2.0 { ((A * t - 5.0 * A) * t + 8.0 * A) * t - 4.0 * A }
            else { 0.0 }
        },
    }
}

filter! {
    /// PyTorch `mode="bicubic", antialias=True` (Pillow BICUBIC): Keys a = -0.5, widened,
    /// renormalized.
    pub struct BicubicAa {
        name: "bicubic-aa",
        support: 2.0,
        border: renormalize,
        antialias: true,
        align_corners: true,
        const A = -0.5,
        weight: |x| {
            let t = abs(x);
            if t <= 1.0 { ((A + 2.0) * t - (A + 3.0)) * t * t + 1.0 }
            else if t < 2.0 { ((A * t - 5.0 * A) * t + 8.0 * A) * t - 4.0 * A }
            else { 0.0 }
        },
    }
}

filter! {
    /// Mitchell-Netravali cubic, B = C = 1/3 (fast_image_resize, ImageMagick default).
    pub struct Mitchell {
        name: "mitchell",
        support: 2.0,
        border: renormalize,
        antialias: true,
        const B = 1.0 / 3.0,
        const C = 1.0 / 3.0,
        weight: |x| {
            let t = abs(x);
            if t < 1.0 { ((12.0 - 9.0 * B - 6.0 * C) * t * t * t + (-18.0 + 12.0 * B + 6.0 * C) * t * t + (6.0 - 2.0 * B)) / 6.0 }
            else if t < 2.0 { ((-B - 6.0 * C) * t * t * t + (6.0 * B + 30.0 * C) * t * t + (-12.0 * B - 48.0 * C) * t + (8.0 * B + 24.0 * C)) / 6.0 }
            else { 0.0 }
        },
    }
}

filter! {
    /// Catmull-Rom spline (B = 0, C = 1/2), image-rs and fast_image_resize `CatmullRom`.
    pub struct CatmullRom {
        name: "catmull-rom",
        support: 2.0,
        border: renormalize,
        antialias: true,
        weight: |x| {
            let t = abs(x);
            if t < 1.0 { (9.0 * t * t * t - 15.0 * t * t + 6.0) / 6.0 }
            else if t < 2.0 { (-3.0 * t * t * t + 15.0 * t * t - 24.0 * t + 12.0) / 6.0 }
            else { 0.0 }
        },
    }
}

filter! {
    /// Cubic B-spline (B = 1, C = 0): smoothing, not interpolating (k(0) = 2/3).
    pub struct BSpline {
        name: "bspline",
        support: 2.0,
        border: renormalize,
        antialias: true,
        weight: |x| {
            let t = abs(x);
            if t < 1.0 { (3.0 * t * t * t - 6.0 * t * t + 4.0) / 6.0 }
            else if t < 2.0 { let u = 2.0 - t; u * u * u / 6.0 }
            else { 0.0 }
        },
    }
}
