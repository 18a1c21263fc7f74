//===- Trainer.cpp - train a training step on a dataset, any device -------===//

#include "amp/Runtime/Trainer.h"

#include "RunLog.h"
#include "amp/Analysis/IndexBound.h"
#include "amp/Analysis/MaskConvention.h"
#include "amp/Analysis/MemoryReport.h"
#include "amp/Analysis/PrecisionPolicy.h"
#include "amp/Analysis/TrainingStep.h"
#include "amp/CPU/Passes.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Runtime/Batches.h"
#include "amp/Runtime/BoundStep.h"
#include "amp/Runtime/Checkpoint/Checkpoint.h"
#include "amp/Support/Diagnostics.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <functional>
#include <numeric>
#include <sstream>
#include <thread>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

char StopRuleError::ID = 0;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

static std::string typeString(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << type;
  return text;
}

/// "1 value", "784 values", "10 classes".
static std::string countOf(int64_t n, llvm::StringRef noun) {
  return std::to_string(n) + " " + noun.str() +
         (n == 1                ? ""
          : noun.ends_with("s") ? "es"
                                : "s");
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

/// A step that calls itself (directly or through other functions) is
/// refused: the rewrite does not follow calls and deep recursion overflows
/// the JIT's stack.
static llvm::Error checkNoRecursion(ModuleOp module, func::FuncOp trainFn,
                                    func::FuncOp evalFn) {
  SymbolTable symbols(module);
  // Depth-first over the functions the steps call; `onPath` holds the
  // chain from the step to the function being visited.
  llvm::DenseSet<Operation *> done;
  SmallVector<func::FuncOp> onPath;
  std::function<llvm::Error(func::FuncOp)> visit =
      [&](func::FuncOp fn) -> llvm::Error {
    if (llvm::is_contained(onPath, fn)) {
      std::string chain;
      for (func::FuncOp f :
           llvm::drop_begin(onPath, llvm::find(onPath, fn) - onPath.begin()))
        chain += "@" + f.getSymName().str() + " -> ";
      chain += "@" + fn.getSymName().str();
      return makeError(formatLocation(fn.getLoc()) +
                       ": error: recursive call chain " + chain +
                       ": amp-run does not train recursive steps (unroll "
                       "or inline the recursion)");
    }
    if (!done.insert(fn).second)
      return llvm::Error::success();
    onPath.push_back(fn);
    llvm::Error err = llvm::Error::success();
    fn.walk([&](func::CallOp call) {
      if (err)
        return WalkResult::interrupt();
      if (auto callee = symbols.lookup<func::FuncOp>(call.getCallee()))
        err = visit(callee);
      return err ? WalkResult::interrupt() : WalkResult::advance();
    });
    onPath.pop_back();
    // A function left on no path may be reached again from another
    // caller; it is done (its callees were all visited).
    return err;
  };
  for (func::FuncOp fn : {trainFn, evalFn})
    if (fn)
      if (llvm::Error err = visit(fn))
        return err;
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
  // Already narrowed: the run would be named (and checked) as the options
  // say while the step computes in the type it was narrowed to.
  if (ExistingNarrowing done = findExistingNarrowing(trainFn)) {
    std::string low = typeString(done.lowType);
    return makeError(formatLocation(done.cast->getLoc()) + ": error: @" +
                     trainFn.getSymName() + " is already autocast to " + low +
                     " (this cast feeds '" +
                     done.user->getName().getStringRef() +
                     "'); amp-run takes the fp32 training step and narrows "
                     "it per --run itself (a run named f32 would compute in " +
                     low + ")");
  }
  if (llvm::Error err = checkNoRecursion(module, trainFn, evalFn))
    return std::move(err);
  // The rewrite itself, on a clone: what it refuses (autocast names that
  // are no ops, a loss that depends on gradients, ...) is known before any
  // data is loaded.
  {
    // Its warnings are the run's to print (train() rewrites again).
    DiagnosticCollector quiet(module.getContext());
    OwningOpRef<ModuleOp> work(cast<ModuleOp>(module->clone()));
    // The autocast report is the run's to write, when it runs: a run that
    // never starts (an earlier one failed, a signal) writes none.
    MixedPrecisionConfig quietRewrite = o.rewrite;
    quietRewrite.autocastReport.clear();
    if (llvm::Error err = runPipeline(
            *work,
            [&](OpPassManager &pm) {
              buildMixedPrecisionPipeline(pm, quietRewrite);
            },
            "amp-mixed-precision"))
      return std::move(err);
  }

  FailureOr<TrainingStep> step =
      TrainingStep::analyze(trainFn, /*requireMarkers=*/true);
  RunPlan plan;
  for (unsigned i : step->inputs) {
    auto type = cast<RankedTensorType>(trainFn.getArgument(i).getType());
    Type elem = type.getElementType();
    bool integer = elem.isInteger(1) || elem.isInteger(8) ||
                   elem.isInteger(32) || elem.isInteger(64);
    if (!elem.isF32() && !integer)
      return makeError(
          "@" + trainFn.getSymName() +
          ": the input must be f32 (amp-run feeds pixels in [0, 1] as f32; "
          "autocast narrows inside the step) or an i1, i8, i32 or i64 tensor "
          "(token ids), got " +
          typeString(type) +
          (step->inputs.size() > 1 ? " (argument #" + std::to_string(i) + ")"
                                   : std::string()));
    RunPlan::Input in;
    in.argument = i;
    in.type = typeString(type);
    in.integer = integer;
    in.valuesPerExample = 1;
    for (int64_t d : type.getShape().drop_front())
      in.valuesPerExample *= d;
    if (integer)
      in.indexBound = indexBound(trainFn.getArgument(i));
    if (integer && type.getRank() >= 2 &&
        !type.isDynamicDim(type.getRank() - 1)) {
      // A mask: i1, or integers that mask as a select's condition or as an
      // additive bias (an HF-style i64 attention_mask) and index nothing.
      // What true (non-zero) means, from how it masks; else the usual
      // convention of its rank.
      std::optional<bool> keeps = maskKeepsWhenTrue(trainFn.getArgument(i));
      if (elem.isInteger(1) || (keeps && !in.indexBound)) {
        in.maskRow = type.getShape().back();
        in.attendMask = keeps.value_or(type.getRank() >= 3);
      }
    }
    plan.inputs.push_back(in);
  }
  // The batch: dimension 0 of the inputs (the contract has them agree),
  // dynamic only when it is dynamic in all of them.
  auto inputType =
      cast<RankedTensorType>(trainFn.getArgument(step->input).getType());
  for (unsigned i : step->inputs)
    if (auto type = cast<RankedTensorType>(trainFn.getArgument(i).getType());
        !type.isDynamicDim(0)) {
      inputType = type;
      break;
    }
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
  if (o.dataParallel && !o.dataParallel->context)
    return makeError("a data-parallel run needs its DataParallelContext");
  if (o.emulateRanks < 1)
    return makeError("--emulate-ranks=" + llvm::Twine(o.emulateRanks) +
                     ": must be >= 1 (1: off)");
  if (o.emulateRanks > 1 && inputType.isDynamicDim(0))
    return makeError("--emulate-ranks needs a step with a static batch "
                     "dimension (the chunks are cut at compile time); the "
                     "input of @" +
                     trainFn.getSymName() + " is " + typeString(inputType) +
                     " (write the batch size into the step)");
  if (o.emulateRanks > 1 && o.dataParallel)
    return makeError("--emulate-ranks reproduces data-parallel ranks in one "
                     "process; this run is data-parallel already (run it "
                     "without mpirun, or drop --emulate-ranks)");
  if (plan.batch % o.emulateRanks != 0)
    return makeError("--emulate-ranks=" + llvm::Twine(o.emulateRanks) +
                     " does not divide the batch size " +
                     llvm::Twine(plan.batch) +
                     " (each rank's batch is batch / ranks)");
  plan.globalBatch = o.dataParallel
                         ? o.dataParallel->context->globalBatch(plan.batch)
                         : plan.batch;
  plan.valuesPerExample = plan.inputs.front().valuesPerExample;
  if (auto classes =
          trainFn.getArgAttrOfType<IntegerAttr>(step->label, kClassesAttr))
    plan.labelClasses = classes.getInt();
  else if (step->argRoles[step->label] == ArgRole::Label)
    plan.lossClasses = indexBound(trainFn.getArgument(step->label));
  if (step->argRoles[step->label] == ArgRole::Target) {
    // A batch x K target is fed the data's regression targets of K values
    // per example, or the one-hot encoding of its class labels (the data
    // decides); any other shape regression targets only.
    auto target =
        cast<RankedTensorType>(trainFn.getArgument(step->label).getType());
    if (!target.getElementType().isF32())
      return makeError("@" + trainFn.getSymName() + ": the target " +
                       typeString(target) +
                       " cannot be fed: amp-run feeds f32 targets");
    plan.targetType = typeString(target);
    if (target.getRank() == 2) {
      plan.targetClasses = target.getDimSize(1);
    } else {
      plan.targetValues = 1;
      for (int64_t d : target.getShape().drop_front())
        *plan.targetValues *= d;
    }
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
    if (eval->inputs.size() != plan.inputs.size())
      return makeError("@" + evalFn.getSymName() + " takes " +
                       llvm::Twine(eval->inputs.size()) + " inputs, @" +
                       trainFn.getSymName() + " " +
                       llvm::Twine(plan.inputs.size()));
    for (auto [k, input] : llvm::enumerate(eval->inputs)) {
      auto evalInput =
          cast<RankedTensorType>(evalFn.getArgument(input).getType());
      auto trainInput = cast<RankedTensorType>(
          trainFn.getArgument(plan.inputs[k].argument).getType());
      int64_t perExample = 1;
      for (int64_t d : evalInput.getShape().drop_front())
        perExample *= d;
      if (perExample != plan.inputs[k].valuesPerExample)
        return makeError("@" + evalFn.getSymName() + "'s input holds " +
                         countOf(perExample, "value") + " per example, @" +
                         trainFn.getSymName() + "'s " +
                         llvm::Twine(plan.inputs[k].valuesPerExample));
      if (evalInput.getElementType() != trainInput.getElementType())
        return makeError("@" + evalFn.getSymName() + "'s input #" +
                         llvm::Twine(k) + " is " + typeString(evalInput) +
                         ", @" + trainFn.getSymName() + "'s " +
                         typeString(trainInput));
      if (llvm::Error err = addBytes(evalInput))
        return std::move(err);
    }
    plan.classes =
        cast<RankedTensorType>(evalFn.getResultTypes()[0]).getDimSize(1);
    if (llvm::Error err = addBytes(evalFn.getResultTypes()))
      return std::move(err);
  }
  uint64_t memory = physicalMemoryBytes();
  if (memory && plan.bufferBytes > memory)
    return makeError("the step's buffers need " + formatGiB(plan.bufferBytes) +
                     " (batch " + llvm::Twine(plan.batch) +
                     ") but this machine has " + formatGiB(memory) +
                     " of memory");
  // The start state as a run reads it (blobs present, of the right size,
  // finite), and which elided values start random.
  {
    auto layout = StepLayout::read(module, plan.batch);
    if (!layout)
      return layout.takeError();
    // One note for all of them (a torchvision export has dozens).
    std::string which;
    unsigned count = 0;
    for (unsigned i = 0; i < trainFn.getNumArguments(); ++i)
      if (trainFn.getArgAttr(i, kInitialValueAttr) &&
          layout->initialData[i].empty()) {
        which += (count++ ? ", #" : "#") + std::to_string(i);
      }
    if (count)
      plan.notes.push_back(
          "@" + trainFn.getSymName().str() + ": " + std::to_string(count) +
          (count == 1 ? " argument (" : " arguments (") + which + ") start" +
          (count == 1 ? "s" : "") + " from the random initialisation: " +
          (count == 1 ? "its " : "their ") + kInitialValueAttr.str() +
          " is a dense_resource printed without its data (__elided__, or a "
          "key the file, which holds no blobs, does not define)");
  }
  return plan;
}

/// "argument #3" / "arguments #3 and #4" / "arguments #3, #4 and #5".
static std::string argumentList(const RunPlan &plan) {
  std::string text = plan.inputs.size() == 1 ? "argument " : "arguments ";
  for (size_t k = 0; k < plan.inputs.size(); ++k)
    text += (k == 0                        ? "#"
             : k + 1 == plan.inputs.size() ? " and #"
                                           : ", #") +
            std::to_string(plan.inputs[k].argument);
  return text;
}

/// The step's inputs and target against what `ds` holds per example.
static llvm::Error checkInputsAgainstData(const RunPlan &plan,
                                          const Dataset &ds) {
  if (ds.inputs.empty()) {
    // An image set: one f32 image and one class label per example.
    const char *synthetic = "; --data=synthetic feeds every input and "
                            "target its own shape and element type";
    if (plan.inputs.size() != 1)
      return makeError(
          "the step has " + llvm::Twine(plan.inputs.size()) + " inputs (" +
          argumentList(plan) +
          "), but the dataset feeds one: an image per example, with a "
          "label" +
          synthetic);
    const RunPlan::Input &in = plan.inputs.front();
    if (in.integer)
      return makeError("the input (argument #" + llvm::Twine(in.argument) +
                       ", " + in.type +
                       ") holds integers, but the dataset's images are f32 "
                       "pixels" +
                       synthetic);
    if (plan.targetValues)
      return makeError("the target " + plan.targetType +
                       " cannot be fed from this dataset: it holds class "
                       "labels, which amp-run feeds to a batch x classes f32 "
                       "target one-hot encoded; give regression targets of " +
                       countOf(*plan.targetValues, "value") +
                       " per example with --data=npy:X,Y (Y float32 or "
                       "float64)" +
                       synthetic);
    if (plan.valuesPerExample != ds.exampleSize)
      return makeError(
          "the input holds " + countOf(plan.valuesPerExample, "value") +
          " per example but the dataset has " + llvm::Twine(ds.exampleSize));
    return llvm::Error::success();
  }
  // Data made for a step (synthetic): one field per input.
  if (ds.inputs.size() != plan.inputs.size())
    return makeError("the step has " + llvm::Twine(plan.inputs.size()) +
                     " inputs (" + argumentList(plan) + "), the data " +
                     llvm::Twine(ds.inputs.size()));
  for (auto [in, field] : llvm::zip_equal(plan.inputs, ds.inputs))
    if (in.integer != field.integer ||
        in.valuesPerExample != field.valuesPerExample)
      return makeError(
          "the input argument #" + llvm::Twine(in.argument) + " (" + in.type +
          ") holds " + countOf(in.valuesPerExample, "value") +
          " per example, the data " +
          countOf(field.valuesPerExample, field.integer ? "integer" : "float"));
  std::optional<int64_t> width = plan.regressionValues();
  if (ds.target && !width)
    return makeError("the data holds regression targets, but the step takes "
                     "class labels (an amp.role = \"label\" argument)");
  if ((plan.targetValues && !ds.target) ||
      (ds.target && ds.target->valuesPerExample != *width))
    return makeError("the target " + plan.targetType + " holds " +
                     countOf(*width, "value") + " per example, the data " +
                     (ds.target ? countOf(ds.target->valuesPerExample, "value")
                                : std::string("have no regression targets")));
  return llvm::Error::success();
}

/// The step's classes (its eval step's logits, its label's, a one-hot
/// target's width) against the class labels of the data.
static llvm::Error checkClassesAgainstData(const RunPlan &plan,
                                           const Dataset &trainSet,
                                           const Dataset &testSet) {
  // The dataset's classes come from both splits: a test split that lacks
  // the top class still has the training split's classes. Fewer classes
  // than logits are fine (cross-entropy over all logits, as PyTorch: a
  // fine-tuning set that uses some of a head's classes).
  int32_t dataClasses = std::max(trainSet.numClasses, testSet.numClasses);
  if (plan.classes && testSet.numClasses > *plan.classes)
    return makeError("the eval step returns " + llvm::Twine(*plan.classes) +
                     " logits per example but the dataset has " +
                     llvm::Twine(dataClasses) +
                     " classes (the largest label of either split + 1)");
  // Labels index the logits: a training label past the eval step's classes
  // would be read out of bounds by the loss.
  if (plan.classes && trainSet.numClasses > *plan.classes)
    return makeError("the training set has labels up to " +
                     llvm::Twine(trainSet.numClasses - 1) +
                     " but the eval step returns " +
                     llvm::Twine(*plan.classes) + " logits per example");
  if (plan.labelClasses && trainSet.numClasses > *plan.labelClasses)
    return makeError("the training set has labels up to " +
                     llvm::Twine(trainSet.numClasses - 1) +
                     " but the step's label indexes " +
                     llvm::Twine(*plan.labelClasses) +
                     " classes (its amp.classes); the loss would read past "
                     "the logits");
  if (plan.lossClasses && trainSet.numClasses > *plan.lossClasses)
    return makeError("the training set has labels up to " +
                     llvm::Twine(trainSet.numClasses - 1) +
                     " but the step's loss reads its label as an index into " +
                     llvm::Twine(*plan.lossClasses) +
                     " classes (the logits the label selects from); the "
                     "loss would read past them: give data with fewer "
                     "classes (--classes=N with --data=synthetic)");
  if (plan.targetClasses && *plan.targetClasses != dataClasses)
    return makeError(
        "the target " + plan.targetType + " holds " +
        countOf(*plan.targetClasses, "value") +
        " per example, but the data holds integer class labels of " +
        countOf(dataClasses, "class") +
        " (the largest label of either split + 1), which amp-run feeds it "
        "one-hot: give labels of " +
        countOf(*plan.targetClasses, "class") +
        ", or float regression targets of shape (N, " +
        llvm::Twine(*plan.targetClasses) +
        ") (--data=npy:X,Y with Y float32 or float64)");
  return llvm::Error::success();
}

llvm::Error mlir::amp::runtime::checkRunAgainstData(const RunPlan &plan,
                                                    const Dataset &trainSet,
                                                    const Dataset &testSet,
                                                    DataUse use) {
  for (const Dataset *ds : {&trainSet, &testSet})
    if (llvm::Error err = checkInputsAgainstData(plan, *ds))
      return err;
  // Both splits hold the same kind of supervision: the one source that
  // reads them from two files (NpySource::load) refuses a mix, naming them.
  if (!trainSet.target) {
    if (llvm::Error err = checkClassesAgainstData(plan, trainSet, testSet))
      return err;
  } else if (use == DataUse::EvaluationOnly) {
    return makeError("the eval step's accuracy needs class labels, but the "
                     "test set holds regression targets (" +
                     countOf(testSet.target->valuesPerExample, "value") +
                     " per example); --eval-only has no regression metric "
                     "(training reports each epoch's mean loss)");
  }
  // The eval step takes a partial last batch (runEvalSet); only training
  // needs a whole one.
  if (use == DataUse::Training && plan.globalBatch > trainSet.numExamples) {
    std::string what = "batch size " + std::to_string(plan.batch);
    if (plan.globalBatch != plan.batch)
      what = "the global batch " + std::to_string(plan.globalBatch) + " (" +
             std::to_string(plan.globalBatch / plan.batch) + " ranks x " +
             std::to_string(plan.batch) + ")";
    return makeError(what + " exceeds the training set (" +
                     llvm::Twine(trainSet.numExamples) + " examples)");
  }
  return llvm::Error::success();
}

/// The first parameter argument whose values are not all finite.
static std::optional<unsigned> firstNonFiniteParam(BoundStep &step) {
  for (unsigned p : step.layout().params) {
    DeviceBuffer &buffer = step.arg(p);
    buffer.download();
    int64_t n = buffer.spec().numElements();
    if (buffer.spec().kind == ElementKind::BF16) { // amp-master-weights
      const uint16_t *v = buffer.host().as<uint16_t>();
      for (int64_t i = 0; i < n; ++i)
        if ((v[i] & 0x7f80) == 0x7f80) // all exponent bits: inf or NaN
          return p;
      continue;
    }
    const float *v = buffer.host().as<float>();
    for (int64_t i = 0; i < n; ++i)
      if (!std::isfinite(v[i]))
        return p;
  }
  return std::nullopt;
}

/// What every rank of a data-parallel run must agree on: the step, the
/// run's options and the data's sizes (so the number of steps, hence of
/// collectives, is the same everywhere).
static uint64_t runFingerprint(ModuleOp module, const TrainOptions &o,
                               const RunPlan &plan, const Dataset &trainSet,
                               const Dataset &testSet) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  const DataParallelRun &dp = *o.dataParallel;
  return llvm::hash_combine(text, o.rewrite.runName(), o.epochs, plan.batch,
                            o.maxStepsPerEpoch, o.seed, trainSet.numExamples,
                            testSet.numExamples, static_cast<int>(dp.bucket),
                            dp.lowPrecisionReduce);
}

