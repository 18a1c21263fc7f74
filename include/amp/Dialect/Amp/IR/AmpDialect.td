//===- AmpDialect.td - the amp dialect ---------------------*- tablegen -*-===//
//
// The `amp` dialect marks the parts of a training step that mixed-precision
// training rewrites (the backward seed, parameter gradients) and holds the ops
// that loss scaling introduces (fused unscale + non-finite check, scale update).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_DIALECT_AMP_IR_AMPDIALECT_TD
#define AMP_DIALECT_AMP_IR_AMPDIALECT_TD

include "mlir/IR/OpBase.td"

def Amp_Dialect : Dialect {
  let name = "amp";
  let cppNamespace = "::mlir::amp";
  let summary = "Mixed-precision training: loss scaling and gradient markers";
  let description = [{
    Ops that mark a differentiated fp32 training step (`amp.loss_grad`,
    `amp.grad`) and the ops that loss scaling inserts
    (`amp.unscale_and_check`, `amp.update_scale`). Semantics follow
    Micikevicius et al., "Mixed Precision Training" (ICLR 2018) and PyTorch's
    `torch.amp.GradScaler` (`_amp_foreach_non_finite_check_and_unscale_`,
    `_amp_update_scale_`). The training-step contract that these ops belong
    to is described in docs/training-step.md.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

class Amp_Op<string mnemonic, list<Trait> traits = []>
    : Op<Amp_Dialect, mnemonic, traits>;

#endif // AMP_DIALECT_AMP_IR_AMPDIALECT_TD
