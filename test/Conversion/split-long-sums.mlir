// RUN: amp-opt %s -amp-split-long-sums --mlir-print-local-scope | FileCheck %s
// RUN: amp-opt %s -amp-split-long-sums="max-partials=1000" --mlir-print-local-scope | FileCheck %s --check-prefix=SMALL
// RUN: amp-opt %s -amp-split-long-sums="lanes=16" --mlir-print-local-scope | FileCheck %s --check-prefix=LANES
// min-terms=300000: every sum here is shorter (the longest, the convolution
// weight gradient, has 16 x 128 x 128 = 262144 terms), nothing is split.
// RUN: amp-opt %s -amp-split-long-sums="min-terms=300000" | FileCheck %s --check-prefix=FEW
// FEW-COUNT-10: linalg.generic
// FEW-NOT: linalg.generic

// amp-split-long-sums: float sums of >= 8192 terms per output element become
// partial sums over B blocks of one reduction loop (from -0.0) and the sum of
// the partials into the original init; B divides the loop's extent, is >= 16
// and minimizes max(terms / B, B).

#id1 = affine_map<(d0) -> (d0)>
#s1 = affine_map<(d0) -> ()>
#in4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ch4 = affine_map<(d0, d1, d2, d3) -> (d1)>
#x = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3 + d0, d4 + d1)>
#dy = affine_map<(d0, d1, d2, d3, d4) -> (d2, d3, d4)>
#dw = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1)>
#mA = affine_map<(d0, d1, d2) -> (d0, d2)>
#mB = affine_map<(d0, d1, d2) -> (d2, d1)>
#mC = affine_map<(d0, d1, d2) -> (d0, d1)>

