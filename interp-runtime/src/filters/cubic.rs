use crate::filter;

filter! {
    /// Keys' cubic convolution with parameter `a`: PyTorch's `bicubic` uses a = -0.75
    /// (OpenCV's), and a = -0.5 with antialias (Pillow's BICUBIC).
    pub struct Cubic {
        name: "cubic",
        support: 2.0,
        param a = -0.75,
        weight: |x| {
            let t = abs(x);
            if t <= 1.0 { ((a + 2.0) * t - (a + 3.0)) * t * t + 1.0 }
            else if t < 2.0 { ((a * t - 5.0 * a) * t + 8.0 * a) * t - 4.0 * a }
            else { 0.0 }
        },
    }
}

filter! {
    /// The Mitchell-Netravali family of cubics with parameters `b` and `c`: Mitchell
    /// (1/3, 1/3, the default), Catmull-Rom (0, 1/2), the cubic B-spline (1, 0).
    pub struct MitchellNetravali {
        name: "mitchell-netravali",
        support: 2.0,
        param b = 0.3333333333333333,
        param c = 0.3333333333333333,
        weight: |x| {
            let t = abs(x);
            if t < 1.0 { ((12.0 - 9.0 * b - 6.0 * c) * t * t * t + (-18.0 + 12.0 * b + 6.0 * c) * t * t + (6.0 - 2.0 * b)) / 6.0 }
            else if t < 2.0 { ((-b - 6.0 * c) * t * t * t + (6.0 * b + 30.0 * c) * t * t + (-12.0 * b - 48.0 * c) * t + (8.0 * b + 24.0 * c)) / 6.0 }
            else { 0.0 }
        },
    }
}
