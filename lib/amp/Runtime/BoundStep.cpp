//===- BoundStep.cpp - a compiled training step bound to buffers ----------===//

#include "amp/Runtime/BoundStep.h"

#include "amp/Analysis/ParameterFanIn.h"
#include "amp/Runtime/ParameterInit.h"
#include "amp/Support/Diagnostics.h"
#include "amp/Support/MixedPrecisionConfig.h"
#include "amp/Support/ModelSource.h"
#include "mlir/IR/DialectResourceBlobManager.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

std::optional<unsigned> StepLayout::argWithRole(ArgRole role) const {
  for (auto [i, r] : llvm::enumerate(argRoles))
    if (r == role)
      return i;
  return std::nullopt;
}

/// "@fn argument #i (amp.role = \"param\") of type tensor<?x?xf32>".
static std::string describeValue(func::FuncOp fn, bool isArg, unsigned i) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "@" << fn.getSymName() << (isArg ? " argument #" : " result #") << i;
  auto role = isArg ? fn.getArgAttrOfType<StringAttr>(i, kRoleAttr)
                    : fn.getResultAttrOfType<StringAttr>(i, kRoleAttr);
  if (role)
    os << " (amp.role = \"" << role.getValue() << "\")";
  os << " of type "
     << (isArg ? fn.getArgumentTypes()[i] : fn.getResultTypes()[i]);
  return text;
}

llvm::Error mlir::amp::runtime::checkStepShapes(func::FuncOp train,
                                                func::FuncOp eval) {
  for (func::FuncOp fn : {train, eval}) {
    if (!fn)
      continue;
    for (bool isArg : {true, false}) {
      TypeRange types = isArg ? TypeRange(fn.getArgumentTypes())
                              : TypeRange(fn.getResultTypes());
      for (auto [i, type] : llvm::enumerate(types)) {
        auto shaped = dyn_cast<RankedTensorType>(type);
        if (!shaped)
          return makeError(describeValue(fn, isArg, i) +
                           ": only ranked tensors can be bound to buffers");
        auto role = isArg ? fn.getArgAttrOfType<StringAttr>(i, kRoleAttr)
                          : fn.getResultAttrOfType<StringAttr>(i, kRoleAttr);
        StringRef name = role ? role.getValue() : "";
        bool batched = name == "input" || name == "label" || name == "target" ||
                       name == "logits";
        for (auto [d, size] : llvm::enumerate(shaped.getShape()))
          if (ShapedType::isDynamic(size) && !(batched && d == 0))
            return makeError(
                describeValue(fn, isArg, i) + ": dimension " + llvm::Twine(d) +
                " is dynamic; only dimension 0 (the batch) of the input, the "
                "label (or target) and the logits may be dynamic (--batch-size "
                "sets it), "
                "every other size must be static");
        if (Attribute init =
                isArg ? fn.getArgAttr(i, kInitialValueAttr) : Attribute()) {
          // Fed every step (or by the eval loop): a start value would be
          // ignored without a word.
          if (name == "input" || name == "label" || name == "target")
            return makeError(describeValue(fn, isArg, i) + ": has an " +
                             kInitialValueAttr +
                             ", but amp-run feeds this argument from the "
                             "data each step; only state arguments (param, "
                             "opt_state, loss-scale state) start from one");
          auto elements = dyn_cast<ElementsAttr>(init);
          bool scalar = isa<FloatAttr, IntegerAttr>(init) &&
                        shaped.hasStaticShape() && shaped.getNumElements() == 1;
          if (!scalar && (!elements || elements.getShapedType() != shaped))
            return makeError(describeValue(fn, isArg, i) + ": its " +
                             kInitialValueAttr +
                             " does not match the argument's type");
        }
        TensorSpec spec;
        for (int64_t size : shaped.getShape())
          spec.shape.push_back(ShapedType::isDynamic(size) ? 1 : size);
        if (!spec.checkedBytes())
          return makeError(describeValue(fn, isArg, i) +
                           ": its size in bytes does not fit in 63 bits");
      }
    }
  }
  return llvm::Error::success();
}

