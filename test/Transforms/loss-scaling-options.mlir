// RUN: not amp-opt %s -amp-loss-scaling=mode=sometimes 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not amp-opt %s -amp-loss-scaling=init-scale=0 2>&1 | FileCheck %s --check-prefix=INIT
// RUN: not amp-opt %s -amp-loss-scaling=init-scale=1e39 2>&1 | FileCheck %s --check-prefix=INIT
// RUN: not amp-opt %s -amp-loss-scaling=backoff-factor=1.5 2>&1 | FileCheck %s --check-prefix=FACTORS
// RUN: not amp-opt %s -amp-loss-scaling=growth-interval=0 2>&1 | FileCheck %s --check-prefix=FACTORS
// RUN: not amp-opt %s -amp-loss-scaling=hysteresis=0 2>&1 | FileCheck %s --check-prefix=HYST
// RUN: not amp-opt %s "-amp-loss-scaling=min-scale=4 max-scale=2" 2>&1 | FileCheck %s --check-prefix=CLAMPS
// RUN: not amp-opt %s -amp-loss-scaling=min-scale=0 2>&1 | FileCheck %s --check-prefix=CLAMPS
// RUN: not amp-opt %s -amp-loss-scaling=max-scale=1e39 2>&1 | FileCheck %s --check-prefix=CLAMPS
// RUN: not amp-opt %s "-amp-loss-scaling=init-scale=65536 max-scale=1024" 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not amp-opt %s -amp-loss-scaling=precision=f8 2>&1 | FileCheck %s --check-prefix=PREC
// MODE: error: amp-loss-scaling: mode (loss-scale in amp-mixed-precision) must be auto, dynamic, static or none, got 'sometimes'
// HYST: error: amp-loss-scaling: hysteresis must be >= 1 overflowing step (1: back off on every overflow, as PyTorch), got 0
// CLAMPS: error: amp-loss-scaling: need 0 < min-scale <= max-scale, both finite non-zero fp32 values
// RANGE: error: amp-loss-scaling: init-scale 6.553600e+04 lies outside [min-scale, max-scale] = [5.960464e-08, 1.024000e+03]
// PREC: error: amp-loss-scaling: precision must be f16, bf16 or f32, got 'f8'
// INIT: error: amp-loss-scaling: init-scale must be a finite fp32 value > 0
// FACTORS: error: amp-loss-scaling: need growth-interval >= 1, growth-factor > 1 and 0 < backoff-factor < 1
// Loss scaling with bf16 is a user error in the pass, the pipeline and so
// the embedding API (they share the pass); auto (the default) picks none.
// RUN: not amp-opt %s "-amp-loss-scaling=mode=dynamic precision=bf16" 2>&1 | FileCheck %s --check-prefix=BF16
// RUN: not amp-opt %s "-amp-loss-scaling=mode=static precision=bf16" 2>&1 | FileCheck %s --check-prefix=BF16S
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir "--amp-mixed-precision=precision=bf16 loss-scale=dynamic" 2>&1 | FileCheck %s --check-prefix=BF16
// BF16: error: amp-loss-scaling: loss-scale=dynamic with precision=bf16: bf16 has fp32's exponent range (8 exponent bits, smallest normal ~1.2e-38), so gradients do not underflow and loss scaling only costs a check and skipped steps; PyTorch's GradScaler is for fp16 only (shared REFERENCE.md). Use loss-scale=none or auto with bf16
// BF16S: error: amp-loss-scaling: loss-scale=static with precision=bf16
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir "--amp-mixed-precision=precision=bf16" | FileCheck %s --check-prefix=AUTOBF16
// AUTOBF16-LABEL: func.func @train_step
// AUTOBF16-NOT: loss_scale
// AUTOBF16-NOT: found_inf
// AUTOBF16: arith.truncf %arg0 : tensor<784x256xf32> to tensor<784x256xbf16>
// AUTOBF16-NOT: amp.unscale_and_check
// AUTOBF16-NOT: scf.if
// AUTOBF16-LABEL: func.func @eval_step
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir "--amp-mixed-precision=precision=f16" | FileCheck %s --check-prefix=AUTOF16
// AUTOF16: amp.role = "loss_scale"
// AUTOF16: amp.update_scale
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
