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

/// The input: `options.input`, or the first float tensor argument that no
/// params entry names.
static FailureOr<unsigned> chooseInput(func::FuncOp model,
                                       const TrainStepOptions &options,
                                       const Request &request) {
  if (options.input >= 0) {
    if (options.input >= model.getNumArguments())
      return model.emitError()
             << "amp-build-train-step: input=" << options.input
             << " is out of range: @" << model.getSymName() << " has "
             << model.getNumArguments() << " arguments";
    return unsigned(options.input);
  }
  for (auto [i, type] : llvm::enumerate(model.getArgumentTypes()))
    if (isFloatTensor(type) && !llvm::is_contained(request.argumentIndices, i))
      return unsigned(i);
  return model.emitError()
         << "amp-build-train-step: @" << model.getSymName()
         << " has no float tensor argument left for the input (one batch of "
            "examples, dimension 0 the batch); name it with input=<index>";
}

FailureOr<ParameterPlan>
mlir::amp::trainstep::selectParameters(func::FuncOp model,
                                       const TrainStepOptions &options) {
  FailureOr<Request> request = parseRequest(model, options);
  if (failed(request))
    return failure();
  FailureOr<unsigned> input = chooseInput(model, options, *request);
  if (failed(input))
    return failure();
  Block &body = model.getBody().front();
  auto inputType = dyn_cast<RankedTensorType>(model.getArgumentTypes()[*input]);
  if (!inputType || !isa<FloatType>(inputType.getElementType()) ||
      inputType.getRank() < 1)
    return emitError(model.getArgument(*input).getLoc())
           << "amp-build-train-step: the input, argument #" << *input << " of @"
           << model.getSymName() << ", has type "
           << model.getArgumentTypes()[*input]
           << "; it must be a ranked float tensor whose dimension 0 is the "
              "batch";

  ParameterPlan plan;
  plan.model = model;
  plan.input = *input;

  // Candidates: the requested arguments, and top-level float tensor
  // constants.
  llvm::SmallSetVector<unsigned, 8> argCandidates;
  for (auto [i, type] : llvm::enumerate(model.getArgumentTypes()))
    if (i != *input && isFloatTensor(type) && request->arguments)
      argCandidates.insert(i);
  for (unsigned i : request->argumentIndices) {
    if (i == *input)
      return emitError(model.getArgument(i).getLoc())
             << "amp-build-train-step: params entry " << i
             << " names the input; pick the input with input=<index>";
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
    if (i == *input || argCandidates.contains(i))
      continue;
    bool supervision = options.loss == LossKind::None && !plan.supervision &&
                       isa<RankedTensorType>(type);
    if (supervision) {
      plan.supervision = i;
      continue;
    }
    return emitError(model.getArgument(i).getLoc())
           << "amp-build-train-step: argument #" << i << " of @"
           << model.getSymName() << " (" << type
           << ") is neither the input (argument #" << *input
           << ") nor a parameter"
           << (options.loss == LossKind::None ? " nor the label" : "")
           << "; list it in params= (params=arguments trains every float "
              "argument but the input) or make it a constant";
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
