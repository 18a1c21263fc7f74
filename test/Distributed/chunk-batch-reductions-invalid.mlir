// amp-chunk-batch-reductions refuses, with located errors, what it cannot
// reproduce as ranks: a chunk count below 1, a batch size the count does
// not divide, a dynamic batch, a module without a training step.
// RUN: amp-opt %s -split-input-file -verify-diagnostics -amp-chunk-batch-reductions=chunks=3
// RUN: not amp-opt %s -split-input-file -amp-chunk-batch-reductions=chunks=0 2>&1 | FileCheck %s --check-prefix=ZERO
// ZERO: error: amp-chunk-batch-reductions: chunks=0: give the number of ranks to reproduce (>= 1)
// RUN: echo 'func.func @f() { return }' | not amp-opt -amp-chunk-batch-reductions=chunks=2 2>&1 | FileCheck %s --check-prefix=NOSTEP
// NOSTEP: error: amp-chunk-batch-reductions: no func.func with the amp.train_step attribute

func.func @four(%w: tensor<4xf32> {amp.role = "param"},
                // expected-error @+1 {{amp-chunk-batch-reductions: chunks=3 does not divide the batch size 4 (each chunk is one rank's batch)}}
                %x: tensor<4x4xf32> {amp.role = "input"},
                %y: tensor<4xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %gw = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %gw : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

func.func @dynamic(%w: tensor<4xf32> {amp.role = "param"},
                   // expected-error @+1 {{amp-chunk-batch-reductions: the input's batch dimension is dynamic; chunks need a static batch size}}
                   %x: tensor<?x4xf32> {amp.role = "input"},
                   %y: tensor<?xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %gw = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %gw : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}

// -----

// The step's contract is checked first.
// expected-error @+1 {{training step 'nolabel' needs one argument with amp.role = "label" (or "target")}}
func.func @nolabel(%w: tensor<4xf32> {amp.role = "param"},
                   %x: tensor<4x4xf32> {amp.role = "input"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<4xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %loss = tensor.extract_slice %w[0] [1] [1] : tensor<4xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<4xf32>
  %gw = amp.grad %dw, %w : tensor<4xf32>
  %w1 = arith.subf %w, %gw : tensor<4xf32>
  return %loss, %w1 : tensor<f32>, tensor<4xf32>
}
