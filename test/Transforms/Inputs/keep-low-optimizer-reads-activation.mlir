// Input of test/Transforms/keep-accumulators-low-copies-optimizer.mlir: the
// step of keep-accumulators-low-copies.mlir plus an optimizer-state update
// after the seed (%stN, a running average of the probabilities) that reads
// the softmax but no gradient.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map5 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map6 = affine_map<(d0, d1) -> (d0, d1)>
#map7 = affine_map<(d0, d1) -> (d0)>
#map8 = affine_map<(d0) -> (d0)>
#map9 = affine_map<(d0) -> ()>
#map10 = affine_map<(d0, d1, d2) -> (d0, d1)>
module attributes {amp.source_model = "/tmp/breakit/today/kal/att.mlir", amp.source_model_xxh3 = "0af1896173d2bbb3"} {
  func.func @train_step(%arg0: tensor<8x8xf32> {amp.initial_value = dense<1.250000e-01> : tensor<8x8xf32>, amp.role = "param"}, %arg1: tensor<8x8xf32> {amp.role = "opt_state"}, %arg2: tensor<4x8x8xf32> {amp.role = "input"}, %arg3: tensor<4xi32> {amp.classes = 8 : i64, amp.role = "label"}, %st: tensor<4x8x8xf32> {amp.role = "opt_state"}) -> (tensor<f32> {amp.role = "loss"}, tensor<8x8xf32> {amp.updates = 0 : i64}, tensor<8x8xf32> {amp.updates = 1 : i64}, tensor<4x8x8xf32> {amp.updates = 4 : i64}) attributes {amp.train_step} {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<4x8x8xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg2, %arg0 : tensor<4x8x8xf32>, tensor<8x8xf32>) outs(%1 : tensor<4x8x8xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %61 = arith.mulf %in, %in_6 : f32
      %62 = arith.addf %out, %61 : f32
      linalg.yield %62 : f32
    } -> tensor<4x8x8xf32>
    %3 = linalg.softmax dimension(2) ins(%2 : tensor<4x8x8xf32>) outs(%0 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map3, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%3, %arg2 : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%1 : tensor<4x8x8xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %61 = arith.mulf %in, %in_6 : f32
      %62 = arith.addf %out, %61 : f32
      linalg.yield %62 : f32
    } -> tensor<4x8x8xf32>
    %5 = tensor.empty() : tensor<4x8xf32>
    %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %7 = linalg.generic {indexing_maps = [#map4, #map5], iterator_types = ["parallel", "reduction", "parallel"]} ins(%4 : tensor<4x8x8xf32>) outs(%6 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %61 = arith.addf %out, %in : f32
      linalg.yield %61 : f32
    } -> tensor<4x8xf32>
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 0xFF800000 : f32
    %8 = tensor.empty() : tensor<4xf32>
    %9 = linalg.fill ins(%cst_1 : f32) outs(%8 : tensor<4xf32>) -> tensor<4xf32>
    %10 = linalg.generic {indexing_maps = [#map6, #map7], iterator_types = ["parallel", "reduction"]} ins(%7 : tensor<4x8xf32>) outs(%9 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %61 = arith.maximumf %in, %out : f32
      linalg.yield %61 : f32
    } -> tensor<4xf32>
    %11 = tensor.empty() : tensor<4xf32>
    %12 = linalg.fill ins(%cst_0 : f32) outs(%11 : tensor<4xf32>) -> tensor<4xf32>
    %13 = linalg.generic {indexing_maps = [#map6, #map7, #map7], iterator_types = ["parallel", "reduction"]} ins(%7, %10 : tensor<4x8xf32>, tensor<4xf32>) outs(%12 : tensor<4xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %61 = arith.subf %in, %in_6 : f32
      %62 = math.exp %61 : f32
      %63 = arith.addf %62, %out : f32
      linalg.yield %63 : f32
    } -> tensor<4xf32>
    %14 = tensor.empty() : tensor<4xf32>
    %15 = linalg.fill ins(%cst_0 : f32) outs(%14 : tensor<4xf32>) -> tensor<4xf32>
    %16 = linalg.generic {indexing_maps = [#map6, #map7, #map7], iterator_types = ["parallel", "reduction"]} ins(%7, %arg3 : tensor<4x8xf32>, tensor<4xi32>) outs(%15 : tensor<4xf32>) {
    ^bb0(%in: f32, %in_6: i32, %out: f32):
      %61 = linalg.index 1 : index
      %62 = arith.index_cast %in_6 : i32 to index
      %63 = arith.cmpi eq, %61, %62 : index
      %cst_7 = arith.constant 0.000000e+00 : f32
      %64 = arith.select %63, %in, %cst_7 : f32
      %65 = arith.addf %64, %out : f32
      linalg.yield %65 : f32
    } -> tensor<4xf32>
    %17 = tensor.empty() : tensor<f32>
    %18 = linalg.fill ins(%cst_0 : f32) outs(%17 : tensor<f32>) -> tensor<f32>
    %19 = linalg.generic {indexing_maps = [#map8, #map8, #map8, #map9], iterator_types = ["reduction"]} ins(%10, %13, %16 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%18 : tensor<f32>) {
    ^bb0(%in: f32, %in_6: f32, %in_7: f32, %out: f32):
      %61 = math.log %in_6 : f32
      %62 = arith.addf %in, %61 : f32
      %63 = arith.subf %62, %in_7 : f32
      %cst_8 = arith.constant 2.500000e-01 : f32
      %64 = arith.mulf %63, %cst_8 : f32
      %65 = arith.addf %64, %out : f32
      linalg.yield %65 : f32
    } -> tensor<f32>
    %20 = amp.loss_grad %19 : tensor<f32>
    %21 = tensor.empty() : tensor<4xf32>
    %22 = linalg.generic {indexing_maps = [#map9, #map8], iterator_types = ["parallel"]} ins(%20 : tensor<f32>) outs(%21 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_6 = arith.constant 2.500000e-01 : f32
      %61 = arith.mulf %in, %cst_6 : f32
      linalg.yield %61 : f32
    } -> tensor<4xf32>
    %23 = tensor.empty() : tensor<4xf32>
    %24 = linalg.generic {indexing_maps = [#map8, #map9, #map8], iterator_types = ["parallel"]} ins(%13, %20 : tensor<4xf32>, tensor<f32>) outs(%23 : tensor<4xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %cst_7 = arith.constant 2.500000e-01 : f32
      %61 = arith.mulf %in_6, %cst_7 : f32
      %cst_8 = arith.constant 1.000000e+00 : f32
      %62 = arith.divf %cst_8, %in : f32
      %63 = arith.mulf %61, %62 : f32
      linalg.yield %63 : f32
    } -> tensor<4xf32>
    %25 = tensor.empty() : tensor<4xf32>
    %26 = linalg.generic {indexing_maps = [#map9, #map8], iterator_types = ["parallel"]} ins(%20 : tensor<f32>) outs(%25 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %cst_6 = arith.constant 2.500000e-01 : f32
      %61 = arith.mulf %in, %cst_6 : f32
      %62 = arith.negf %61 : f32
      linalg.yield %62 : f32
    } -> tensor<4xf32>
    %27 = tensor.empty() : tensor<4x8xf32>
    %28 = linalg.generic {indexing_maps = [#map7, #map7, #map6], iterator_types = ["parallel", "parallel"]} ins(%arg3, %26 : tensor<4xi32>, tensor<4xf32>) outs(%27 : tensor<4x8xf32>) {
    ^bb0(%in: i32, %in_6: f32, %out: f32):
      %61 = linalg.index 1 : index
      %62 = arith.index_cast %in : i32 to index
      %63 = arith.cmpi eq, %61, %62 : index
      %cst_7 = arith.constant 0.000000e+00 : f32
      %64 = arith.select %63, %in_6, %cst_7 : f32
      linalg.yield %64 : f32
    } -> tensor<4x8xf32>
    %29 = tensor.empty() : tensor<4x8xf32>
    %30 = linalg.generic {indexing_maps = [#map6, #map7, #map7, #map6], iterator_types = ["parallel", "parallel"]} ins(%7, %10, %24 : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>) outs(%29 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %in_6: f32, %in_7: f32, %out: f32):
      %61 = arith.subf %in, %in_6 : f32
      %62 = math.exp %61 : f32
      %63 = arith.mulf %in_7, %62 : f32
      linalg.yield %63 : f32
    } -> tensor<4x8xf32>
    %cst_2 = arith.constant 0.000000e+00 : f32
    %31 = tensor.empty() : tensor<4xf32>
    %32 = linalg.fill ins(%cst_2 : f32) outs(%31 : tensor<4xf32>) -> tensor<4xf32>
    %33 = linalg.generic {indexing_maps = [#map6, #map7, #map7, #map7], iterator_types = ["parallel", "reduction"]} ins(%7, %10, %24 : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>) outs(%32 : tensor<4xf32>) {
    ^bb0(%in: f32, %in_6: f32, %in_7: f32, %out: f32):
      %61 = arith.subf %in, %in_6 : f32
      %62 = math.exp %61 : f32
      %63 = arith.mulf %in_7, %62 : f32
      %64 = arith.negf %63 : f32
      %65 = arith.addf %out, %64 : f32
      linalg.yield %65 : f32
    } -> tensor<4xf32>
    %34 = tensor.empty() : tensor<4xf32>
    %35 = linalg.generic {indexing_maps = [#map8, #map8, #map8], iterator_types = ["parallel"]} ins(%22, %33 : tensor<4xf32>, tensor<4xf32>) outs(%34 : tensor<4xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %61 = arith.addf %in, %in_6 : f32
      linalg.yield %61 : f32
    } -> tensor<4xf32>
    %36 = tensor.empty() : tensor<4xf32>
    %37 = linalg.generic {indexing_maps = [#map8, #map8, #map8], iterator_types = ["parallel"]} ins(%9, %10 : tensor<4xf32>, tensor<4xf32>) outs(%36 : tensor<4xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %61 = arith.cmpf oeq, %in, %in_6 : f32
      %cst_7 = arith.constant 1.000000e+00 : f32
      %cst_8 = arith.constant 0.000000e+00 : f32
      %62 = arith.select %61, %cst_7, %cst_8 : f32
      linalg.yield %62 : f32
    } -> tensor<4xf32>
    %38 = linalg.generic {indexing_maps = [#map6, #map7, #map7], iterator_types = ["parallel", "reduction"]} ins(%7, %10 : tensor<4x8xf32>, tensor<4xf32>) outs(%37 : tensor<4xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %61 = arith.cmpf oeq, %in, %in_6 : f32
      %cst_7 = arith.constant 1.000000e+00 : f32
      %62 = arith.addf %out, %cst_7 : f32
      %63 = arith.select %61, %62, %out : f32
      linalg.yield %63 : f32
    } -> tensor<4xf32>
    %39 = tensor.empty() : tensor<4x8xf32>
    %40 = linalg.generic {indexing_maps = [#map6, #map7, #map7, #map7, #map6], iterator_types = ["parallel", "parallel"]} ins(%7, %35, %10, %38 : tensor<4x8xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) outs(%39 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %in_6: f32, %in_7: f32, %in_8: f32, %out: f32):
      %cst_9 = arith.constant 0.000000e+00 : f32
      %61 = arith.cmpf oeq, %in, %in_7 : f32
      %62 = arith.divf %in_6, %in_8 : f32
      %63 = arith.select %61, %62, %cst_9 : f32
      linalg.yield %63 : f32
    } -> tensor<4x8xf32>
    %41 = tensor.empty() : tensor<4x8xf32>
    %42 = linalg.generic {indexing_maps = [#map6, #map6, #map6, #map6], iterator_types = ["parallel", "parallel"]} ins(%28, %30, %40 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) outs(%41 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %in_6: f32, %in_7: f32, %out: f32):
      %61 = arith.addf %in, %in_6 : f32
      %62 = arith.addf %61, %in_7 : f32
      linalg.yield %62 : f32
    } -> tensor<4x8xf32>
    %43 = tensor.empty() : tensor<4x8x8xf32>
    %44 = linalg.generic {indexing_maps = [#map5, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%42 : tensor<4x8xf32>) outs(%43 : tensor<4x8x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<4x8x8xf32>
    %cst_3 = arith.constant 0.000000e+00 : f32
    %45 = tensor.empty() : tensor<4x8x8xf32>
    %46 = linalg.fill ins(%cst_3 : f32) outs(%45 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %47 = linalg.generic {indexing_maps = [#map3, #map2, #map], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%arg2, %44 : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%46 : tensor<4x8x8xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %61 = arith.mulf %in_6, %in : f32
      %62 = arith.addf %out, %61 : f32
      linalg.yield %62 : f32
    } -> tensor<4x8x8xf32>
    %cst_4 = arith.constant 0.000000e+00 : f32
    %48 = tensor.empty() : tensor<4x8xf32>
    %49 = linalg.fill ins(%cst_4 : f32) outs(%48 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %50 = linalg.generic {indexing_maps = [#map4, #map4, #map10], iterator_types = ["parallel", "parallel", "reduction"]} ins(%47, %3 : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%49 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %61 = arith.mulf %in, %in_6 : f32
      %62 = arith.addf %out, %61 : f32
      linalg.yield %62 : f32
    } -> tensor<4x8xf32>
    %51 = tensor.empty() : tensor<4x8x8xf32>
    %52 = linalg.generic {indexing_maps = [#map4, #map4, #map10, #map4], iterator_types = ["parallel", "parallel", "parallel"]} ins(%3, %47, %50 : tensor<4x8x8xf32>, tensor<4x8x8xf32>, tensor<4x8xf32>) outs(%51 : tensor<4x8x8xf32>) {
    ^bb0(%in: f32, %in_6: f32, %in_7: f32, %out: f32):
      %61 = arith.subf %in_6, %in_7 : f32
      %62 = arith.mulf %in, %61 : f32
      linalg.yield %62 : f32
    } -> tensor<4x8x8xf32>
    %cst_5 = arith.constant 0.000000e+00 : f32
    %53 = tensor.empty() : tensor<8x8xf32>
    %54 = linalg.fill ins(%cst_5 : f32) outs(%53 : tensor<8x8xf32>) -> tensor<8x8xf32>
    %55 = linalg.generic {indexing_maps = [#map, #map2, #map1], iterator_types = ["reduction", "reduction", "parallel", "parallel"]} ins(%arg2, %52 : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%54 : tensor<8x8xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %61 = arith.mulf %in, %in_6 : f32
      %62 = arith.addf %out, %61 : f32
      linalg.yield %62 : f32
    } -> tensor<8x8xf32>
    %56 = amp.grad %55, %arg0 : tensor<8x8xf32>
    %57 = tensor.empty() : tensor<8x8xf32>
    %58 = linalg.generic {indexing_maps = [#map6, #map6, #map6], iterator_types = ["parallel", "parallel"]} ins(%arg1, %56 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%57 : tensor<8x8xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %cst_7 = arith.constant 0.899999976 : f32
      %61 = arith.mulf %cst_7, %in : f32
      %62 = arith.addf %61, %in_6 : f32
      linalg.yield %62 : f32
    } -> tensor<8x8xf32>
    %59 = tensor.empty() : tensor<8x8xf32>
    %60 = linalg.generic {indexing_maps = [#map6, #map6, #map6], iterator_types = ["parallel", "parallel"]} ins(%arg0, %58 : tensor<8x8xf32>, tensor<8x8xf32>) outs(%59 : tensor<8x8xf32>) {
    ^bb0(%in: f32, %in_6: f32, %out: f32):
      %cst_7 = arith.constant 0.00999999977 : f32
      %61 = arith.mulf %cst_7, %in_6 : f32
      %62 = arith.subf %in, %61 : f32
      linalg.yield %62 : f32
    } -> tensor<8x8xf32>
    %stE = tensor.empty() : tensor<4x8x8xf32>
    %stN = linalg.generic {indexing_maps = [affine_map<(a,b,c)->(a,b,c)>, affine_map<(a,b,c)->(a,b,c)>, affine_map<(a,b,c)->(a,b,c)>], iterator_types = ["parallel","parallel","parallel"]} ins(%st, %3 : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%stE : tensor<4x8x8xf32>) {
    ^bb0(%o0: f32, %p0: f32, %u0: f32):
      %k9 = arith.constant 0.9 : f32
      %k1 = arith.constant 0.1 : f32
      %q0 = arith.mulf %o0, %k9 : f32
      %q1 = arith.mulf %p0, %k1 : f32
      %q2 = arith.addf %q0, %q1 : f32
      linalg.yield %q2 : f32
    } -> tensor<4x8x8xf32>
    return %19, %60, %58, %stN : tensor<f32>, tensor<8x8xf32>, tensor<8x8xf32>, tensor<4x8x8xf32>
  }
  func.func @eval_step(%arg0: tensor<8x8xf32> {amp.role = "param"}, %arg1: tensor<4x8x8xf32> {amp.role = "input"}) -> (tensor<4x8xf32> {amp.role = "logits"}) attributes {amp.eval_step} {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<4x8x8xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%arg1, %arg0 : tensor<4x8x8xf32>, tensor<8x8xf32>) outs(%1 : tensor<4x8x8xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %8 = arith.mulf %in, %in_0 : f32
      %9 = arith.addf %out, %8 : f32
      linalg.yield %9 : f32
    } -> tensor<4x8x8xf32>
    %3 = linalg.softmax dimension(2) ins(%2 : tensor<4x8x8xf32>) outs(%0 : tensor<4x8x8xf32>) -> tensor<4x8x8xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map3, #map2], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%3, %arg1 : tensor<4x8x8xf32>, tensor<4x8x8xf32>) outs(%1 : tensor<4x8x8xf32>) {
    ^bb0(%in: f32, %in_0: f32, %out: f32):
      %8 = arith.mulf %in, %in_0 : f32
      %9 = arith.addf %out, %8 : f32
      linalg.yield %9 : f32
    } -> tensor<4x8x8xf32>
    %5 = tensor.empty() : tensor<4x8xf32>
    %6 = linalg.fill ins(%cst : f32) outs(%5 : tensor<4x8xf32>) -> tensor<4x8xf32>
    %7 = linalg.generic {indexing_maps = [#map4, #map5], iterator_types = ["parallel", "reduction", "parallel"]} ins(%4 : tensor<4x8x8xf32>) outs(%6 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %8 = arith.addf %out, %in : f32
      linalg.yield %8 : f32
    } -> tensor<4x8xf32>
    return %7 : tensor<4x8xf32>
  }
}