/// What a checkpoint records of the fp32 step `module` (before the
/// rewrite): a hash of its text without locations, with large constants and
/// resource blobs elided (the weights are state, saved themselves), so the
/// body's ops and constants (learning rate, loss) are what it tells apart.
static std::string stepFingerprint(ModuleOp module) {
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  flags.elideLargeElementsAttrs(16).elideLargeResourceString(64);
  module.print(os, flags);
  return llvm::utohexstr(llvm::xxh3_64bits(text));
}

/// The options of amp-data-parallel for `dp` and the run's precision.
static DataParallelOptions dataParallelPass(const DataParallelRun &dp,
                                            Precision precision) {
  DataParallelOptions options;
  options.worldSize = dp.context->worldSize();
  options.bucket = dp.bucket;
  options.reducePrecision = dp.lowPrecisionReduce ? precision : Precision::F32;
  options.mpi = dp.context->implementation();
  options.testInjection = dp.injection.kind == Injection::GradInf ||
                          dp.injection.kind == Injection::LossNaN;
  return options;
}

/// The test hook of amp-run --test-inject at global step `step` (1-based)
/// on this rank: the value the step's hook returns, or a failure or hang
/// of this rank alone.
static llvm::Error applyInjection(const DataParallelRun &dp, int64_t step) {
  const InjectionPlan &plan = dp.injection;
  bool here = plan.kind != Injection::None && plan.rank == dp.context->rank() &&
              plan.step == step;
  setStepInjection(!here                             ? 0
                   : plan.kind == Injection::GradInf ? 1
                   : plan.kind == Injection::LossNaN ? 2
                                                     : 0);
  if (here && plan.kind == Injection::Fail)
    return makeError("test injection: rank " + llvm::Twine(plan.rank) +
                     " fails before step " + llvm::Twine(step));
  if (here && plan.kind == Injection::Hang)
    for (;;)
      std::this_thread::sleep_for(std::chrono::seconds(1));
  return llvm::Error::success();
}

