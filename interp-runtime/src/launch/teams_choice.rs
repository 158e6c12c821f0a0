//! When the teams kernels sum a gather (several units per output, their partial sums meeting
//! in a fixed tree): where windows are large and outputs few (area pooling 8x and more, global
//! pooling), and how a team splits a window. Measured rules, like `choice`'s; a forced
//! `Strategy::Teams` takes them wherever they apply.

use cubecl::prelude::*;
use interp_kernels::gather::{team_vector_lanes, CHANNEL_TEAMS, SUM_BLOCK, TEAMS};

use super::choice::{by_rule, max_vector, strides_divide, Vectorization};
use super::io::GatherIo;
use crate::options::Strategy;

/// Most tap pairs one unit of a team sums: teams grow (2, 8, 32, 256 units) until every unit's
/// share of the widest window is at most this, which keeps each unit's loop short (it is
/// one plain sum: at most `SUM_BLOCK`) and the team small (fewer tree levels, more outputs
/// per cube).
const TEAM_SHARE: u64 = 32;
const _: () = assert!(TEAM_SHARE <= SUM_BLOCK as u64);

/// Most vector loads one unit of a team makes where it reads the source in width vectors
/// (measured on the H200, docs/PERFORMANCE.md v14): 4-16 loads of 16 bytes per unit won
/// (area 8x 1.3-1.6x, area 16x bf16 1.7x, global pooling bf16 1.8x), 32 lost (area 16x f32:
/// a team of 2 instead of 8, 0.66x); 16 keeps a unit's bytes near a scalar share's.
const TEAM_SHARE_VECTORS: u64 = 16;

/// A launch of the teams kernel: units per output, and how many of them split the columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct TeamsLaunch {
    pub team: u32,
    pub col_lanes: u32,
    /// Source elements per load along the width (see [`teams_source_vector`]).
    pub vector: u32,
}

/// The widest vector along the source's width that a teams launch can read uniform windows
/// in: NCHW order, tables of consecutive indices with one weight per row, every column
/// window's first index and width a multiple of it (`column_alignment`), the source's other
/// strides too, within the tuning's cap and the device's vector sizes (16 bytes on CUDA). 1
/// where any of that fails.
pub(super) fn teams_source_vector<R: Runtime>(client: &ComputeClient<R>, io: &GatherIo, uniform: bool, column_alignment: u32) -> u32 {
    let src = &io.src_view;
    if !uniform || src.channels_last() || src.strides[3] != 1 {
        return 1;
    }
    let element = io.element_bytes();
    let cap = max_vector(io);
    client
        .io_optimized_vector_sizes(element)
        .filter(|&v| v > 1 && v <= cap && column_alignment.is_multiple_of(v as u32) && strides_divide(src, v, &[0, 1, 2]))
        .max()
        .map_or(1, |v| v as u32)
}

/// The teams kernel where it applies and pays: scalar layouts (`vectorization` without channel
/// vectors), windows that split into shares of at most `TEAM_SHARE` tap pairs, and either
/// forced by the tuning or picked by [`teams_pay`].
pub(super) fn teams(io: &GatherIo, widths: (u64, u64), vectorization: Vectorization, uniform: bool, vector: u32) -> Option<TeamsLaunch> {
    let forced = io.tuning.strategy == Some(Strategy::Teams);
    let pays = by_rule(io) && teams_pay(io, widths, uniform);
    if matches!(vectorization, Vectorization::Channels(v) if v > 1) || !(forced || pays) {
        return None;
    }
    let element = io.element_bytes();
    let min_team = io.tuning.min_team.unwrap_or(1);
    TEAMS.iter().filter(|&&team| team >= min_team).find_map(|&team| {
        // Columns counted in source vectors (no wider than the team's variants are built
        // for): a unit's share is of vector loads, at most `TEAM_SHARE_VECTORS` of them.
        let vector = vector.min(team_vector_lanes(team, element) as u32);
        let most = if vector > 1 { TEAM_SHARE_VECTORS } else { TEAM_SHARE };
        let col_lanes = team_col_lanes(team, (widths.0, widths.1 / u64::from(vector)), most)?;
        Some(TeamsLaunch { team, col_lanes, vector })
    })
}

/// How a team of `team` units splits a window of `widths` (rows, columns) loads: the units
/// taking every so-many-th column (columns first: in NCHW consecutive lanes then read
/// consecutive source columns), the rest every so-many-th row; `None` where a unit's share
/// would exceed `most` loads.
fn team_col_lanes(team: u32, widths: (u64, u64), most: u64) -> Option<u32> {
    let (rows, cols) = (widths.0.max(1), widths.1.max(1));
    let col_lanes = cols.next_power_of_two().min(u64::from(team));
    let row_lanes = u64::from(team) / col_lanes;
    let share = cols.div_ceil(col_lanes) * rows.div_ceil(row_lanes);
    (share <= most).then_some(col_lanes as u32)
}

