// Re-batching through a gather (2026-12-07; refused before): torch-mlir
// lowers nearest upsampling (F.interpolate, nn.Upsample) to a linalg.generic
// with no inputs whose body reads the source with tensor.extract at
// (linalg.index 0, linalg.index 1, f(index 2), f(index 3)). Each example
// reads its own slice when the batch index is linalg.index of the loop that
// writes the output's batch; the output's empty init is rebuilt at the new
// batch.
// RUN: amp-opt %s --amp-build-train-step="loss=mse batch=8 function=forward" -o %t.mlir
// RUN: FileCheck %s < %t.mlir
// CHECK-LABEL: func.func @train_step(
// CHECK: %[[UP:.*]] = tensor.empty() : tensor<8x2x6x6xf32>
// CHECK: linalg.generic {{.*}} outs(%[[UP]] : tensor<8x2x6x6xf32>)
// CHECK: %[[N:.*]] = linalg.index 0 : index
// CHECK: tensor.extract %{{.*}}[%[[N]], %{{.*}}, %{{.*}}, %{{.*}}] : tensor<8x2x3x3xf32>
//
// The re-batched forward computes each example as the batch-1 model does,
// bit for bit (batch 8 and a dynamic batch run at 8; upstream lowering):
// RUN: %python %amp_src_root/scripts/check-rebatch-forward.py %s %amp_obj_root | FileCheck %s --check-prefix=EXEC
// EXEC: max |fwd1 - fwd8| = 0, max |fwd1 - fwd(dynamic at 8)| = 0, max |fwd1| = {{[1-9]}}
//
// Against finite differences at batch 8, and training in every precision:
// RUN: amp-run %t.mlir --data=synthetic --check-gradients | FileCheck %s --check-prefix=GRAD
// GRAD: (tolerance 1e-05): passed
// RUN: amp-run %t.mlir --data=synthetic --run=f32,f16+dynamic,bf16 --max-steps=3 --threads=1 --progress=false 2>&1 | FileCheck %s --check-prefix=TRAIN
// TRAIN: f32{{ +}}[[L:[0-9]\.[0-9][0-9]]]
// TRAIN: f16 + dynamic{{ +}}[[L]]
// TRAIN: bf16{{ +}}[[L]]
//
// A gather that reads the batch at another index, one whose batch index is
// also used as a number, and one whose loop does not run over the batch are
// refused, located:
// RUN: not amp-opt %s --split-input-file --amp-rebatch="batch=8" -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: rebatch-gather.mlir:[[#@LINE+48]]:10: error: amp-rebatch: batch=8: 'tensor.extract' inside 'linalg.generic' reads dimension 0 of a value that carries the batch (dimension 0 of the input, argument #0) at an index other than linalg.index of a loop of the op; it would read across examples
// BAD: rebatch-gather.mlir:[[#@LINE+57]]:8: error: amp-rebatch: batch=8: 'linalg.generic' reads linalg.index 0, the position in the batch
// BAD: rebatch-gather.mlir:[[#@LINE+73]]:8: error: amp-rebatch: batch=8: 'linalg.generic' gathers the batch (dimension 0 of the input, argument #0) with loop d0, which runs over 1 example, not the 2 it was traced with; it cannot be re-batched

#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
  func.func @forward(%arg0: tensor<1x2x3x3xf32>) -> tensor<1x2x6x6xf32> {
    %zero = arith.constant 0.000000e+00 : f32
    %two = arith.constant 2.000000e+00 : f32
    %c2_i64 = arith.constant 2 : i64
    %w = arith.constant dense<[[[[0.7]], [[-0.4]]], [[[0.3]], [[0.9]]]]> : tensor<2x2x1x1xf32>
    %e3 = tensor.empty() : tensor<1x2x3x3xf32>
    %z3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
    %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg0, %w : tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) outs(%z3 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
    %e6 = tensor.empty() : tensor<1x2x6x6xf32>
    %up = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e6 : tensor<1x2x6x6xf32>) {
    ^bb0(%out: f32):
      %n = linalg.index 0 : index
      %c = linalg.index 1 : index
      %h = linalg.index 2 : index
      %v = linalg.index 3 : index
      %hi = arith.index_cast %h : index to i64
      %hf = arith.sitofp %hi : i64 to f32
      %hd = arith.divf %hf, %two : f32
      %hfl = math.floor %hd : f32
      %hs = arith.fptosi %hfl : f32 to i64
      %hm = arith.minsi %hs, %c2_i64 : i64
      %hx = arith.index_cast %hm : i64 to index
      %vi = arith.index_cast %v : index to i64
      %vf = arith.sitofp %vi : i64 to f32
      %vd = arith.divf %vf, %two : f32
      %vfl = math.floor %vd : f32
      %vs = arith.fptosi %vfl : f32 to i64
      %vm = arith.minsi %vs, %c2_i64 : i64
      %vx = arith.index_cast %vm : i64 to index
      %g = tensor.extract %conv[%n, %c, %hx, %vx] : tensor<1x2x3x3xf32>
      linalg.yield %g : f32
    } -> tensor<1x2x6x6xf32>
    return %up : tensor<1x2x6x6xf32>
  }

// -----

func.func @constant_index(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<1x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<1x4xf32>) {
  ^bb0(%out: f32):
    %j = linalg.index 1 : index
    %g = tensor.extract %x[%c0, %j] : tensor<1x4xf32>
    linalg.yield %g : f32
  } -> tensor<1x4xf32>
  return %r : tensor<1x4xf32>
}

// -----

func.func @index_as_number(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %e = tensor.empty() : tensor<1x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<1x4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %g = tensor.extract %x[%i, %j] : tensor<1x4xf32>
    %ii = arith.index_cast %i : index to i64
    %fi = arith.sitofp %ii : i64 to f32
    %s = arith.addf %g, %fi : f32
    linalg.yield %s : f32
  } -> tensor<1x4xf32>
  return %r : tensor<1x4xf32>
}

// -----

func.func @part_of_batch(%x: tensor<2x4xf32>) -> tensor<1x4xf32> {
  %e = tensor.empty() : tensor<1x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<1x4xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %g = tensor.extract %x[%i, %j] : tensor<2x4xf32>
    linalg.yield %g : f32
  } -> tensor<1x4xf32>
  return %r : tensor<1x4xf32>
}
