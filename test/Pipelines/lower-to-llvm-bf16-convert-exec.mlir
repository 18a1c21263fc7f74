// On a CPU with AVX512_BF16: amp-lower-to-llvm bf16-dot=true rounds f32 to
// bf16 with `vcvtneps2bf16`, and gives the integer rounding's bits
// (bf16-dot=false) on the normal values, infinities, -0.0 and the quiet
// NaN of lower-to-llvm-bf16-convert.mlir (which checks those bits). The
// training steps' side: amp-run-bf16-dot.mlir compares 30 bf16 steps with
// bf16-dot on and off byte for byte.
// REQUIRES: avx512bf16
// RUN: amp-opt %S/lower-to-llvm-bf16-convert.mlir --amp-lower-to-llvm="threads=1 bf16-dot=true" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so > %t.native
// RUN: amp-opt %S/lower-to-llvm-bf16-convert.mlir --amp-lower-to-llvm="threads=1" | mlir-runner -e main -entry-point-result=void -shared-libs=%mlir_lib_dir/libmlir_c_runner_utils.so > %t.int
// RUN: diff %t.native %t.int
// RUN: FileCheck %s < %t.native
// CHECK-COUNT-19: {{^[0-9]+$}}
