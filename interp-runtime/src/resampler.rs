//! A reusable plan: one (method, input shape, options) validated once, its tables built and
//! uploaded once per direction, then any number of forward and backward calls that pay the
//! gather alone.

use std::sync::{Arc, Mutex};

use cubecl::prelude::*;

use crate::dtype::DType;
use crate::error::InterpError;
use crate::launch::{axis_table, check_loop_limit, gather, DeviceTable, Direction, GatherIo};
use crate::method::{resolve, Method, Rule};
use crate::options::{Options, Tuning};
use crate::plan::{plan, Plan};
use crate::tensor::{check_no_alias, check_no_self_overlap, check_tensor, Checked4, TensorRef};

/// One resize, planned once: a layer keeps one and calls [`forward`](Self::forward) and
/// [`backward`](Self::backward) every step. Tables are built on the first call of each
/// direction and kept on the device; the launch (strategy, vectors) is chosen per call from the
/// tensors' layout and dtype, a pure function of them.
///
/// ```
/// use interp_runtime::cubecl::prelude::*;
/// use interp_runtime::{DType, Mode, Options, Resampler, TensorRef};
///
/// let client = interp_runtime::default_client()?;
/// let up = Resampler::new(&client, Mode::Bicubic, [1, 3, 4, 4], &Options::size(8, 8))?;
/// assert_eq!(up.output_shape(), [1, 3, 8, 8]);
///
/// let x = client.create_from_slice(&[0.5f32; 48].map(f32::to_le_bytes).concat());
/// let y = client.empty(3 * 64 * 4);
/// up.forward(
///     TensorRef::new(&x, &[1, 3, 4, 4], &[48, 16, 4, 1], DType::F32),
///     TensorRef::new(&y, &[1, 3, 8, 8], &[192, 64, 8, 1], DType::F32),
/// )?;
/// let y: Vec<f32> = client.read_one(y).unwrap().chunks(4).map(|b| f32::from_le_bytes(b.try_into().unwrap())).collect();
/// assert!(y.iter().all(|v| (v - 0.5).abs() < 1e-6)); // a constant stays constant
/// # Ok::<(), interp_runtime::InterpError>(())
/// ```
pub struct Resampler<R: Runtime> {
    client: ComputeClient<R>,
    name: String,
    rule: Rule,
    plan: Plan,
    tuning: Tuning,
    forward: Mutex<Option<Arc<Tables>>>,
    adjoint: Mutex<Option<Arc<Tables>>>,
}

/// Both axes' tables of one direction, on the device.
struct Tables {
    rows: DeviceTable,
    cols: DeviceTable,
}

impl<R: Runtime> Resampler<R> {
    /// Plans a resize of inputs of `input_shape` (N, C, H, W) with `method` and `options`.
    ///
    /// # Errors
    /// [`InterpError`] when the options do not suit the method (e.g. antialias for a sampler),
    /// the filter is invalid, or a size is out of range (zero, beyond [`MAX_AXIS`](crate::MAX_AXIS),
    /// more elements than the 32-bit kernels index).
    pub fn new(
        client: &ComputeClient<R>,
        method: impl Into<Method>,
        input_shape: [usize; 4],
        options: &Options,
    ) -> Result<Self, InterpError> {
        let method = method.into();
        let rule = resolve(&method, options)?;
        let plan = plan(&rule, input_shape, options)?;
        Ok(Self {
            client: client.clone(),
            name: method.name().to_string(),
            rule,
            plan,
            tuning: options.tuning,
            forward: Mutex::new(None),
            adjoint: Mutex::new(None),
        })
    }

    /// The input shape this resampler was planned for.
    pub fn input_shape(&self) -> [usize; 4] {
        self.plan.input
    }

    /// The output shape it produces.
    pub fn output_shape(&self) -> [usize; 4] {
        self.plan.output
    }

    /// The method's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// `output = resize(input)`. Both are any-strided views of the planned shapes, of one
    /// dtype; every element of `output` is written, nothing else.
    ///
    /// # Errors
    /// [`InterpError`] for a wrong shape, rank, dtype, stride or buffer size, an output that
    /// overlaps itself or the input, an unbindable offset, or tables the device cannot hold.
    /// Nothing is written then.
    pub fn forward(&self, input: TensorRef, output: TensorRef) -> Result<(), InterpError> {
        let io = self.io(("input", input, self.plan.input), ("output", output, self.plan.output))?;
        self.run(&io, Direction::Forward)
    }

