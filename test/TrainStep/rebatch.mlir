// RUN: amp-opt %s --split-input-file --amp-rebatch="batch=8" | FileCheck %s
// RUN: amp-opt %s --split-input-file --amp-rebatch="batch=dynamic" | FileCheck %s --check-prefix=DYN
// Every re-batched model verifies, at a size and dynamic.
// RUN: amp-opt %s --split-input-file --amp-rebatch="batch=8" --verify-each -o /dev/null
// RUN: amp-opt %s --split-input-file --amp-rebatch="batch=dynamic" --verify-each -o /dev/null
// No batch, batch=0 or the traced batch: nothing changes.
// RUN: amp-opt %s --split-input-file --amp-rebatch | FileCheck %s --check-prefix=SAME
// RUN: amp-opt %s --split-input-file --amp-rebatch="batch=0" | FileCheck %s --check-prefix=SAME
// RUN: amp-opt %s --split-input-file --amp-rebatch="batch=1" | FileCheck %s --check-prefix=SAME

// A linear layer in torch-mlir's form (weight transposed, bias broadcast
// along the rows): the input, the fill, the matmul and the bias add become
// batch 8; the weight and its transpose keep their shapes.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (d1)>
func.func @linear(%x: tensor<1x3xf32>) -> tensor<1x2xf32> {
  %w = arith.constant dense<[[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]]> : tensor<2x3xf32>
  %b = arith.constant dense<[0.01, -0.02]> : tensor<2xf32>
  %zero = arith.constant 0.0 : f32
  %et = tensor.empty() : tensor<3x2xf32>
  %wt = linalg.transpose ins(%w : tensor<2x3xf32>) outs(%et : tensor<3x2xf32>) permutation = [1, 0]
  %e = tensor.empty() : tensor<1x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2xf32>) -> tensor<1x2xf32>
  %mm = linalg.matmul ins(%x, %wt : tensor<1x3xf32>, tensor<3x2xf32>) outs(%f : tensor<1x2xf32>) -> tensor<1x2xf32>
  %y = linalg.generic {indexing_maps = [#id2, #cols, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %b : tensor<1x2xf32>, tensor<2xf32>) outs(%e : tensor<1x2xf32>) {
  ^bb0(%a: f32, %bb: f32, %o: f32):
    %r = arith.addf %a, %bb : f32
    linalg.yield %r : f32
  } -> tensor<1x2xf32>
  return %y : tensor<1x2xf32>
}
// CHECK-LABEL: func.func @linear(
// CHECK-SAME: %[[X:.*]]: tensor<8x3xf32>) -> tensor<8x2xf32>
// CHECK: linalg.transpose ins(%{{.*}} : tensor<2x3xf32>) outs(%{{.*}} : tensor<3x2xf32>)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8x2xf32>
// CHECK: %[[F:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK: %[[MM:.*]] = linalg.matmul ins(%[[X]], %{{.*}} : tensor<8x3xf32>, tensor<3x2xf32>) outs(%[[F]] : tensor<8x2xf32>) -> tensor<8x2xf32>
// CHECK: %[[Y:.*]] = linalg.generic {{.*}} ins(%[[MM]], %{{.*}} : tensor<8x2xf32>, tensor<2xf32>) outs(%[[E]] : tensor<8x2xf32>)
// CHECK: return %[[Y]] : tensor<8x2xf32>

// DYN-LABEL: func.func @linear(
// DYN-SAME: %[[X:.*]]: tensor<?x3xf32>) -> tensor<?x2xf32>
// DYN: %[[C0:.*]] = arith.constant 0 : index
// DYN: %[[N:.*]] = tensor.dim %[[X]], %[[C0]] : tensor<?x3xf32>
// DYN: %[[E:.*]] = tensor.empty(%[[N]]) : tensor<?x2xf32>
// DYN: linalg.matmul ins(%[[X]], %{{.*}} : tensor<?x3xf32>, tensor<3x2xf32>) outs(%{{.*}} : tensor<?x2xf32>) -> tensor<?x2xf32>
// DYN: return %{{.*}} : tensor<?x2xf32>

// SAME-LABEL: func.func @linear(
// SAME-SAME: tensor<1x3xf32>) -> tensor<1x2xf32>

// -----

