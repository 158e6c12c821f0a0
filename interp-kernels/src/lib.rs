//! Built-in interpolation modes and the shared `#[cube]` building blocks of interp.
//!
//! A mode is a declaration (`interp_macros::filter!`) that yields a [`Filter`]: a host
//! description, a `#[cube]` weight, and the mode's two table kernels (bodies
//! [`tables::forward_table_row`] and [`tables::adjoint_table_row`] instantiated with its weight).
//! The gather kernels in [`gather`] then resample through those tables for every mode.

extern crate self as interp_kernels;

pub mod definitions;
pub mod filter;
pub mod gather;
pub mod geometry;
pub mod tables;
pub mod taps;

pub use cubecl;
pub use filter::{Filter, FilterDesc, FilterKernels, FilterWeight};
pub use geometry::{Border, Mapping, TapRule};

pub mod modes;

/// Units per cube of the one-dimensional launches (tables, one-pass gathers).
pub const UNITS_PER_CUBE: u32 = 256;
