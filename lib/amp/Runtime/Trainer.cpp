//===- Trainer.cpp - train a training step on a dataset, any device -------===//

#include "amp/Runtime/Trainer.h"

#include "RunLog.h"
#include "amp/Analysis/TrainingStep.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Runtime/Batches.h"
#include "amp/Runtime/BoundStep.h"
#include "amp/Support/Diagnostics.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <unistd.h>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// Bytes of physical memory, 0 when unknown.
static uint64_t physicalMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0)
    return 0;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize);
}

static std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

static std::string formatGiB(uint64_t bytes) {
  return llvm::formatv("{0:F1} GiB", static_cast<double>(bytes) / (1ull << 30))
      .str();
}

/// The options a run cannot start with: one line naming the option.
static llvm::Error checkOptions(const TrainOptions &o) {
  if (std::string why = o.rewrite.validate(); !why.empty())
    return makeError(why);
  if (o.epochs < 1)
    return makeError("epochs=" + llvm::Twine(o.epochs) + ": must be >= 1");
  if (o.batchSize < 0)
    return makeError("batch-size=" + llvm::Twine(o.batchSize) +
                     ": must be >= 1 (or 0: the step's static batch size)");
  if (o.maxStepsPerEpoch < 0)
    return makeError("max-steps=" + llvm::Twine(o.maxStepsPerEpoch) +
                     ": must be >= 0 (0: every batch)");
  if (!o.extraPasses.empty()) {
    std::string why;
    llvm::raw_string_ostream os(why);
    OpPassManager pm("builtin.module");
    if (failed(parsePassPipeline(o.extraPasses, pm, os)))
      return makeError("extra passes '" + o.extraPasses + "': " + why);
  }
  return llvm::Error::success();
}