// A bias gradient, sum over (n, h, w): 8 x 56 x 56 = 25088 terms. The
// block count must divide an extent and be >= 16: h (56) in 56 blocks of
// one, chains of 448 and 56.
// CHECK-LABEL: func.func @bias_grad
//  CHECK-SAME:   %[[DY:.*]]: tensor<8x4x56x56xf32>, %[[INIT:.*]]: tensor<4xf32>
//       CHECK:   %[[EXTENT:.*]] = tensor.empty() : tensor<1xi1>
//       CHECK:   %[[EMPTY:.*]] = tensor.empty() : tensor<4x56xf32>
//       CHECK:   %[[NEGZERO:.*]] = arith.constant -0.000000e+00 : f32
//       CHECK:   %[[FILL:.*]] = linalg.fill ins(%[[NEGZERO]] : f32) outs(%[[EMPTY]] : tensor<4x56xf32>)
//       CHECK:   %[[PARTIAL:.*]] = linalg.generic
//  CHECK-SAME:     [affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d0 + d3, d4)>, affine_map<(d0, d1, d2, d3, d4) -> (d3)>, affine_map<(d0, d1, d2, d3, d4) -> (d2, d0)>]
//  CHECK-SAME:     iterator_types = ["parallel", "reduction", "parallel", "reduction", "reduction"]
//  CHECK-SAME:     ins(%[[DY]], %[[EXTENT]] : tensor<8x4x56x56xf32>, tensor<1xi1>) outs(%[[FILL]] : tensor<4x56xf32>)
//       CHECK:     arith.addf
//       CHECK:   %[[SUM:.*]] = linalg.generic
//  CHECK-SAME:     [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>]
//  CHECK-SAME:     iterator_types = ["parallel", "reduction"]
//  CHECK-SAME:     ins(%[[PARTIAL]] : tensor<4x56xf32>) outs(%[[INIT]] : tensor<4xf32>)
//       CHECK:   ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
//       CHECK:     %[[ADD:.*]] = arith.addf %[[OUT]], %[[IN]] : f32
//       CHECK:     linalg.yield %[[ADD]]
//       CHECK:   return %[[SUM]]
// lanes=16 (the CPU lowering's): the innermost loop, w (56 in every
// block; the input's last dimension), also runs as interleaved lanes, a
// parallel loop of its own: no multiple of 16 divides 56, which is at
// most 4 x 16, so the whole row (56 lanes, one step; LLVM vectorizes no
// loop under 16 iterations, 4 x 14 would stay scalar). The partials get a
// trailing dimension of 56, summed after the blocks' in the second
// generic.
// LANES-LABEL: func.func @bias_grad
//       LANES:   tensor.empty() : tensor<1x56xi1>
//       LANES:   %[[FILL:.*]] = linalg.fill {{.*}} -> tensor<4x56x56xf32>
//       LANES:   %[[PARTIAL:.*]] = linalg.generic
//  LANES-SAME:     [affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d0 + d3, d4 * 56 + d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d0, d5)>]
//  LANES-SAME:     iterator_types = ["parallel", "reduction", "parallel", "reduction", "reduction", "parallel"]
//       LANES:   linalg.generic
//  LANES-SAME:     [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0)>]
//  LANES-SAME:     iterator_types = ["parallel", "reduction", "reduction"]
//  LANES-SAME:     ins(%[[PARTIAL]] : tensor<4x56x56xf32>)
func.func @bias_grad(%dy: tensor<8x4x56x56xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg.generic {indexing_maps = [#in4, #ch4], iterator_types = ["reduction", "parallel", "reduction", "reduction"]}
      ins(%dy : tensor<8x4x56x56xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %a, %acc : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// A convolution's weight gradient: the split loop (oh, 128 blocks of one)
// appears in x's window expression d3 + d0 -> (d0 + d4) + d1; the i1
// operand gives linalg the inner loop's extent.
// CHECK-LABEL: func.func @weight_grad
//       CHECK:   linalg.generic
//  CHECK-SAME:     [affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d1 + d0 + d4, d2 + d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d3, d0 + d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d4)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d1, d2, d0)>]
//  CHECK-SAME:     outs(%{{.*}} : tensor<3x3x128xf32>)
//       CHECK:   linalg.generic
//  CHECK-SAME:     ins(%{{.*}} : tensor<3x3x128xf32>) outs(%{{.*}} : tensor<3x3xf32>)
func.func @weight_grad(%x: tensor<16x130x130xf32>, %dy: tensor<16x128x128xf32>, %init: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %r = linalg.generic {indexing_maps = [#x, #dy, #dw], iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %dy : tensor<16x130x130xf32>, tensor<16x128x128xf32>) outs(%init : tensor<3x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}

// linalg.index of the split loop: the block's start plus the index inside
// the block (65536 terms: 256 blocks of 256).
// CHECK-LABEL: func.func @index
//       CHECK:   linalg.generic
//  CHECK-SAME:     [affine_map<(d0, d1) -> (d0 * 256 + d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0)>]
//       CHECK:     %[[INNER:.*]] = linalg.index 1 : index
//       CHECK:     %[[BLOCK:.*]] = linalg.index 0 : index
//       CHECK:     %[[SIZE:.*]] = arith.constant 256 : index
//       CHECK:     %[[START:.*]] = arith.muli %[[BLOCK]], %[[SIZE]] : index
//       CHECK:     %[[I:.*]] = arith.addi %[[START]], %[[INNER]] : index
//       CHECK:     arith.index_cast %[[I]] : index to i32
// With lanes, the split loop is also the innermost: 256 blocks of 16
// steps of 16 lanes, the index block * 256 + step * 16 + lane.
// LANES-LABEL: func.func @index
//       LANES:   linalg.generic
//  LANES-SAME:     [affine_map<(d0, d1, d2) -> (d0 * 256 + d1 * 16 + d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d2)>]
//  LANES-SAME:     iterator_types = ["parallel", "reduction", "parallel"]
//       LANES:     %[[STEP:.*]] = linalg.index 1 : index
//       LANES:     %[[LANE:.*]] = linalg.index 2 : index
//       LANES:     %[[C16:.*]] = arith.constant 16 : index
//       LANES:     %[[S:.*]] = arith.muli %[[STEP]], %[[C16]] : index
//       LANES:     %[[INNER:.*]] = arith.addi %[[S]], %[[LANE]] : index
//       LANES:     %[[BLOCK:.*]] = linalg.index 0 : index
//       LANES:     %[[C256:.*]] = arith.constant 256 : index
//       LANES:     %[[START:.*]] = arith.muli %[[BLOCK]], %[[C256]] : index
//       LANES:     arith.addi %[[START]], %[[INNER]] : index
func.func @index(%x: tensor<65536xf32>, %init: tensor<f32>) -> tensor<f32> {
  %r = linalg.generic {indexing_maps = [#id1, #s1], iterator_types = ["reduction"]}
      ins(%x : tensor<65536xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    %t = arith.mulf %a, %f : f32
    %s = arith.addf %acc, %t : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// Left alone: fewer than min-terms (8192) terms.
// CHECK-LABEL: func.func @short
//  CHECK-NEXT:   linalg.generic
//  CHECK-NEXT:   ^bb0
//  CHECK-NEXT:     arith.addf
//  CHECK-NEXT:     linalg.yield
//  CHECK-NEXT:   } -> tensor<f32>
//  CHECK-NEXT:   return
func.func @short(%x: tensor<4096xf32>, %init: tensor<f32>) -> tensor<f32> {
  %r = linalg.generic {indexing_maps = [#id1, #s1], iterator_types = ["reduction"]}
      ins(%x : tensor<4096xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// Left alone: a max is exact in any order.
// CHECK-LABEL: func.func @max
//  CHECK-NEXT:   linalg.generic
//   CHECK-NOT:   linalg.generic
//       CHECK:   return
func.func @max(%x: tensor<65536xf32>, %init: tensor<f32>) -> tensor<f32> {
  %r = linalg.generic {indexing_maps = [#id1, #s1], iterator_types = ["reduction"]}
      ins(%x : tensor<65536xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.maximumf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// Left alone: 65521 is prime, no block count divides it.
// CHECK-LABEL: func.func @prime
//  CHECK-NEXT:   linalg.generic
//   CHECK-NOT:   linalg.generic
//       CHECK:   return
func.func @prime(%x: tensor<65521xf32>, %init: tensor<f32>) -> tensor<f32> {
  %r = linalg.generic {indexing_maps = [#id1, #s1], iterator_types = ["reduction"]}
      ins(%x : tensor<65521xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// Left alone: the number of terms is not known.
// CHECK-LABEL: func.func @dynamic
//  CHECK-NEXT:   linalg.generic
//   CHECK-NOT:   linalg.generic
//       CHECK:   return
func.func @dynamic(%x: tensor<?xf32>, %init: tensor<f32>) -> tensor<f32> {
  %r = linalg.generic {indexing_maps = [#id1, #s1], iterator_types = ["reduction"]}
      ins(%x : tensor<?xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}

// Left alone: matmul-shaped (the CPU micro-kernel sums k in blocks).
// CHECK-LABEL: func.func @matmul
//  CHECK-NEXT:   linalg.generic
//   CHECK-NOT:   linalg.generic
//       CHECK:   return
func.func @matmul(%a: tensor<8x16384xf32>, %b: tensor<16384x8xf32>, %init: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = linalg.generic {indexing_maps = [#mA, #mB, #mC], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<8x16384xf32>, tensor<16384x8xf32>) outs(%init : tensor<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// 64 sums of 16384 terms: 128 blocks of 128 (8192 partials). With
// max-partials=1000 the 16 blocks needed would make 1024: left alone.
// CHECK-LABEL: func.func @wide
//       CHECK:   linalg.generic
//  CHECK-SAME:     outs(%{{.*}} : tensor<64x128xf32>)
//       CHECK:   linalg.generic
//  CHECK-SAME:     outs(%{{.*}} : tensor<64xf32>)
// SMALL-LABEL: func.func @wide
//  SMALL-NEXT:   linalg.generic
//   SMALL-NOT:   linalg.generic
//       SMALL:   return
func.func @wide(%x: tensor<64x16384xf32>, %init: tensor<64xf32>) -> tensor<64xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x16384xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// A dynamic batch (a step built with batch=dynamic): the batch loop counts
// as one term and stays whole; the static 65536 is split (256 x 256).
// CHECK-LABEL: func.func @dynamic_batch
//       CHECK:   linalg.generic
//  CHECK-SAME:     [affine_map<(d0, d1, d2) -> (d1, d0 * 256 + d2)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0)>]
//  CHECK-SAME:     iterator_types = ["parallel", "reduction", "reduction"]
//  CHECK-SAME:     outs(%{{.*}} : tensor<256xf32>)
func.func @dynamic_batch(%x: tensor<?x65536xf32>, %init: tensor<f32>) -> tensor<f32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%x : tensor<?x65536xf32>) outs(%init : tensor<f32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %r : tensor<f32>
}