/// The text of one option's value in a checkpoint's identity.
static std::string optionText(double v) {
  char text[40];
  std::snprintf(text, sizeof(text), "%.17g", v);
  return text;
}
static std::string optionText(int v) { return std::to_string(v); }
static std::string optionText(bool v) { return v ? "true" : "false"; }
static std::string optionText(const std::string &v) { return v; }
static std::string optionText(Precision v) {
  return stringifyPrecision(v).str();
}
static std::string optionText(LossScaleMode v) {
  return stringifyLossScaleMode(v).str();
}
static std::string optionText(MasterWeights v) {
  return stringifyMasterWeights(v).str();
}
static std::string optionText(const std::vector<std::string> &v) {
  return llvm::join(v, ",");
}

/// What a checkpoint of this run is made from (Checkpoint.h): the run and
/// every option that changes the bits; the rewritten step's signature is
/// added by `prepareStep`.
static CheckpointIdentity runIdentity(const TrainOptions &o,
                                      const RunPlan &plan,
                                      const DataParallelRun *dp) {
  CheckpointIdentity id;
  id.run = o.rewrite.runName();
  MixedPrecisionConfig config = o.rewrite;
  config.lossScale = config.resolvedLossScale();
#define AMP_ID_SET(TYPE, FIELD, NAME, DEFAULT, DESC)                           \
  id.options[NAME] = optionText(config.FIELD);
#define AMP_ID_LIST(TYPE, FIELD, NAME, DESC)                                   \
  id.options[NAME] = optionText(config.FIELD);
  AMP_MIXED_PRECISION_OPTIONS(AMP_ID_SET, AMP_ID_SET, AMP_ID_LIST)
#undef AMP_ID_SET
#undef AMP_ID_LIST
  // Statistics, where the report goes and recompute do not change the state.
  for (auto it = id.options.begin(); it != id.options.end();)
    it = keepsStateBits(it->first) ? id.options.erase(it) : std::next(it);
  id.options["batch"] = std::to_string(plan.batch);
  id.options["ranks"] = std::to_string(dp ? dp->context->worldSize() : 1);
  id.options["emulate-ranks"] = std::to_string(o.emulateRanks);
  if (dp) {
    id.options["dp-bucket"] =
        dp->bucket == GradientBucketing::Flat ? "flat" : "per-gradient";
    id.options["dp-reduce-precision"] = dp->lowPrecisionReduce ? "low" : "f32";
  }
  return id;
}

