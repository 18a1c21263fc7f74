//===- ParameterSelection.cpp - which values a training step trains -------===//

#include "amp/TrainStep/ParameterSelection.h"

#include "amp/Autodiff/Activity.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::trainstep;

std::string mlir::amp::trainstep::resourceKey(arith::ConstantOp constant) {
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(constant.getValue()))
    return resource.getRawHandle().getKey().str();
  return "";
}

bool mlir::amp::trainstep::matchesKeyPattern(StringRef key, StringRef pattern) {
  bool anyPrefix = pattern.consume_front("*");
  bool anySuffix = pattern.consume_back("*");
  if (anyPrefix && anySuffix)
    return key.contains(pattern);
  if (anyPrefix)
    return key.ends_with(pattern);
  if (anySuffix)
    return key.starts_with(pattern);
  return key == pattern;
}

static bool isFloatTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<FloatType>(tensor.getElementType());
}

/// Why a parameter of `type` cannot be trained, or "" when it can: the
/// contract's parameters are static f32 tensors (fp32 master weights whose
/// size a driver can allocate).
static std::string parameterTypeProblem(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor || !tensor.getElementType().isF32())
    return "parameters are fp32 master weights: ranked tensors of f32";
  if (!tensor.hasStaticShape())
    return "a parameter needs a static shape (a driver allocates it once)";
  return "";
}

namespace {
/// What the `params` entries ask for.
struct Request {
  bool constants = false, arguments = false;
  SmallVector<unsigned> argumentIndices;
  SmallVector<std::string> keys;
};
} // namespace

static FailureOr<Request> parseRequest(func::FuncOp model,
                                       const TrainStepOptions &options) {
  Request request;
  std::vector<std::string> entries = options.params;
  if (entries.empty())
    entries.push_back("constants");
  for (const std::string &entry : entries) {
    StringRef text = StringRef(entry).trim();
    unsigned index = 0;
    if (text == "constants") {
      request.constants = true;
    } else if (text == "arguments") {
      request.arguments = true;
    } else if (!text.getAsInteger(10, index)) {
      if (index >= model.getNumArguments())
        return model.emitError()
               << "amp-build-train-step: params entry " << index
               << " is out of range: @" << model.getSymName() << " has "
               << model.getNumArguments() << " arguments";
      request.argumentIndices.push_back(index);
    } else if (!text.empty()) {
      request.keys.push_back(text.str());
    }
  }
  return request;
}

static bool isIntegerTensor(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && isa<IntegerType>(tensor.getElementType());
}

namespace {
/// Which arguments are data: the inputs, and with loss=none the label or
/// target (if any).
struct DataArguments {
  SmallVector<unsigned> inputs; ///< in argument order
  std::optional<unsigned> supervision;
};
} // namespace

/// The inputs named by `inputs=` (or `input=`), in argument order; empty
/// when neither is given. Errors: an index out of range, named twice.
static FailureOr<SmallVector<unsigned>>
namedInputs(func::FuncOp model, const TrainStepOptions &options) {
  std::vector<int64_t> named = options.inputs;
  const char *option = "inputs";
  if (options.input >= 0) {
    named = {options.input};
    option = "input";
  }
  SmallVector<unsigned> inputs;
  for (int64_t i : named) {
    if (i >= model.getNumArguments())
      return model.emitError()
             << "amp-build-train-step: " << option << "=" << i
             << " is out of range: @" << model.getSymName() << " has "
             << model.getNumArguments() << " arguments";
    if (llvm::is_contained(inputs, unsigned(i)))
      return model.emitError() << "amp-build-train-step: inputs= names "
                                  "argument "
                               << i << " twice";
    inputs.push_back(unsigned(i));
  }
  llvm::sort(inputs);
  return inputs;
}

