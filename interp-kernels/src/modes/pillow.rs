use interp_macros::filter;

filter! {
    /// Pillow BOX: half-open unit box, widened when downsampling.
    pub struct Box {
        name: "box",
        support: 0.5,
        border: renormalize,
        antialias: true,
        weight: |x| if x > -0.5 && x <= 0.5 { 1.0 } else { 0.0 },
    }
}

filter! {
    /// PyTorch `mode="area"`: adaptive average pooling over exact integer windows.
    pub struct Area {
        name: "area",
        support: 0.5,
        border: renormalize,
        mapping: area,
        weight: |x| 1.0,
    }
}

filter! {
    /// Pillow HAMMING: `sinc(x) (0.54 + 0.46 cos(pi x))`, support 1, widened.
    pub struct Hamming {
        name: "hamming",
        support: 1.0,
        border: renormalize,
        antialias: true,
        weight: |x| {
            let px = PI * x;
            if x == 0.0 { 1.0 } else if abs(x) >= 1.0 { 0.0 } else { sin(px) / px * (0.54 + 0.46 * cos(px)) }
        },
    }
}

filter! {
    /// Gaussian, sigma 0.5, truncated at 3 (image-rs, fast_image_resize), widened.
    pub struct Gaussian {
        name: "gaussian",
        support: 3.0,
        border: renormalize,
        antialias: true,
        const SIGMA = 0.5,
        weight: |x| if abs(x) < 3.0 { exp(-(x * x) / (2.0 * SIGMA * SIGMA)) / (sqrt(2.0 * PI) * SIGMA) } else { 0.0 },
    }
}
