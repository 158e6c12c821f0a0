//! Meaning: every key, value and weight body checked, all errors collected, each spanned on
//! the token at fault.

use std::collections::HashMap;

use proc_macro2::{Ident, Span};
use quote::ToTokens;
use syn::{Expr, Lit, Pat, Stmt};

use crate::ast::{Declaration, Entry};
use crate::model::{BorderModel, FilterModel, MappingModel};
use crate::weight::{BinaryOp, Function, UnaryOp, WeightExpr};

const KEYS: [&str; 7] = ["name", "support", "border", "antialias", "mapping", "align_corners", "weight"];

/// All errors of one declaration, reported together.
#[derive(Default)]
struct Errors(Option<syn::Error>);

impl Errors {
    fn push(&mut self, tokens: impl ToTokens, message: impl std::fmt::Display) {
        let error = syn::Error::new_spanned(tokens, message);
        self.push_error(error);
    }
    fn push_at(&mut self, span: Span, message: impl std::fmt::Display) {
        self.push_error(syn::Error::new(span, message));
    }
    fn push_error(&mut self, error: syn::Error) {
        match &mut self.0 {
            Some(all) => all.combine(error),
            None => self.0 = Some(error),
        }
    }
}

/// Checks a declaration and builds its model, or returns every error found.
pub fn validate(declaration: &Declaration) -> syn::Result<FilterModel> {
    let mut errors = Errors::default();
    let mut values: HashMap<String, (&Ident, &Expr)> = HashMap::new();
    let mut constants: Vec<(Ident, WeightExpr)> = Vec::new();

    for entry in &declaration.entries {
        match entry {
            Entry::Key { key, value } => {
                let name = key.to_string();
                if !KEYS.contains(&name.as_str()) {
                    errors.push(key, format!("unknown key `{name}`; expected one of: {}", KEYS.join(", ")));
                } else if let std::collections::hash_map::Entry::Vacant(slot) = values.entry(name.clone()) {
                    slot.insert((key, value));
                } else {
                    errors.push(key, format!("duplicate key `{name}`"));
                }
            }
            Entry::Const { name, value } => {
                if constants.iter().any(|(n, _)| n == name) {
                    errors.push(name, format!("duplicate constant `{name}`"));
                    continue;
                }
                let scope = Scope {
                    names: constants.iter().map(|(n, _)| n.to_string()).collect(),
                };
                if let Some((expr, ty)) = lower(value, &scope, &mut errors) {
                    if ty == Ty::Number {
                        constants.push((name.clone(), expr));
                    } else {
                        errors.push(value, format!("constant `{name}` must be a number, not a boolean"));
                    }
                }
            }
        }
    }

    let ident = &declaration.ident;
    let mut required = |key: &str| -> Option<&Expr> {
        let found = values.get(key).map(|(_, v)| *v);
        if found.is_none() {
            errors.push(ident, format!("missing key `{key}` in the declaration of `{ident}`"));
        }
        found
    };
    let name = required("name").map(|e| (e, string_value(e)));
    let support = required("support").map(|e| (e, number_value(e)));
    let border = required("border").map(|e| {
        (
            e,
            choice(e, &[("clamp", BorderModel::Clamp), ("renormalize", BorderModel::Renormalize)]),
        )
    });
    let weight = required("weight");
    let optional = |key: &str| values.get(key).map(|(_, v)| *v);
    let antialias = optional("antialias").map(|e| (e, bool_value(e)));
    let align_corners = optional("align_corners").map(|e| (e, bool_value(e)));
    let mapping = optional("mapping").map(|e| {
        let options = [
            ("center", MappingModel::Center),
            ("nearest", MappingModel::Nearest),
            ("nearest_exact", MappingModel::NearestExact),
            ("area", MappingModel::Area),
        ];
        (e, choice(e, &options))
    });

    let name = expect(&mut errors, name, "`name` must be a string literal, e.g. `name: \"bilinear\"`");
    if let Some(n) = &name {
        if n.is_empty() {
            errors.push(values["name"].1, "`name` must not be empty");
        }
    }
    let support = expect(&mut errors, support, "`support` must be a number literal, e.g. `support: 2.0`");
    if let Some(s) = support {
        if !(s.is_finite() && s > 0.0) {
            errors.push(values["support"].1, format!("`support` must be a finite number > 0, found {s}"));
        }
    }
    let border = expect(&mut errors, border, "unknown border policy; expected `clamp` or `renormalize`");
    let antialias = expect(&mut errors, antialias.or(None), "`antialias` must be `true` or `false`");
    let align_corners = expect(&mut errors, align_corners, "`align_corners` must be `true` or `false`");
    let mapping = expect(
        &mut errors,
        mapping,
        "unknown mapping; expected `center`, `nearest`, `nearest_exact` or `area`",
    );
    let antialias = antialias.unwrap_or(false);
    let align_corners = align_corners.unwrap_or(false);
    let mapping = mapping.unwrap_or(MappingModel::Center);

    if antialias && border == Some(BorderModel::Clamp) {
        errors.push(
            values["antialias"].1,
            "`antialias: true` needs `border: renormalize` (a widened support cannot replicate edges)",
        );
    }
    if antialias && mapping != MappingModel::Center {
        errors.push(values["antialias"].1, "`antialias: true` only applies to the `center` mapping");
    }
    if align_corners && mapping != MappingModel::Center {
        errors.push(
            values["align_corners"].1,
            "`align_corners: true` only applies to the `center` mapping",
        );
    }

    let lowered_weight = weight.and_then(|w| lower_weight(w, &constants, &mut errors));

    match errors.0 {
        Some(error) => Err(error),
        None => {
            let (param, weight) = lowered_weight.expect("weight lowered when no error was reported");
            Ok(FilterModel {
                attrs: declaration.attrs.clone(),
                vis: declaration.vis.clone(),
                ident: declaration.ident.clone(),
                name: name.expect("checked"),
                support: support.expect("checked"),
                border: border.expect("checked"),
                antialias,
                mapping,
                align_corners,
                constants,
                param,
                weight,
            })
        }
    }
}

