//===- Trainer.cpp - train a compiled training step on a dataset ----------===//

#include "amp/Runtime/Trainer.h"

#include "RunRecord.h"
#include "amp/Analysis/TrainingStep.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Runtime/JitModule.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <random>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

using TensorPtr = std::unique_ptr<HostTensor>;

static llvm::Error checkInput(const TensorSpec &spec, const Dataset &ds,
                              StringRef fn) {
  if (spec.kind != ElementKind::F32)
    return makeError("@" + fn + ": input must be f32, got " + spec.str());
  int64_t perExample = spec.numElements() / spec.shape[0];
  if (perExample != ds.exampleSize)
    return makeError("@" + fn + ": input " + spec.str() + " holds " +
                     llvm::Twine(perExample) +
                     " values per example but the "
                     "dataset has " +
                     llvm::Twine(ds.exampleSize));
  return llvm::Error::success();
}

llvm::Expected<RunResult> mlir::amp::runtime::train(ModuleOp module,
                                                    const TrainOptions &o,
                                                    const Dataset &trainSet,
                                                    const Dataset &testSet,
                                                    llvm::raw_ostream &log) {
  RunResult result;
  result.name =
      o.precision + (o.lossScale == "none" ? "" : " + " + o.lossScale);
  auto compileStart = std::chrono::steady_clock::now();

  // 0. One fp32 training step (and at most one eval step), not yet rewritten:
  //    the run's precision and loss scaling come from `o`, not from the IR.
  {
    SmallVector<func::FuncOp> trainFns, evalFns;
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (fn->hasAttr(kTrainStepAttr))
        trainFns.push_back(fn);
      if (fn->hasAttr(kEvalStepAttr))
        evalFns.push_back(fn);
    }
    if (trainFns.empty())
      return makeError("no func.func with the amp.train_step attribute; mark "
                       "the training step (docs/training-step.md)");
    if (trainFns.size() > 1 || evalFns.size() > 1)
      return makeError("the module has " + llvm::Twine(trainFns.size()) +
                       " amp.train_step and " + llvm::Twine(evalFns.size()) +
                       " amp.eval_step functions; amp-run trains one step "
                       "with at most one eval step");
    if (!trainFns.empty()) {
      func::FuncOp fn = trainFns.front();
      auto hasRole = [&](auto getAttr, unsigned n, StringRef role) {
        for (unsigned i = 0; i < n; ++i)
          if (auto a = getAttr(i); a && a.getValue() == role)
            return true;
        return false;
      };
      if (hasRole(
              [&](unsigned i) {
                return fn.getArgAttrOfType<StringAttr>(i, kRoleAttr);
              },
              fn.getNumArguments(), "loss_scale") ||
          hasRole(
              [&](unsigned i) {
                return fn.getResultAttrOfType<StringAttr>(i, kRoleAttr);
              },
              fn.getNumResults(), "found_inf"))
        return makeError("@" + fn.getSymName() +
                         " is already loss-scaled; amp-run takes the fp32 "
                         "training step (with its amp.loss_grad/amp.grad "
                         "markers) and rewrites it per --run itself");
    }
  }

  // 1. The mixed-precision rewrite of a clone.
  OwningOpRef<ModuleOp> work(cast<ModuleOp>(module->clone()));
  MixedPrecisionOptions mp;
  setMixedPrecisionOptions(o, mp);
  if (llvm::Error err = runPipeline(
          *work, [&](PassManager &pm) { buildMixedPrecisionPipeline(pm, mp); },
          "amp-mixed-precision"))
    return std::move(err);

  func::FuncOp trainFn, evalFn;
  for (auto fn : work->getOps<func::FuncOp>()) {
    if (fn->hasAttr(kTrainStepAttr))
      trainFn = fn;
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
    if (failed(e))
      return makeError("eval step violates the contract");
    if (e->params.size() != step->params.size())
      return makeError("eval step takes " + llvm::Twine(e->params.size()) +
                       " parameters, the training step " +
                       llvm::Twine(step->params.size()));
    eval = *e;
  }

  // 2. Host buffers for every argument and result (specs are read before
  //    lowering changes the function types).
  auto inputType =
      cast<RankedTensorType>(trainFn.getArgument(step->input).getType());
  int64_t batch =
      inputType.isDynamicDim(0) ? o.batchSize : inputType.getDimSize(0);
  if (inputType.isDynamicDim(0) && o.batchSize <= 0)
    return makeError("the input's batch dimension is dynamic: pass "
                     "--batch-size=N with N >= 1");
  if (!inputType.isDynamicDim(0) && o.batchSize > 0 && o.batchSize != batch)
    return makeError("--batch-size=" + llvm::Twine(o.batchSize) +
                     " conflicts with the static batch size " +
                     llvm::Twine(batch) + " of the input " +
                     "(drop --batch-size or make the dimension dynamic)");
  auto makeTensors = [&](TypeRange types,
                         std::vector<TensorPtr> &out) -> llvm::Error {
    for (Type t : types) {
      auto spec = TensorSpec::fromType(t, batch);
      if (!spec)
        return spec.takeError();
      out.push_back(std::make_unique<HostTensor>(*spec));
    }
    return llvm::Error::success();
  };
  std::vector<TensorPtr> args, results, evalArgs, evalResults;
  if (auto err = makeTensors(trainFn.getArgumentTypes(), args))
    return std::move(err);
  if (auto err = makeTensors(trainFn.getResultTypes(), results))
    return std::move(err);
  if (auto err =
          checkInput(args[step->input]->spec(), trainSet, trainFn.getSymName()))
    return std::move(err);
  if (eval) {
    for (auto [k, p] : llvm::enumerate(eval->params))
      if (evalFn.getArgument(p).getType() !=
          trainFn.getArgument(step->params[k]).getType())
        return makeError("eval step parameter #" + llvm::Twine(k) +
                         " has a different type than the training step's");
    // Parameters are shared with the training step; only the input and the
    // logits have buffers of their own.
    evalArgs.resize(evalFn.getNumArguments());
    std::vector<TensorPtr> tmp;
    if (auto err = makeTensors(evalFn.getArgument(eval->input).getType(), tmp))
      return std::move(err);
    evalArgs[eval->input] = std::move(tmp[0]);
    if (auto err = makeTensors(evalFn.getResultTypes(), evalResults))
      return std::move(err);
    if (auto err = checkInput(evalArgs[eval->input]->spec(), testSet,
                              evalFn.getSymName()))
      return std::move(err);
    int64_t classes = evalResults[0]->spec().shape[1];
    if (classes != testSet.numClasses)
      return makeError("@" + evalFn.getSymName() + " returns " +
                       llvm::Twine(classes) +
                       " logits per example but the "
                       "dataset has " +
                       llvm::Twine(testSet.numClasses) + " classes");
  }
  std::optional<unsigned> scaleArg = step->argWithRole(ArgRole::LossScale);
  std::optional<unsigned> skipsArg =
      step->argWithRole(ArgRole::ConsecutiveSkips);

  // 3. Lower and JIT-compile. The func ops are replaced by LLVM functions:
  //    from here on only the values read above are used.
  unsigned evalNumArgs = evalFn ? evalFn.getNumArguments() : 0;
  std::string trainName = trainFn.getSymName().str();
  std::string evalName = evalFn ? evalFn.getSymName().str() : "";
  SmallVector<StringRef> entries{trainName};
  if (evalFn)
    entries.push_back(evalName);
  auto jit = JitModule::compile(*work, entries);
  if (!jit)
    return jit.takeError();
  result.compileSeconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - compileStart)
                              .count();

  // 4. Initial state.
  std::mt19937_64 rng(o.seed);
  for (unsigned p : step->params)
    initParameter(*args[p], rng);
  if (scaleArg)
    args[*scaleArg]->as<float>()[0] = static_cast<float>(o.initScale);

  // --csv is written atomically (RunRecord): a temporary file beside the
  // target, renamed over it when the run ends, also when it stops on scale
  // collapse (its rows are complete); any other early return discards it.
  auto record =
      RunRecord::create(o, result, step->underflowCountResult.has_value());
  if (!record)
    return record.takeError();

  // 5. The training loop.
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
  std::vector<HostTensor *> callBuffers;
  for (int epoch = 1; epoch <= o.epochs; ++epoch) {
    std::shuffle(order.begin(), order.end(), rng);
    (*record)->beginEpoch();
    for (int64_t s = 0; s < stepsPerEpoch; ++s) {
      fillBatch(trainSet, order, s * batch, batch, *args[step->input],
                args[step->label].get());
      callBuffers.clear();
      for (auto &t : args)
        callBuffers.push_back(t.get());
      for (auto &t : results)
        callBuffers.push_back(t.get());
      // The scale this step runs with (the state is replaced by the call).
      float scaleUsed = scaleArg ? args[*scaleArg]->as<float>()[0]
                        : o.lossScale == "static"
                            ? static_cast<float>(o.initScale)
                            : 1.0f;
      auto t0 = std::chrono::steady_clock::now();
      if (auto err = (*jit)->invoke(trainName, callBuffers))
        return std::move(err);
      StepRecord rec;
      rec.epoch = epoch;
      rec.ms = std::chrono::duration<double, std::milli>(
                   std::chrono::steady_clock::now() - t0)
                   .count();
      rec.loss = results[step->lossResult]->as<float>()[0];
      rec.scaleUsed = scaleUsed;
      rec.dynamicScale = scaleArg.has_value();
      rec.foundInf = step->foundInfResult &&
                     results[*step->foundInfResult]->as<uint8_t>()[0] != 0;
      if (step->underflowCountResult && step->underflowTotalResult) {
        rec.underflowFlushed =
            results[*step->underflowCountResult]->as<int64_t>()[0];
        rec.underflowTotal =
            results[*step->underflowTotalResult]->as<int64_t>()[0];
      }
      // Carry the state: every result with amp.updates = i feeds argument i.
      for (auto [arg, res] : step->updateOfArg)
        std::swap(args[arg], results[res]);
      if (skipsArg)
        rec.consecutiveSkips = args[*skipsArg]->as<int32_t>()[0];
      if (llvm::Error stop = (*record)->record(rec))
        return std::move(stop);
    }
    (*record)->endEpoch();
    if (scaleArg)
      result.finalLossScale = args[*scaleArg]->as<float>()[0];
    else if (o.lossScale == "static")
      result.finalLossScale = o.initScale;

    if (eval) {
      HostTensor &input = *evalArgs[eval->input];
      HostTensor &logits = *evalResults[0];
      int64_t evalBatch = input.spec().shape[0];
      int64_t classes = logits.spec().shape[1];
      int64_t correct = 0;
      for (int64_t first = 0; first < testSet.numExamples; first += evalBatch) {
        fillBatch(testSet, testOrder, first, evalBatch, input, nullptr);
        callBuffers.clear();
        for (unsigned i = 0; i < evalNumArgs; ++i) {
          if (i == eval->input) {
            callBuffers.push_back(&input);
            continue;
          }
          const auto *it = llvm::find(eval->params, i);
          callBuffers.push_back(
              args[step->params[it - eval->params.begin()]].get());
        }
        callBuffers.push_back(&logits);
        if (auto err = (*jit)->invoke(evalName, callBuffers))
          return std::move(err);
        correct += countCorrect(logits, testSet, first, evalBatch, classes);
      }
      result.testAccuracy = static_cast<double>(correct) /
                            static_cast<double>(testSet.numExamples);
    }
    // A static scale is a constant of the step, not an argument: logged as
    // the table shows it.
    (*record)->logEpoch(log, epoch, eval.has_value(),
                        scaleArg.has_value() || o.lossScale == "static",
                        step->foundInfResult.has_value(),
                        step->underflowCountResult.has_value(), "");
  }
  if (llvm::Error e = (*record)->finish())
    return std::move(e);
  return result;
}