// A CNN as torch-mlir traces it at batch 1: pad, conv, ReLU with the batch
// read as a size-1 broadcast (0, d1, d2, d3), sum pool, a flatten that keeps
// the batch apart (1x4x1x1 -> 1x4) and a linear layer. The (0, ...) maps read
// the batch with d0 again.
#m4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#b4 = affine_map<(d0, d1, d2, d3) -> (0, d1, d2, d3)>
#ch = affine_map<(d0, d1, d2, d3) -> (d1)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (d1)>
func.func @cnn(%x: tensor<1x2x4x4xf32>) -> tensor<1x3xf32> {
  %zero = arith.constant 0.0 : f32
  %k = arith.constant dense<0.5> : tensor<4x2x3x3xf32>
  %cb = arith.constant dense<[0.1, 0.2, 0.3, 0.4]> : tensor<4xf32>
  %w = arith.constant dense<1.0> : tensor<3x4xf32>
  %padded = tensor.pad %x low[0, 0, 1, 1] high[0, 0, 1, 1] {
  ^bb0(%i: index, %j: index, %k2: index, %l: index):
    tensor.yield %zero : f32
  } : tensor<1x2x4x4xf32> to tensor<1x2x6x6xf32>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %bias = linalg.generic {indexing_maps = [#ch, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%cb : tensor<4xf32>) outs(%e : tensor<1x4x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x4x4x4xf32>
  %conv = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%padded, %k : tensor<1x2x6x6xf32>, tensor<4x2x3x3xf32>) outs(%bias : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %relu = linalg.generic {indexing_maps = [#b4, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%conv : tensor<1x4x4x4xf32>) outs(%e : tensor<1x4x4x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  } -> tensor<1x4x4x4xf32>
  %pe = tensor.empty() : tensor<1x4x1x1xf32>
  %pf = linalg.fill ins(%zero : f32) outs(%pe : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %win = tensor.empty() : tensor<4x4xf32>
  %pool = linalg.pooling_nchw_sum {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>}
      ins(%relu, %win : tensor<1x4x4x4xf32>, tensor<4x4xf32>) outs(%pf : tensor<1x4x1x1xf32>) -> tensor<1x4x1x1xf32>
  %flat = tensor.collapse_shape %pool [[0], [1, 2, 3]] : tensor<1x4x1x1xf32> into tensor<1x4xf32>
  %et = tensor.empty() : tensor<4x3xf32>
  %wt = linalg.transpose ins(%w : tensor<3x4xf32>) outs(%et : tensor<4x3xf32>) permutation = [1, 0]
  %me = tensor.empty() : tensor<1x3xf32>
  %mf = linalg.fill ins(%zero : f32) outs(%me : tensor<1x3xf32>) -> tensor<1x3xf32>
  %mm = linalg.matmul ins(%flat, %wt : tensor<1x4xf32>, tensor<4x3xf32>) outs(%mf : tensor<1x3xf32>) -> tensor<1x3xf32>
  return %mm : tensor<1x3xf32>
}
// CHECK-DAG: #[[B4:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
// CHECK-LABEL: func.func @cnn(
// CHECK-SAME: %[[X:.*]]: tensor<8x2x4x4xf32>) -> tensor<8x3xf32>
// CHECK: %[[P:.*]] = tensor.pad %[[X]] low[0, 0, 1, 1] high[0, 0, 1, 1]
// CHECK: } : tensor<8x2x4x4xf32> to tensor<8x2x6x6xf32>
// CHECK: %[[BIAS:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<4xf32>) outs(%{{.*}} : tensor<8x4x4x4xf32>)
// CHECK: %[[CONV:.*]] = linalg.conv_2d_nchw_fchw {{.*}} ins(%[[P]], %{{.*}} : tensor<8x2x6x6xf32>, tensor<4x2x3x3xf32>) outs(%[[BIAS]] : tensor<8x4x4x4xf32>) -> tensor<8x4x4x4xf32>
// CHECK: %[[RELU:.*]] = linalg.generic {indexing_maps = [#[[B4]], #[[B4]]], {{.*}} ins(%[[CONV]] : tensor<8x4x4x4xf32>) outs(%{{.*}} : tensor<8x4x4x4xf32>)
// CHECK: %[[POOL:.*]] = linalg.pooling_nchw_sum {{.*}} ins(%[[RELU]], %{{.*}} : tensor<8x4x4x4xf32>, tensor<4x4xf32>) outs(%{{.*}} : tensor<8x4x1x1xf32>) -> tensor<8x4x1x1xf32>
// CHECK: %[[FLAT:.*]] = tensor.collapse_shape %[[POOL]] {{\[\[}}0], [1, 2, 3]] : tensor<8x4x1x1xf32> into tensor<8x4xf32>
// CHECK: linalg.matmul ins(%[[FLAT]], %{{.*}} : tensor<8x4xf32>, tensor<4x3xf32>) outs(%{{.*}} : tensor<8x3xf32>) -> tensor<8x3xf32>

// DYN-LABEL: func.func @cnn(
// DYN-SAME: tensor<?x2x4x4xf32>) -> tensor<?x3xf32>
// DYN: tensor.pad
// DYN: } : tensor<?x2x4x4xf32> to tensor<?x2x6x6xf32>
// DYN: linalg.conv_2d_nchw_fchw {{.*}} -> tensor<?x4x4x4xf32>
// DYN: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2, 3]] : tensor<?x4x1x1xf32> into tensor<?x4xf32>

// -----

// A keepdim reduction (layer norm's mean: output map (d0, 0)) and its
// broadcast back, and a concat along the features.
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#keep = affine_map<(d0, d1) -> (d0, 0)>
func.func @keepdim(%x: tensor<1x4xf32>) -> tensor<1x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<1x1xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x1xf32>) -> tensor<1x1xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #keep], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1x4xf32>) outs(%f1 : tensor<1x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<1x1xf32>
  %e = tensor.empty() : tensor<1x4xf32>
  %centered = linalg.generic {indexing_maps = [#id2, #keep, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %sum : tensor<1x4xf32>, tensor<1x1xf32>) outs(%e : tensor<1x4xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = arith.subf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<1x4xf32>
  %both = tensor.concat dim(1) %centered, %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x8xf32>
  return %both : tensor<1x8xf32>
}
// CHECK-LABEL: func.func @keepdim(
// CHECK-SAME: %[[X:.*]]: tensor<8x4xf32>) -> tensor<8x8xf32>
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<8x4xf32>) outs(%{{.*}} : tensor<8x1xf32>)
// CHECK: %[[C:.*]] = linalg.generic {{.*}} ins(%[[X]], %[[SUM]] : tensor<8x4xf32>, tensor<8x1xf32>) outs(%{{.*}} : tensor<8x4xf32>)
// CHECK: tensor.concat dim(1) %[[C]], %[[X]] : (tensor<8x4xf32>, tensor<8x4xf32>) -> tensor<8x8xf32>

// DYN-LABEL: func.func @keepdim(
// DYN: tensor.concat dim(1) %{{.*}}, %{{.*}} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x8xf32>

// -----

// torch-mlir's matmul of a 1 x T x D activation with a D x H weight at batch
// 1: the batch is collapsed away (1x2x8 -> 2x8), then broadcast back over a
// size-1 loop, and the weight broadcast to 1 x D x H for batch_matmul. The
// collapse keeps the batch apart (here: no collapse at all), the broadcast
// reads it with d0, and the weight's broadcast is rebuilt at batch 8.
#w2 = affine_map<(d0, d1, d2) -> (d1, d2)>
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @squeezed(%x: tensor<1x2x8xf32>) -> tensor<1x2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<0.5> : tensor<8x4xf32>
  %e = tensor.empty() : tensor<1x2x8xf32>
  %c = tensor.collapse_shape %x [[0, 1], [2]] : tensor<1x2x8xf32> into tensor<2x8xf32>
  %xb = linalg.generic {indexing_maps = [#w2, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c : tensor<2x8xf32>) outs(%e : tensor<1x2x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x2x8xf32>
  %we = tensor.empty() : tensor<1x8x4xf32>
  %wb = linalg.generic {indexing_maps = [#w2, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w : tensor<8x4xf32>) outs(%we : tensor<1x8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x8x4xf32>
  %oe = tensor.empty() : tensor<1x2x4xf32>
  %of = linalg.fill ins(%zero : f32) outs(%oe : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  %y = linalg.batch_matmul ins(%xb, %wb : tensor<1x2x8xf32>, tensor<1x8x4xf32>) outs(%of : tensor<1x2x4xf32>) -> tensor<1x2x4xf32>
  return %y : tensor<1x2x4xf32>
}
// CHECK-DAG: #[[ID3:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @squeezed(
// CHECK-SAME: %[[X:.*]]: tensor<8x2x8xf32>) -> tensor<8x2x4xf32>
// CHECK-NOT: tensor.collapse_shape
// CHECK: %[[XB:.*]] = linalg.generic {indexing_maps = [#[[ID3]], #[[ID3]]], {{.*}} ins(%[[X]] : tensor<8x2x8xf32>) outs(%{{.*}} : tensor<8x2x8xf32>)
// CHECK: %[[WB:.*]] = linalg.generic {{.*}} ins(%{{.*}} : tensor<8x4xf32>) outs(%{{.*}} : tensor<8x8x4xf32>)
// CHECK: linalg.batch_matmul ins(%[[XB]], %[[WB]] : tensor<8x2x8xf32>, tensor<8x8x4xf32>) outs(%{{.*}} : tensor<8x2x4xf32>) -> tensor<8x2x4xf32>

// DYN-LABEL: func.func @squeezed(
// DYN: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<?x2x8xf32>, tensor<?x8x4xf32>) outs(%{{.*}} : tensor<?x2x4xf32>) -> tensor<?x2x4xf32>

// -----

// Elementwise arith on tensors, an expand that adds a unit dimension after
// the batch, and a slice of the whole batch.
func.func @reshapes(%x: tensor<1x6xf32>) -> tensor<1x1x4xf32> {
  %y = arith.negf %x : tensor<1x6xf32>
  %s = tensor.extract_slice %y[0, 1] [1, 4] [1, 1] : tensor<1x6xf32> to tensor<1x4xf32>
  %z = tensor.expand_shape %s [[0, 1], [2]] output_shape [1, 1, 4] : tensor<1x4xf32> into tensor<1x1x4xf32>
  return %z : tensor<1x1x4xf32>
}
// CHECK-LABEL: func.func @reshapes(
// CHECK-SAME: %[[X:.*]]: tensor<8x6xf32>) -> tensor<8x1x4xf32>
// CHECK: %[[Y:.*]] = arith.negf %[[X]] : tensor<8x6xf32>
// CHECK: %[[S:.*]] = tensor.extract_slice %[[Y]][0, 1] [8, 4] [1, 1] : tensor<8x6xf32> to tensor<8x4xf32>
// CHECK: tensor.expand_shape %[[S]] {{\[\[}}0, 1], [2]] output_shape [8, 1, 4] : tensor<8x4xf32> into tensor<8x1x4xf32>

// DYN-LABEL: func.func @reshapes(
// DYN: %[[N:.*]] = tensor.dim
// DYN: tensor.extract_slice %{{.*}}[0, 1] [%[[N]], 4] [1, 1] : tensor<?x6xf32> to tensor<?x4xf32>
// DYN: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [%[[N]], 1, 4] : tensor<?x4xf32> into tensor<?x1x4xf32>

// -----

// A broadcast that adds a trailing dimension (x.unsqueeze(-1).expand, traced
// at batch 1: the batch read with a constant 0 that lines up with the
// output's loop d0 on the left, not on the right). It was refused with "to
// a dimension that is not the batch".
func.func @trailing_broadcast(%x: tensor<1x5xf32>) -> tensor<1x5x8xf32> {
  %e = tensor.empty() : tensor<1x5x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x5xf32>) outs(%e : tensor<1x5x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<1x5x8xf32>
  return %y : tensor<1x5x8xf32>
}
// CHECK-LABEL: func.func @trailing_broadcast(
// CHECK-SAME: %[[X:.*]]: tensor<8x5xf32>) -> tensor<8x5x8xf32>
// CHECK: linalg.generic {indexing_maps = [#[[IN:.*]], #{{.*}}], {{.*}} ins(%[[X]] : tensor<8x5xf32>) outs(%{{.*}} : tensor<8x5x8xf32>)

// DYN-LABEL: func.func @trailing_broadcast(
// DYN: linalg.generic {{.*}} ins(%{{.*}} : tensor<?x5xf32>) outs(%{{.*}} : tensor<?x5x8xf32>)
