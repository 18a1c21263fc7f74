// RUN: not amp-opt %s -amp-loss-scaling=mode=sometimes 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not amp-opt %s -amp-loss-scaling=init-scale=0 2>&1 | FileCheck %s --check-prefix=INIT
// RUN: not amp-opt %s -amp-loss-scaling=init-scale=1e39 2>&1 | FileCheck %s --check-prefix=INIT
// RUN: not amp-opt %s -amp-loss-scaling=backoff-factor=1.5 2>&1 | FileCheck %s --check-prefix=FACTORS
// RUN: not amp-opt %s -amp-loss-scaling=growth-interval=0 2>&1 | FileCheck %s --check-prefix=FACTORS
// MODE: error: amp-loss-scaling: mode (loss-scale in amp-mixed-precision) must be dynamic, static or none, got 'sometimes'
// INIT: error: amp-loss-scaling: init-scale must be a finite fp32 value > 0
// FACTORS: error: amp-loss-scaling: need growth-interval >= 1, growth-factor > 1 and 0 < backoff-factor < 1
func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