namespace {
/// A run's step: rewritten, bound to the backend, and what a checkpoint of
/// it is made from.
struct PreparedStep {
  OwningOpRef<ModuleOp> work;
  std::unique_ptr<BoundStep> step;
  CheckpointIdentity identity;
  /// Of the training step, before loss scaling (where the seed still marks
  /// the backward's start).
  std::optional<RunResult::Memory> memory;
};
} // namespace

/// Sets `memory.largestBatch`: the largest batch whose step `fn` has at
/// most `budget` peak live bytes (tensor level), counting every dynamic
/// dimension at that batch size (the peak grows with it: doubling, then
/// bisection); for a step without dynamic dimensions, `batch` if it fits.
static void fitBatch(func::FuncOp fn, int64_t budget, int64_t batch,
                     RunResult::Memory &memory) {
  auto peakAt = [&](std::optional<int64_t> b) -> std::optional<int64_t> {
    FailureOr<MemoryReport> r = analyzeMemory(fn, b);
    if (failed(r))
      return std::nullopt;
    return r->peakLiveBytes;
  };
  // The batch is dynamic when an argument's shape is (the step's contract:
  // the batch is dimension 0 of its inputs); other approximations (a seed
  // in a micro-batch loop) do not grow with the batch.
  bool dynamic = llvm::any_of(fn.getArgumentTypes(), [](Type type) {
    auto shaped = dyn_cast<ShapedType>(type);
    return shaped && shaped.hasRank() && !shaped.hasStaticShape();
  });
  if (!dynamic) {
    std::optional<int64_t> peak = peakAt(batch);
    if (!peak)
      return;
    memory.staticBatch = true;
    memory.largestBatchPeak = *peak;
    memory.largestBatch = *peak <= budget ? batch : 0;
    return;
  }
  // Invariant: a batch of lo fits (or lo = 0), one of hi does not.
  int64_t lo = 0, hi = 1;
  constexpr int64_t kMaxBatch = int64_t(1) << 40;
  while (true) {
    if (hi > kMaxBatch) {
      // Every batch up to the cap fits: say so rather than bisect.
      memory.largestBatch = lo;
      memory.largestBatchCapped = true;
      memory.largestBatchPeak = peakAt(lo).value_or(0);
      return;
    }
    std::optional<int64_t> peak = peakAt(hi);
    if (!peak)
      return;
    if (*peak > budget)
      break;
    lo = hi;
    hi *= 2;
  }
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    std::optional<int64_t> peak = peakAt(mid);
    if (!peak)
      return;
    (*peak <= budget ? lo : hi) = mid;
  }
  memory.largestBatch = lo;
  memory.largestBatchPeak = lo > 0 ? peakAt(lo).value_or(0) : 0;
}

