//! Plane loops' windows in source vectors (`separable_gather_plane_windows`): where a plane
//! loops pass reads each window as the aligned vectors that cover it, and its launch.

use cubecl::prelude::*;
use interp_kernels::gather::{separable_gather_plane_windows, PLANE_LOOP_GROUP};

use super::args::{arrays, dispatch_dtypes, layout_arg, vector_strides};
use super::choice::{contiguous_rows, max_vector, strides_divide};
use super::io::GatherIo;
use super::plane_loops::plane_loop_grid;
use super::table::DeviceTable;
use crate::tensor::Checked4;

/// Source elements per vector load where a plane loops pass reads its windows in vectors,
/// `None` where it loads a value per tap: the tuning's `window_vectors` where set (`Some(true)`
/// wherever the kernel applies, see [`window_vector_fits`]), else by [`windows_pay`] where
/// `WINDOWS_BY_DEFAULT`.
pub(super) fn window_vector<R: Runtime>(client: &ComputeClient<R>, io: &GatherIo, rows: &DeviceTable, cols: &DeviceTable) -> Option<usize> {
    let forced = io.tuning.window_vectors;
    if !forced.unwrap_or(WINDOWS_BY_DEFAULT) || !contiguous_rows(io, rows, cols) {
        return None;
    }
    let sizes = client
        .io_optimized_vector_sizes(io.src_dtype.size())
        .filter(|&v| v <= max_vector(io));
    let vector = window_vector_fits(&io.src_view, sizes)?;
    (forced == Some(true) || windows_pay(cols.mean_taps, vector)).then_some(vector)
}

/// Whether the default takes [`windows_pay`]'s passes: not until an A/B on a GPU has timed
/// them (docs/PERFORMANCE.md v35: built in stop 42, which got no machine to time it).
const WINDOWS_BY_DEFAULT: bool = false;

/// The widest of the device's vector `sizes` (two lanes or more) in which every source row is
/// whole vectors: the width contiguous and a multiple of the vector, the other strides too, so
/// that the vectors covering a window never leave its row.
fn window_vector_fits(src: &Checked4, sizes: impl Iterator<Item = usize>) -> Option<usize> {
    let width = src.shape[3];
    sizes
        .filter(|&v| v > 1 && src.strides[3] == 1 && width.is_multiple_of(v) && strides_divide(src, v, &[0, 1, 2]))
        .max()
}

/// The default rule: windows of at least a vector's taps on average. A window of `t` taps
/// costs about `t / V + 1` vector loads against `t` value loads, and about `t + V` element
/// steps (those outside the window skipped) against `t` taps: below a vector's taps the steps
/// double the loop's work for little saving in loads.
fn windows_pay(mean_taps: f64, vector: usize) -> bool {
    mean_taps >= vector as f64
}

/// The plane windows kernel: plane loops' units (a unit per destination pixel and group of
/// `planes` channels), each window read in source vectors of `vector` elements.
pub(super) fn gather_plane_windows<R: Runtime>(
    client: &ComputeClient<R>,
    io: &GatherIo,
    rows: &DeviceTable,
    cols: &DeviceTable,
    planes: u32,
    vector: usize,
) {
    let (count, dim) = plane_loop_grid(client, io, planes);
    // The source's batch, channel and height strides in vectors (`window_vector_fits`: whole).
    let layout = layout_arg(io.dst_view.shape, vector_strides(&io.src_view, vector, false), io.dst_view.strides);
    // SAFETY: as in `gather_pass`; every unit guards its index and reads only the channels of
    // its group below the channel count, the vectors covering its windows, which lie inside
    // their rows (whole vectors a row, `window_vector_fits`) of indices the tables hold
    // (contiguous rows: `window_vector` checked), and table slots below its rows' counts or
    // slot 0 of its rows, tap-major (the kernel's layout).
    unsafe {
        let (src, dst) = arrays(io, vector, 1);
        macro_rules! launch {
            ($fs:ty, $fd:ty, $a:ty) => {
                separable_gather_plane_windows::launch_unchecked::<$fs, $fd, $a, R>(
                    client,
                    count,
                    dim,
                    vector,
                    src,
                    dst,
                    rows.arg(true),
                    cols.arg(true),
                    layout,
                    planes,
                    PLANE_LOOP_GROUP,
                )
            };
        }
        dispatch_dtypes!(io, launch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nchw([n, c, h, w]: [usize; 4], row: usize) -> Checked4 {
        Checked4 {
            shape: [n, c, h, w],
            strides: [c * h * row, h * row, row, 1],
        }
    }

    /// The widest vector whose lanes divide the width and the strides: 16-byte bf16 vectors of
    /// 8 for 1080p rows (1920), 4 where the width is 1916, none for odd widths, padded rows that
    /// break the vectors, or a strided width.
    #[test]
    fn windows_take_the_widest_vector_that_divides_rows() {
        let sizes = || [8, 4, 2, 1].into_iter();
        assert_eq!(window_vector_fits(&nchw([8, 3, 1080, 1920], 1920), sizes()), Some(8));
        assert_eq!(window_vector_fits(&nchw([8, 3, 1080, 1916], 1916), sizes()), Some(4));
        assert_eq!(window_vector_fits(&nchw([8, 3, 1080, 1916], 1918), sizes()), Some(2));
        assert_eq!(window_vector_fits(&nchw([8, 3, 1080, 1915], 1915), sizes()), None);
        assert_eq!(window_vector_fits(&nchw([1, 3, 1080, 1920], 1921), sizes()), None);
        let mut strided = nchw([1, 3, 10, 16], 32);
        strided.strides[3] = 2;
        assert_eq!(window_vector_fits(&strided, sizes()), None);
        assert!(windows_pay(35.0, 8) && windows_pay(8.0, 8) && !windows_pay(7.9, 8));
    }
}
