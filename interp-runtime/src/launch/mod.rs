//! Device work, called only with validated inputs: build the per-axis tables (`table`),
//! choose how to run the gather (`choice`), launch it (`gather`).

mod choice;
mod gather;
mod table;

pub(crate) use gather::{gather, GatherIo};
pub(crate) use table::{build_table, Direction};

/// Units per cube of the one-dimensional launches.
const UNITS_PER_CUBE: u32 = 256;
