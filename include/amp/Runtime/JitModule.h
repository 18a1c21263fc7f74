//===- JitModule.h - JIT-compile and call lowered steps ---------*- C++ -*-===//
//
// MLIR's ExecutionEngine around a lowered module: entry points prepared for
// C calls, machine code generated and global constructors run before the
// first call (so that a timed first call is like every other), calls with
// one strided-memref descriptor per argument and per former result. Both
// backends (Backend.h) use it: the CPU one after amp's CPU pipeline
// (Pipelines/buildLowerToLLVMPipeline), the CUDA one after
// amp-lower-to-nvvm with libamp_cuda_runtime.so loaded.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_JITMODULE_H
#define AMP_RUNTIME_JITMODULE_H

#include "amp/Pipelines/Pipelines.h"
#include "amp/Runtime/HostTensor.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::amp::runtime {

class JitModule {
public:
  /// How the LLVM IR is optimized and what the code may call.
  struct Options {
    /// LLVM -O level of the IR optimizer (0-3).
    unsigned optLevel = 3;
    /// Generate code for the host CPU (its SIMD features: AVX2/F16C on
    /// x86-64 hosts that have them) at -O3; false: ExecutionEngine's default
    /// target machine.
    bool hostTargetMachine = true;
    /// Shared libraries whose symbols the code calls (e.g. the CUDA
    /// runtime), loaded into the process.
    std::vector<std::string> sharedLibraries;
  };

  /// Prepares every function named in `entryPoints` of a tensor-level
  /// `module` for being called from C: `llvm.emit_c_interface`, arguments
  /// read-only for bufferization (`bufferization.writable = false`, the
  /// caller keeps them), the contract's argument and result attributes
  /// (amp.role, amp.updates; read by the caller before) removed. Errors: a
  /// name that is not a func.func of the module.
  static llvm::Error
  prepareEntryPoints(ModuleOp module,
                     llvm::ArrayRef<llvm::StringRef> entryPoints);

  /// JIT-compiles `module`, already in the LLVM dialect, and looks up
  /// `_mlir_ciface_<name>` of every entry point. Errors: translation or
  /// code generation failed, an entry point is missing.
  static llvm::Expected<std::unique_ptr<JitModule>>
  load(ModuleOp module, llvm::ArrayRef<llvm::StringRef> entryPoints,
       const Options &options);

  /// prepareEntryPoints, amp's CPU pipeline with `lowering` (errors carry
  /// its diagnostics, amp/Support/Diagnostics.h), load with the default
  /// options plus libomp unless `lowering.threads` is 1
  /// (findOpenMPRuntime). `module` is lowered in place. An unset
  /// `lowering.bf16Dot` becomes hostHasAVX512BF16(), an unset
  /// `lowering.fmaTileCols` 32 where hostHasAVX512F(), else 16. Errors
  /// also: `lowering.bf16Dot` true on a host without AVX512_BF16.
  static llvm::Expected<std::unique_ptr<JitModule>>
  compile(ModuleOp module, llvm::ArrayRef<llvm::StringRef> entryPoints,
          LowerToLLVMConfig lowering = {});

  /// Whether the host CPU has AVX512_BF16 (LLVM's host feature query, as
  /// the JIT's target machine: `avx512bf16`), and with it the bf16 kernel
  /// of amp-cpu-tile-contractions (LowerToLLVMConfig::bf16Dot).
  static bool hostHasAVX512BF16();

  /// Whether the host CPU has AVX-512F (LLVM's host feature query:
  /// `avx512f`): 32 vector registers of 16 f32 lanes, for the FMA kernel's
  /// tile width (LowerToLLVMConfig::fmaTileCols).
  static bool hostHasAVX512F();

  /// The OpenMP runtime that code lowered with threads != 1 calls: the file
  /// $AMP_LIBOMP names, else ../lib/libomp.so.5 beside the executable (a
  /// relocated tree such as a scripts/gpu-bundle.sh bundle), else the
  /// libomp found when the project was configured (Debian's libomp-22-dev).
  /// Errors: none of them exists (the message says what to install).
  static llvm::Expected<std::string> findOpenMPRuntime();

  /// Marks the call wrappers of every entry point `name` of a translated
  /// `module` `optnone` and `noinline`, so that LLVM compiles them as at
  /// -O0: the MLIR C interface's `_mlir_ciface_<name>` and the
  /// ExecutionEngine's packed `_mlir_<name>` and `_mlir__mlir_ciface_<name>`
  /// (those with a body; `<name>` itself and what it calls keep -O3). A
  /// wrapper unpacks and repacks every argument and result: for a training
  /// step of hundreds of tensors one basic block of thousands of loads and
  /// stores, on which the -O3 instruction selector's DAG combiner spent
  /// 14 s of a 4-layer encoder's 23 s of code generation (0.3 s unoptimized;
  /// docs/performance.md). They run once per call. load() applies it
  /// before LLVM's optimizer.
  static void
  compileWrappersUnoptimized(llvm::Module &module,
                             llvm::ArrayRef<llvm::StringRef> entryPoints);

  /// Makes `address` the definition of the C symbol `name` in every module
  /// loaded from now on: a runtime function the compiled code calls (the
  /// data-parallel test hook, DataParallel.h). Not thread-safe: provide
  /// before compiling.
  static void provideSymbol(llvm::StringRef name, void *address);

  /// Calls `name` with one descriptor per function argument followed by one
  /// per function result (results are written into them). Shapes and
  /// element types must match the function type; the caller checks.
  llvm::Error invokeDescriptors(llvm::StringRef name,
                                llvm::ArrayRef<void *> descriptors);
  /// The same with host buffers.
  llvm::Error invoke(llvm::StringRef name,
                     llvm::ArrayRef<HostTensor *> argsThenResults);

private:
  std::unique_ptr<ExecutionEngine> engine;
};

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_JITMODULE_H
