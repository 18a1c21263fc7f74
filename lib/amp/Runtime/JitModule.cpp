//===- JitModule.cpp - JIT-compile and call lowered steps -----------------===//

#include "amp/Runtime/JitModule.h"

#include "amp/Pipelines/Pipelines.h"
#include "amp/Support/Diagnostics.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"

#include <cstdlib>
#include <mutex>

#ifndef AMP_LIBOMP_PATH
#define AMP_LIBOMP_PATH ""
#endif

using namespace mlir;
using namespace mlir::amp::runtime;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// The symbols of provideSymbol, by name.
static llvm::StringMap<void *> &providedSymbols() {
  static llvm::StringMap<void *> symbols;
  return symbols;
}

void JitModule::provideSymbol(StringRef name, void *address) {
  providedSymbols()[name] = address;
}

llvm::Error JitModule::prepareEntryPoints(ModuleOp module,
                                          ArrayRef<StringRef> entryPoints) {
  MLIRContext *ctx = module.getContext();
  for (StringRef name : entryPoints) {
    auto func = module.lookupSymbol<func::FuncOp>(name);
    if (!func)
      return makeError("no function @" + name + " to JIT-compile");
    func->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                  UnitAttr::get(ctx));
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      func.setArgAttrs(i, ArrayRef<NamedAttribute>{});
      func.setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName,
                      BoolAttr::get(ctx, false));
    }
    for (unsigned i = 0; i < func.getNumResults(); ++i)
      func.setResultAttrs(i, ArrayRef<NamedAttribute>{});
  }
  return llvm::Error::success();
}

/// LLVM's loop unroller at its -O3 threshold (300) fully unrolls the
/// 1-thread f16 steps' widening loop nests on AVX-512 hosts into basic
/// blocks of tens of thousands of instructions (the MLP's step: 21k ->
/// 267k lines of IR), whose machine scheduling took 20 s of the JIT's
/// 23 s. At 200 the IR stays 46k lines and the steps keep their speed
/// (without any unrolling the transformer's bf16 step is 1.27x slower).
/// The threshold is LLVM's `-unroll-threshold` option, which the pass
/// pipeline reads from the process's options; it is set once, and left
/// alone where the process set it already (e.g. through LLVM's command
/// line).
static void limitLoopUnrolling() {
  static std::once_flag once;
  std::call_once(once, [] {
    auto &options = llvm::cl::getRegisteredOptions();
    auto it = options.find("unroll-threshold");
    if (it != options.end() && it->second->getNumOccurrences() == 0)
      (void)it->second->addOccurrence(0, "unroll-threshold", "200");
  });
}

// (Why the wrappers are compiled unoptimized: JitModule.h.)
void JitModule::compileWrappersUnoptimized(llvm::Module &module,
                                           ArrayRef<StringRef> entryPoints) {
  for (StringRef name : entryPoints)
    for (const std::string &wrapper :
         {("_mlir_ciface_" + name).str(), ("_mlir_" + name).str(),
          ("_mlir__mlir_ciface_" + name).str()})
      if (llvm::Function *fn = module.getFunction(wrapper);
          fn && !fn->isDeclaration()) {
        fn->addFnAttr(llvm::Attribute::NoInline);
        fn->addFnAttr(llvm::Attribute::OptimizeNone);
      }
}

llvm::Expected<std::unique_ptr<JitModule>>
JitModule::load(ModuleOp module, ArrayRef<StringRef> entryPoints,
                const Options &options) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  MLIRContext *ctx = module.getContext();
  registerAllToLLVMIRTranslations(
      *const_cast<DialectRegistry *>(&ctx->getDialectRegistry()));
  std::unique_ptr<llvm::TargetMachine> targetMachine;
  if (options.hostTargetMachine) {
    auto tmBuilder = llvm::orc::JITTargetMachineBuilder::detectHost();
    if (!tmBuilder)
      return tmBuilder.takeError();
    tmBuilder->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
    auto tm = tmBuilder->createTargetMachine();
    if (!tm)
      return tm.takeError();
    targetMachine = std::move(*tm);
  }
  // With the host target machine the loop vectorizer knows the SIMD width.
  // `transformer` must outlive ExecutionEngine::create: the options only
  // hold a function_ref to it.
  limitLoopUnrolling();
  std::function<llvm::Error(llvm::Module *)> optimize =
      makeOptimizingTransformer(options.optLevel, 0, targetMachine.get());
  std::function<llvm::Error(llvm::Module *)> transformer =
      [&](llvm::Module *m) {
        compileWrappersUnoptimized(*m, entryPoints);
        return optimize(m);
      };
  SmallVector<StringRef> libraries(options.sharedLibraries.begin(),
                                   options.sharedLibraries.end());
  ExecutionEngineOptions engineOptions;
  // No perf jitdump unless AMP_PERF_JIT is set (profiling the step with
  // `perf record -k 1` and `perf inject --jit`, docs/performance.md): LLVM's
  // perf listener leaves a ~/.debug/jit/ directory behind per JIT session
  // (thousands after a test run).
  engineOptions.enablePerfNotificationListener =
      std::getenv("AMP_PERF_JIT") != nullptr;
  engineOptions.transformer = transformer;
  engineOptions.sharedLibPaths = libraries;
  if (options.hostTargetMachine)
    engineOptions.jitCodeGenOptLevel = llvm::CodeGenOptLevel::Aggressive;
  auto engine = ExecutionEngine::create(module, engineOptions);
  if (!engine)
    return engine.takeError();
  if (!providedSymbols().empty())
    (*engine)->registerSymbols([](llvm::orc::MangleAndInterner interner) {
      llvm::orc::SymbolMap map;
      for (const auto &entry : providedSymbols())
        map[interner(entry.getKey())] = {
            llvm::orc::ExecutorAddr::fromPtr(entry.getValue()),
            llvm::JITSymbolFlags::Exported};
      return map;
    });
  // ORC generates machine code at the first lookup and runs the global
  // constructors (on the GPU: loading the kernels) at the first call: do
  // both now, so that compiling is done here and the first step is timed
  // like every other.
  for (StringRef name : entryPoints)
    if (auto fn = (*engine)->lookupPacked(("_mlir_ciface_" + name).str()); !fn)
      return fn.takeError();
  (*engine)->initialize();
  auto jit = std::unique_ptr<JitModule>(new JitModule());
  jit->engine = std::move(*engine);
  return jit;
}