/// The rewrite of a clone of `module` for `o` (and `dp`), bound to
/// `backend`.
static llvm::Expected<PreparedStep>
prepareStep(ModuleOp module, const TrainOptions &o, const RunPlan &plan,
            Backend &backend, const DataParallelRun *dp) {
  PreparedStep prepared;
  prepared.work = OwningOpRef<ModuleOp>(cast<ModuleOp>(module->clone()));
  if (llvm::Error err = runPipeline(
          *prepared.work,
          [&](OpPassManager &pm) {
            buildMixedPrecisionPipeline(pm, o.rewrite, [&](func::FuncOp fn) {
              FailureOr<MemoryReport> r = analyzeMemory(fn, plan.batch);
              if (failed(r) || !r->keptForBackwardBytes)
                return;
              RunResult::Memory memory;
              memory.state = r->stateBytes();
              memory.batch = r->batchBytes;
              memory.kept = *r->keptForBackwardBytes;
              memory.peakLive = r->peakLiveBytes;
              memory.approximate = r->approximate;
              if (o.memoryBudget > 0)
                fitBatch(fn, o.memoryBudget, plan.batch, memory);
              prepared.memory = memory;
            });
            if (dp)
              pm.addPass(createDataParallel(
                  dataParallelPass(*dp, o.rewrite.precision)));
            if (o.emulateRanks > 1)
              pm.addPass(createChunkBatchReductions({o.emulateRanks}));
            if (!o.extraPasses.empty()) // checked by planRun
              (void)parsePassPipeline(o.extraPasses, pm);
          },
          o.extraPasses.empty() ? "amp-mixed-precision"
                                : "amp-mixed-precision, " + o.extraPasses))
    return std::move(err);
  auto steps = findSteps(*prepared.work);
  if (!steps)
    return steps.takeError();
  FunctionType type = steps->first.getFunctionType();
  if (dp)
    provideTestInjectionHook();
  std::string stepName = steps->first.getSymName().str();
  auto bound = BoundStep::create(*prepared.work, backend, plan.batch);
  if (!bound)
    return bound.takeError();
  prepared.step = std::move(*bound);
  // The lowering (in place) recorded what its buffers take at once.
  if (Operation *lowered =
          SymbolTable::lookupSymbolIn(*prepared.work, stepName))
    if (auto peak = lowered->getAttrOfType<IntegerAttr>(kCpuBufferPeakAttr);
        peak && prepared.memory)
      prepared.memory->cpuBuffers = peak.getInt();
  // The signature without the results instrumentation adds (statistics,
  // no state), so that a run resumes with or without them.
  const StepLayout &layout = prepared.step->layout();
  SmallVector<Type> results;
  for (auto [i, result] : llvm::enumerate(type.getResults()))
    if (i != layout.underflowCountResult && i != layout.underflowTotalResult &&
        i != layout.updateStatsResult)
      results.push_back(result);
  prepared.identity = runIdentity(o, plan, dp);
  prepared.identity.stepFingerprint = stepFingerprint(module);
  prepared.identity.signature = typeString(
      FunctionType::get(type.getContext(), type.getInputs(), results));
  return prepared;
}