llvm::Expected<RunPlan> mlir::amp::runtime::planRun(ModuleOp module,
                                                    const TrainOptions &o) {
  if (llvm::Error err = checkOptions(o))
    return std::move(err);
  auto steps = findSteps(module);
  if (!steps)
    return steps.takeError();
  auto [trainFn, evalFn] = *steps;
  // The run's precision and loss scaling come from the options, not from
  // the IR: a step that is already loss-scaled would be trained under the
  // wrong name.
  auto hasRole = [](ArrayAttr attrs, StringRef role) {
    return attrs && llvm::any_of(attrs.getAsRange<DictionaryAttr>(),
                                 [&](DictionaryAttr d) {
                                   auto r = d.getAs<StringAttr>(kRoleAttr);
                                   return r && r.getValue() == role;
                                 });
  };
  if (hasRole(trainFn.getArgAttrsAttr(), "loss_scale") ||
      hasRole(trainFn.getResAttrsAttr(), "found_inf"))
    return makeError("@" + trainFn.getSymName() +
                     " is already loss-scaled; amp-run takes the fp32 "
                     "training step (with its amp.loss_grad/amp.grad "
                     "markers) and rewrites it per --run itself");
  {
    DiagnosticCollector diagnostics(module.getContext());
    FailureOr<TrainingStep> step =
        TrainingStep::analyze(trainFn, /*requireMarkers=*/true);
    if (failed(step))
      return diagnostics.makeError("@" + trainFn.getSymName() +
                                   " violates the training-step contract");
    if (evalFn && failed(EvalStep::analyze(evalFn)))
      return diagnostics.makeError("@" + evalFn.getSymName() +
                                   " violates the eval-step contract");
  }
  if (llvm::Error err = checkStepShapes(trainFn, evalFn))
    return std::move(err);

  FailureOr<TrainingStep> step =
      TrainingStep::analyze(trainFn, /*requireMarkers=*/true);
  auto inputType =
      cast<RankedTensorType>(trainFn.getArgument(step->input).getType());
  if (!inputType.getElementType().isF32())
    return makeError("@" + trainFn.getSymName() +
                     ": the input must be f32 (amp-run feeds pixels in [0, "
                     "1] as f32; autocast narrows inside the step), got " +
                     typeString(inputType));
  RunPlan plan;
  if (inputType.isDynamicDim(0)) {
    if (o.batchSize <= 0)
      return makeError("the input's batch dimension is dynamic: pass "
                       "--batch-size=N with N >= 1");
    plan.batch = o.batchSize;
  } else {
    plan.batch = inputType.getDimSize(0);
    if (o.batchSize > 0 && o.batchSize != plan.batch)
      return makeError("--batch-size=" + llvm::Twine(o.batchSize) +
                       " conflicts with the static batch size " +
                       llvm::Twine(plan.batch) + " of the input " +
                       "(drop --batch-size or make the dimension dynamic)");
  }
  plan.valuesPerExample = 1;
  for (int64_t d : inputType.getShape().drop_front())
    plan.valuesPerExample *= d;
  if (step->argRoles[step->label] == ArgRole::Target) {
    // The data hold class labels: a target is fed their one-hot encoding.
    auto target =
        cast<RankedTensorType>(trainFn.getArgument(step->label).getType());
    if (target.getRank() != 2 || !target.getElementType().isF32())
      return makeError("@" + trainFn.getSymName() + ": the target " +
                       typeString(target) +
                       " cannot be fed: amp-run feeds a target the one-hot "
                       "encoding of the dataset's labels, a batch x classes "
                       "f32 tensor");
    plan.targetClasses = target.getDimSize(1);
  }

  // Memory: every argument, result and eval buffer (plus a host mirror of
  // each on a device), known before anything is allocated.
  auto addBytes = [&](TypeRange types) -> llvm::Error {
    for (Type t : types) {
      auto spec = TensorSpec::fromType(t, plan.batch);
      if (!spec)
        return spec.takeError();
      std::optional<uint64_t> bytes = spec->checkedBytes();
      if (!bytes || plan.bufferBytes + *bytes < plan.bufferBytes)
        return makeError("a buffer of type " + spec->str() +
                         " does not fit in 63 bits of bytes");
      plan.bufferBytes += *bytes;
    }
    return llvm::Error::success();
  };
  if (llvm::Error err = addBytes(trainFn.getArgumentTypes()))
    return std::move(err);
  if (llvm::Error err = addBytes(trainFn.getResultTypes()))
    return std::move(err);
  if (evalFn) {
    FailureOr<EvalStep> eval = EvalStep::analyze(evalFn);
    auto evalInput =
        cast<RankedTensorType>(evalFn.getArgument(eval->input).getType());
    int64_t perExample = 1;
    for (int64_t d : evalInput.getShape().drop_front())
      perExample *= d;
    if (perExample != plan.valuesPerExample)
      return makeError("@" + evalFn.getSymName() + "'s input holds " +
                       llvm::Twine(perExample) + " values per example, @" +
                       trainFn.getSymName() + "'s " +
                       llvm::Twine(plan.valuesPerExample));
    plan.classes =
        cast<RankedTensorType>(evalFn.getResultTypes()[0]).getDimSize(1);
    if (llvm::Error err = addBytes(evalInput))
      return std::move(err);
    if (llvm::Error err = addBytes(evalFn.getResultTypes()))
      return std::move(err);
  }
  uint64_t memory = physicalMemoryBytes();
  if (memory && plan.bufferBytes > memory)
    return makeError("the step's buffers need " + formatGiB(plan.bufferBytes) +
                     " (batch " + llvm::Twine(plan.batch) +
                     ") but this machine has " + formatGiB(memory) +
                     " of memory");
  return plan;
}

