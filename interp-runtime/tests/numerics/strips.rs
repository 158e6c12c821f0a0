//! Strips of channels-last pixels, scalar and in channel vectors.

use super::*;

/// The pixel-strips kernel (one-pass gathers of channels-last tensors whose channels make no
/// vectors, filters of at most 4 tap pairs): 3, 5 and 21 channels (groups of 11, 7 and 2
/// pixels), rows of several strips with a partial last one, up and down, DeepLab's 8x with
/// aligned corners; forced one pass (strips of up to 4 pixels per unit: the unrolled variants
/// for nearest and 2x2-tap rows, loops for the others) against the f64 reference
/// (`strategies_agree` compares the unrolled variants' bits with the loops').
#[test]
fn pixel_strips_serve_channels_last() {
    let geometries = [
        sized("C=5 9x70 -> 17x140", [1, 5, 9, 70], 17, 140),
        sized("C=3 40x150 -> 20x75", [2, 3, 40, 150], 20, 75),
        sized("C=21 5x9 -> 40x72", [1, 21, 5, 9], 40, 72),
        sized("C=21 9x9 -> 65x65", [1, 21, 9, 9], 65, 65),
    ];
    let tuning = Tuning {
        strategy: Some(Strategy::OnePass),
        ..Tuning::default()
    };
    forced_matches_reference("pixel strips", tuning, &geometries);
}

/// The pixel-strips kernel over channel vectors (channels-last, the widest vectors: 4 lanes on
/// wgpu): 8, 12 and 64 channels (2, 3 and 16 vectors a pixel: groups of 16, 11 and 2 pixels),
/// rows of several strips with a partial last one, up and down, forced at 2 and 4 pixels per
/// unit against the f64 reference (`strategies_agree` compares their bits with one pixel per
/// unit).
#[test]
fn channel_strips_serve_channels_last() {
    let geometries = [
        sized("C=8 9x70 -> 17x140", [1, 8, 9, 70], 17, 140),
        sized("C=12 40x150 -> 20x75", [2, 12, 40, 150], 20, 75),
        sized("C=64 5x9 -> 10x19", [1, 64, 5, 9], 10, 19),
    ];
    for strip in [2, 4] {
        let tuning = Tuning {
            strategy: Some(Strategy::OnePass),
            channel_strip: Some(strip),
            ..Tuning::default()
        };
        forced_matches_reference_in(&format!("channel strips x{strip}"), tuning, &geometries, &[Layout::Nhwc]);
    }
}
