// Each bad option is named with its value (MixedPrecisionConfig::validate,
// the same lines amp-run and the API report).
// RUN: not amp-opt %s -amp-loss-scaling=mode=sometimes 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not amp-opt %s -amp-loss-scaling=init-scale=0 2>&1 | FileCheck %s --check-prefix=INIT
// RUN: not amp-opt %s -amp-loss-scaling=init-scale=1e39 2>&1 | FileCheck %s --check-prefix=INIT
// A subnormal scale: its inverse 1/S is inf in fp32 (the unscale would
// poison every parameter).
// RUN: not amp-opt %s "-amp-loss-scaling=init-scale=1e-39 min-scale=1e-39" 2>&1 | FileCheck %s --check-prefix=INIT
// RUN: not amp-opt %s -amp-loss-scaling=backoff-factor=1.5 2>&1 | FileCheck %s --check-prefix=BACKOFF
// RUN: not amp-opt %s -amp-loss-scaling=growth-interval=0 2>&1 | FileCheck %s --check-prefix=INTERVAL
// RUN: not amp-opt %s -amp-loss-scaling=growth-factor=inf 2>&1 | FileCheck %s --check-prefix=GROWTH
// The factors are applied in fp32: 1e308 rounds to inf, 1.00000001 to 1.
// RUN: not amp-opt %s -amp-loss-scaling=growth-factor=1e308 2>&1 | FileCheck %s --check-prefix=GROWTH
// RUN: not amp-opt %s -amp-loss-scaling=growth-factor=1.00000001 2>&1 | FileCheck %s --check-prefix=GROWTH
// RUN: not amp-opt %s -amp-loss-scaling=backoff-factor=0.999999999 2>&1 | FileCheck %s --check-prefix=BACKOFF
// RUN: not amp-opt %s -amp-loss-scaling=hysteresis=0 2>&1 | FileCheck %s --check-prefix=HYST
// RUN: not amp-opt %s "-amp-loss-scaling=min-scale=4 max-scale=2" 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: not amp-opt %s -amp-loss-scaling=min-scale=0 2>&1 | FileCheck %s --check-prefix=MIN
// RUN: not amp-opt %s -amp-loss-scaling=max-scale=1e39 2>&1 | FileCheck %s --check-prefix=MAX
// RUN: not amp-opt %s "-amp-loss-scaling=init-scale=65536 max-scale=1024" 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not amp-opt %s "-amp-loss-scaling=mode=static init-scale=65536 max-scale=1024" 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not amp-opt %s -amp-loss-scaling=precision=f8 2>&1 | FileCheck %s --check-prefix=PREC
// MODE: for the --mode option: 'sometimes' is not a loss-scale mode (auto, dynamic, static or none)
// HYST: error: amp-loss-scaling: hysteresis=0: must be >= 1 overflowing step (1: back off on every overflow, as PyTorch)
// ORDER: error: amp-loss-scaling: min-scale=4: exceeds max-scale=2
// MIN: error: amp-loss-scaling: min-scale=0: must be a finite fp32 value of at least 2^-126 (1.17549e-38): the scale and its inverse 1/S are stored in fp32
// MAX: error: amp-loss-scaling: max-scale=1e+39: must be a finite fp32 value of at least 2^-126
// RANGE: error: amp-loss-scaling: init-scale=65536: lies outside [min-scale, max-scale] = [5.96046e-08, 1024]
// PREC: for the --precision option: 'f8' is not a precision (f16, bf16 or f32)
// INIT: error: amp-loss-scaling: init-scale={{0|1e\+39|1e-39}}: must be a finite fp32 value of at least 2^-126
// BACKOFF: error: amp-loss-scaling: backoff-factor={{1.5|1}}: must lie in (0, 1) (in fp32)
// INTERVAL: error: amp-loss-scaling: growth-interval=0: must be >= 1 clean step
// GROWTH: error: amp-loss-scaling: growth-factor={{inf|1e\+308|1}}: must be finite and > 1 (in fp32)
// Loss scaling with bf16 is a user error in the pass, the pipeline and so
// the embedding API (they share the pass); auto (the default) picks none.
// RUN: not amp-opt %s "-amp-loss-scaling=mode=dynamic precision=bf16" 2>&1 | FileCheck %s --check-prefix=BF16
// RUN: not amp-opt %s "-amp-loss-scaling=mode=static precision=bf16" 2>&1 | FileCheck %s --check-prefix=BF16S
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir "--amp-mixed-precision=precision=bf16 loss-scale=dynamic" 2>&1 | FileCheck %s --check-prefix=BF16
// BF16: error: amp-loss-scaling: loss-scale=dynamic: no loss scaling with precision=bf16: bf16 has fp32's exponent range (8 exponent bits, smallest normal ~1.2e-38), so gradients do not underflow and loss scaling only costs a check and skipped steps; PyTorch's GradScaler is for fp16 only. Use loss-scale=none or auto with bf16
// BF16S: error: amp-loss-scaling: loss-scale=static: no loss scaling with precision=bf16
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
