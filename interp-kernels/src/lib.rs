//! Built-in interpolation modes and the shared `#[cube]` building blocks of interp.
//!
//! A mode is a declaration (`interp_macros::filter!`) that yields a [`Filter`]: a host
//! description and a `#[cube]` weight. Every mode runs through the same three kernels:
//! [`tables::build_forward_table`], [`tables::build_adjoint_table`] and
//! [`gather::separable_gather`].

extern crate self as interp_kernels;

pub mod filter;
pub mod gather;
pub mod geometry;
pub mod tables;
pub mod taps;

pub use cubecl;
pub use filter::{Filter, FilterDesc, FilterWeight};
pub use geometry::{Border, Mapping, TapRule};

pub mod modes;
