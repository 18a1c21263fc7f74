// Regression (found by the robustness work): amp-check-nvvm-lowering called
// isa<LLVMDialect, NVVMDialect>(op->getDialect()), which dereferences the
// null dialect of an unregistered op. It now uses isa_and_nonnull and says
// that such an op is not registered (rather than pointing at missing
// ConvertToLLVM interfaces), one error per op name, in kernels and host code.
// RUN: amp-opt %s --allow-unregistered-dialect -amp-check-nvvm-lowering -verify-diagnostics

module attributes {gpu.container_module} {
  gpu.module @kernels {
    llvm.func @k() {
      // expected-error @+1 {{amp-lower-to-nvvm could not lower 'unknown.kernel_op' in kernel module 'kernels' to LLVM/NVVM; the op is not registered, so no conversion can handle it}}
      "unknown.kernel_op"() : () -> ()
      "unknown.kernel_op"() : () -> ()
      llvm.return
    }
  }
  llvm.func @host() {
    // expected-error @+1 {{amp-lower-to-nvvm could not lower 'unknown.host_op' in host code to LLVM; the op is not registered}}
    "unknown.host_op"() : () -> ()
    llvm.return
  }
}
