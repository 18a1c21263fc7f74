// amp-chunk-batch-reductions: every sum over the batch (dim 0 of the input
// and the label) in N consecutive chunks, each from its own zero, added in
// chunk order: what N data-parallel ranks compute. Sums over other
// dimensions (the forward contraction over features) are left alone.
// RUN: amp-opt %s -split-input-file -verify-diagnostics -amp-chunk-batch-reductions=chunks=2 | FileCheck %s
// chunks=1 changes nothing.
// RUN: amp-opt %s -split-input-file -amp-chunk-batch-reductions=chunks=1 | FileCheck %s --check-prefix=ONE
// ONE-NOT: tensor.extract_slice %{{.*}}[{{[0-9]+}}, 0]

#id2 = affine_map<(i, j) -> (i, j)>
#to0 = affine_map<(i, j) -> ()>
#col = affine_map<(i, j) -> (j)>
#tn_a = affine_map<(i, j, k) -> (k, i)>
#tn_b = affine_map<(i, j, k) -> (k, j)>
#c_ij = affine_map<(i, j, k) -> (i, j)>

// CHECK-LABEL: func.func @step
// CHECK-SAME: %[[X:[a-z0-9]+]]: tensor<4x3xf32> {amp.role = "input"}
// The forward contraction runs over the features: one op, the whole batch.
// CHECK: %[[Z:.*]] = linalg.matmul ins(%[[X]], {{.*}} : tensor<4x3xf32>, tensor<3x2xf32>)
// The loss: rows 0-1 and rows 2-3, each from a fresh zero, then p0 + p1.
// CHECK: %[[Z0:.*]] = tensor.extract_slice %[[Z]][0, 0] [2, 2] [1, 1] : tensor<4x2xf32> to tensor<2x2xf32>
// CHECK: %[[I0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<f32>)
// CHECK: %[[L0:.*]] = linalg.generic {{.*}} ins(%[[Z0]] : tensor<2x2xf32>) outs(%[[I0]] : tensor<f32>)
// CHECK: %[[Z1:.*]] = tensor.extract_slice %[[Z]][2, 0] [2, 2] [1, 1]
// CHECK: %[[L1:.*]] = linalg.generic {{.*}} ins(%[[Z1]] : tensor<2x2xf32>)
// CHECK: %[[L:.*]] = linalg.generic {{.*}} ins(%[[L0]], %[[L1]] : tensor<f32>, tensor<f32>)
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.addf %[[A]], %[[B]] : f32
// CHECK: amp.loss_grad %[[L]]
// The weight gradient x^T dz: both operands sliced along the batch.
// CHECK: %[[X0:.*]] = tensor.extract_slice %[[X]][0, 0] [2, 3] [1, 1] : tensor<4x3xf32> to tensor<2x3xf32>
// CHECK: %[[D0:.*]] = tensor.extract_slice %[[DZ:.*]][0, 0] [2, 2] [1, 1]
// CHECK: %[[W0:.*]] = linalg.generic {{.*}} ins(%[[X0]], %[[D0]] : tensor<2x3xf32>, tensor<2x2xf32>) outs(%{{.*}} : tensor<3x2xf32>)
// CHECK: %[[X1:.*]] = tensor.extract_slice %[[X]][2, 0] [2, 3] [1, 1]
// CHECK: %[[D1:.*]] = tensor.extract_slice %[[DZ]][2, 0] [2, 2] [1, 1]
// CHECK: %[[W1:.*]] = linalg.generic {{.*}} ins(%[[X1]], %[[D1]] :
// CHECK: %[[DW:.*]] = linalg.generic {{.*}} ins(%[[W0]], %[[W1]] : tensor<3x2xf32>, tensor<3x2xf32>)
// The bias gradient: sum over rows.
// CHECK: tensor.extract_slice %[[DZ]][0, 0] [2, 2] [1, 1]
// CHECK: tensor.extract_slice %[[DZ]][2, 0] [2, 2] [1, 1]
// CHECK: %[[DB:.*]] = linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2xf32>, tensor<2xf32>)
// CHECK: amp.grad %[[DW]]
// CHECK: amp.grad %[[DB]]
func.func @step(%w: tensor<3x2xf32> {amp.role = "param"},
                %b: tensor<2xf32> {amp.role = "param"},
                %x: tensor<4x3xf32> {amp.role = "input"},
                %y: tensor<4xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<3x2xf32> {amp.updates = 0 : i64},
        tensor<2xf32> {amp.updates = 1 : i64})
    attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %e42 = tensor.empty() : tensor<4x2xf32>
  %f42 = linalg.fill ins(%zero : f32) outs(%e42 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %z = linalg.matmul ins(%x, %w : tensor<4x3xf32>, tensor<3x2xf32>)
                     outs(%f42 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %e0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %loss = linalg.generic {indexing_maps = [#id2, #to0], iterator_types = ["reduction", "reduction"]}
      ins(%z : tensor<4x2xf32>) outs(%f0 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %dz = linalg.generic {indexing_maps = [#id2, #to0, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%z, %seed : tensor<4x2xf32>, tensor<f32>) outs(%e42 : tensor<4x2xf32>) {
  ^bb0(%a: f32, %s: f32, %o: f32):
    %r = arith.mulf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<4x2xf32>
  %e32 = tensor.empty() : tensor<3x2xf32>
  %f32 = linalg.fill ins(%zero : f32) outs(%e32 : tensor<3x2xf32>) -> tensor<3x2xf32>
  %dw = linalg.generic {indexing_maps = [#tn_a, #tn_b, #c_ij], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %dz : tensor<4x3xf32>, tensor<4x2xf32>) outs(%f32 : tensor<3x2xf32>) {
  ^bb0(%a: f32, %d: f32, %acc: f32):
    %p = arith.mulf %a, %d : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<3x2xf32>
  %e2 = tensor.empty() : tensor<2xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2xf32>) -> tensor<2xf32>
  %db = linalg.generic {indexing_maps = [#id2, #col], iterator_types = ["reduction", "parallel"]}
      ins(%dz : tensor<4x2xf32>) outs(%f2 : tensor<2xf32>) {
  ^bb0(%d: f32, %acc: f32):
    %r = arith.addf %d, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2xf32>
  %gw = amp.grad %dw, %w : tensor<3x2xf32>
  %gb = amp.grad %db, %b : tensor<2xf32>
  %w1 = arith.subf %w, %gw : tensor<3x2xf32>
  %b1 = arith.subf %b, %gb : tensor<2xf32>
  return %loss, %w1, %b1 : tensor<f32>, tensor<3x2xf32>, tensor<2xf32>
}

// -----

// Through reshapes: a [4, 2, 3] input collapsed to 8 rows is batch-major
// (rows 0-3 are examples 0-1); its sum over the rows goes in two chunks of
// 4 rows. A max over the batch is exact in any order: left alone, no
// warning. A sum into a non-zero init, or one whose body reads the batch
// index, cannot be chunked as the ranks would sum: warned, left alone.
#id2 = affine_map<(i, j) -> (i, j)>
#to0 = affine_map<(i, j) -> ()>
#col = affine_map<(i, j) -> (j)>
#row1 = affine_map<(i) -> (i)>
#to01 = affine_map<(i) -> ()>
#pi = affine_map<(i, j) -> (i)>
#pj = affine_map<(i, j) -> (j)>
#p0 = affine_map<(i, j) -> ()>
#half = affine_map<(i, j) -> (i floordiv 2)>

// CHECK-LABEL: func.func @reshaped
func.func @reshaped(%w: tensor<3xf32> {amp.role = "param"},
                    %x: tensor<4x2x3xf32> {amp.role = "input"},
                    %y: tensor<4xi32> {amp.role = "label"})
    -> (tensor<f32> {amp.role = "loss"}, tensor<3xf32> {amp.updates = 0 : i64})
    attributes {amp.train_step} {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %rows = tensor.collapse_shape %x [[0, 1], [2]] : tensor<4x2x3xf32> into tensor<8x3xf32>
  %e3 = tensor.empty() : tensor<3xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<3xf32>) -> tensor<3xf32>
  // CHECK: tensor.extract_slice %{{.*}}[0, 0] [4, 3] [1, 1] : tensor<8x3xf32> to tensor<4x3xf32>
  // CHECK: tensor.extract_slice %{{.*}}[4, 0] [4, 3] [1, 1] : tensor<8x3xf32> to tensor<4x3xf32>
  %sum = linalg.generic {indexing_maps = [#id2, #col], iterator_types = ["reduction", "parallel"]}
      ins(%rows : tensor<8x3xf32>) outs(%f3 : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  // A scalar operand goes to every chunk unchanged.
  // CHECK: %[[R0:.*]] = tensor.extract_slice %{{.*}}[0, 0] [4, 3] [1, 1] : tensor<8x3xf32> to tensor<4x3xf32>
  // CHECK: linalg.generic {{.*}} ins(%[[R0]], %{{.*}} : tensor<4x3xf32>, f32)
  // CHECK: tensor.extract_slice %{{.*}}[4, 0] [4, 3] [1, 1] : tensor<8x3xf32> to tensor<4x3xf32>
  %scaled = linalg.generic {indexing_maps = [#id2, #to0, #col], iterator_types = ["reduction", "parallel"]}
      ins(%rows, %one : tensor<8x3xf32>, f32) outs(%f3 : tensor<3xf32>) {
  ^bb0(%a: f32, %k: f32, %acc: f32):
    %p = arith.mulf %a, %k : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  // CHECK-NOT: tensor.extract_slice {{.*}} tensor<8x3xf32>
  // CHECK: amp.loss_grad
  %m3 = linalg.fill ins(%ninf : f32) outs(%e3 : tensor<3xf32>) -> tensor<3xf32>
  %max = linalg.generic {indexing_maps = [#id2, #col], iterator_types = ["reduction", "parallel"]}
      ins(%rows : tensor<8x3xf32>) outs(%m3 : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  %o3 = linalg.fill ins(%one : f32) outs(%e3 : tensor<3xf32>) -> tensor<3xf32>
  // expected-warning @+1 {{amp-chunk-batch-reductions: this reduction over the batch is not split into chunks: an init is not a linalg.fill of 0.0 (the ranks would each add it); it sums in one order over all 4 examples, not as 2 ranks would}}
  %plus1 = linalg.generic {indexing_maps = [#id2, #col], iterator_types = ["reduction", "parallel"]}
      ins(%rows : tensor<8x3xf32>) outs(%o3 : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  %yf = arith.sitofp %y : tensor<4xi32> to tensor<4xf32>
  %e0 = tensor.empty() : tensor<f32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  // expected-warning @+1 {{not split into chunks: its body reads the batch loop's index (linalg.index)}}
  %weighted = linalg.generic {indexing_maps = [#row1, #to01], iterator_types = ["reduction"]}
      ins(%yf : tensor<4xf32>) outs(%f0 : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %p = arith.mulf %a, %fi : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  // expected-warning @+1 {{not split into chunks: it reduces over two loops that both run over the batch (the ranks never pair examples of different ranks)}}
  %pairs = linalg.generic {indexing_maps = [#pi, #pj, #p0], iterator_types = ["reduction", "reduction"]}
      ins(%yf, %yf : tensor<4xf32>, tensor<4xf32>) outs(%f0 : tensor<f32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  // expected-warning @+1 {{not split into chunks: its result 0 is not a sum of its init and a term}}
  %diff = linalg.generic {indexing_maps = [#id2, #col], iterator_types = ["reduction", "parallel"]}
      ins(%rows : tensor<8x3xf32>) outs(%f3 : tensor<3xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.subf %acc, %a : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  // expected-warning @+2 {{not split into chunks: an operand is indexed by an expression of the batch loop}}
  %pairs2 = tensor.extract_slice %yf[0] [2] [1] : tensor<4xf32> to tensor<2xf32>
  %shifted = linalg.generic {indexing_maps = [#pi, #pj, #half, #p0], iterator_types = ["reduction", "parallel"]}
      ins(%yf, %w, %pairs2 : tensor<4xf32>, tensor<3xf32>, tensor<2xf32>) outs(%f0 : tensor<f32>) {
  ^bb0(%a: f32, %c: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %acc, %p : f32
    linalg.yield %r : f32
  } -> tensor<f32>
  // An integer count is exact in any order: left alone, no warning.
  %c0 = arith.constant 0 : i32
  %ei = tensor.empty() : tensor<i32>
  %fi = linalg.fill ins(%c0 : i32) outs(%ei : tensor<i32>) -> tensor<i32>
  %count = linalg.generic {indexing_maps = [#row1, #to01], iterator_types = ["reduction"]}
      ins(%y : tensor<4xi32>) outs(%fi : tensor<i32>) {
  ^bb0(%a: i32, %acc: i32):
    %r = arith.addi %acc, %a : i32
    linalg.yield %r : i32
  } -> tensor<i32>
  %loss = tensor.extract_slice %sum[0] [1] [1] : tensor<3xf32> to tensor<f32>
  %seed = amp.loss_grad %loss : tensor<f32>
  %s = tensor.extract %seed[] : tensor<f32>
  %dw = tensor.splat %s : tensor<3xf32>
  %gw = amp.grad %dw, %w : tensor<3xf32>
  %w1 = arith.subf %w, %gw : tensor<3xf32>
  return %loss, %w1 : tensor<f32>, tensor<3xf32>
}
