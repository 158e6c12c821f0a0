//! The bench's launch-rule overrides: each `--NAME VALUE` flag (and `--versus NAME=VALUE`'s
//! alternative) sets one field of a [`Tuning`].

use interp_runtime::{Strategy, Tuning};

/// The flags that take a value, as `--NAME VALUE`.
pub const VALUED: [&str; 9] = [
    "strategy",
    "max-plane-taps",
    "planes",
    "least-planes",
    "min-team",
    "channel-strip",
    "volume-product",
    "pool-splits",
    "plane-loop-min-pairs",
];

/// `tuning` with the override `name` set from `value` (`block-full-rows`, `block-guarded`
/// `strips-looped`, `row-scalar`, `plane-single`, `passes-when-shrinking`,
/// `tiles-when-shrinking`, `cell-scalar-loads`, `cell-vector-loads`, `channel-blocks`, `channel-gather`,
/// `tables-tap-major`, `tables-row-major`, `plane-loops`, `no-plane-loops`, `indexed-rows`, `window-vectors` and `value-loads` take none); Err names
/// what was wrong.
pub fn set(mut tuning: Tuning, name: &str, value: &str) -> Result<Tuning, String> {
    let number = |what: &str| {
        value
            .parse::<u32>()
            .map_err(|_| format!("--{what} {value}: expected a whole number"))
    };
    match name {
        "strategy" => {
            let strategy = Strategy::from_name(value).ok_or_else(|| {
                let names: Vec<_> = Strategy::ALL.iter().map(|s| s.name()).collect();
                format!("--strategy {value}: expected one of {}", names.join(", "))
            })?;
            tuning.strategy = Some(strategy);
        }
        "max-plane-taps" => tuning.max_plane_taps = Some(number(name)?),
        "planes" => tuning.planes = Some(number(name)? as usize),
        "least-planes" => tuning.least_planes = Some(number(name)? as usize),
        "min-team" => tuning.min_team = Some(number(name)?),
        "channel-strip" => tuning.channel_strip = Some(number(name)?),
        "pool-splits" => tuning.pool_splits = Some(number(name)?),
        "plane-loop-min-pairs" => tuning.plane_loop_min_pairs = Some(number(name)?),
        "block-full-rows" => tuning.block_short_rows = Some(false),
        "block-guarded" => tuning.block_unguarded = Some(false),
        "strips-looped" => tuning.strip_unrolled = Some(false),
        "row-scalar" => tuning.row_vectors = Some(false),
        "plane-single" => tuning.plane_pairs = Some(false),
        "passes-when-shrinking" => tuning.passes_when_shrinking = Some(true),
        "tiles-when-shrinking" => tuning.passes_when_shrinking = Some(false),
        "cell-scalar-loads" => tuning.cell_window_vectors = Some(false),
        "cell-vector-loads" => tuning.cell_window_vectors = Some(true),
        "channel-blocks" => tuning.channel_blocks = Some(true),
        "channel-gather" => tuning.channel_blocks = Some(false),
        "tables-tap-major" => tuning.channel_tables_tap_major = Some(true),
        "tables-row-major" => tuning.channel_tables_tap_major = Some(false),
        "plane-loops" => tuning.plane_loops = Some(true),
        "no-plane-loops" => tuning.plane_loops = Some(false),
        "indexed-rows" => tuning.contiguous_rows = Some(false),
        "window-vectors" => tuning.window_vectors = Some(true),
        "value-loads" => tuning.window_vectors = Some(false),
        "volume-product" => {
            tuning.volume_product = Some(match value {
                "on" => true,
                "off" => false,
                _ => return Err(format!("--volume-product {value}: expected on or off")),
            })
        }
        other => return Err(format!("no tuning flag --{other}")),
    }
    Ok(tuning)
}
