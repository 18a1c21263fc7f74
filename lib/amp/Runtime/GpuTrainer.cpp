//===- GpuTrainer.cpp - train a compiled step on a CUDA GPU ---------------===//

#include "amp/Runtime/GpuTrainer.h"

#include "RunRecord.h"

#include "amp/Analysis/TrainingStep.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Runtime/HostTensor.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "llvm/Support/DynamicLibrary.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/TargetSelect.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>

#ifndef AMP_CUDA_RUNTIME_PATH
#define AMP_CUDA_RUNTIME_PATH ""
#endif

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

namespace {
/// The helpers of libamp_cuda_runtime.so that the trainer calls directly
/// (CudaRuntime.cpp); the lowered step calls its mgpu* functions.
struct CudaApi {
  std::string libraryPath;
  std::string device; ///< e.g. "NVIDIA H200 (sm_90)"
  std::string chip;   ///< e.g. "sm_90"
  const char *(*lastError)() = nullptr;
  void *(*alloc)(uint64_t) = nullptr;
  void (*free)(void *) = nullptr;
  void (*copy)(void *, const void *, size_t) = nullptr;
};

CudaApi *cudaApi = nullptr;

/// A device buffer with its memref descriptor (allocated, aligned, offset,
/// sizes, row-major strides).
class DeviceTensor {
public:
  DeviceTensor(const TensorSpec &spec, const CudaApi &api)
      : tensorSpec(spec), api(api) {
    bytes = static_cast<size_t>(spec.numElements()) * spec.elementBytes();
    ptr = api.alloc(std::max<size_t>(bytes, 1));
    auto address = static_cast<int64_t>(reinterpret_cast<intptr_t>(ptr));
    descriptorWords = {address, address, 0};
    for (int64_t size : spec.shape)
      descriptorWords.push_back(size);
    int64_t stride = 1;
    std::vector<int64_t> strides(spec.shape.size());
    for (size_t d = spec.shape.size(); d-- > 0;) {
      strides[d] = stride;
      stride *= spec.shape[d];
    }
    descriptorWords.insert(descriptorWords.end(), strides.begin(),
                           strides.end());
  }
  DeviceTensor(const DeviceTensor &) = delete;
  DeviceTensor &operator=(const DeviceTensor &) = delete;
  ~DeviceTensor() { api.free(ptr); }

  const TensorSpec &spec() const { return tensorSpec; }
  void *descriptor() { return descriptorWords.data(); }
  void upload(const HostTensor &host) { api.copy(ptr, host.data(), bytes); }
  void download(HostTensor &host) { api.copy(host.data(), ptr, bytes); }
  template <typename T> T readScalar() {
    T value{};
    api.copy(&value, ptr, sizeof(T));
    return value;
  }

private:
  TensorSpec tensorSpec;
  const CudaApi &api;
  size_t bytes = 0;
  void *ptr = nullptr;
  std::vector<int64_t> descriptorWords;
};
using DevicePtr = std::unique_ptr<DeviceTensor>;
} // namespace

std::string mlir::amp::runtime::cudaRuntimeLibraryPath() {
  if (const char *env = std::getenv("AMP_CUDA_RUNTIME"))
    return env;
  std::string exe = llvm::sys::fs::getMainExecutable(nullptr, nullptr);
  if (!exe.empty()) {
    llvm::SmallString<256> installed(
        llvm::sys::path::parent_path(llvm::sys::path::parent_path(exe)));
    llvm::sys::path::append(installed, "lib", "libamp_cuda_runtime.so");
    if (llvm::sys::fs::exists(installed) &&
        llvm::StringRef(AMP_CUDA_RUNTIME_PATH).size() > 0)
      return std::string(installed);
  }
  return AMP_CUDA_RUNTIME_PATH;
}