/// The bytes of argument `i`'s `amp.initial_value` in the layout of `spec`
/// (empty: none, or an elided resource). Errors: an attribute of another
/// type than the argument, a resource the file does not define, a blob of
/// another size in bytes, a non-finite float value.
/// Whether any argument of `fn` starts from a dense_resource whose blob the
/// file holds. A file that holds none was printed without its blobs (some
/// exporters keep the keys, e.g. `dense_resource<torch_tensor_128_...>`,
/// and drop the `{-# dialect_resources #-}` section): its missing blobs
/// start random like `__elided__`. In a file that holds some, a missing key
/// is a mistake (a typo) and an error.
static bool holdsResourceBlobs(func::FuncOp fn) {
  for (unsigned i = 0; i < fn.getNumArguments(); ++i)
    if (auto r = dyn_cast_if_present<DenseResourceElementsAttr>(
            fn.getArgAttr(i, kInitialValueAttr)))
      if (r.getRawHandle().getBlob())
        return true;
  return false;
}

static llvm::Expected<std::vector<char>>
initialDataOf(func::FuncOp fn, unsigned i, const TensorSpec &spec) {
  Attribute attr = fn.getArgAttr(i, kInitialValueAttr);
  if (!attr)
    return std::vector<char>();
  size_t bytes = static_cast<size_t>(spec.numElements()) * spec.elementBytes();
  std::vector<char> data(bytes);
  auto mismatch = [&]() {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << attr;
    return makeError(describeValue(fn, /*isArg=*/true, i) + ": its " +
                     kInitialValueAttr + " " + text.substr(0, 80) +
                     " does not match the argument's type");
  };
  auto store = [&](int64_t k, double value) {
    switch (spec.kind) {
    case ElementKind::F32:
      reinterpret_cast<float *>(data.data())[k] = static_cast<float>(value);
      return true;
    case ElementKind::F64:
      reinterpret_cast<double *>(data.data())[k] = value;
      return true;
    case ElementKind::BF16: // a parameter stored in bf16 (amp-master-weights)
      reinterpret_cast<uint16_t *>(data.data())[k] =
          roundToBF16(static_cast<float>(value));
      return true;
    case ElementKind::I32:
      reinterpret_cast<int32_t *>(data.data())[k] = static_cast<int32_t>(value);
      return true;
    case ElementKind::I64:
      reinterpret_cast<int64_t *>(data.data())[k] = static_cast<int64_t>(value);
      return true;
    default:
      return false;
    }
  };
  // Every value of a float start state must be finite: a NaN weight would
  // make the first loss NaN and the run stop with a misleading message.
  auto checkFinite = [&]() -> llvm::Error {
    for (int64_t k = 0, n = spec.numElements(); k < n; ++k) {
      double v = spec.kind == ElementKind::F32
                     ? reinterpret_cast<const float *>(data.data())[k]
                 : spec.kind == ElementKind::F64
                     ? reinterpret_cast<const double *>(data.data())[k]
                     : 0.0;
      if (!std::isfinite(v))
        return makeError(describeValue(fn, /*isArg=*/true, i) + ": its " +
                         kInitialValueAttr + " holds " +
                         (std::isnan(v) ? "NaN"
                          : v > 0       ? "+inf"
                                        : "-inf") +
                         " at element " + llvm::Twine(k) +
                         "; start values must be finite");
    }
    return llvm::Error::success();
  };
  if (isa<FloatAttr, IntegerAttr>(attr)) {
    if (spec.numElements() != 1)
      return mismatch();
    double value = isa<FloatAttr>(attr)
                       ? cast<FloatAttr>(attr).getValueAsDouble()
                       : static_cast<double>(cast<IntegerAttr>(attr).getInt());
    if (!store(0, value))
      return mismatch();
    if (llvm::Error err = checkFinite())
      return std::move(err);
    return data;
  }
  auto elements = dyn_cast<ElementsAttr>(attr);
  if (!elements || elements.getShapedType() != fn.getArgumentTypes()[i])
    return mismatch();
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    DenseResourceElementsHandle handle = resource.getRawHandle();
    AsmResourceBlob *blob = handle.getBlob();
    if (!blob) {
      if (handle.getKey() == kElidedResourceKey || !holdsResourceBlobs(fn))
        return std::vector<char>(); // drawn at random (planRun notes it)
      return makeError(describeValue(fn, /*isArg=*/true, i) + ": its " +
                       kInitialValueAttr + " names the resource '" +
                       handle.getKey() +
                       "', which the file does not define (no entry of that "
                       "name under {-# dialect_resources: { builtin: ... } "
                       "#-}) while it defines others; add the blob, or use "
                       "dense_resource<__elided__> to start from a random "
                       "initialisation");
    }
    ArrayRef<char> raw = blob->getData();
    if (raw.size() != bytes)
      return makeError(describeValue(fn, /*isArg=*/true, i) + ": its " +
                       kInitialValueAttr + " resource '" + handle.getKey() +
                       "' holds " + llvm::Twine(raw.size()) +
                       " bytes, the argument needs " + llvm::Twine(bytes) +
                       " (" + spec.str() + ")");
    std::copy(raw.begin(), raw.end(), data.begin());
    if (llvm::Error err = checkFinite())
      return std::move(err);
    return data;
  }
  if (auto dense = dyn_cast<DenseFPElementsAttr>(attr)) {
    int64_t k = 0;
    for (APFloat v : dense.getValues<APFloat>())
      if (!store(k++, v.convertToDouble()))
        return mismatch();
    if (llvm::Error err = checkFinite())
      return std::move(err);
    return data;
  }
  if (auto dense = dyn_cast<DenseIntElementsAttr>(attr)) {
    int64_t k = 0;
    for (APInt v : dense.getValues<APInt>())
      if (!store(k++, static_cast<double>(v.getSExtValue())))
        return mismatch();
    return data;
  }
  return mismatch();
}