/// Unwraps a parsed value, reporting `message` on the value when it has the wrong form.
fn expect<T>(errors: &mut Errors, value: Option<(&Expr, Option<T>)>, message: &str) -> Option<T> {
    match value {
        Some((expr, None)) => {
            errors.push(expr, message);
            None
        }
        Some((_, Some(v))) => Some(v),
        None => None,
    }
}

fn string_value(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Lit(lit) => match &lit.lit {
            Lit::Str(s) => Some(s.value()),
            _ => None,
        },
        _ => None,
    }
}

fn number_value(expr: &Expr) -> Option<f64> {
    match expr {
        Expr::Lit(lit) => match &lit.lit {
            Lit::Float(f) => f.base10_parse().ok(),
            Lit::Int(i) => i.base10_parse::<i64>().ok().map(|v| v as f64),
            _ => None,
        },
        Expr::Unary(u) if matches!(u.op, syn::UnOp::Neg(_)) => number_value(&u.expr).map(|v| -v),
        _ => None,
    }
}

fn bool_value(expr: &Expr) -> Option<bool> {
    match expr {
        Expr::Lit(lit) => match &lit.lit {
            Lit::Bool(b) => Some(b.value),
            _ => None,
        },
        _ => None,
    }
}

fn choice<T: Copy>(expr: &Expr, options: &[(&str, T)]) -> Option<T> {
    let Expr::Path(path) = expr else { return None };
    let ident = path.path.get_ident()?;
    options.iter().find(|(n, _)| ident == n).map(|(_, v)| *v)
}

/// `|x| body`: exactly one plain parameter, then a valid numeric body.
fn lower_weight(expr: &Expr, constants: &[(Ident, WeightExpr)], errors: &mut Errors) -> Option<(Ident, WeightExpr)> {
    let Expr::Closure(closure) = expr else {
        errors.push(expr, "`weight` must be a closure of the distance, e.g. `weight: |x| 1.0 - abs(x)`");
        return None;
    };
    if closure.inputs.len() != 1 {
        errors.push(
            &closure.inputs,
            format!(
                "the weight closure takes exactly one parameter (the distance), found {}",
                closure.inputs.len()
            ),
        );
        return None;
    }
    let Pat::Ident(param) = &closure.inputs[0] else {
        errors.push(&closure.inputs[0], "the weight parameter must be a plain name such as `x`");
        return None;
    };
    if matches!(&*closure.body, Expr::Block(b) if b.block.stmts.is_empty()) {
        errors.push(
            &closure.body,
            "the weight body is empty; it must compute the weight of distance `x`",
        );
        return None;
    }
    let mut names: Vec<String> = constants.iter().map(|(n, _)| n.to_string()).collect();
    names.push(param.ident.to_string());
    let (body, ty) = lower(&closure.body, &Scope { names }, errors)?;
    if ty != Ty::Number {
        errors.push(&closure.body, "the weight body must evaluate to a number, not a boolean");
        return None;
    }
    Some((param.ident.clone(), body))
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ty {
    Number,
    Bool,
}

impl Ty {
    fn describe(self) -> &'static str {
        match self {
            Ty::Number => "a number",
            Ty::Bool => "a boolean",
        }
    }
}

/// Names visible at a point of the body.
#[derive(Clone)]
struct Scope {
    names: Vec<String>,
}