llvm::Expected<std::string> mlir::amp::runtime::initCuda() {
  if (cudaApi)
    return cudaApi->device;
  auto api = std::make_unique<CudaApi>();
  api->libraryPath = cudaRuntimeLibraryPath();
  if (api->libraryPath.empty())
    return makeError("this build has no CUDA support (no CUDA toolkit was "
                     "found when it was configured; install one, e.g. at "
                     "/usr/local/cuda, and rebuild)");
  std::string loadError;
  auto library = llvm::sys::DynamicLibrary::getPermanentLibrary(
      api->libraryPath.c_str(), &loadError);
  if (!library.isValid())
    return makeError("cannot load the CUDA runtime " + api->libraryPath + ": " +
                     loadError +
                     " (is the NVIDIA driver, libcuda.so.1, installed?)");
  auto *init = reinterpret_cast<int (*)(char *, size_t)>(
      library.getAddressOfSymbol("ampCudaInit"));
  api->lastError = reinterpret_cast<const char *(*)()>(
      library.getAddressOfSymbol("ampCudaLastError"));
  api->alloc = reinterpret_cast<void *(*)(uint64_t)>(
      library.getAddressOfSymbol("ampCudaAlloc"));
  api->free = reinterpret_cast<void (*)(void *)>(
      library.getAddressOfSymbol("ampCudaFree"));
  api->copy = reinterpret_cast<void (*)(void *, const void *, size_t)>(
      library.getAddressOfSymbol("ampCudaCopy"));
  if (!init || !api->lastError || !api->alloc || !api->free || !api->copy)
    return makeError(api->libraryPath +
                     " lacks the amp helper functions (ampCudaInit, ...); "
                     "is it from this build?");
  char message[512] = {0};
  if (init(message, sizeof(message)) != 0)
    return makeError(std::string("no usable CUDA device: ") + message);
  api->device = message;
  // "<name> (sm_XY)" -> "sm_XY"
  llvm::StringRef text(api->device);
  size_t open = text.rfind("(sm_");
  api->chip = open == llvm::StringRef::npos
                  ? "sm_80"
                  : text.substr(open + 1).drop_back().str();
  cudaApi = api.release();
  return cudaApi->device;
}

