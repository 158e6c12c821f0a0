//! Syntax only: `Declaration` from tokens. Meaning is checked in `validate`.

use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{braced, Attribute, Ident, Token};

use crate::ast::{Declaration, Entry};

impl Parse for Declaration {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        let vis = input.parse()?;
        let struct_token = input.parse()?;
        let ident = input.parse()?;
        let body;
        braced!(body in input);
        let entries = Punctuated::<Entry, Token![,]>::parse_terminated(&body)?;
        if !input.is_empty() {
            return Err(input.error("expected one filter declaration; found tokens after its body"));
        }
        Ok(Declaration {
            attrs,
            vis,
            struct_token,
            ident,
            entries: entries.into_iter().collect(),
        })
    }
}

impl Parse for Entry {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(Token![const]) {
            input.parse::<Token![const]>()?;
            let name = input.parse()?;
            input.parse::<Token![=]>()?;
            let value = input.parse()?;
            return Ok(Entry::Const { name, value });
        }
        let key: Ident = input.parse()?;
        // `param` is a contextual keyword: `param a = -0.75`.
        if key == "param" && input.peek(Ident) {
            let name = input.parse()?;
            input.parse::<Token![=]>()?;
            let value = input.parse()?;
            return Ok(Entry::Param { name, value });
        }
        input.parse::<Token![:]>()?;
        let value = input.parse()?;
        Ok(Entry::Key { key, value })
    }
}