/// The inputs and (loss=none) the label or target; the arguments not
/// returned here are parameters or errors. Named inputs: those, and with
/// loss=none the one other argument params= does not name. Default
/// (docs/training-step-builder.md, "Inputs"): with params=arguments, the
/// first float tensor argument that params= does not name by index and
/// (but for loss=none) every integer tensor argument; otherwise every argument
/// params= does not name, but for loss=none the last of them other than the
/// first float one (when there are two or more), which is the label or target.
static FailureOr<DataArguments> chooseData(func::FuncOp model,
                                           const TrainStepOptions &options,
                                           bool paramsArguments,
                                           ArrayRef<unsigned> paramIndices) {
  FailureOr<SmallVector<unsigned>> named = namedInputs(model, options);
  if (failed(named))
    return failure();
  bool none = options.loss == LossKind::None;
  DataArguments data;
  SmallVector<unsigned> free; // not named in params= by index
  for (unsigned i = 0; i < model.getNumArguments(); ++i)
    if (!llvm::is_contained(paramIndices, i))
      free.push_back(i);
  if (!named->empty()) {
    data.inputs = *named;
    if (none)
      for (unsigned i : free)
        if (!llvm::is_contained(data.inputs, i) && !paramsArguments &&
            !data.supervision &&
            isa<RankedTensorType>(model.getArgumentTypes()[i]))
          data.supervision = i;
    return data;
  }
  std::optional<unsigned> firstFloat;
  for (unsigned i : free)
    if (isFloatTensor(model.getArgumentTypes()[i])) {
      firstFloat = i;
      break;
    }
  if (paramsArguments) {
    // The other float arguments are trained; with loss=none the label is
    // the first argument left (selectParameters), as before inputs=.
    for (unsigned i : free)
      if (i == firstFloat ||
          (!none && isIntegerTensor(model.getArgumentTypes()[i])))
        data.inputs.push_back(i);
  } else {
    data.inputs = free;
    if (none && free.size() >= 2) {
      // The label: the last argument, unless that is the first float one
      // (a model (label, x) -> loss).
      unsigned last =
          free.back() == firstFloat ? free[free.size() - 2] : free.back();
      if (isa<RankedTensorType>(model.getArgumentTypes()[last])) {
        data.supervision = last;
        llvm::erase(data.inputs, last);
      }
    }
  }
  if (data.inputs.empty())
    return model.emitError()
           << "amp-build-train-step: @" << model.getSymName()
           << " has no argument left for the input (one batch of examples, "
              "dimension 0 the batch); name it with inputs=<index>";
  return data;
}

