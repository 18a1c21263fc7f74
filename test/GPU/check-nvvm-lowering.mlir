// amp-check-nvvm-lowering: any op in a gpu.module that is not LLVM/NVVM is a
// located error (e.g. arith on f16 left behind when the ConvertToLLVM
// interfaces were not registered).
// RUN: amp-opt %s --amp-check-nvvm-lowering -verify-diagnostics -split-input-file

module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @k(%a: f16, %b: f16) -> f16 {
      // expected-error @+1 {{amp-lower-to-nvvm could not lower 'arith.addf' in kernel module 'kernels' to LLVM/NVVM}}
      %c = arith.addf %a, %b : f16
      llvm.return %c : f16
    }
  }
}

// -----

// Fully lowered kernels pass.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @k(%a: f16, %b: f16) -> f16 {
      %t = nvvm.read.ptx.sreg.tid.x : i32
      %c = llvm.fadd %a, %b : f16
      llvm.return %c : f16
    }
  }
}

// -----

// Host code must be LLVM too.
module attributes {gpu.container_module} {
  llvm.func @host(%a: i64) -> i64 {
    // expected-error @+1 {{amp-lower-to-nvvm could not lower 'arith.addi' in host code to LLVM}}
    %b = arith.addi %a, %a : i64
    llvm.return %b : i64
  }
}
