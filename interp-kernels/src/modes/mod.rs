//! The built-in modes, each one `filter!` declaration. Grouped by family, one file each.

mod cubic;
mod lanczos;
mod linear;
mod nearest;
mod pillow;

pub use cubic::{BSpline, Bicubic, BicubicAa, CatmullRom, Mitchell};
pub use lanczos::{Lanczos3, Lanczos3Aa};
pub use linear::{Bilinear, BilinearAa};
pub use nearest::{Nearest, NearestExact};
pub use pillow::{Area, Box, Gaussian, Hamming};