llvm::Error mlir::amp::runtime::checkRunAgainstData(const RunPlan &plan,
                                                    const Dataset &trainSet,
                                                    const Dataset &testSet) {
  for (const Dataset *ds : {&trainSet, &testSet})
    if (plan.valuesPerExample != ds->exampleSize)
      return makeError("the input holds " + llvm::Twine(plan.valuesPerExample) +
                       " values per example but the dataset has " +
                       llvm::Twine(ds->exampleSize));
  if (plan.classes && *plan.classes != testSet.numClasses)
    return makeError("the eval step returns " + llvm::Twine(*plan.classes) +
                     " logits per example but the dataset has " +
                     llvm::Twine(testSet.numClasses) + " classes");
  if (plan.targetClasses && *plan.targetClasses != trainSet.numClasses)
    return makeError("the target holds " + llvm::Twine(*plan.targetClasses) +
                     " values per example, but amp-run feeds it the one-hot "
                     "labels of a dataset with " +
                     llvm::Twine(trainSet.numClasses) + " classes");
  if (plan.batch > trainSet.numExamples)
    return makeError("batch size " + llvm::Twine(plan.batch) +
                     " exceeds the training set (" +
                     llvm::Twine(trainSet.numExamples) + " examples)");
  return llvm::Error::success();
}

/// The first parameter argument whose values are not all finite.
static std::optional<unsigned> firstNonFiniteParam(BoundStep &step) {
  for (unsigned p : step.layout().params) {
    DeviceBuffer &buffer = step.arg(p);
    buffer.download();
    const float *v = buffer.host().as<float>();
    for (int64_t i = 0, n = buffer.spec().numElements(); i < n; ++i)
      if (!std::isfinite(v[i]))
        return p;
  }
  return std::nullopt;
}

