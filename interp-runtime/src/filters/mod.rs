//! The built-in filters, each one `filter!` declaration, grouped by family. The built-in
//! modes ([`Mode`](crate::Mode)) are these filters with PyTorch's (or Pillow's) parameters,
//! plus the samplers ([`Sampler`](crate::Sampler)) that have no weight.

mod cubic;
mod lanczos;
mod linear;
mod pillow;

pub use cubic::{Cubic, MitchellNetravali};
pub use lanczos::Lanczos3;
pub use linear::Linear;
pub use pillow::{BoxFilter, Gaussian, Hamming};
