//! The `#[cube]` kernels of interp: a separable gather through two per-axis tables, shared by
//! every mode, forward and backward (see [`gather`]), and their definitions for offline
//! compilation ([`definitions`]).
//!
//! The tables themselves (which inputs each output reads, with which weights) are built on the
//! host by interp-runtime with exact geometry; nothing here knows about filters.

pub mod definitions;
pub mod gather;

pub use cubecl;

/// Units per cube of the one-dimensional launches (one-pass gathers).
pub const UNITS_PER_CUBE: u32 = 256;