/// The channels-last teams kernel (area pooling read in channel vectors) where it applies
/// and pays: channel vectors of more than one lane, both tensors channels-last, tables of consecutive indices with one weight per
/// row (`uniform`), windows that split into shares of at most `TEAM_SHARE` pixels over one
/// of `CHANNEL_TEAMS`; forced by the tuning or picked by [`channel_teams_pay`].
/// `vectorization` is what the one-pass gathers would run: its channel vectors are the
/// kernel's.
pub(super) fn channel_teams(io: &GatherIo, widths: (u64, u64), vectorization: Vectorization, uniform: bool) -> Option<TeamsLaunch> {
    let vector = match vectorization {
        Vectorization::Channels(v) if v > 1 => v,
        // Scalar channels-last layouts take the scalar teams kernel, channels fastest.
        _ => return None,
    };
    let channels_last = io.src_view.channels_last() && io.dst_view.channels_last();
    let forced = io.tuning.strategy == Some(Strategy::Teams);
    if !uniform || !channels_last || !(forced || (by_rule(io) && channel_teams_pay(io))) {
        return None;
    }
    let min_team = io.tuning.min_team.unwrap_or(1);
    CHANNEL_TEAMS.iter().filter(|&&team| team >= min_team).find_map(|&team| {
        let col_lanes = team_col_lanes(team, widths, TEAM_SHARE)?;
        Some(TeamsLaunch {
            team,
            col_lanes,
            vector: vector as u32,
        })
    })
}

/// Where channels-last teams beat the one- and two-pass gathers of channel vectors by default
/// (measured on the H200's suite, every channels-last area case with `--strategy teams`,
/// `one-pass` and `two-pass`, docs/PERFORMANCE.md v15): downsamples of 8x or more along both
/// axes. Global pooling 1.3-1.8x faster than two passes, area 16x 1.1-1.6x faster than one
/// pass, area 8x even; below 8x (2x, 4x, 28 -> 7, 256 -> 96 volumes) 1.4-3x slower. Why it
/// generalizes: as for [`teams_pay`], from 8x on each source pixel falls in at most two
/// windows per axis, so the other gathers' reuse saves little while one unit walks 64 or
/// more pixels alone.
fn channel_teams_pay(io: &GatherIo) -> bool {
    shrinks_8x_both_axes(io)
}

/// Whether the gather downsamples both axes by 8x or more (ratios rounded up): where each
/// source element falls in at most two windows per axis, the teams kernels' ground.
fn shrinks_8x_both_axes(io: &GatherIo) -> bool {
    let ratio = |axis: usize| io.src_view.shape[axis].div_ceil(io.dst_view.shape[axis].max(1));
    ratio(2) >= 8 && ratio(3) >= 8
}

/// Where teams beat the other gathers by default (measured on the H200's workload suite with
/// `--strategy teams`, docs/PERFORMANCE.md v12): sources in NCHW order downsampled by 8x
/// or more along both axes. Forward: global pooling 3.3-3.6x faster than two passes, area
/// 16x 1.7-1.9x and 8x 1.3x, 8x bilinear antialiasing 1.13-1.19x faster than tiles. Why it
/// generalizes: from 8x on, each source element falls in at most two windows per axis, so
/// the other gathers' reuse of row sums across outputs (tiles, passes) saves little, while a
/// unit per output walks 64 or more taps alone; below 8x (4x antialiasing, 224 -> 299, 3x
/// signals: 0.1-0.75x) windows overlap and the reuse wins. Channels-last scalar layouts (RGB)
/// were mixed (0.91-1.07x): left to the other gathers.
///
/// Windows of fewer than `TEAM_MIN_PAIRS` tap pairs (nearest, bilinear or bicubic without
/// antialiasing at such ratios) are not teams' work: a unit per output reads them at once.
///
/// Only uniform windows (area pooling: no table loads per tap in teams): since the passes
/// read tap-major tables (docs/PERFORMANCE.md v15), two passes beat teams on weighted windows
/// at 8x (1080p frames to thumbnails, bilinear-aa forward: 1.4-1.5x faster), the teams'
/// units each loading a table entry per tap.
pub(super) fn teams_pay(io: &GatherIo, widths: (u64, u64), uniform: bool) -> bool {
    uniform && !io.src_view.channels_last() && shrinks_8x_both_axes(io) && widths.0 * widths.1 >= TEAM_MIN_PAIRS
}

/// Fewest tap pairs (widest rows) for which teams are picked by default: an 8x8 window,
/// area pooling's at 8x, the smallest measured win.
const TEAM_MIN_PAIRS: u64 = 64;