/// Reads the checkpoint of `o.resumeDir` and checks that it is this run's:
/// the run and its options (for evaluation, but those that shape only
/// training, shapesTrainingOnly), the step's signature when `identity` has
/// one, and for training the seed and that epochs are left.
static llvm::Expected<Checkpoint> readRunCheckpoint(const TrainOptions &o,
                                                    CheckpointIdentity identity,
                                                    DataUse use) {
  auto checkpoint = readCheckpoint(o.resumeDir);
  if (!checkpoint)
    return checkpoint.takeError();
  std::string file = checkpointFile(o.resumeDir);
  CheckpointIdentity saved = checkpoint->identity;
  if (use == DataUse::EvaluationOnly)
    for (CheckpointIdentity *id : {&saved, &identity})
      for (auto it = id->options.begin(); it != id->options.end();)
        it = shapesTrainingOnly(it->first) ? id->options.erase(it)
                                           : std::next(it);
  // Before the step is rewritten (checkResume) the signature is not known
  // yet; it is compared when the run starts.
  if (identity.signature.empty())
    identity.signature = saved.signature;
  std::string why = describeMismatch(saved, identity);
  if (!why.empty())
    return makeError("cannot resume from '" + file + "': " + why);
  if (use == DataUse::EvaluationOnly)
    return checkpoint;
  if (checkpoint->seed != o.seed)
    return makeError(
        "cannot resume from '" + file +
        "': it was made with --seed=" + llvm::Twine(checkpoint->seed) +
        ", this run has " + llvm::Twine(o.seed));
  if (checkpoint->epoch > o.epochs)
    return makeError(
        "cannot resume from '" + file + "': it ends epoch " +
        llvm::Twine(checkpoint->epoch - 1) + " of " +
        llvm::Twine(checkpoint->epoch - 1) +
        "; nothing is left to train with --epochs=" + llvm::Twine(o.epochs) +
        " (--epochs counts from the start of the run)");
  return checkpoint;
}

llvm::Error mlir::amp::runtime::checkResume(const TrainOptions &o,
                                            const RunPlan &plan, DataUse use) {
  if (o.resumeDir.empty())
    return llvm::Error::success();
  const DataParallelRun *dp = o.dataParallel ? &*o.dataParallel : nullptr;
  auto checkpoint = readRunCheckpoint(o, runIdentity(o, plan, dp), use);
  if (!checkpoint)
    return checkpoint.takeError();
  return llvm::Error::success();
}

/// The number of examples each `evaluate` batch holds correctly, and the
/// sum of their cross-entropy losses.
static llvm::Error runEvalSet(BoundStep &step, const Dataset &testSet,
                              int64_t &correct, double *lossSum) {
  std::vector<int64_t> testOrder(testSet.numExamples);
  std::iota(testOrder.begin(), testOrder.end(), 0);
  std::vector<HostTensor *> evalInputs;
  for (unsigned k = 0; k < step.numEvalInputs(); ++k)
    evalInputs.push_back(&step.evalInput(k).host());
  DeviceBuffer &logits = step.logits();
  int64_t evalBatch = step.evalInput().spec().shape[0];
  int64_t classes = logits.spec().shape[1];
  correct = 0;
  for (int64_t first = 0; first < testSet.numExamples; first += evalBatch) {
    fillStepBatch(testSet, testOrder, first, evalBatch, evalInputs, nullptr);
    for (unsigned k = 0; k < step.numEvalInputs(); ++k)
      step.evalInput(k).upload();
    if (llvm::Error err = step.runEval())
      return err;
    logits.download();
    correct += countCorrect(logits.host(), testSet, first, evalBatch, classes);
    if (!lossSum)
      continue;
    const float *z = logits.host().as<float>();
    for (int64_t r = 0; r < evalBatch && first + r < testSet.numExamples; ++r) {
      const float *row = z + r * classes;
      double top = *std::max_element(row, row + classes), sum = 0;
      for (int64_t c = 0; c < classes; ++c)
        sum += std::exp(static_cast<double>(row[c]) - top);
      int32_t label = testSet.labels[first + r];
      *lossSum += top + std::log(sum) - static_cast<double>(row[label]);
    }
  }
  return llvm::Error::success();
}

