//===- JitModule.cpp - JIT-compile and call lowered steps -----------------===//

#include "amp/Runtime/JitModule.h"

#include "amp/Pipelines/Pipelines.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/Support/TargetSelect.h"

using namespace mlir;
using namespace mlir::amp::runtime;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

llvm::Expected<std::unique_ptr<JitModule>>
JitModule::compile(ModuleOp module, ArrayRef<StringRef> entryPoints) {
  MLIRContext *ctx = module.getContext();
  for (StringRef name : entryPoints) {
    auto func = module.lookupSymbol<func::FuncOp>(name);
    if (!func)
      return makeError("no function @" + name + " to JIT-compile");
    func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                  UnitAttr::get(ctx));
    // The contract's attributes (amp.role, amp.updates) were read by the
    // caller; LLVM IR translation has no use for them.
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      func.setArgAttrs(i, ArrayRef<NamedAttribute>{});
      func.setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName,
                      BoolAttr::get(ctx, false));
    }
    for (unsigned i = 0; i < func.getNumResults(); ++i)
      func.setResultAttrs(i, ArrayRef<NamedAttribute>{});
  }

  std::string diagnostics;
  {
    llvm::raw_string_ostream os(diagnostics);
    ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
      os << diag.getLocation() << ": " << diag << "\n";
      return success();
    });
    PassManager pm(ctx);
    amp::buildLowerToLLVMPipeline(pm);
    if (failed(pm.run(module)))
      return makeError("lowering to LLVM failed:\n" + diagnostics);
  }

  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  registerAllToLLVMIRTranslations(
      *const_cast<DialectRegistry *>(&ctx->getDialectRegistry()));
  auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!tmBuilder)
    return tmBuilder.takeError();
  tmBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto tm = tmBuilder->createTargetMachine();
  if (!tm)
    return tm.takeError();

  // -O3 with the host target machine so that the loop vectorizer knows the
  // SIMD width (AVX2/F16C on x86-64 hosts that have them). `transformer`
  // must outlive ExecutionEngine::create: the options only hold a
  // function_ref to it.
  std::function<llvm::Error(llvm::Module *)> transformer =
      makeOptimizingTransformer(3, 0, tm->get());
  ExecutionEngineOptions options;
  // No perf map: LLVM's perf listener leaves a /tmp/.debug/jit/ directory
  // behind per JIT session (thousands after a test run).
  options.enablePerfNotificationListener = false;
  options.transformer = transformer;
  options.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  auto engine = ExecutionEngine::create(module, options);
  if (!engine)
    return engine.takeError();
  // ORC generates machine code at the first lookup and runs the global
  // constructors at the first call: do both now, so that compiling is done
  // here and the first step is timed like every other.
  for (StringRef name : entryPoints)
    if (auto fn = (*engine)->lookupPacked(("_mlir_ciface_" + name).str()); !fn)
      return fn.takeError();
  (*engine)->initialize();
  auto jit = std::unique_ptr<JitModule>(new JitModule());
  jit->engine = std::move(*engine);
  return jit;
}

llvm::Error JitModule::invoke(StringRef name,
                              ArrayRef<HostTensor *> argsThenResults) {
  SmallVector<void *> descriptors;
  for (HostTensor *t : argsThenResults)
    descriptors.push_back(t->descriptor());
  SmallVector<void *> packed;
  for (void *&d : descriptors)
    packed.push_back(&d);
  return engine->invokePacked(("_mlir_ciface_" + name).str(), packed);
}