/// The specs of `types`, dynamic sizes taking `batch`.
static llvm::Expected<std::vector<TensorSpec>> specsOf(TypeRange types,
                                                       int64_t batch) {
  std::vector<TensorSpec> specs;
  for (Type t : types) {
    auto spec = TensorSpec::fromType(t, batch);
    if (!spec)
      return spec.takeError();
    specs.push_back(*spec);
  }
  return specs;
}

llvm::Expected<std::pair<func::FuncOp, func::FuncOp>>
mlir::amp::runtime::findSteps(ModuleOp module) {
  SmallVector<func::FuncOp> trainFns, evalFns;
  for (auto fn : module.getOps<func::FuncOp>()) {
    if (fn->hasAttr(kTrainStepAttr))
      trainFns.push_back(fn);
    if (fn->hasAttr(kEvalStepAttr))
      evalFns.push_back(fn);
  }
  if (trainFns.empty())
    return makeError("no func.func with the amp.train_step attribute; mark "
                     "the training step (docs/training-step.md), or build "
                     "one from a forward model with amp-opt "
                     "--amp-build-train-step (docs/training-step-builder.md)");
  if (trainFns.size() > 1 || evalFns.size() > 1)
    return makeError("the module has " + llvm::Twine(trainFns.size()) +
                     " amp.train_step and " + llvm::Twine(evalFns.size()) +
                     " amp.eval_step functions; amp-run trains one step "
                     "with at most one eval step");
  return std::make_pair(trainFns.front(),
                        evalFns.empty() ? func::FuncOp() : evalFns.front());
}