llvm::Expected<EvalResult>
mlir::amp::runtime::evaluate(ModuleOp module, const TrainOptions &o,
                             Backend &backend, const Dataset &testSet) {
  auto plan = planRun(module, o);
  if (!plan)
    return plan.takeError();
  if (llvm::Error err =
          checkRunAgainstData(*plan, testSet, testSet, DataUse::EvaluationOnly))
    return std::move(err);
  if (!plan->classes)
    return makeError("the step has no amp.eval_step: --eval-only evaluates "
                     "one");
  auto prepared = prepareStep(module, o, *plan, backend, nullptr);
  if (!prepared)
    return prepared.takeError();
  BoundStep &step = *prepared->step;
  std::mt19937_64 rng(o.seed);
  step.resetState(rng, o.rewrite.initScale);
  EvalResult result;
  result.name = o.rewrite.runName();
  result.startedFrom = "the step's initial values";
  if (!o.resumeDir.empty()) {
    auto checkpoint =
        readRunCheckpoint(o, prepared->identity, DataUse::EvaluationOnly);
    if (!checkpoint)
      return checkpoint.takeError();
    if (llvm::Error err = restoreState(*checkpoint, step))
      return std::move(err);
    result.startedFrom = "the checkpoint " + checkpointFile(o.resumeDir) +
                         " (" + std::to_string(checkpoint->steps) + " steps)";
  }
  int64_t correct = 0;
  double lossSum = 0;
  if (llvm::Error err = runEvalSet(step, testSet, correct, &lossSum))
    return std::move(err);
  result.examples = testSet.numExamples;
  result.accuracy =
      static_cast<double>(correct) / static_cast<double>(testSet.numExamples);
  result.loss = lossSum / static_cast<double>(testSet.numExamples);
  return result;
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
  const DataParallelRun *dp = o.dataParallel ? &*o.dataParallel : nullptr;
  if (dp && backend.name() != "cpu")
    return makeError("data-parallel training runs on the CPU backend; the "
                     "GPU path (NCCL or CUDA-aware MPI) is planned in "
                     "docs/distributed.md");
  if (dp)
    if (llvm::Error err = dp->context->agree(
            runFingerprint(module, o, *plan, trainSet, testSet),
            "the run " + o.rewrite.runName()))
      return std::move(err);
  bool reports = !dp || dp->context->reports();
  RunResult result;
  result.name = o.rewrite.runName();
  auto compileStart = std::chrono::steady_clock::now();
  if (o.compiling)
    o.compiling(true);
  auto prepared = prepareStep(module, o, *plan, backend, dp);
  if (o.compiling)
    o.compiling(false);
  if (!prepared)
    return prepared.takeError();
  BoundStep &step = *prepared->step;
  const StepLayout &layout = step.layout();
  result.memory = prepared->memory;
  result.compileSeconds = std::chrono::duration<double>(
                              std::chrono::steady_clock::now() - compileStart)
                              .count();
  std::optional<unsigned> scaleArg = layout.argWithRole(ArgRole::LossScale);
  std::optional<unsigned> skipsArg =
      layout.argWithRole(ArgRole::ConsecutiveSkips);
  LossScaleMode mode = o.rewrite.resolvedLossScale();

  std::mt19937_64 rng(o.seed);
  step.resetState(rng, o.rewrite.initScale);
  std::vector<int64_t> order(trainSet.numExamples);
  std::iota(order.begin(), order.end(), 0);
  // Resumed: the state, the generator, the order and the position of the
  // checkpoint, so that the run continues bit for bit.
  int firstEpoch = 1;
  int64_t firstStep = 0;
  std::optional<Checkpoint> resumed;
  if (!o.resumeDir.empty()) {
    auto checkpoint =
        readRunCheckpoint(o, prepared->identity, DataUse::Training);
    if (!checkpoint)
      return checkpoint.takeError();
    std::string file = checkpointFile(o.resumeDir);
    const std::string &savedStep = checkpoint->identity.stepFingerprint;
    if (reports && !savedStep.empty() &&
        savedStep != prepared->identity.stepFingerprint)
      log << "amp-run: warning: resuming from '" << file
          << "', which was saved by a run of another step (same signature, "
             "different body: e.g. another learning rate, loss or op); the "
             "state is loaded, but this run does not continue the saved one "
             "bit for bit\n";
    if (checkpoint->order.size() != static_cast<size_t>(trainSet.numExamples))
      return makeError(
          "cannot resume from '" + file + "': its data order has " +
          llvm::Twine(checkpoint->order.size()) +
          " examples, the training set " + llvm::Twine(trainSet.numExamples));
    // A permutation of the training set's indices, as written: anything
    // else (an edited or corrupted file) would read outside the data or
    // repeat examples.
    {
      std::vector<bool> seen(trainSet.numExamples, false);
      for (auto [position, index] : llvm::enumerate(checkpoint->order)) {
        if (index < 0 || index >= trainSet.numExamples || seen[index])
          return makeError(
              "cannot resume from '" + file +
              "': its data order is not a "
              "permutation of the " +
              llvm::Twine(trainSet.numExamples) +
              " training examples (element " + llvm::Twine(position) + " is " +
              llvm::Twine(index) +
              (index >= 0 && index < trainSet.numExamples ? ", repeated" : "") +
              ")");
        seen[index] = true;
      }
    }
    if (llvm::Error err = restoreState(*checkpoint, step))
      return makeError("cannot resume from '" + file +
                       "': " + llvm::toString(std::move(err)));
    std::istringstream rngText(checkpoint->rngState);
    rngText >> rng;
    if (rngText.fail())
      return makeError("cannot resume from '" + file +
                       "': its rng_state is not a generator state");
    order = checkpoint->order;
    firstEpoch = checkpoint->epoch;
    firstStep = checkpoint->stepInEpoch;
    result.steps = checkpoint->steps;
    result.resumedAtStep = checkpoint->steps;
    result.skippedSteps = checkpoint->skippedSteps;
    result.finalTrainLoss = checkpoint->lastEpochLoss;
    result.testAccuracy = checkpoint->testAccuracy;
    resumed = std::move(*checkpoint);
  }

  RunShape shape;
  // The eval step's accuracy needs class labels: with regression targets
  // it is not run (the table's test acc is "-").
  bool evaluates = step.hasEval() && !testSet.target;
  shape.hasEval = evaluates;
  shape.dynamicScale = scaleArg.has_value();
  shape.hasScale = shape.dynamicScale || mode == LossScaleMode::Static;
  shape.checksOverflow = layout.foundInfResult.has_value();
  shape.hasUnderflow = layout.underflowCountResult.has_value();
  if (layout.updateStatsResult)
    shape.updateStatsParams =
        layout.resultSpecs[*layout.updateStatsResult].shape.front();
  shape.paramStorage = stringifyMasterWeights(o.rewrite.masterWeights).str();
  shape.stepsPerEpoch = trainSet.numExamples / plan->globalBatch;
  if (o.maxStepsPerEpoch > 0)
    shape.stepsPerEpoch = std::min(shape.stepsPerEpoch, o.maxStepsPerEpoch);
  if (backend.name() != "cpu")
    shape.device = "(" + backend.name().str() + ")";
  // Only the reporting rank writes the CSV and the progress; every rank
  // applies the stop rules.
  TrainOptions logOptions = o;
  if (!reports) {
    logOptions.csvPath.clear();
    logOptions.progress = false;
  }
  auto record = RunLog::create(logOptions, result, shape, log);
  if (!record)
    return record.takeError();
  (*record)->setStepsBefore(result.steps);
  if (!backend.deviceName().empty() && logOptions.progress) {
    log << "  [" << result.name << "] on " << backend.deviceName()
        << ", compiled in " << llvm::format("%.1f", result.compileSeconds)
        << " s\n";
    log.flush();
  }
  // The state digest, also when a stop rule ends the run.
  auto withDigest = [&](llvm::Error err) -> llvm::Error {
    if (o.statePath.empty())
      return err;
    std::string header = "run " + result.name + " after " +
                         std::to_string(result.steps) + " steps";
    if (dp)
      header += ", rank " + std::to_string(dp->context->rank()) + " of " +
                std::to_string(dp->context->worldSize());
    return llvm::joinErrors(std::move(err),
                            writeStateDigest(step, header, o.statePath));
  };

  // A checkpoint of the run at (epoch, step in the epoch); rank 0 writes.
  auto saveCheckpoint = [&](int epoch, int64_t stepInEpoch) -> llvm::Error {
    if (o.checkpointDir.empty() || !reports)
      return llvm::Error::success();
    Checkpoint c;
    c.identity = prepared->identity;
    c.epoch = epoch;
    c.stepInEpoch = stepInEpoch;
    c.steps = result.steps;
    c.skippedSteps = result.skippedSteps;
    if (stepInEpoch > 0) {
      c.epochLossSum = (*record)->epochLossSum();
      c.epochLossCount = (*record)->epochLossCount();
      c.epochSkipped = (*record)->epochSkipped();
    }
    c.lastEpochLoss = result.finalTrainLoss;
    c.testAccuracy = result.testAccuracy;
    c.seed = o.seed;
    std::ostringstream rngText;
    rngText << rng;
    c.rngState = rngText.str();
    c.order = order;
    captureState(step, c);
    return writeCheckpoint(c, o.checkpointDir);
  };
  int64_t batch = plan->batch;
  if (dp)
    dp->context->trainingStarted();
  for (int epoch = firstEpoch; epoch <= o.epochs; ++epoch) {
    // A run resumed mid-epoch continues the epoch's order.
    int64_t first = epoch == firstEpoch ? firstStep : 0;
    if (first == 0)
      std::shuffle(order.begin(), order.end(), rng);
    (*record)->beginEpoch(epoch);
    if (first > 0)
      (*record)->restoreEpoch(resumed->epochLossSum, resumed->epochLossCount,
                              resumed->epochSkipped);
    for (int64_t s = first; s < shape.stepsPerEpoch; ++s) {
      DeviceBuffer &label = step.arg(layout.label);
      std::vector<HostTensor *> inputs;
      for (unsigned i : layout.inputs)
        inputs.push_back(&step.arg(i).host());
      // Data-parallel: this rank's shard of the global batch.
      int64_t begin = dp ? dp->context->shardBegin(s, batch) : s * batch;
      fillStepBatch(trainSet, order, begin, batch, inputs, &label.host());
      if (dp)
        if (llvm::Error err = applyInjection(*dp, result.steps + 1))
          return std::move(err);
      // The scale this step runs with (the state is replaced by the call).
      float scaleUsed = scaleArg ? step.arg(*scaleArg).readScalar<float>()
                        : mode == LossScaleMode::Static
                            ? static_cast<float>(o.rewrite.initScale)
                            : 1.0f;
      auto t0 = std::chrono::steady_clock::now();
      for (unsigned i : layout.inputs)
        step.arg(i).upload();
      label.upload();
      if (llvm::Error err = step.run())
        return std::move(err);
      if (dp)
        dp->context->stepFinished();
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
      if (layout.updateStatsResult) {
        DeviceBuffer &stats = step.result(*layout.updateStatsResult);
        stats.download();
        const double *d = stats.host().as<double>();
        rec.updateStats.assign(d, d + stats.spec().numElements());
      }
      // A non-finite loss after finite ones: did the last update already
      // poison the parameters? (Read only on this failure path.)
      if (!std::isfinite(rec.loss) && result.steps > 0)
        rec.nonFiniteParam = firstNonFiniteParam(step);
      step.carry();
      if (skipsArg && rec.foundInf)
        rec.consecutiveSkips = step.arg(*skipsArg).readScalar<int32_t>();
      if (llvm::Error stop = (*record)->record(rec))
        return withDigest(std::move(stop));
      if (o.testSignalAtStep > 0 &&
          result.steps - result.resumedAtStep == o.testSignalAtStep)
        std::raise(SIGINT);
      // A signal: the step is done; checkpoint, then end the run here.
      bool stopNow = o.stopRequested && o.stopRequested();
      if (stopNow ||
          (o.checkpointEvery > 0 && result.steps % o.checkpointEvery == 0))
        if (llvm::Error err = saveCheckpoint(epoch, s + 1))
          return withDigest(std::move(err));
      if (stopNow) {
        (*record)->interrupt();
        result.interrupted = true;
        if (scaleArg)
          result.finalLossScale = step.arg(*scaleArg).readScalar<float>();
        else if (mode == LossScaleMode::Static)
          result.finalLossScale = o.rewrite.initScale;
        if (dp)
          dp->context->trainingEnded();
        if (llvm::Error e = withDigest((*record)->finish()))
          return std::move(e);
        return result;
      }
    }
    if (scaleArg)
      result.finalLossScale = step.arg(*scaleArg).readScalar<float>();
    else if (mode == LossScaleMode::Static)
      result.finalLossScale = o.rewrite.initScale;

    if (evaluates) {
      int64_t correct = 0;
      if (llvm::Error err = runEvalSet(step, testSet, correct, nullptr))
        return std::move(err);
      result.testAccuracy = static_cast<double>(correct) /
                            static_cast<double>(testSet.numExamples);
      if (dp)
        dp->context->stepFinished();
    }
    (*record)->endEpoch();
    if (llvm::Error err = saveCheckpoint(epoch + 1, 0))
      return withDigest(std::move(err));
  }
  if (dp)
    dp->context->trainingEnded();
  if (llvm::Error e = withDigest((*record)->finish()))
    return std::move(e);
  if (o.onTrained)
    if (llvm::Error e = o.onTrained(step))
      return std::move(e);
  return result;
}
