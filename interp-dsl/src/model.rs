//! A validated declaration: everything `expand` needs, with no way to be wrong.

use proc_macro2::Ident;
use syn::{Attribute, Visibility};

use crate::weight::WeightExpr;

/// Largest `support` a declaration may have, in input pixels at scale 1. A clamped filter
/// reads `2 ceil(support)` taps per output; beyond this a table row would be absurdly long.
/// interp-runtime refuses the same bound for filters implemented by hand (`MAX_SUPPORT`).
pub const MAX_SUPPORT: f64 = 1024.0;

pub struct FilterModel {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub ident: Ident,
    pub name: String,
    pub support: f64,
    /// Named parameters with their defaults, in order: public `f64` fields of the struct.
    pub params: Vec<(Ident, f64)>,
    /// Declared constants, in order; each may use the parameters and the constants before it.
    pub constants: Vec<(Ident, WeightExpr)>,
    /// The weight's parameter name (usually `x`).
    pub param: Ident,
    pub weight: WeightExpr,
}
