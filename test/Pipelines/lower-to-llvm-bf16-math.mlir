// bf16 steps whose math and arith ops autocast leaves in bf16 (a tanh,
// a sin, a log1p and an abs between two bf16 contractions, and their
// derivatives, 1 - tanh^2 among them) compile for a CPU without AVX512
// (x86-64-v3) to code that calls no `__truncsfbf2`, which the JIT does
// not resolve: amp-lower-to-llvm computes them in f32 and rounds once
// (upstream's math-extend-to-supported-types and
// arith-emulate-unsupported-floats for bf16). Before, no such bf16 step
// loaded on an AVX2 CPU. Checked on the code itself, on any host; and on
// this host the step trains in bf16 next to f32.
// RUN: amp-opt %s --amp-build-train-step -o %t.step.mlir
// RUN: amp-opt %t.step.mlir --amp-mixed-precision="precision=bf16" | FileCheck %s --check-prefix=AUTOCAST
// AUTOCAST-DAG: math.tanh {{.*}} : tensor<4x16xbf16>
// AUTOCAST-DAG: math.sin {{.*}} : tensor<4x16xbf16>
// RUN: amp-opt %t.step.mlir --amp-mixed-precision="precision=bf16" --amp-lower-to-llvm="threads=1" | mlir-translate --mlir-to-llvmir | llc -O2 -mcpu=x86-64-v3 | FileCheck %s --implicit-check-not=__truncsfbf2
// CHECK: train_step:
// RUN: amp-run %t.step.mlir --run=bf16,f32 --data=synthetic --max-steps=3 --threads=1 --progress=false | FileCheck %s --check-prefix=TRAIN
// TRAIN: bf16{{ +[0-9]+\.[0-9]+ }}
// TRAIN-NEXT: f32{{ +[0-9]+\.[0-9]+ }}
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#bias = affine_map<(d0, d1) -> (d1)>
func.func @forward(%x: tensor<4x8xf32>) -> tensor<4x3xf32> {
  %w1 = arith.constant dense<[[-0.176, -0.349, 0.151, -0.428, 0.036, -0.134, -0.442, 0.007], [-0.463, -0.066, -0.430, -0.409, -0.075, 0.327, -0.376, -0.277], [0.127, 0.448, 0.077, -0.103, 0.476, -0.453, 0.358, -0.210], [-0.356, -0.382, -0.192, 0.316, -0.319, 0.082, 0.139, -0.128], [0.048, -0.437, -0.440, -0.294, 0.180, -0.072, -0.186, 0.086], [-0.047, -0.200, 0.294, 0.199, -0.256, 0.074, 0.025, 0.375], [0.229, -0.212, 0.480, -0.382, -0.082, 0.257, -0.348, -0.011], [-0.461, 0.168, 0.265, 0.073, 0.375, -0.186, 0.195, 0.094], [0.080, -0.044, 0.340, 0.445, -0.026, 0.164, -0.439, 0.201], [0.147, 0.493, 0.322, -0.215, -0.114, 0.169, -0.477, -0.038], [-0.332, -0.383, -0.441, 0.268, -0.371, -0.252, -0.109, 0.371], [-0.419, -0.051, 0.049, 0.383, 0.319, 0.364, -0.222, -0.085], [-0.141, 0.384, 0.458, -0.349, -0.324, -0.268, -0.267, -0.015], [0.089, -0.237, -0.496, -0.081, -0.131, 0.066, 0.453, 0.190], [0.015, 0.118, 0.176, -0.446, 0.400, 0.280, 0.375, 0.298], [-0.108, -0.101, -0.396, 0.134, -0.438, -0.433, -0.291, -0.338]]> : tensor<16x8xf32>
  %b1 = arith.constant dense<[-0.032, -0.089, -0.100, -0.070, -0.080, -0.027, -0.095, 0.075, 0.023, -0.070, -0.050, -0.031, -0.027, -0.075, 0.070, 0.099]> : tensor<16xf32>
  %w2 = arith.constant dense<[[-0.027, -0.013, -0.331, -0.318, -0.126, -0.188, 0.263, -0.271, -0.382, 0.361, 0.023, -0.283, 0.035, -0.378, 0.022, 0.383], [0.291, 0.157, -0.191, -0.107, -0.266, 0.218, 0.026, 0.223, -0.136, -0.222, 0.249, 0.388, 0.282, 0.245, 0.255, 0.192], [-0.219, 0.014, -0.116, -0.377, -0.378, -0.176, -0.193, 0.154, 0.365, -0.042, 0.350, 0.390, 0.364, -0.108, -0.224, -0.219]]> : tensor<3x16xf32>
  %b2 = arith.constant dense<[-0.061, -0.059, 0.025]> : tensor<3xf32>
  %zero = arith.constant 0.0 : f32
  %e1t = tensor.empty() : tensor<8x16xf32>
  %w1t = linalg.transpose ins(%w1 : tensor<16x8xf32>) outs(%e1t : tensor<8x16xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<4x16xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %m1 = linalg.matmul ins(%x, %w1t : tensor<4x8xf32>, tensor<8x16xf32>) outs(%f1 : tensor<4x16xf32>) -> tensor<4x16xf32>
  %h = linalg.generic {indexing_maps = [#id2, #bias, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%m1, %b1 : tensor<4x16xf32>, tensor<16xf32>) outs(%e1 : tensor<4x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x16xf32>
  %t = math.tanh %h : tensor<4x16xf32>
  %sn = math.sin %t : tensor<4x16xf32>
  %l = math.log1p %sn : tensor<4x16xf32>
  %g = math.absf %l : tensor<4x16xf32>
  %e2t = tensor.empty() : tensor<16x3xf32>
  %w2t = linalg.transpose ins(%w2 : tensor<3x16xf32>) outs(%e2t : tensor<16x3xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<4x3xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %m2 = linalg.matmul ins(%g, %w2t : tensor<4x16xf32>, tensor<16x3xf32>) outs(%f2 : tensor<4x3xf32>) -> tensor<4x3xf32>
  %y = linalg.generic {indexing_maps = [#id2, #bias, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%m2, %b2 : tensor<4x3xf32>, tensor<3xf32>) outs(%e2 : tensor<4x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4x3xf32>
  return %y : tensor<4x3xf32>
}