/// Lowers one expression, reporting every problem inside it. `None` when it is invalid.
fn lower(expr: &Expr, scope: &Scope, errors: &mut Errors) -> Option<(WeightExpr, Ty)> {
    match expr {
        Expr::Lit(lit) => match &lit.lit {
            Lit::Float(f) => f.base10_parse::<f64>().ok().map(|v| (WeightExpr::Number(v), Ty::Number)),
            Lit::Int(i) => i.base10_parse::<u64>().ok().map(|v| (WeightExpr::Number(v as f64), Ty::Number)),
            Lit::Bool(b) => Some((WeightExpr::Bool(b.value), Ty::Bool)),
            other => {
                errors.push(other, "only number and boolean literals are allowed in a weight");
                None
            }
        },
        Expr::Path(path) => {
            let Some(ident) = path.path.get_ident() else {
                errors.push(
                    path,
                    "only plain names are allowed here (the distance, a `let` binding, a declared constant or `PI`)",
                );
                return None;
            };
            let name = ident.to_string();
            if scope.names.contains(&name) {
                Some((WeightExpr::Name(ident.clone()), Ty::Number))
            } else if name == "PI" {
                Some((WeightExpr::Pi, Ty::Number))
            } else {
                errors.push(
                    ident,
                    format!("unknown identifier `{name}`; in scope: {}, PI", scope.names.join(", ")),
                );
                None
            }
        }
        Expr::Paren(p) => lower(&p.expr, scope, errors),
        Expr::Group(g) => lower(&g.expr, scope, errors),
        Expr::Unary(u) => {
            let (op, want) = match u.op {
                syn::UnOp::Neg(_) => (UnaryOp::Neg, Ty::Number),
                syn::UnOp::Not(_) => (UnaryOp::Not, Ty::Bool),
                _ => {
                    errors.push(u, "unsupported unary operator in a weight (only `-` and `!`)");
                    return None;
                }
            };
            let (inner, ty) = lower(&u.expr, scope, errors)?;
            check_type(errors, &u.expr, ty, want)?;
            Some((WeightExpr::Unary(op, Box::new(inner)), want))
        }
        Expr::Binary(b) => {
            let op = binary_op(&b.op);
            let lhs = lower(&b.left, scope, errors);
            let rhs = lower(&b.right, scope, errors);
            let Some(op) = op else {
                errors.push(b.op, "unsupported operator in a weight; use + - * / < <= > >= == != && ||");
                return None;
            };
            let (lhs, lt) = lhs?;
            let (rhs, rt) = rhs?;
            let want = if op.takes_numbers() { Ty::Number } else { Ty::Bool };
            let l = check_type(errors, &b.left, lt, want);
            let r = check_type(errors, &b.right, rt, want);
            l.and(r)?;
            let out = if op.gives_number() { Ty::Number } else { Ty::Bool };
            Some((WeightExpr::Binary(op, Box::new(lhs), Box::new(rhs)), out))
        }
        Expr::Call(call) => {
            let Expr::Path(fpath) = &*call.func else {
                errors.push(&call.func, "only calls of named functions are allowed");
                return None;
            };
            let fname = fpath.path.get_ident().map(|i| i.to_string()).unwrap_or_default();
            let args: Vec<_> = call.args.iter().map(|a| (a, lower(a, scope, errors))).collect();
            let Some(function) = Function::lookup(&fname) else {
                let known: Vec<_> = Function::ALL.iter().map(|(n, _)| *n).collect();
                errors.push(
                    &call.func,
                    format!(
                        "unknown function `{}`; a weight may call: {}",
                        fpath.to_token_stream(),
                        known.join(", ")
                    ),
                );
                return None;
            };
            if args.len() != function.arity() {
                errors.push(
                    call,
                    format!("`{}` takes {} argument(s), found {}", function.name(), function.arity(), args.len()),
                );
                return None;
            }
            let mut lowered = Vec::new();
            for (arg, result) in args {
                let (expr, ty) = result?;
                check_type(errors, arg, ty, Ty::Number)?;
                lowered.push(expr);
            }
            Some((WeightExpr::Call(function, lowered), Ty::Number))
        }
        Expr::MethodCall(m) => {
            errors.push(
                &m.method,
                format!("method calls are not supported; write `{}(..)` as a function call", m.method),
            );
            None
        }
        Expr::If(i) => {
            let cond = lower(&i.cond, scope, errors);
            let then = lower_block(&i.then_branch, scope, errors);
            let Some((_, otherwise)) = &i.else_branch else {
                errors.push(i, "an `if` in a weight needs an `else` branch (the weight is an expression)");
                return None;
            };
            let otherwise = lower(otherwise, scope, errors);
            let (cond, ct) = cond?;
            check_type(errors, &i.cond, ct, Ty::Bool)?;
            let (then, tt) = then?;
            let (otherwise, ot) = otherwise?;
            if tt != ot {
                errors.push(i, format!("`if` branches differ: {} and {}", tt.describe(), ot.describe()));
                return None;
            }
            Some((
                WeightExpr::If {
                    cond: Box::new(cond),
                    then: Box::new(then),
                    otherwise: Box::new(otherwise),
                },
                tt,
            ))
        }
        Expr::Block(b) => lower_block(&b.block, scope, errors),
        other => {
            errors.push(
                other,
                "unsupported syntax in a weight; allowed: numbers, names, + - * / comparisons, && || !, calls, if/else, blocks with `let`",
            );
            None
        }
    }
}