llvm::Expected<std::string> JitModule::findOpenMPRuntime() {
  auto exists = [](const llvm::Twine &path) {
    return llvm::sys::fs::exists(path) && !llvm::sys::fs::is_directory(path);
  };
  if (const char *env = std::getenv("AMP_LIBOMP"); env && *env) {
    if (exists(env))
      return std::string(env);
    return makeError(llvm::Twine("AMP_LIBOMP=") + env + " does not exist");
  }
  // A relocated tree (scripts/gpu-bundle.sh): bin/<tool> and lib/.
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  if (!exe.empty()) {
    llvm::SmallString<256> path(llvm::sys::path::parent_path(exe));
    llvm::sys::path::append(path, "..", "lib", "libomp.so.5");
    if (exists(path))
      return std::string(path);
  }
  if (exists(AMP_LIBOMP_PATH))
    return std::string(AMP_LIBOMP_PATH);
  return makeError(
      "the step runs its parallel loops on OpenMP threads, which needs "
      "libomp: install Debian's libomp-22-dev (scripts/install-deps.sh) or "
      "set AMP_LIBOMP to a libomp.so, or lower with threads=1 (amp-run "
      "--threads=1)");
}

/// Whether LLVM's host feature query reports `feature`.
static bool hostHas(llvm::StringRef feature) {
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  auto it = features.find(feature);
  return it != features.end() && it->second;
}

bool JitModule::hostHasAVX512BF16() { return hostHas("avx512bf16"); }

bool JitModule::hostHasAVX512F() { return hostHas("avx512f"); }

llvm::Expected<std::unique_ptr<JitModule>>
JitModule::compile(ModuleOp module, ArrayRef<StringRef> entryPoints,
                   LowerToLLVMConfig lowering) {
  if (!lowering.bf16Dot)
    lowering.bf16Dot = hostHasAVX512BF16();
  else if (*lowering.bf16Dot && !hostHasAVX512BF16())
    return makeError("the bf16 dot-product kernel (bf16-dot) needs a CPU "
                     "with AVX512_BF16, which this one lacks");
  if (!lowering.fmaTileCols)
    lowering.fmaTileCols = hostHasAVX512F() ? 32 : 16;
  Options options;
  if (lowering.threads != 1) {
    llvm::Expected<std::string> libomp = findOpenMPRuntime();
    if (!libomp)
      return libomp.takeError();
    options.sharedLibraries.push_back(*libomp);
  }
  if (llvm::Error err = prepareEntryPoints(module, entryPoints))
    return std::move(err);
  if (llvm::Error err = amp::runPipeline(
          module,
          [&](OpPassManager &pm) {
            amp::buildLowerToLLVMPipeline(pm, lowering);
          },
          "amp-lower-to-llvm"))
    return std::move(err);
  return load(module, entryPoints, options);
}

llvm::Error JitModule::invokeDescriptors(StringRef name,
                                         ArrayRef<void *> descriptors) {
  SmallVector<void *> packed;
  SmallVector<void *> slots(descriptors.begin(), descriptors.end());
  for (void *&slot : slots)
    packed.push_back(&slot);
  return engine->invokePacked(("_mlir_ciface_" + name).str(), packed);
}

llvm::Error JitModule::invoke(StringRef name,
                              ArrayRef<HostTensor *> argsThenResults) {
  SmallVector<void *> descriptors;
  for (HostTensor *t : argsThenResults)
    descriptors.push_back(t->descriptor());
  return invokeDescriptors(name, descriptors);
}
