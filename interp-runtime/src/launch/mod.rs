//! Device work, called only with validated inputs: pad and upload the per-axis tables (`table`),
//! choose how to run the gather (`choice`), launch it (`gather`).

mod choice;
mod gather;
mod table;

pub(crate) use choice::check_loop_limit;
pub(crate) use gather::{gather, GatherIo};
pub(crate) use table::{axis_table, DeviceTable, Direction};
