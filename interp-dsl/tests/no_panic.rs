//! Nothing in interp-dsl may panic, whatever tokens it is given: seeded random mutations of
//! valid declarations (tokens deleted, duplicated, swapped, replaced by hostile ones: huge and
//! suffixed literals, keywords, stray punctuation) go through `expand_declaration`, which must
//! return tokens (an expansion or `compile_error!`s) every time.

use std::panic;

use proc_macro2::TokenStream;

const SEEDS: [&str; 3] = [
    r#"/// doc
    pub struct Keys { name: "keys", support: 2.0, param a = -0.75, const B = a * 2.0,
        weight: |x| { let t = abs(x); if t <= 1.0 { ((a + 2.0) * t - (a + 3.0)) * t * t + 1.0 }
            else if t < SUPPORT { ((a * t - 5.0 * a) * t + 8.0 * a) * t - 4.0 * a + B * 0.0 } else { 0.0 } } }"#,
    r#"pub struct L { name: "l", support: 3, weight: |x| if abs(x) < SUPPORT { sinc(x) * sinc(x / SUPPORT) } else { 0.0 } }"#,
    r#"struct G { name: "g", support: 1.5, const S = 0.5, weight: |d| if d >= -1.0 && !(d > 1.0) || false { exp(-(d * d) / (2.0 * S * S)) / sqrt(2.0 * PI) * min(d, 1) } else { max(d, -1) } }"#,
];

const HOSTILE: [&str; 24] = [
    "18446744073709551616",
    "1e400",
    "1e39",
    "1u8",
    "0.5f32",
    "-",
    "!",
    "::",
    "|",
    "||",
    "{",
    "}",
    "(",
    ")",
    ",",
    "=",
    "const",
    "param",
    "let",
    "if",
    "else",
    "PI",
    "SUPPORT",
    "x",
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The source as whitespace-separated pieces after a few random edits.
fn mutate(source: &str, rng: &mut Rng) -> String {
    let spaced = source.replace(['(', ')', '{', '}', ',', ';', '|'], " $0 ");
    let mut words: Vec<String> = spaced.split_whitespace().map(str::to_string).collect();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(words.len());
        match rng.below(4) {
            0 if words.len() > 1 => {
                words.remove(at);
            }
            1 => {
                let word = words[at].clone();
                words.insert(at, word);
            }
            2 => {
                let other = rng.below(words.len());
                words.swap(at, other);
            }
            _ => words[at] = HOSTILE[rng.below(HOSTILE.len())].to_string(),
        }
    }
    words.join(" ")
}

#[test]
fn random_token_streams_never_panic() {
    let mut rng = Rng(0x5eed_1234_abcd_9876);
    let mut expanded = 0;
    for case in 0..3000 {
        let source = mutate(SEEDS[case % SEEDS.len()], &mut rng);
        let Ok(tokens) = source.parse::<TokenStream>() else { continue };
        let result = panic::catch_unwind(|| interp_dsl::expand_declaration(tokens));
        assert!(result.is_ok(), "expand_declaration panicked on:\n{source}");
        expanded += 1;
    }
    assert!(expanded > 2000, "only {expanded} mutated sources lexed");
}

#[test]
fn the_seeds_expand_without_errors() {
    for source in SEEDS {
        let out = interp_dsl::expand_declaration(source.parse().unwrap()).to_string();
        assert!(!out.contains("compile_error"), "{source}\n=> {out}");
    }
}
