//! The public entry points: validate everything, then launch.

use cubecl::prelude::*;
use interp_kernels::Filter;

use crate::error::InterpError;
use crate::launch::{axis_table, gather, Direction, GatherIo};
use crate::options::{FilterVisitor, InterpolateOptions, ResizeOptions};
use crate::plan::{plan, Plan};
use crate::tensor::{check_no_alias, check_no_self_overlap, check_tensor, TensorRef};

/// The forward output shape `interpolate` will produce for `input_shape` with `options`.
pub fn output_shape(input_shape: [usize; 4], options: &InterpolateOptions) -> Result<[usize; 4], InterpError> {
    Ok(plan(&options.mode.desc(), input_shape, &options.resize_options())?.output)
}

/// Resamples `input` into `output` with a built-in mode.
pub fn interpolate<R: Runtime>(
    client: &ComputeClient<R>,
    input: TensorRef,
    output: TensorRef,
    options: &InterpolateOptions,
) -> Result<Plan, InterpError> {
    struct Forward<'a, R: Runtime> {
        client: &'a ComputeClient<R>,
        input: TensorRef<'a>,
        output: TensorRef<'a>,
        options: ResizeOptions,
    }
    impl<R: Runtime> FilterVisitor for Forward<'_, R> {
        type Output = Result<Plan, InterpError>;
        fn visit<F: Filter>(self) -> Self::Output {
            interpolate_with::<R, F>(self.client, self.input, self.output, &self.options)
        }
    }
    options.mode.visit(Forward {
        client,
        input,
        output,
        options: options.resize_options(),
    })
}

/// Gradient of [`interpolate`]: reads `grad_out`, writes every element of `grad_in`
/// (deterministically, no atomics).
pub fn interpolate_backward<R: Runtime>(
    client: &ComputeClient<R>,
    grad_out: TensorRef,
    grad_in: TensorRef,
    options: &InterpolateOptions,
) -> Result<Plan, InterpError> {
    struct Backward<'a, R: Runtime> {
        client: &'a ComputeClient<R>,
        grad_out: TensorRef<'a>,
        grad_in: TensorRef<'a>,
        options: ResizeOptions,
    }
    impl<R: Runtime> FilterVisitor for Backward<'_, R> {
        type Output = Result<Plan, InterpError>;
        fn visit<F: Filter>(self) -> Self::Output {
            interpolate_backward_with::<R, F>(self.client, self.grad_out, self.grad_in, &self.options)
        }
    }
    options.mode.visit(Backward {
        client,
        grad_out,
        grad_in,
        options: options.resize_options(),
    })
}

/// [`interpolate`] for any declared filter, built-in or your own.
pub fn interpolate_with<R: Runtime, F: Filter>(
    client: &ComputeClient<R>,
    input: TensorRef,
    output: TensorRef,
    options: &ResizeOptions,
) -> Result<Plan, InterpError> {
    let dtype = input.dtype;
    check_dtype(client, dtype)?;
    let src = check_tensor("input", &input, dtype, alignment(client))?;
    let plan = plan(&F::DESC, src.shape, options)?;
    let dst = check_tensor("output", &output, dtype, alignment(client))?;
    if dst.shape != plan.output {
        return Err(InterpError::OutputShape {
            expected: plan.output,
            actual: output.shape.to_vec(),
        });
    }
    check_no_self_overlap("output", &dst)?;
    check_no_alias(("output", &output, &dst), ("input", &input, &src))?;
    let io = GatherIo {
        src: input.handle,
        src_view: src,
        dst: output.handle,
        dst_view: dst,
        src_dtype: dtype,
        dst_dtype: dtype,
    };
    resample::<R, F>(client, &io, &plan, Direction::Forward)?;
    Ok(plan)
}

/// [`interpolate_backward`] for any declared filter.
pub fn interpolate_backward_with<R: Runtime, F: Filter>(
    client: &ComputeClient<R>,
    grad_out: TensorRef,
    grad_in: TensorRef,
    options: &ResizeOptions,
) -> Result<Plan, InterpError> {
    let dtype = grad_out.dtype;
    check_dtype(client, dtype)?;
    let dst = check_tensor("grad_in", &grad_in, dtype, alignment(client))?;
    let plan = plan(&F::DESC, dst.shape, options)?;
    let src = check_tensor("grad_out", &grad_out, dtype, alignment(client))?;
    if src.shape != plan.output {
        return Err(InterpError::GradOutShape {
            input: plan.input,
            expected: plan.output,
            actual: grad_out.shape.to_vec(),
        });
    }
    check_no_self_overlap("grad_in", &dst)?;
    check_no_alias(("grad_in", &grad_in, &dst), ("grad_out", &grad_out, &src))?;
    let io = GatherIo {
        src: grad_out.handle,
        src_view: src,
        dst: grad_in.handle,
        dst_view: dst,
        src_dtype: dtype,
        dst_dtype: dtype,
    };
    resample::<R, F>(client, &io, &plan, Direction::Adjoint)?;
    Ok(plan)
}

/// Builds both axes' tables on the host (every size checked before anything is uploaded),
/// then uploads them and gathers.
fn resample<R: Runtime, F: Filter>(client: &ComputeClient<R>, io: &GatherIo, plan: &Plan, direction: Direction) -> Result<(), InterpError> {
    let rows = axis_table(client, "height", &F::DESC, F::weight_f64, &plan.rows, direction)?;
    let cols = axis_table(client, "width", &F::DESC, F::weight_f64, &plan.cols, direction)?;
    gather(client, io, &rows.upload(client), &cols.upload(client));
    Ok(())
}

/// The byte multiple at which the device binds a buffer.
fn alignment<R: Runtime>(client: &ComputeClient<R>) -> u64 {
    client.properties().memory.alignment
}

fn check_dtype<R: Runtime>(client: &ComputeClient<R>, dtype: crate::dtype::DType) -> Result<(), InterpError> {
    if dtype.is_supported(client) {
        Ok(())
    } else {
        Err(InterpError::UnsupportedDtype {
            dtype,
            runtime: R::name(client).to_string(),
        })
    }
}
