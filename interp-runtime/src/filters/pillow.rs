use crate::filter;

filter! {
    /// Pillow's BOX: the half-open unit box `(-0.5, 0.5]`.
    pub struct BoxFilter {
        name: "box",
        support: 0.5,
        weight: |x| if x > -0.5 && x <= 0.5 { 1.0 } else { 0.0 },
    }
}

filter! {
    /// Pillow's HAMMING: `sinc(x) (0.54 + 0.46 cos(pi x))`, support 1.
    pub struct Hamming {
        name: "hamming",
        support: 1.0,
        weight: |x| if abs(x) >= 1.0 { 0.0 } else { sinc(x) * (0.54 + 0.46 * cos(PI * x)) },
    }
}

filter! {
    /// A Gaussian of standard deviation `sigma` (0.5 by default, as image-rs and
    /// fast_image_resize), truncated at 3.
    pub struct Gaussian {
        name: "gaussian",
        support: 3.0,
        param sigma = 0.5,
        weight: |x| if abs(x) < SUPPORT { exp(-(x * x) / (2.0 * sigma * sigma)) / (sqrt(2.0 * PI) * sigma) } else { 0.0 },
    }
}