FailureOr<ParameterPlan>
mlir::amp::trainstep::selectParameters(func::FuncOp model,
                                       const TrainStepOptions &options) {
  FailureOr<Request> request = parseRequest(model, options);
  if (failed(request))
    return failure();
  FailureOr<DataArguments> data =
      chooseData(model, options, request->arguments, request->argumentIndices);
  if (failed(data))
    return failure();
  Block &body = model.getBody().front();
  for (unsigned input : data->inputs) {
    auto inputType =
        dyn_cast<RankedTensorType>(model.getArgumentTypes()[input]);
    if (!inputType ||
        !isa<FloatType, IntegerType>(inputType.getElementType()) ||
        inputType.getRank() < 1)
      return emitError(model.getArgument(input).getLoc())
             << "amp-build-train-step: the input, argument #" << input
             << " of @" << model.getSymName() << ", has type "
             << model.getArgumentTypes()[input]
             << "; it must be a ranked float or integer tensor whose "
                "dimension 0 is the batch";
  }

  ParameterPlan plan;
  plan.model = model;
  plan.inputs = data->inputs;
  plan.input = data->inputs.front();
  plan.supervision = data->supervision;
  auto isInput = [&](unsigned i) { return llvm::is_contained(plan.inputs, i); };

  // Candidates: the requested arguments, and top-level float tensor
  // constants.
  llvm::SmallSetVector<unsigned, 8> argCandidates;
  for (auto [i, type] : llvm::enumerate(model.getArgumentTypes()))
    if (!isInput(i) && isFloatTensor(type) && request->arguments &&
        plan.supervision != i)
      argCandidates.insert(i);
  for (unsigned i : request->argumentIndices) {
    if (isInput(i))
      return emitError(model.getArgument(i).getLoc())
             << "amp-build-train-step: params entry " << i
             << " names an input; pick the inputs with inputs=<index>,...";
    argCandidates.insert(i);
  }
  SmallVector<arith::ConstantOp> constants;
  for (Operation &op : body)
    if (auto constant = dyn_cast<arith::ConstantOp>(op);
        constant && isFloatTensor(constant.getType()))
      constants.push_back(constant);
  for (const std::string &key : request->keys)
    if (llvm::none_of(constants, [&](arith::ConstantOp c) {
          return matchesKeyPattern(resourceKey(c), key);
        }))
      return model.emitError()
             << "amp-build-train-step: params entry '" << key
             << "' is neither constants, arguments, an argument index nor "
                "the key of a dense_resource constant of @"
             << model.getSymName();

  // frozen= patterns, like params= keys, must name something (a typo would
  // silently train what the user meant to freeze).
  for (const std::string &pattern : options.frozen)
    if (llvm::none_of(constants, [&](arith::ConstantOp c) {
          return matchesKeyPattern(resourceKey(c), pattern);
        }))
      return model.emitError()
             << "amp-build-train-step: frozen entry '" << pattern
             << "' matches no dense_resource constant of @"
             << model.getSymName()
             << " (a pattern is a key or a key prefix ending in '*')";

  // Which candidates the output depends on.
  SmallVector<Operation *> ops;
  for (Operation &op : body)
    ops.push_back(&op);
  SmallVector<Value> sources;
  for (unsigned i : argCandidates)
    sources.push_back(model.getArgument(i));
  for (arith::ConstantOp c : constants)
    sources.push_back(c.getResult());
  autodiff::Activity activity = autodiff::Activity::compute(
      ops, sources, body.getTerminator()->getOperands());

  for (unsigned i : argCandidates) {
    BlockArgument arg = model.getArgument(i);
    std::string problem = parameterTypeProblem(arg.getType());
    if (!problem.empty())
      return emitError(arg.getLoc())
             << "amp-build-train-step: argument #" << i << " of @"
             << model.getSymName() << " has type " << arg.getType()
             << " and cannot be a parameter: " << problem;
    if (!activity.isActive(arg))
      return emitError(arg.getLoc())
             << "amp-build-train-step: argument #" << i << " of @"
             << model.getSymName()
             << " is a parameter, but the output does not depend on it; it "
                "would never change (drop it from params=)";
    TrainedValue param;
    param.isArgument = true;
    param.argument = i;
    param.name = "argument #" + std::to_string(i);
    param.type = cast<RankedTensorType>(arg.getType());
    plan.params.push_back(param);
  }
  for (arith::ConstantOp c : constants) {
    std::string key = resourceKey(c);
    auto type = cast<RankedTensorType>(c.getType());
    bool named = llvm::any_of(request->keys, [&](const std::string &k) {
      return matchesKeyPattern(key, k);
    });
    if (named) {
      if (std::string problem = parameterTypeProblem(type); !problem.empty())
        return c.emitError() << "amp-build-train-step: constant '" << key
                             << "' is named in params= but cannot be a "
                                "parameter: "
                             << problem;
      if (!activity.isActive(c.getResult()))
        return c.emitError() << "amp-build-train-step: constant '" << key
                             << "' is named in params=, but the output does "
                                "not depend on it";
    } else {
      if (!request->constants)
        continue;
      std::string why;
      if (type.getNumElements() < options.minElements)
        why = "fewer than min-elements=" + std::to_string(options.minElements) +
              " elements";
      else if (llvm::any_of(options.frozen, [&](const std::string &p) {
                 return matchesKeyPattern(key, p);
               }))
        why = "named in frozen=";
      else if (options.freezeRunningStats &&
               (StringRef(key).ends_with("running_mean") ||
                StringRef(key).ends_with("running_var")))
        why = "a BatchNorm running statistic (freeze-running-stats)";
      else if (!parameterTypeProblem(type).empty())
        why = "not an f32 tensor";
      else if (!activity.isActive(c.getResult()))
        why = "the output does not depend on it";
      if (!why.empty()) {
        plan.leftConstants.push_back({c, why});
        continue;
      }
    }
    TrainedValue param;
    param.constant = c;
    param.name = key.empty() ? "constant" : key;
    param.type = type;
    param.initialValue = c.getValue();
    plan.params.push_back(param);
  }

  // Every other argument must be accounted for.
  for (auto [i, type] : llvm::enumerate(model.getArgumentTypes())) {
    if (isInput(i) || argCandidates.contains(i))
      continue;
    bool supervision = options.loss == LossKind::None &&
                       (plan.supervision == i ||
                        (!plan.supervision && isa<RankedTensorType>(type)));
    if (supervision) {
      plan.supervision = i;
      continue;
    }
    std::string inputs;
    for (unsigned k : plan.inputs)
      inputs += (inputs.empty() ? "#" : ", #") + std::to_string(k);
    return emitError(model.getArgument(i).getLoc())
           << "amp-build-train-step: argument #" << i << " of @"
           << model.getSymName() << " (" << type << ") is neither "
           << (plan.inputs.size() == 1 ? "the input (argument "
                                       : "an input (arguments ")
           << inputs << ") nor a parameter"
           << (options.loss == LossKind::None ? " nor the label" : "")
           << "; name it in inputs= or params= (params=arguments trains "
              "every float argument but the input) or make it a constant";
  }

  if (plan.params.empty()) {
    InFlightDiagnostic diag =
        model.emitError()
        << "amp-build-train-step: @" << model.getSymName()
        << " has no trainable parameter: no float tensor constant with at "
           "least min-elements="
        << options.minElements
        << " elements that the output depends on, and no argument named in "
           "params= (weights passed as arguments: params=arguments)";
    for (auto &[c, why] : plan.leftConstants)
      diag.attachNote(c.getLoc()) << "constant left: " << why;
    return diag;
  }
  return plan;
}
