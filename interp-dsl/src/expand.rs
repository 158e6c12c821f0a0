//! Model -> Rust. Infallible: everything was checked in `validate`.
//!
//! One declaration becomes a unit struct, its `Filter` impl (description + f64 weight), its
//! `#[cube] FilterWeight` impl (f32 weight), and its two table kernels with their launchers and
//! definitions (`FilterKernels`). Both weights are emitted from the same
//! [`WeightExpr`] by [`emit`], so they cannot drift apart.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::model::{BorderModel, FilterModel, MappingModel};
use crate::weight::{BinaryOp, Function, UnaryOp, WeightExpr};

/// The floating-point type a weight is emitted in.
#[derive(Clone, Copy)]
enum Precision {
    /// Host reference.
    F64,
    /// Device kernel.
    F32,
}

impl Precision {
    fn ty(self) -> TokenStream {
        match self {
            Precision::F64 => quote!(f64),
            Precision::F32 => quote!(f32),
        }
    }
    fn number(self, value: f64) -> TokenStream {
        let lit = match self {
            Precision::F64 => Literal::f64_suffixed(value),
            // In `#[cube]` code a bare literal is a comptime value; `f32::new` makes it a runtime
            // one, valid in every position (branch values, `let`s, left operands).
            Precision::F32 => {
                let lit = Literal::f32_suffixed(value as f32);
                return quote!(f32::new(#lit));
            }
        };
        quote!(#lit)
    }
}

pub fn expand(model: &FilterModel) -> TokenStream {
    let FilterModel {
        attrs,
        vis,
        ident,
        name,
        support,
        antialias,
        align_corners,
        param,
        ..
    } = model;
    let border = match model.border {
        BorderModel::Clamp => quote!(Clamp),
        BorderModel::Renormalize => quote!(Renormalize),
    };
    let mapping = match model.mapping {
        MappingModel::Center => quote!(Center),
        MappingModel::Nearest => quote!(Nearest),
        MappingModel::NearestExact => quote!(NearestExact),
        MappingModel::Area => quote!(Area),
    };
    let host = weight_body(model, Precision::F64);
    let device = weight_body(model, Precision::F32);
    let support = Literal::f64_suffixed(*support);
    let module = format_ident!("__interp_filter_{}", ident);
    quote! {
        #(#attrs)*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        #vis struct #ident;

        impl ::interp_kernels::Filter for #ident {
            const DESC: ::interp_kernels::FilterDesc = ::interp_kernels::FilterDesc {
                name: #name,
                support: #support,
                border: ::interp_kernels::Border::#border,
                antialias: #antialias,
                mapping: ::interp_kernels::Mapping::#mapping,
                align_corners: #align_corners,
            };

            #[allow(unused_variables, non_snake_case, clippy::all)]
            fn weight_f64(#param: f64) -> f64 {
                #host
            }
        }

        // A module rather than a `const _` block: the kernels' generated launch modules
        // import from their parent module.
        #[doc(hidden)]
        #[allow(non_snake_case, unused_variables, clippy::all)]
        mod #module {
            use super::#ident;
            use ::interp_kernels::cubecl;
            use ::interp_kernels::cubecl::prelude::*;

            #[cube]
            impl ::interp_kernels::FilterWeight for #ident {
                #[allow(unused_variables, non_snake_case, clippy::all)]
                fn weight(#param: f32) -> f32 {
                    #device
                }
            }

            #[cube(launch_unchecked)]
            fn forward_table(
                geom: ::interp_kernels::taps::AxisGeometry,
                index: &mut Array<u32>,
                weight: &mut Array<f32>,
                count: &mut Array<u32>,
                #[comptime] rule: ::interp_kernels::TapRule,
            ) {
                ::interp_kernels::tables::forward_table_row::<#ident>(&geom, index, weight, count, rule);
            }

            #[cube(launch_unchecked)]
            fn adjoint_table(
                geom: ::interp_kernels::taps::AxisGeometry,
                width: u32,
                index: &mut Array<u32>,
                weight: &mut Array<f32>,
                count: &mut Array<u32>,
                #[comptime] rule: ::interp_kernels::TapRule,
            ) {
                ::interp_kernels::tables::adjoint_table_row::<#ident>(&geom, width, index, weight, count, rule);
            }

            impl ::interp_kernels::FilterKernels for #ident {
                unsafe fn launch_forward_table<R: Runtime>(
                    client: &ComputeClient<R>,
                    cube_count: CubeCount,
                    cube_dim: CubeDim,
                    geom: ::interp_kernels::taps::AxisGeometryLaunch<R>,
                    index: ArrayArg<R>,
                    weight: ArrayArg<R>,
                    count: ArrayArg<R>,
                ) {
                    let rule = <#ident as ::interp_kernels::Filter>::DESC.rule();
                    unsafe { forward_table::launch_unchecked::<R>(client, cube_count, cube_dim, geom, index, weight, count, rule) }
                }

                unsafe fn launch_adjoint_table<R: Runtime>(
                    client: &ComputeClient<R>,
                    cube_count: CubeCount,
                    cube_dim: CubeDim,
                    geom: ::interp_kernels::taps::AxisGeometryLaunch<R>,
                    width: u32,
                    index: ArrayArg<R>,
                    weight: ArrayArg<R>,
                    count: ArrayArg<R>,
                ) {
                    let rule = <#ident as ::interp_kernels::Filter>::DESC.rule();
                    unsafe { adjoint_table::launch_unchecked::<R>(client, cube_count, cube_dim, geom, width, index, weight, count, rule) }
                }

                fn define_tables<R: Runtime>(client: &ComputeClient<R>, cube_dim: CubeDim) -> [KernelDefinition; 2] {
                    use ::interp_kernels::definitions::{array, axis_geometry, settings};
                    let rule = <#ident as ::interp_kernels::Filter>::DESC.rule();
                    let forward = forward_table::ForwardTable::<R>::new(
                        settings(cube_dim), client.clone(), axis_geometry(), array(), array(), array(), rule,
                    );
                    let adjoint = adjoint_table::AdjointTable::<R>::new(
                        settings(cube_dim), client.clone(), axis_geometry(), (), array(), array(), array(), rule,
                    );
                    [forward.define(), adjoint.define()]
                }
            }
        }
    }
}