fn lower_block(block: &syn::Block, scope: &Scope, errors: &mut Errors) -> Option<(WeightExpr, Ty)> {
    let mut scope = scope.clone();
    let mut bindings = Vec::new();
    let mut value = None;
    let mut ok = true;
    let count = block.stmts.len();
    if count == 0 {
        errors.push_at(block.brace_token.span.join(), "empty block; it must end with a value");
        return None;
    }
    for (index, stmt) in block.stmts.iter().enumerate() {
        let last = index + 1 == count;
        match stmt {
            Stmt::Local(local) => {
                let Pat::Ident(pat) = &local.pat else {
                    errors.push(&local.pat, "a `let` in a weight binds one plain name, without a type");
                    ok = false;
                    continue;
                };
                let Some(init) = &local.init else {
                    errors.push(local, "a `let` in a weight needs a value");
                    ok = false;
                    continue;
                };
                match lower(&init.expr, &scope, errors) {
                    Some((expr, Ty::Number)) => bindings.push((pat.ident.clone(), expr)),
                    Some(_) => {
                        errors.push(&init.expr, "a `let` in a weight must bind a number");
                        ok = false;
                    }
                    None => ok = false,
                }
                scope.names.push(pat.ident.to_string());
                if last {
                    errors.push(local, "the block ends with a `let`; it must end with a value");
                    ok = false;
                }
            }
            Stmt::Expr(expr, None) if last => value = lower(expr, &scope, errors),
            other => {
                errors.push(
                    other,
                    "unsupported statement in a weight; only `let name = value;` and a final value",
                );
                ok = false;
            }
        }
    }
    let (value, ty) = value?;
    if !ok {
        return None;
    }
    if bindings.is_empty() {
        return Some((value, ty));
    }
    Some((
        WeightExpr::Block {
            bindings,
            value: Box::new(value),
        },
        ty,
    ))
}

fn check_type(errors: &mut Errors, at: &Expr, found: Ty, want: Ty) -> Option<()> {
    if found == want {
        Some(())
    } else {
        errors.push(at, format!("expected {}, found {}", want.describe(), found.describe()));
        None
    }
}

fn binary_op(op: &syn::BinOp) -> Option<BinaryOp> {
    use syn::BinOp as B;
    Some(match op {
        B::Add(_) => BinaryOp::Add,
        B::Sub(_) => BinaryOp::Sub,
        B::Mul(_) => BinaryOp::Mul,
        B::Div(_) => BinaryOp::Div,
        B::Lt(_) => BinaryOp::Lt,
        B::Le(_) => BinaryOp::Le,
        B::Gt(_) => BinaryOp::Gt,
        B::Ge(_) => BinaryOp::Ge,
        B::Eq(_) => BinaryOp::Eq,
        B::Ne(_) => BinaryOp::Ne,
        B::And(_) => BinaryOp::And,
        B::Or(_) => BinaryOp::Or,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors_of(src: proc_macro2::TokenStream) -> Vec<String> {
        let decl: Declaration = syn::parse2(src).expect("parses");
        match validate(&decl) {
            Ok(_) => vec![],
            Err(e) => e.into_iter().map(|e| e.to_string()).collect(),
        }
    }

    #[test]
    fn reports_every_error_at_once() {
        let errors = errors_of(quote::quote! {
            pub struct Bad { name: "bad", support: 0.0, border: wrap, weight: |x| foo(x) + y }
        });
        assert_eq!(errors.len(), 4, "{errors:?}");
        assert!(errors[0].contains("support"), "{errors:?}");
        assert!(errors[1].contains("border"), "{errors:?}");
        assert!(errors.iter().any(|e| e.contains("unknown function `foo`")), "{errors:?}");
        assert!(errors.iter().any(|e| e.contains("unknown identifier `y`")), "{errors:?}");
    }

    #[test]
    fn accepts_constants_lets_and_branches() {
        let errors = errors_of(quote::quote! {
            pub struct Good {
                name: "good", support: 2, border: renormalize, antialias: true,
                const A = -0.5,
                weight: |t| { let a = abs(t); if a < 1.0 { (A + 2.0) * a * a * a } else { 0.0 } },
            }
        });
        assert!(errors.is_empty(), "{errors:?}");
    }
}