llvm::Expected<RunResult>
mlir::amp::runtime::trainOnCuda(ModuleOp module, const TrainOptions &o,
                                const Dataset &trainSet, const Dataset &testSet,
                                llvm::raw_ostream &log) {
  auto device = initCuda();
  if (!device)
    return device.takeError();
  const CudaApi &api = *cudaApi;
  RunResult result;
  result.name =
      o.precision + (o.lossScale == "none" ? "" : " + " + o.lossScale);
  auto compileStart = std::chrono::steady_clock::now();

  // 1. Mixed-precision rewrite of a clone, then the contract's view of it.
  OwningOpRef<ModuleOp> work(cast<ModuleOp>(module->clone()));
  MixedPrecisionOptions mp;
  setMixedPrecisionOptions(o, mp);
  if (auto err = runPipeline(
          *work, [&](PassManager &pm) { buildMixedPrecisionPipeline(pm, mp); },
          "amp-mixed-precision"))
    return std::move(err);
  func::FuncOp trainFn, evalFn;
  for (auto fn : work->getOps<func::FuncOp>()) {
    if (fn->hasAttr(kTrainStepAttr)) {
      if (trainFn)
        return makeError("more than one amp.train_step function");
      trainFn = fn;
    }
    if (fn->hasAttr(kEvalStepAttr))
      evalFn = fn;
  }
  if (!trainFn)
    return makeError("no func.func with the amp.train_step attribute");
  FailureOr<TrainingStep> step =
      TrainingStep::analyze(trainFn, /*requireMarkers=*/false);
  if (failed(step))
    return makeError("training step violates the contract");
  std::optional<EvalStep> eval;
  if (evalFn) {
    FailureOr<EvalStep> e = EvalStep::analyze(evalFn);
    if (failed(e) || e->params.size() != step->params.size())
      return makeError("eval step does not match the training step");
    eval = *e;
  }
  auto inputType =
      cast<RankedTensorType>(trainFn.getArgument(step->input).getType());
  int64_t batch =
      inputType.isDynamicDim(0) ? o.batchSize : inputType.getDimSize(0);
  if (batch <= 0)
    return makeError("the input's batch dimension is dynamic: pass "
                     "--batch-size=N with N >= 1");
  auto specsOf =
      [&](TypeRange types) -> llvm::Expected<std::vector<TensorSpec>> {
    std::vector<TensorSpec> specs;
    for (Type t : types) {
      auto spec = TensorSpec::fromType(t, batch);
      if (!spec)
        return spec.takeError();
      specs.push_back(*spec);
    }
    return specs;
  };
  auto argSpecs = specsOf(trainFn.getArgumentTypes());
  if (!argSpecs)
    return argSpecs.takeError();
  auto resultSpecs = specsOf(trainFn.getResultTypes());
  if (!resultSpecs)
    return resultSpecs.takeError();
  if ((*argSpecs)[step->input].numElements() / batch != trainSet.exampleSize)
    return makeError("the input holds a different number of values per "
                     "example than the dataset");
  std::vector<TensorSpec> evalArgSpecs, evalResultSpecs;
  if (eval) {
    auto a = specsOf(evalFn.getArgumentTypes());
    auto r = specsOf(evalFn.getResultTypes());
    if (!a)
      return a.takeError();
    if (!r)
      return r.takeError();
    evalArgSpecs = *a;
    evalResultSpecs = *r;
  }
  std::optional<unsigned> scaleArg = step->argWithRole(ArgRole::LossScale);
  std::optional<unsigned> skipsArg =
      step->argWithRole(ArgRole::ConsecutiveSkips);
  std::string trainName = trainFn.getSymName().str();
  std::string evalName = evalFn ? evalFn.getSymName().str() : "";
  unsigned evalNumArgs = evalFn ? evalFn.getNumArguments() : 0;

  // 2. Lower for this GPU and JIT the host code.
  MLIRContext *ctx = work->getContext();
  for (func::FuncOp fn : {trainFn, evalFn}) {
    if (!fn)
      continue;
    fn->setAttr(LLVM::LLVMDialect::getEmitCWrapperAttrName(),
                UnitAttr::get(ctx));
    for (unsigned i = 0; i < fn.getNumArguments(); ++i) {
      fn.setArgAttrs(i, ArrayRef<NamedAttribute>{});
      fn.setArgAttr(i, bufferization::BufferizationDialect::kWritableAttrName,
                    BoolAttr::get(ctx, false));
    }
    for (unsigned i = 0; i < fn.getNumResults(); ++i)
      fn.setResultAttrs(i, ArrayRef<NamedAttribute>{});
  }
  LowerToNVVMOptions nvvm;
  nvvm.chip = api.chip;
  nvvm.format = "bin";
  nvvm.kernelBarePointers = !inputType.isDynamicDim(0);
  nvvm.tensorCores = o.tensorCores;
  if (std::string why = checkLowerToNVVMOptions(nvvm); !why.empty())
    return makeError("amp-lower-to-nvvm: " + why);
  if (auto err = runPipeline(
          *work, [&](PassManager &pm) { buildLowerToNVVMPipeline(pm, nvvm); },
          "amp-lower-to-nvvm{chip=" + api.chip + "}"))
    return std::move(err);
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  registerAllToLLVMIRTranslations(
      *const_cast<DialectRegistry *>(&ctx->getDialectRegistry()));
  std::function<llvm::Error(llvm::Module *)> transformer =
      makeOptimizingTransformer(2, 0, nullptr);
  SmallVector<StringRef> libs{api.libraryPath};
  ExecutionEngineOptions engineOptions;
  // No perf map: LLVM's perf listener leaves a /tmp/.debug/jit/ directory
  // behind per JIT session (thousands after a test run).
  engineOptions.enablePerfNotificationListener = false;
  engineOptions.transformer = transformer;
  engineOptions.sharedLibPaths = libs;
  auto engine = ExecutionEngine::create(*work, engineOptions);
  if (!engine)
    return engine.takeError();
  // Host machine code is generated at the first lookup and the kernels are
  // loaded by the global constructors at the first call: both now, so that
  // they count as compile time, not as the first step's.
  for (const std::string &name : {trainName, evalName})
    if (!name.empty())
      if (auto fn = (*engine)->lookupPacked("_mlir_ciface_" + name); !fn)
        return fn.takeError();
  (*engine)->initialize();
  if (const char *cudaError = api.lastError())
    return makeError(std::string("CUDA: loading the kernels: ") + cudaError);
  result.compileSeconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - compileStart)
                              .count();
  auto invoke = [&](const std::string &name,
                    ArrayRef<DeviceTensor *> buffers) -> llvm::Error {
    SmallVector<void *> descriptors;
    for (DeviceTensor *t : buffers)
      descriptors.push_back(t->descriptor());
    SmallVector<void *> packed;
    for (void *&d : descriptors)
      packed.push_back(&d);
    if (auto err = (*engine)->invokePacked("_mlir_ciface_" + name, packed))
      return err;
    if (const char *cudaError = api.lastError())
      return makeError(std::string("CUDA: ") + cudaError);
    return llvm::Error::success();
  };

  // 3. Device state, initialized on the host as the CPU trainer does.
  std::vector<DevicePtr> args, results;
  for (const TensorSpec &s : *argSpecs)
    args.push_back(std::make_unique<DeviceTensor>(s, api));
  for (const TensorSpec &s : *resultSpecs)
    results.push_back(std::make_unique<DeviceTensor>(s, api));
  std::mt19937_64 rng(o.seed);
  for (unsigned i = 0; i < args.size(); ++i) {
    if (i == step->input || i == step->label)
      continue;
    HostTensor host((*argSpecs)[i]);
    host.fillZero();
    if (llvm::is_contained(step->params, i))
      initParameter(host, rng);
    if (scaleArg && i == *scaleArg)
      host.as<float>()[0] = static_cast<float>(o.initScale);
    args[i]->upload(host);
  }
  HostTensor input((*argSpecs)[step->input]);
  HostTensor label((*argSpecs)[step->label]);
  std::vector<DevicePtr> evalBuffers;
  std::unique_ptr<HostTensor> evalInput, logits;
  if (eval) {
    evalBuffers.push_back(
        std::make_unique<DeviceTensor>(evalArgSpecs[eval->input], api));
    evalBuffers.push_back(
        std::make_unique<DeviceTensor>(evalResultSpecs[0], api));
    evalInput = std::make_unique<HostTensor>(evalArgSpecs[eval->input]);
    logits = std::make_unique<HostTensor>(evalResultSpecs[0]);
  }

  // --csv is written atomically, as on the CPU (RunRecord).
  auto record =
      RunRecord::create(o, result, step->underflowCountResult.has_value());
  if (!record)
    return record.takeError();

  // 4. The training loop (Trainer.cpp's, with device buffers).
  log << "  [" << result.name << "] on " << api.device << ", compiled in "
      << llvm::format("%.1f", result.compileSeconds) << " s\n";
  std::vector<int64_t> order(trainSet.numExamples);
  std::iota(order.begin(), order.end(), 0);
  std::vector<int64_t> testOrder(testSet.numExamples);
  std::iota(testOrder.begin(), testOrder.end(), 0);
  int64_t stepsPerEpoch = trainSet.numExamples / batch;
  if (o.maxStepsPerEpoch > 0)
    stepsPerEpoch = std::min(stepsPerEpoch, o.maxStepsPerEpoch);
  if (stepsPerEpoch == 0)
    return makeError("batch size " + llvm::Twine(batch) +
                     " exceeds the training set");
  std::vector<DeviceTensor *> callBuffers;
  for (int epoch = 1; epoch <= o.epochs; ++epoch) {
    std::shuffle(order.begin(), order.end(), rng);
    (*record)->beginEpoch();
    for (int64_t s = 0; s < stepsPerEpoch; ++s) {
      fillBatch(trainSet, order, s * batch, batch, input, &label);
      float scaleUsed = scaleArg ? args[*scaleArg]->readScalar<float>()
                        : o.lossScale == "static"
                            ? static_cast<float>(o.initScale)
                            : 1.0f;
      auto t0 = std::chrono::steady_clock::now();
      args[step->input]->upload(input);
      args[step->label]->upload(label);
      callBuffers.clear();
      for (auto &t : args)
        callBuffers.push_back(t.get());
      for (auto &t : results)
        callBuffers.push_back(t.get());
      if (auto err = invoke(trainName, callBuffers))
        return std::move(err);
      StepRecord rec;
      rec.epoch = epoch;
      rec.loss = results[step->lossResult]->readScalar<float>();
      rec.foundInf = step->foundInfResult &&
                     results[*step->foundInfResult]->readScalar<uint8_t>();
      rec.ms = std::chrono::duration<double, std::milli>(
                   std::chrono::steady_clock::now() - t0)
                   .count();
      rec.scaleUsed = scaleUsed;
      rec.dynamicScale = scaleArg.has_value();
      if (step->underflowCountResult && step->underflowTotalResult) {
        rec.underflowFlushed =
            results[*step->underflowCountResult]->readScalar<int64_t>();
        rec.underflowTotal =
            results[*step->underflowTotalResult]->readScalar<int64_t>();
      }
      for (auto [arg, res] : step->updateOfArg)
        std::swap(args[arg], results[res]);
      if (skipsArg && rec.foundInf)
        rec.consecutiveSkips = args[*skipsArg]->readScalar<int32_t>();
      if (llvm::Error stop = (*record)->record(rec))
        return std::move(stop);
    }
    (*record)->endEpoch();
    if (scaleArg)
      result.finalLossScale = args[*scaleArg]->readScalar<float>();
    else if (o.lossScale == "static")
      result.finalLossScale = o.initScale;

    if (eval) {
      int64_t evalBatch = evalInput->spec().shape[0];
      int64_t classes = logits->spec().shape[1];
      int64_t correct = 0;
      for (int64_t first = 0; first < testSet.numExamples; first += evalBatch) {
        fillBatch(testSet, testOrder, first, evalBatch, *evalInput, nullptr);
        evalBuffers[0]->upload(*evalInput);
        callBuffers.clear();
        for (unsigned i = 0; i < evalNumArgs; ++i) {
          if (i == eval->input) {
            callBuffers.push_back(evalBuffers[0].get());
            continue;
          }
          const auto *it = llvm::find(eval->params, i);
          callBuffers.push_back(
              args[step->params[it - eval->params.begin()]].get());
        }
        callBuffers.push_back(evalBuffers[1].get());
        if (auto err = invoke(evalName, callBuffers))
          return std::move(err);
        evalBuffers[1]->download(*logits);
        correct += countCorrect(*logits, testSet, first, evalBatch, classes);
      }
      result.testAccuracy = static_cast<double>(correct) /
                            static_cast<double>(testSet.numExamples);
    }
    // A static scale is a constant of the step, not an argument: logged as
    // the table shows it.
    (*record)->logEpoch(log, epoch, eval.has_value(),
                        scaleArg.has_value() || o.lossScale == "static",
                        step->foundInfResult.has_value(),
                        step->underflowCountResult.has_value(), "(cuda)");
  }
  if (llvm::Error e = (*record)->finish())
    return std::move(e);
  return result;
}