llvm::Expected<StepLayout> StepLayout::read(ModuleOp module, int64_t batch) {
  auto steps = findSteps(module);
  if (!steps)
    return steps.takeError();
  auto [trainFn, evalFn] = *steps;
  DiagnosticCollector diagnostics(module.getContext());
  FailureOr<TrainingStep> step =
      TrainingStep::analyze(trainFn, /*requireMarkers=*/false);
  if (failed(step))
    return diagnostics.makeError("@" + trainFn.getSymName() +
                                 " violates the training-step contract");
  if (llvm::Error err = checkStepShapes(trainFn, evalFn))
    return std::move(err);

  StepLayout layout;
  layout.trainName = trainFn.getSymName().str();
  layout.argRoles.assign(step->argRoles.begin(), step->argRoles.end());
  auto argSpecs = specsOf(trainFn.getArgumentTypes(), batch);
  if (!argSpecs)
    return argSpecs.takeError();
  auto resultSpecs = specsOf(trainFn.getResultTypes(), batch);
  if (!resultSpecs)
    return resultSpecs.takeError();
  layout.argSpecs = std::move(*argSpecs);
  layout.resultSpecs = std::move(*resultSpecs);
  layout.params.assign(step->params.begin(), step->params.end());
  layout.optStates.assign(step->optStates.begin(), step->optStates.end());
  layout.inputs.assign(step->inputs.begin(), step->inputs.end());
  layout.input = step->input;
  layout.batch = layout.argSpecs[step->input].shape.front();
  layout.label = step->label;
  layout.lossResult = step->lossResult;
  layout.foundInfResult = step->foundInfResult;
  layout.underflowCountResult = step->underflowCountResult;
  layout.underflowTotalResult = step->underflowTotalResult;
  layout.updateStatsResult = step->updateStatsResult;
  for (unsigned i = 0; i < trainFn.getNumArguments(); ++i) {
    if (auto it = step->updateOfArg.find(i); it != step->updateOfArg.end())
      layout.updates.push_back({i, it->second});
    auto data = initialDataOf(trainFn, i, layout.argSpecs[i]);
    if (!data)
      return data.takeError();
    layout.initialData.push_back(std::move(*data));
    layout.fanIn.push_back(llvm::is_contained(step->params, i)
                               ? contractionFanIn(trainFn.getArgument(i))
                               : std::nullopt);
  }

  if (evalFn) {
    FailureOr<EvalStep> e = EvalStep::analyze(evalFn);
    if (failed(e))
      return diagnostics.makeError("@" + evalFn.getSymName() +
                                   " violates the eval-step contract");
    if (e->params.size() != step->params.size())
      return makeError("@" + evalFn.getSymName() + " takes " +
                       llvm::Twine(e->params.size()) + " parameters, @" +
                       trainFn.getSymName() + " " +
                       llvm::Twine(step->params.size()));
    if (e->inputs.size() != step->inputs.size())
      return makeError("@" + evalFn.getSymName() + " takes " +
                       llvm::Twine(e->inputs.size()) + " inputs, @" +
                       trainFn.getSymName() + " " +
                       llvm::Twine(step->inputs.size()));
    Eval eval;
    eval.name = evalFn.getSymName().str();
    eval.numArgs = evalFn.getNumArguments();
    eval.inputs.assign(e->inputs.begin(), e->inputs.end());
    eval.input = e->input;
    eval.trainArgOf.resize(eval.numArgs);
    for (auto [k, p] : llvm::enumerate(e->params)) {
      if (evalFn.getArgument(p).getType() !=
          trainFn.getArgument(step->params[k]).getType())
        return makeError("@" + evalFn.getSymName() + " parameter #" +
                         llvm::Twine(k) + " has a different type than @" +
                         trainFn.getSymName() + "'s");
      eval.trainArgOf[p] = step->params[k];
    }
    for (unsigned input : e->inputs) {
      auto inputSpec =
          TensorSpec::fromType(evalFn.getArgument(input).getType(), batch);
      if (!inputSpec)
        return inputSpec.takeError();
      eval.inputSpecs.push_back(*inputSpec);
    }
    auto logitsSpec = TensorSpec::fromType(evalFn.getResultTypes()[0], batch);
    if (!logitsSpec)
      return logitsSpec.takeError();
    eval.inputSpec = eval.inputSpecs.front();
    eval.logitsSpec = *logitsSpec;
    layout.eval = std::move(eval);
  }
  return layout;
}