    /// `grad_in = resize^T(grad_out)`, the exact adjoint of [`forward`](Self::forward): a
    /// gather in a fixed order, no atomics, the same bits on every run.
    ///
    /// # Errors
    /// As [`forward`](Self::forward), with `grad_out` of the output shape and `grad_in` of the
    /// input shape.
    pub fn backward(&self, grad_out: TensorRef, grad_in: TensorRef) -> Result<(), InterpError> {
        let io = self.io(("grad_out", grad_out, self.plan.output), ("grad_in", grad_in, self.plan.input))?;
        self.run(&io, Direction::Adjoint)
    }

    /// Validates a source and a destination against the plan's shapes.
    fn io<'a>(
        &self,
        (src_name, src, src_shape): (&'static str, TensorRef<'a>, [usize; 4]),
        (dst_name, dst, dst_shape): (&'static str, TensorRef<'a>, [usize; 4]),
    ) -> Result<GatherIo<'a>, InterpError> {
        let dtype = src.dtype;
        check_dtype(&self.client, dtype)?;
        let alignment = self.client.properties().memory.alignment;
        let src_view = check_tensor(src_name, &src, dtype, alignment)?;
        check_shape(src_name, &src_view, src_shape, &self.plan)?;
        let dst_view = check_tensor(dst_name, &dst, dtype, alignment)?;
        check_shape(dst_name, &dst_view, dst_shape, &self.plan)?;
        check_no_self_overlap(dst_name, &dst_view)?;
        check_no_alias((dst_name, &dst, &dst_view), (src_name, &src, &src_view))?;
        Ok(GatherIo {
            src: src.handle,
            src_view,
            src_dtype: dtype,
            dst: dst.handle,
            dst_view,
            dst_dtype: dtype,
            tuning: self.tuning,
        })
    }

    fn run(&self, io: &GatherIo, direction: Direction) -> Result<(), InterpError> {
        let tables = self.tables(direction)?;
        gather(&self.client, io, &tables.rows, &tables.cols);
        Ok(())
    }

    /// The direction's tables, built and uploaded on first use: both axes are built and
    /// checked on the host before anything is uploaded.
    fn tables(&self, direction: Direction) -> Result<Arc<Tables>, InterpError> {
        let slot = match direction {
            Direction::Forward => &self.forward,
            Direction::Adjoint => &self.adjoint,
        };
        // A poisoned lock only means another call panicked mid-build; the slot is still valid.
        let mut slot = slot.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tables) = &*slot {
            return Ok(tables.clone());
        }
        let rows = axis_table(&self.client, "height", &self.rule, &self.plan.rows, direction)?;
        let cols = axis_table(&self.client, "width", &self.rule, &self.plan.cols, direction)?;
        check_loop_limit(&self.client, rows.width(), cols.width())?;
        let tables = Arc::new(Tables {
            rows: rows.upload(&self.client),
            cols: cols.upload(&self.client),
        });
        *slot = Some(tables.clone());
        Ok(tables)
    }
}

/// Refuses a view whose shape is not the one the plan expects.
fn check_shape(name: &'static str, view: &Checked4, expected: [usize; 4], plan: &Plan) -> Result<(), InterpError> {
    if view.shape == expected {
        return Ok(());
    }
    let actual = view.shape.to_vec();
    Err(match name {
        "output" => InterpError::OutputShape { expected, actual },
        "grad_out" => InterpError::GradOutShape {
            input: plan.input,
            expected,
            actual,
        },
        tensor => InterpError::InputShape { tensor, expected, actual },
    })
}

pub(crate) fn check_dtype<R: Runtime>(client: &ComputeClient<R>, dtype: DType) -> Result<(), InterpError> {
    if dtype.is_supported(client) {
        Ok(())
    } else {
        Err(InterpError::UnsupportedDtype {
            dtype,
            runtime: R::name(client).to_string(),
        })
    }
}
