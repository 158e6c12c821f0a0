//! A validated declaration: everything `expand` needs, with no way to be wrong.

use proc_macro2::Ident;
use syn::{Attribute, Visibility};

use crate::weight::WeightExpr;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BorderModel {
    Clamp,
    Renormalize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MappingModel {
    Center,
    Nearest,
    NearestExact,
    Area,
}

pub struct FilterModel {
    pub attrs: Vec<Attribute>,
    pub vis: Visibility,
    pub ident: Ident,
    pub name: String,
    pub support: f64,
    pub border: BorderModel,
    pub antialias: bool,
    pub mapping: MappingModel,
    pub align_corners: bool,
    /// Declared constants, in order; each may use the ones before it.
    pub constants: Vec<(Ident, WeightExpr)>,
    /// The weight's parameter name (usually `x`).
    pub param: Ident,
    pub weight: WeightExpr,
}