llvm::Expected<std::unique_ptr<BoundStep>>
BoundStep::create(ModuleOp module, Backend &backend, int64_t batch) {
  auto layout = StepLayout::read(module, batch);
  if (!layout)
    return layout.takeError();
  std::unique_ptr<BoundStep> step(new BoundStep(backend, std::move(*layout)));
  const StepLayout &l = step->stepLayout;
  SmallVector<StringRef> entries{l.trainName};
  if (l.eval)
    entries.push_back(l.eval->name);
  auto jit = backend.compile(module, entries);
  if (!jit)
    return jit.takeError();
  step->jit = std::move(*jit);
  for (const TensorSpec &spec : l.argSpecs)
    step->args.push_back(backend.allocate(spec));
  for (const TensorSpec &spec : l.resultSpecs)
    step->results.push_back(backend.allocate(spec));
  if (l.eval) {
    for (const TensorSpec &spec : l.eval->inputSpecs)
      step->evalInputBuffers.push_back(backend.allocate(spec));
    step->logitsBuffer = backend.allocate(l.eval->logitsSpec);
  }
  return step;
}

void BoundStep::resetState(std::mt19937_64 &rng,
                           std::optional<double> initialScale) {
  std::optional<unsigned> scaleArg = stepLayout.argWithRole(ArgRole::LossScale);
  for (unsigned i = 0; i < args.size(); ++i) {
    if (llvm::is_contained(stepLayout.inputs, i) || i == stepLayout.label)
      continue;
    HostTensor &host = args[i]->host();
    host.fillZero();
    const std::vector<char> &data = stepLayout.initialData[i];
    if (!data.empty())
      std::memcpy(host.data(), data.data(), data.size());
    else if (llvm::is_contained(stepLayout.params, i))
      initParameter(host, rng, stepLayout.fanIn[i]);
    if (scaleArg && i == *scaleArg)
      host.as<float>()[0] = static_cast<float>(
          initialScale.value_or(data.empty() ? MixedPrecisionConfig().initScale
                                             : host.as<float>()[0]));
    args[i]->upload();
  }
}

/// The descriptors of `buffers`, in order.
static SmallVector<void *> descriptorsOf(ArrayRef<DeviceBuffer *> buffers) {
  SmallVector<void *> descriptors;
  for (DeviceBuffer *b : buffers)
    descriptors.push_back(b->descriptor());
  return descriptors;
}

llvm::Error BoundStep::run() {
  SmallVector<DeviceBuffer *> buffers;
  for (auto &b : args)
    buffers.push_back(b.get());
  for (auto &b : results)
    buffers.push_back(b.get());
  if (llvm::Error err =
          jit->invokeDescriptors(stepLayout.trainName, descriptorsOf(buffers)))
    return err;
  return device.checkCall();
}

void BoundStep::carry() {
  for (auto [arg, res] : stepLayout.updates)
    std::swap(args[arg], results[res]);
}

llvm::Error BoundStep::runEval() {
  const StepLayout::Eval &eval = *stepLayout.eval;
  SmallVector<DeviceBuffer *> buffers;
  for (unsigned i = 0, k = 0; i < eval.numArgs; ++i)
    buffers.push_back(eval.trainArgOf[i] ? args[*eval.trainArgOf[i]].get()
                                         : evalInputBuffers[k++].get());
  buffers.push_back(logitsBuffer.get());
  if (llvm::Error err =
          jit->invokeDescriptors(eval.name, descriptorsOf(buffers)))
    return err;
  return device.checkCall();
}