/// Constants first, then the weight expression.
fn weight_body(model: &FilterModel, precision: Precision) -> TokenStream {
    let ty = precision.ty();
    let constants = model.constants.iter().map(|(name, value)| {
        let value = emit(value, precision);
        quote!(let #name: #ty = #value;)
    });
    let value = emit(&model.weight, precision);
    quote! {
        #(#constants)*
        #value
    }
}

fn emit(expr: &WeightExpr, precision: Precision) -> TokenStream {
    let ty = precision.ty();
    match expr {
        WeightExpr::Number(v) => precision.number(*v),
        WeightExpr::Bool(b) => quote!(#b),
        WeightExpr::Name(name) => quote!(#name),
        WeightExpr::Pi => precision.number(std::f64::consts::PI),
        WeightExpr::Unary(op, inner) => {
            let inner = emit(inner, precision);
            match op {
                UnaryOp::Neg => quote!((-#inner)),
                UnaryOp::Not => quote!((!#inner)),
            }
        }
        WeightExpr::Binary(op, lhs, rhs) => {
            let lhs = emit(lhs, precision);
            let rhs = emit(rhs, precision);
            let op = match op {
                BinaryOp::Add => quote!(+),
                BinaryOp::Sub => quote!(-),
                BinaryOp::Mul => quote!(*),
                BinaryOp::Div => quote!(/),
                BinaryOp::Lt => quote!(<),
                BinaryOp::Le => quote!(<=),
                BinaryOp::Gt => quote!(>),
                BinaryOp::Ge => quote!(>=),
                BinaryOp::Eq => quote!(==),
                BinaryOp::Ne => quote!(!=),
                BinaryOp::And => quote!(&&),
                BinaryOp::Or => quote!(||),
            };
            quote!((#lhs #op #rhs))
        }
        WeightExpr::Call(function, args) => {
            let args = args.iter().map(|a| emit(a, precision));
            let name = format_ident!("{}", function_path(*function));
            quote!(#ty::#name(#(#args),*))
        }
        WeightExpr::If { cond, then, otherwise } => {
            let cond = emit(cond, precision);
            let then = emit(then, precision);
            let otherwise = emit(otherwise, precision);
            quote!(if #cond { #then } else { #otherwise })
        }
        WeightExpr::Block { bindings, value } => {
            let bindings = bindings.iter().map(|(name, value)| {
                let value = emit(value, precision);
                quote!(let #name: #ty = #value;)
            });
            let value = emit(value, precision);
            quote!({ #(#bindings)* #value })
        }
    }
}

fn function_path(function: Function) -> &'static str {
    function.name()
}
