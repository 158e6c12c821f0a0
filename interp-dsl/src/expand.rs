//! Model -> Rust. Infallible: everything was checked in `validate`.
//!
//! One declaration becomes a struct (a unit struct, or one public `f64` field per `param`,
//! with `new` and a `Default` of the declared defaults) and its `Filter` impl: name, support
//! and the weight in f64, evaluated on the host where interp builds its exact tap tables.
//! Generated code names interp-runtime only through `::interp_runtime::__private`.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::model::FilterModel;
use crate::weight::{BinaryOp, Function, UnaryOp, WeightExpr};

pub fn expand(model: &FilterModel) -> TokenStream {
    let FilterModel {
        attrs,
        vis,
        ident,
        name,
        support,
        params,
        param,
        ..
    } = model;
    let support = Literal::f64_suffixed(*support);
    let body = weight_body(model);
    let private = quote!(::interp_runtime::__private);
    let names: Vec<_> = params.iter().map(|(name, _)| name).collect();
    let defaults = params.iter().map(|(_, value)| Literal::f64_suffixed(*value));
    let definition = if params.is_empty() {
        quote! {
            #(#attrs)*
            #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
            #vis struct #ident;
        }
    } else {
        let field_docs = params
            .iter()
            .map(|(name, value)| format!("Parameter `{name}` of the weight (default {value:?})."));
        let new_doc = format!("`{ident}` with the given parameters (`{ident}::default()` takes the declared defaults).");
        quote! {
            #(#attrs)*
            #[derive(Clone, Copy, Debug, PartialEq)]
            #vis struct #ident {
                #(#[doc = #field_docs] pub #names: f64,)*
            }

            impl #ident {
                #[doc = #new_doc]
                pub const fn new(#(#names: f64),*) -> Self {
                    Self { #(#names),* }
                }
            }

            impl ::core::default::Default for #ident {
                fn default() -> Self {
                    Self::new(#(#defaults),*)
                }
            }
        }
    };
    quote! {
        #definition

        impl #private::Filter for #ident {
            fn name(&self) -> &str {
                #name
            }

            fn support(&self) -> f64 {
                #support
            }

            #[allow(unused_variables, non_snake_case, clippy::all)]
            fn weight(&self, #param: f64) -> f64 {
                #(let #names: f64 = self.#names;)*
                #body
            }
        }
    }
}

/// What a declaration that failed validation still emits beside its errors: the struct, with
/// a `Filter` impl, so that its uses do not add "cannot find type" errors to the real ones.
pub fn placeholder(declaration: &crate::ast::Declaration) -> TokenStream {
    let crate::ast::Declaration { attrs, vis, ident, .. } = declaration;
    let docs = attrs.iter().filter(|a| a.path().is_ident("doc"));
    quote! {
        #(#docs)*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
        #vis struct #ident;

        impl ::interp_runtime::__private::Filter for #ident {
            fn name(&self) -> &str {
                "invalid declaration"
            }
            fn support(&self) -> f64 {
                1.0
            }
            fn weight(&self, _: f64) -> f64 {
                0.0
            }
        }
    }
}

/// Constants first, then the weight expression.
fn weight_body(model: &FilterModel) -> TokenStream {
    let constants = model.constants.iter().map(|(name, value)| {
        let value = emit(value, model.support);
        quote!(let #name: f64 = #value;)
    });
    let value = emit(&model.weight, model.support);
    quote! {
        #(#constants)*
        #value
    }
}

fn emit(expr: &WeightExpr, support: f64) -> TokenStream {
    match expr {
        WeightExpr::Number(v) => number(*v),
        WeightExpr::Bool(b) => quote!(#b),
        WeightExpr::Name(name) => quote!(#name),
        WeightExpr::Pi => number(std::f64::consts::PI),
        WeightExpr::Support => number(support),
        WeightExpr::Unary(op, inner) => {
            let inner = emit(inner, support);
            match op {
                UnaryOp::Neg => quote!((-#inner)),
                UnaryOp::Not => quote!((!#inner)),
            }
        }
        WeightExpr::Binary(op, lhs, rhs) => {
            let lhs = emit(lhs, support);
            let rhs = emit(rhs, support);
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
            let args = args.iter().map(|a| emit(a, support));
            match function {
                Function::Sinc => quote!(::interp_runtime::__private::sinc(#(#args),*)),
                other => {
                    let name = format_ident!("{}", other.name());
                    quote!(f64::#name(#(#args),*))
                }
            }
        }
        WeightExpr::If { cond, then, otherwise } => {
            let cond = emit(cond, support);
            let then = emit(then, support);
            let otherwise = emit(otherwise, support);
            quote!(if #cond { #then } else { #otherwise })
        }
        WeightExpr::Block { bindings, value } => {
            let bindings = bindings.iter().map(|(name, value)| {
                let value = emit(value, support);
                quote!(let #name: f64 = #value;)
            });
            let value = emit(value, support);
            quote!({ #(#bindings)* #value })
        }
    }
}

fn number(value: f64) -> TokenStream {
    let lit = Literal::f64_suffixed(value);
    quote!(#lit)
}
