//! Gradients: under `Autodiff<B>` the forward registers a backward step that runs the adjoint
//! (and the adjoint's own gradient is the forward: both are linear). Nothing is checkpointed;
//! the adjoint needs only the shapes.

use burn::backend::autodiff::checkpoint::base::Checkpointer;
use burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy;
use burn::backend::autodiff::grads::Gradients;
use burn::backend::autodiff::ops::{Backward, Ops, OpsKind};
use burn::backend::Autodiff;
use burn::tensor::ops::FloatTensor;
use interp_runtime::InterpError;

use crate::backend::{InterpBackend, Resize4};

impl<B: InterpBackend, C: CheckpointStrategy> InterpBackend for Autodiff<B, C> {
    fn interp_forward(x: FloatTensor<Self>, resize: &Resize4) -> Result<FloatTensor<Self>, InterpError> {
        match Linear::<false>.prepare::<C>([x.node.clone()]).compute_bound().stateful() {
            OpsKind::Tracked(prep) => Ok(prep.finish(resize.clone(), B::interp_forward(x.primitive, resize)?)),
            OpsKind::UnTracked(prep) => Ok(prep.finish(B::interp_forward(x.primitive, resize)?)),
        }
    }

    fn interp_backward(grad_out: FloatTensor<Self>, resize: &Resize4) -> Result<FloatTensor<Self>, InterpError> {
        match Linear::<true>.prepare::<C>([grad_out.node.clone()]).compute_bound().stateful() {
            OpsKind::Tracked(prep) => Ok(prep.finish(resize.clone(), B::interp_backward(grad_out.primitive, resize)?)),
            OpsKind::UnTracked(prep) => Ok(prep.finish(B::interp_backward(grad_out.primitive, resize)?)),
        }
    }
}

/// The backward step of the forward (`ADJOINT = false`: its gradient is the adjoint) or of the
/// adjoint (`true`: its gradient is the forward).
#[derive(Debug)]
struct Linear<const ADJOINT: bool>;

impl<B: InterpBackend, const ADJOINT: bool> Backward<B, 1> for Linear<ADJOINT> {
    type State = Resize4;

    fn backward(self, ops: Ops<Self::State, 1>, grads: &mut Gradients, _checkpointer: &mut Checkpointer) {
        let [parent] = ops.parents;
        let grad = grads.consume::<B>(&ops.node);
        let Some(parent) = parent else { return };
        // The forward validated this resize; a refusal here is a device-level one (e.g. memory).
        let result = if ADJOINT {
            B::interp_forward(grad, &ops.state)
        } else {
            B::interp_backward(grad, &ops.state)
        };
        grads.register::<B>(parent.id, result.unwrap_or_else(|error| panic!("interp_burn backward: {error}")));
    }
}