llvm::Expected<RunResult>
mlir::amp::runtime::train(ModuleOp module, const TrainOptions &o,
                          Backend &backend, const Dataset &trainSet,
                          const Dataset &testSet, llvm::raw_ostream &log) {
  auto plan = planRun(module, o);
  if (!plan)
    return plan.takeError();
  if (llvm::Error err = checkRunAgainstData(*plan, trainSet, testSet))
    return std::move(err);
  RunResult result;
  result.name = o.rewrite.runName();
  auto compileStart = std::chrono::steady_clock::now();

  // The rewrite of a clone, then the step bound to the backend.
  OwningOpRef<ModuleOp> work(cast<ModuleOp>(module->clone()));
  if (llvm::Error err = runPipeline(
          *work,
          [&](OpPassManager &pm) {
            buildMixedPrecisionPipeline(pm, o.rewrite);
            if (!o.extraPasses.empty()) // checked by planRun
              (void)parsePassPipeline(o.extraPasses, pm);
          },
          o.extraPasses.empty() ? "amp-mixed-precision"
                                : "amp-mixed-precision, " + o.extraPasses))
    return std::move(err);
  auto bound = BoundStep::create(*work, backend, plan->batch);
  if (!bound)
    return bound.takeError();
  BoundStep &step = **bound;
  const StepLayout &layout = step.layout();
  result.compileSeconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - compileStart)
                              .count();
  std::optional<unsigned> scaleArg = layout.argWithRole(ArgRole::LossScale);
  std::optional<unsigned> skipsArg =
      layout.argWithRole(ArgRole::ConsecutiveSkips);
  LossScaleMode mode = o.rewrite.resolvedLossScale();

  std::mt19937_64 rng(o.seed);
  step.resetState(rng, o.rewrite.initScale);

  RunShape shape;
  shape.hasEval = step.hasEval();
  shape.dynamicScale = scaleArg.has_value();
  shape.hasScale = shape.dynamicScale || mode == LossScaleMode::Static;
  shape.checksOverflow = layout.foundInfResult.has_value();
  shape.hasUnderflow = layout.underflowCountResult.has_value();
  shape.stepsPerEpoch = trainSet.numExamples / plan->batch;
  if (o.maxStepsPerEpoch > 0)
    shape.stepsPerEpoch = std::min(shape.stepsPerEpoch, o.maxStepsPerEpoch);
  if (backend.name() != "cpu")
    shape.device = "(" + backend.name().str() + ")";
  auto record = RunLog::create(o, result, shape, log);
  if (!record)
    return record.takeError();
  if (!backend.deviceName().empty() && o.progress) {
    log << "  [" << result.name << "] on " << backend.deviceName()
        << ", compiled in " << llvm::format("%.1f", result.compileSeconds)
        << " s\n";
    log.flush();
  }

  std::vector<int64_t> order(trainSet.numExamples);
  std::iota(order.begin(), order.end(), 0);
  std::vector<int64_t> testOrder(testSet.numExamples);
  std::iota(testOrder.begin(), testOrder.end(), 0);
  int64_t batch = plan->batch;
  DeviceBuffer &input = step.arg(layout.input);
  for (int epoch = 1; epoch <= o.epochs; ++epoch) {
    std::shuffle(order.begin(), order.end(), rng);
    (*record)->beginEpoch(epoch);
    for (int64_t s = 0; s < shape.stepsPerEpoch; ++s) {
      DeviceBuffer &label = step.arg(layout.label);
      fillBatch(trainSet, order, s * batch, batch, input.host(), &label.host());
      // The scale this step runs with (the state is replaced by the call).
      float scaleUsed = scaleArg ? step.arg(*scaleArg).readScalar<float>()
                        : mode == LossScaleMode::Static
                            ? static_cast<float>(o.rewrite.initScale)
                            : 1.0f;
      auto t0 = std::chrono::steady_clock::now();
      input.upload();
      label.upload();
      if (llvm::Error err = step.run())
        return std::move(err);
      StepRecord rec;
      rec.epoch = epoch;
      rec.stepInEpoch = s + 1;
      rec.loss = step.result(layout.lossResult).readScalar<float>();
      rec.foundInf =
          layout.foundInfResult &&
          step.result(*layout.foundInfResult).readScalar<uint8_t>() != 0;
      rec.ms = std::chrono::duration<double, std::milli>(
                   std::chrono::steady_clock::now() - t0)
                   .count();
      rec.scaleUsed = scaleUsed;
      if (layout.underflowCountResult && layout.underflowTotalResult) {
        rec.underflowFlushed =
            step.result(*layout.underflowCountResult).readScalar<int64_t>();
        rec.underflowTotal =
            step.result(*layout.underflowTotalResult).readScalar<int64_t>();
      }
      // A non-finite loss after finite ones: did the last update already
      // poison the parameters? (Read only on this failure path.)
      if (!std::isfinite(rec.loss) && result.steps > 0)
        rec.nonFiniteParam = firstNonFiniteParam(step);
      step.carry();
      if (skipsArg && rec.foundInf)
        rec.consecutiveSkips = step.arg(*skipsArg).readScalar<int32_t>();
      if (llvm::Error stop = (*record)->record(rec))
        return std::move(stop);
    }
    if (scaleArg)
      result.finalLossScale = step.arg(*scaleArg).readScalar<float>();
    else if (mode == LossScaleMode::Static)
      result.finalLossScale = o.rewrite.initScale;

    if (step.hasEval()) {
      DeviceBuffer &evalInput = step.evalInput();
      DeviceBuffer &logits = step.logits();
      int64_t evalBatch = evalInput.spec().shape[0];
      int64_t classes = logits.spec().shape[1];
      int64_t correct = 0;
      for (int64_t first = 0; first < testSet.numExamples; first += evalBatch) {
        fillBatch(testSet, testOrder, first, evalBatch, evalInput.host(),
                  nullptr);
        evalInput.upload();
        if (llvm::Error err = step.runEval())
          return std::move(err);
        logits.download();
        correct +=
            countCorrect(logits.host(), testSet, first, evalBatch, classes);
      }
      result.testAccuracy = static_cast<double>(correct) /
                            static_cast<double>(testSet.numExamples);
    }
    (*record)->endEpoch();
  }
  if (llvm::Error e = (*record)->finish())
    return std::move(e);
  return result;
}
