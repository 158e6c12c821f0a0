//! Per-axis weight tables, built on the device from a filter's `#[cube]` weight.
//!
//! The forward table lists, for every output index, the input indices it reads and their
//! weights. The adjoint table lists, for every input index, the outputs that read it and the
//! summed weight: it is the transpose of the forward table, so the backward pass is a gather
//! (one unit per input-gradient element, no atomics) and is the exact adjoint of the forward.

use cubecl::prelude::*;

use crate::filter::FilterWeight;
use crate::geometry::TapRule;
use crate::taps::{candidate_outputs, tap_argument, tap_index, tap_span, AxisGeometry, TapSpan};

/// Weight of tap `k`, before normalization.
#[cube]
fn raw_weight<W: FilterWeight>(span: &TapSpan, k: u32, geom: &AxisGeometry, #[comptime] rule: TapRule) -> f32 {
    match comptime!(rule) {
        TapRule::Clamp | TapRule::Renormalize => W::weight(tap_argument(span, k, geom)),
        _ => 1.0,
    }
}

/// Factor that makes the weights of `span` sum to one under renormalizing rules, else 1.
#[cube]
fn normalizer<W: FilterWeight>(span: &TapSpan, geom: &AxisGeometry, #[comptime] rule: TapRule) -> f32 {
    let mut factor = 1.0f32;
    if comptime!(matches!(rule, TapRule::Renormalize | TapRule::Area)) {
        let mut sum = 0.0f32;
        for k in 0..span.count {
            sum += raw_weight::<W>(span, k, geom, rule);
        }
        if sum != 0.0 {
            factor = 1.0 / sum;
        }
    }
    factor
}

/// One unit per output index: its taps and normalized weights, padded with zero weights.
#[cube(launch_unchecked)]
pub fn build_forward_table<W: FilterWeight>(
    geom: AxisGeometry,
    index: &mut Array<u32>,
    weight: &mut Array<f32>,
    count: &mut Array<u32>,
    #[comptime] rule: TapRule,
) {
    let o = ABSOLUTE_POS as u32;
    if o >= geom.out_len {
        terminate!();
    }
    let span = tap_span(o, &geom, rule);
    let norm = normalizer::<W>(&span, &geom, rule);
    let row = (o * geom.taps) as usize;
    for k in 0..geom.taps {
        let slot = row + k as usize;
        if k < span.count {
            index[slot] = tap_index(&span, k, &geom);
            weight[slot] = raw_weight::<W>(&span, k, &geom, rule) * norm;
        } else {
            index[slot] = 0;
            weight[slot] = 0.0;
        }
    }
    count[o as usize] = span.count;
}

/// One unit per input index: every output that reads it, with the summed weight of the taps
/// that land on it (clamped taps can land several times), in increasing output order.
#[cube(launch_unchecked)]
pub fn build_adjoint_table<W: FilterWeight>(
    geom: AxisGeometry,
    width: u32,
    index: &mut Array<u32>,
    weight: &mut Array<f32>,
    count: &mut Array<u32>,
    #[comptime] rule: TapRule,
) {
    let j = ABSOLUTE_POS as u32;
    if j >= geom.in_len {
        terminate!();
    }
    let (lo, hi) = candidate_outputs(j, &geom);
    let row = (j * width) as usize;
    let mut found = 0u32;
    for o in lo..hi + 1 {
        let span = tap_span(o, &geom, rule);
        let norm = normalizer::<W>(&span, &geom, rule);
        let mut sum = 0.0f32;
        for k in 0..span.count {
            if tap_index(&span, k, &geom) == j {
                sum += raw_weight::<W>(&span, k, &geom, rule) * norm;
            }
        }
        if sum != 0.0 && found < width {
            index[row + found as usize] = o;
            weight[row + found as usize] = sum;
            found += 1;
        }
    }
    for k in found..width {
        index[row + k as usize] = 0;
        weight[row + k as usize] = 0.0;
    }
    count[j as usize] = found;
}
