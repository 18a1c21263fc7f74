//===- AmpMLIR.cpp - amp-mlir for embedding compilers ---------------------===//
//
// Thin layer over Pipelines.h, which takes the same MixedPrecisionConfig,
// Support/CrashContainment and Support/Diagnostics.
//
//===----------------------------------------------------------------------===//

#include "amp/AmpMLIR.h"

#include "amp/Autodiff/Implementations.h"
#include "amp/Dialect/Amp/IR/AmpDialect.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Support/CrashContainment.h"
#include "amp/Support/Diagnostics.h"
#include "amp/Transforms/Passes.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferViewFlowOpInterfaceImpl.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Index/IR/IndexDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/SubsetInsertionOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/AllocationOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/BufferViewFlowOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferDeallocationOpInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/SubsetInsertionOpInterfaceImpl.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"

using namespace mlir;

void amp::registerAmpDialects(DialectRegistry &registry) {
  registry
      .insert<AmpDialect, affine::AffineDialect, arith::ArithDialect,
              bufferization::BufferizationDialect, cf::ControlFlowDialect,
              func::FuncDialect, index::IndexDialect, LLVM::LLVMDialect,
              linalg::LinalgDialect, math::MathDialect, memref::MemRefDialect,
              scf::SCFDialect, tensor::TensorDialect, ub::UBDialect>();

  // Adjoint rules of amp-differentiate (docs/autodiff.md).
  autodiff::registerAutodiffExternalModels(registry);

  // One-shot bufferization and ownership-based deallocation.
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  arith::registerBufferDeallocationOpInterfaceExternalModels(registry);
  arith::registerBufferViewFlowOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  cf::registerBufferizableOpInterfaceExternalModels(registry);
  cf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerSubsetOpInterfaceExternalModels(registry);
  memref::registerAllocationOpInterfaceExternalModels(registry);
  memref::registerBufferViewFlowOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferDeallocationOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerSubsetOpInterfaceExternalModels(registry);

  // convert-to-llvm.
  arith::registerConvertArithToLLVMInterface(registry);
  cf::registerConvertControlFlowToLLVMInterface(registry);
  registerConvertFuncToLLVMInterface(registry);
  index::registerConvertIndexToLLVMInterface(registry);
  registerConvertMathToLLVMInterface(registry);
  registerConvertMemRefToLLVMInterface(registry);
  ub::registerConvertUBToLLVMInterface(registry);

  // LLVM dialect -> LLVM IR.
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

void amp::addAutocastPass(OpPassManager &pm,
                          const MixedPrecisionConfig &config) {
  addAutocast(pm, config);
}

void amp::addLossScalingPass(OpPassManager &pm,
                             const MixedPrecisionConfig &config) {
  addLossScaling(pm, config);
}

void amp::addMixedPrecisionPipeline(OpPassManager &pm,
                                    const MixedPrecisionConfig &config) {
  buildMixedPrecisionPipeline(pm, config);
}

void amp::addLowerToLLVMPipeline(OpPassManager &pm) {
  buildLowerToLLVMPipeline(pm);
}

LogicalResult amp::runPasses(PassManager &pm, Operation *module,
                             const CrashContainmentConfig &config,
                             std::string *diagnostics) {
  CrashContainmentOptions options;
  options.enabled = config.enabled;
  options.reproducerPath = config.reproducerPath;
  if (!diagnostics)
    return runWithCrashContainment(pm, module, options);
  DiagnosticCollector collector(module->getContext());
  LogicalResult result = runWithCrashContainment(pm, module, options);
  *diagnostics += collector.text();
  return result;
}
