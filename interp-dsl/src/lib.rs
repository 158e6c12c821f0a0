//! The declarative filter language of interp: `parse` -> `validate` -> `expand`.
//!
//! - [`parse`] turns tokens into a raw [`ast::Declaration`] (only syntax errors here).
//! - [`validate`] checks every key and the weight body, collecting *all* errors, each spanned
//!   on the offending token, and produces a [`model::FilterModel`].
//! - [`expand`] turns a model into Rust: it cannot fail. A declaration with errors still
//!   emits its struct (a placeholder) beside the errors, so its uses add no noise.
//!
//! `interp-macros` wraps [`expand_declaration`] as the `filter!` proc-macro; `xtask` calls it
//! to snapshot the expansion of every built-in mode.

pub mod ast;
pub mod expand;
pub mod model;
pub mod parse;
pub mod validate;
pub mod weight;

use proc_macro2::TokenStream;

/// Expands one `filter!` body into Rust, or into `compile_error!`s for every problem found.
pub fn expand_declaration(input: TokenStream) -> TokenStream {
    let declaration = match syn::parse2::<ast::Declaration>(input) {
        Ok(declaration) => declaration,
        Err(error) => return error.to_compile_error(),
    };
    match validate::validate(&declaration) {
        Ok(model) => expand::expand(&model),
        Err(error) => {
            let mut out = error.to_compile_error();
            out.extend(expand::placeholder(&declaration));
            out
        }
    }
}
