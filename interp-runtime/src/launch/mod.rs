//! Device work, called only with validated inputs: pad and upload the per-axis tables (`table`),
//! find where they repeat (`repeats`), turn a call of any rank into 4-D gathers (`route`) of a
//! source and a destination (`io`), choose how to run a gather (`choice`; teams of units per
//! output: `teams_choice`; channels-last pixel strips: `channel_strips`; weight-one column
//! runs read in vectors: `runs`; gathers of rows alone read along a contiguous width in vectors:
//! `row_vectors`; channels-last pooling in split windows: `pool_split`; which
//! depth x height products a volume reads in one gather: `volume_choice`; channels per unit of
//! the planes, blocks and cells kernels: `unit_channels`; wide rows shared by a unit's
//! channels: `plane_loops`, their windows read in vectors: `plane_windows`), launch it (`gather`; the
//! shared-memory reductions: `cooperative`; kernel arguments and the dtype dispatch: `args`).

mod args;
mod block_interior;
mod blocks_choice;
mod cells;
mod channel_strips;
mod choice;
mod cooperative;
mod gather;
mod io;
mod plane_loops;
mod plane_windows;
mod pool_split;
mod repeats;
mod route;
mod row_vectors;
mod runs;
mod table;
mod teams_choice;
mod unit_channels;
mod volume_choice;

pub(crate) use choice::check_loop_limit;
pub(crate) use gather::gather;
pub(crate) use io::GatherIo;
pub(crate) use route::{route, Buffer, Route, Slot};
pub(crate) use table::{axis_table, check_device_array, depth_height_table, direction_taps, DeviceTable, Direction};
pub(crate) use volume_choice::{weighted_product_by_default, VolumeCall};
