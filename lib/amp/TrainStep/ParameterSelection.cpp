//===- ParameterSelection.cpp - which values a training step trains -------===//

#include "amp/TrainStep/ParameterSelection.h"

#include "amp/Autodiff/Activity.h"
#include "amp/Support/Counts.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"

#include <cmath>

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

/// Why the builder leaves a weight the loss has no gradient for.
static constexpr llvm::StringLiteral noGradientReason =
    "the loss has no gradient for it: the output depends on it only through "
    "ops without a derivative (an integer conversion such as arith.fptosi / "
    "arith.sitofp, a comparison), so training would never change it "
    "(PyTorch leaves such a parameter's .grad None); frozen=<key> keeps it "
    "constant without this warning";

/// Calls `visit(i, v)` for every element of `value` in order, without a
/// copy (weights may be large), while it returns true; false when the
/// values are unknown: an elided or missing blob, a blob of the wrong size
/// (checkResourceSizes reports it), another element type than f32.
static bool visitF32Values(ElementsAttr value,
                           llvm::function_ref<bool(size_t, float)> visit) {
  if (!value.getElementType().isF32())
    return false;
  if (auto dense = dyn_cast<DenseElementsAttr>(value)) {
    if (dense.isSplat()) {
      visit(0, dense.getSplatValue<float>());
      return true;
    }
    size_t i = 0;
    for (float v : dense.getValues<float>())
      if (!visit(i++, v))
        break;
    return true;
  }
  auto resource = dyn_cast<DenseResourceElementsAttr>(value);
  if (!resource)
    return false;
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  if (!blob || uint64_t(blob->getData().size()) !=
                   uint64_t(saturatingMul(resource.getNumElements(), 4)))
    return false;
  for (auto [i, v] : llvm::enumerate(blob->getDataAs<float>()))
    if (!visit(i, v))
      break;
  return true;
}

/// Whether `v`, inside `body`, is the same for every iteration: defined
/// outside it, or computed in it (e.g. `arith.truncf` of an f64 epsilon)
/// from such values only.
static bool independentOf(Block *body, Value v, int depth = 0) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return arg.getOwner() != body;
  Operation *def = v.getDefiningOp();
  if (def->getBlock() != body)
    return true;
  return depth < 4 &&
         llvm::all_of(
             def->getOperands(),
             [&](Value o) { return independentOf(body, o, depth + 1); });
}

/// How torch-mlir writes an eval-mode BatchNorm (one linalg.generic over
/// x, gamma, beta, running_mean, running_var: `(x - mean) * rsqrt(var +
/// eps) * gamma + beta`; torch.nn.functional.batch_norm): `arg` is read
/// only as `rsqrt(arg + eps)` or `sqrt(arg + eps)` (a variance), or only
/// as the subtrahend of `x - arg` where x varies (a mean).
static bool readAsVariance(BlockArgument arg) {
  Block *body = arg.getOwner();
  return !arg.use_empty() && llvm::all_of(arg.getUsers(), [&](Operation *u) {
    auto add = dyn_cast<arith::AddFOp>(u);
    if (!add)
      return false;
    Value eps = add.getLhs() == arg ? add.getRhs() : add.getLhs();
    return eps != arg && independentOf(body, eps) && !add->use_empty() &&
           llvm::all_of(add->getUsers(), [](Operation *r) {
             return isa<math::RsqrtOp, math::SqrtOp>(r);
           });
  });
}
static bool readAsMean(BlockArgument arg) {
  Block *body = arg.getOwner();
  return !arg.use_empty() && llvm::all_of(arg.getUsers(), [&](Operation *u) {
    auto sub = dyn_cast<arith::SubFOp>(u);
    return sub && sub.getRhs() == arg && sub.getLhs() != arg &&
           !independentOf(body, sub.getLhs());
  });
}

std::string
mlir::amp::trainstep::runningStatisticReason(arith::ConstantOp constant) {
  bool variance = true, mean = true;
  for (OpOperand &use : constant->getUses()) {
    auto generic = dyn_cast<linalg::GenericOp>(use.getOwner());
    if (!generic || !generic.isDpsInput(&use))
      return "";
    BlockArgument arg = generic.getMatchingBlockArgument(&use);
    variance = variance && readAsVariance(arg);
    // A mean is subtracted in a normalisation: the same body reads a
    // variance.
    mean = mean && readAsMean(arg) &&
           llvm::any_of(generic.getDpsInputOperands(), [&](OpOperand *in) {
             return readAsVariance(generic.getMatchingBlockArgument(in));
           });
  }
  if (constant->use_empty() || (!variance && !mean))
    return "";
  return std::string("a BatchNorm running ") +
         (variance ? "variance (read as rsqrt(v + eps) or sqrt(v + eps))"
                   : "mean (subtracted before rsqrt(var + eps) scales)") +
         ", a buffer PyTorch never trains (freeze-running-stats; "
         "freeze-running-stats=false trains it)";
}

/// The value `v` stands for across linalg.generic boundaries: a block
/// argument of an elementwise generic's input is that input; a result of
/// an elementwise generic is the value its body yields. Anything else is
/// `v` itself. Reductions are not crossed: a normalised value reaches its
/// scale through elementwise ops only.
static Value throughElementwise(Value v) {
  auto elementwise = [](Operation *op) {
    auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
    return generic && generic.getNumReductionLoops() == 0 ? generic
                                                          : linalg::GenericOp();
  };
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    linalg::GenericOp generic = elementwise(arg.getOwner()->getParentOp());
    if (generic && arg.getArgNumber() < generic.getNumDpsInputs())
      return generic.getDpsInputOperand(arg.getArgNumber())->get();
    return v;
  }
  if (linalg::GenericOp generic = elementwise(v.getDefiningOp()))
    return generic
        .getMatchingYieldValue(
            generic.getDpsInitOperand(cast<OpResult>(v).getResultNumber()))
        ->get();
  return v;
}

/// Whether `v` is `s + eps` (an arith.addf with a term that does not vary
/// within its block: a variance or mean square plus epsilon), looking
/// through elementwise generics.
static bool isPlusEpsilon(Value v, int depth = 4) {
  for (; depth > 0; --depth) {
    if (auto add = v.getDefiningOp<arith::AddFOp>()) {
      Block *body = add->getBlock();
      return llvm::any_of(add->getOperands(), [&](Value o) {
        return independentOf(body, o) &&
               !independentOf(body,
                              add.getLhs() == o ? add.getRhs() : add.getLhs());
      });
    }
    Value next = throughElementwise(v);
    if (next == v)
      return false;
    v = next;
  }
  return false;
}

/// Whether `v` is computed, in at most `depth` steps (an op, or a step
/// across an elementwise generic's boundary, as torch-mlir splits a
/// LayerNorm into several generics), from a `rsqrt` / `sqrt` of `s + eps`
/// (a normalised value: batch, layer, group or RMS normalisation) by
/// multiplications, divisions, subtractions and casts only.
/// `visited` keeps the search linear in the values it reaches.
static bool derivesFromNormalisation(Value v, llvm::DenseSet<Value> &visited,
                                     int depth) {
  if (depth == 0 || !visited.insert(v).second)
    return false;
  Operation *def = v.getDefiningOp();
  if (!def || isa<linalg::GenericOp>(def)) {
    Value next = throughElementwise(v);
    return next != v && derivesFromNormalisation(next, visited, depth - 1);
  }
  if (isa<math::RsqrtOp, math::SqrtOp>(def))
    return isPlusEpsilon(def->getOperand(0));
  // What lies between the normalisation and its scale: centring, the
  // product with (or quotient by) the root, casts. An addition (a bias
  // already applied) ends the search: a scale after it is a later layer's.
  if (!isa<arith::MulFOp, arith::DivFOp, arith::SubFOp, arith::ExtFOp,
           arith::TruncFOp>(def))
    return false;
  return llvm::any_of(def->getOperands(), [&](Value o) {
    return derivesFromNormalisation(o, visited, depth - 1);
  });
}
static bool derivesFromNormalisation(Value v) {
  llvm::DenseSet<Value> visited;
  return derivesFromNormalisation(v, visited, /*depth=*/16);
}

/// The generic inputs that read `v`'s elements unchanged: its own uses, and
/// through reshapes (`tensor.expand_shape` / `collapse_shape`, as torch-mlir
/// writes `weight[:, None, None]` or an unsqueeze) and copy generics (a
/// broadcast: every loop parallel, the body yields the input) those of the
/// values they make. False when a use is anything else.
static bool readersOf(Value v, SmallVectorImpl<OpOperand *> &readers,
                      int depth = 4) {
  for (OpOperand &use : v.getUses()) {
    Operation *user = use.getOwner();
    if (isa<tensor::ExpandShapeOp, tensor::CollapseShapeOp>(user)) {
      if (depth == 0 || !readersOf(user->getResult(0), readers, depth - 1))
        return false;
      continue;
    }
    auto generic = dyn_cast<linalg::GenericOp>(user);
    if (!generic || !generic.isDpsInput(&use))
      return false;
    BlockArgument arg = generic.getMatchingBlockArgument(&use);
    auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
    bool copy =
        generic.getNumReductionLoops() == 0 && generic.getNumDpsInputs() == 1 &&
        generic->getNumResults() == 1 && yield.getValues().front() == arg;
    if (copy) {
      if (depth == 0 || !readersOf(generic->getResult(0), readers, depth - 1))
        return false;
      continue;
    }
    readers.push_back(&use);
  }
  return true;
}

std::optional<double>
mlir::amp::trainstep::normalisationAffineInit(arith::ConstantOp constant) {
  SmallVector<OpOperand *> readers;
  if (!readersOf(constant.getResult(), readers) || readers.empty())
    return std::nullopt;
  std::optional<double> init;
  for (OpOperand *use : readers) {
    auto generic = cast<linalg::GenericOp>(use->getOwner());
    BlockArgument arg = generic.getMatchingBlockArgument(use);
    if (!arg.hasOneUse())
      return std::nullopt;
    Operation *user = *arg.user_begin();
    if (!isa<arith::MulFOp, arith::AddFOp>(user) ||
        user->getOperand(0) == user->getOperand(1))
      return std::nullopt;
    Value other =
        user->getOperand(0) == arg ? user->getOperand(1) : user->getOperand(0);
    if (!derivesFromNormalisation(other))
      return std::nullopt;
    double value = isa<arith::MulFOp>(user) ? 1.0 : 0.0;
    if (init && *init != value)
      return std::nullopt;
    init = value;
  }
  return init;
}

bool mlir::amp::trainstep::splitSharedConstants(func::FuncOp model) {
  bool changed = false;
  SmallVector<arith::ConstantOp> shared;
  for (Operation &op : model.getBody().front()) {
    auto c = dyn_cast<arith::ConstantOp>(op);
    if (!c || !isa<RankedTensorType>(c.getType()) || c->hasOneUse() ||
        c->use_empty())
      continue;
    auto dense = dyn_cast<DenseElementsAttr>(c.getValue());
    if ((dense && dense.isSplat()) || resourceKey(c) == kElidedResourceKey)
      shared.push_back(c);
  }
  OpBuilder b(model.getContext());
  for (arith::ConstantOp c : shared) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : c->getUses())
      uses.push_back(&use);
    // An elided blob read twice may be one tied weight (fc(fc(x))) as well
    // as equal copies merged by a CSE: nothing tells them apart, so the
    // user hears which was assumed.
    if (resourceKey(c) == kElidedResourceKey)
      emitRemark(c.getLoc())
          << "amp-build-train-step: this constant printed without its data "
             "(__elided__) has "
          << uses.size()
          << " uses; each becomes a parameter of its own (an elided blob "
             "has no key that would tie them); if it is one tied weight, "
             "export the model with its blobs (its key then ties them)";
    // The original keeps one use; the copies are equal.
    b.setInsertionPointAfter(c);
    for (OpOperand *use : llvm::drop_end(uses)) {
      use->set(b.clone(*c)->getResult(0));
      changed = true;
    }
  }
  return changed;
}

std::string mlir::amp::trainstep::notWeightReason(ElementsAttr value) {
  // An additive mask: 0 where attention may look, one large negative value
  // (-1e4 in BERT, -1e9, torch.finfo(float32).min) where it may not.
  constexpr float kMaskMagnitude = 1e4f;
  std::optional<float> masked;
  bool mask = true, zero = false;
  std::optional<std::pair<size_t, float>> nonFinite;
  bool known = visitF32Values(value, [&](size_t i, float v) {
    if (!std::isfinite(v)) {
      nonFinite = {i, v};
      return false;
    }
    if (v == 0)
      zero = true;
    else if (v <= -kMaskMagnitude && (!masked || *masked == v))
      masked = v;
    else
      mask = false;
    return true;
  });
  if (!known)
    return "";
  std::string text;
  llvm::raw_string_ostream os(text);
  if (nonFinite) {
    float v = nonFinite->second;
    os << "it holds "
       << (std::isnan(v) ? "NaN"
           : v < 0       ? "-inf"
                         : "+inf")
       << " (element " << nonFinite->first
       << "), which no weight holds (a mask or a sentinel, not trained; "
          "name it in params= to train it)";
    return text;
  }
  if (!mask || !zero || !masked)
    return "";
  os << "its values are only 0 and " << llvm::format("%g", double(*masked))
     << ", an additive mask (not trained; name it in params= to train it)";
  return text;
}

/// Every dense_resource constant of `model` whose blob the file holds has
/// one element of its element type's size per element (as torch-mlir writes
/// weights; i1 one byte each): a located error naming the key and both byte
/// counts otherwise (amp-run would refuse the step later, a lowering would
/// read past the blob).
static LogicalResult checkResourceSizes(func::FuncOp model) {
  WalkResult result = model.walk([&](arith::ConstantOp c) {
    auto resource = dyn_cast<DenseResourceElementsAttr>(c.getValue());
    if (!resource)
      return WalkResult::advance();
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    Type element = resource.getElementType();
    if (!blob || !element.isIntOrFloat())
      return WalkResult::advance();
    unsigned bits = element.getIntOrFloatBitWidth();
    int64_t bytesPer = element.isInteger(1) ? 1 : int64_t(bits / 8);
    if (bits % 8 != 0 && !element.isInteger(1))
      return WalkResult::advance();
    int64_t want =
        saturatingMul(staticElementCount(resource.getType()), bytesPer);
    size_t have = blob->getData().size();
    if (uint64_t(want) == have)
      return WalkResult::advance();
    c.emitError() << "amp-build-train-step: dense_resource<"
                  << resource.getRawHandle().getKey() << "> holds " << have
                  << " bytes of data, but " << resource.getType() << " needs "
                  << want << " (" << bytesPer << " per " << element
                  << " element); the blob does not belong to this type "
                     "(export the model again)";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
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
        return emitError(model.getLoc())
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
      return emitError(model.getLoc())
             << "amp-build-train-step: " << option << "=" << i
             << " is out of range: @" << model.getSymName() << " has "
             << model.getNumArguments() << " arguments";
    if (llvm::is_contained(inputs, unsigned(i)))
      return emitError(model.getLoc()) << "amp-build-train-step: inputs= names "
                                          "argument "
                                       << i << " twice";
    inputs.push_back(unsigned(i));
  }
  llvm::sort(inputs);
  return inputs;
}

/// loss=none with params=arguments: the label or target among the
/// arguments that are neither inputs nor named by index (`free`), which is
/// never trained: the last integer tensor (a label), else, when two or more
/// are left, the last one (a model (x, weights..., target) -> loss); with one
/// left, that one is a weight (x, w) -> loss and there is no target.
static std::optional<unsigned>
paramsArgumentsSupervision(func::FuncOp model, ArrayRef<unsigned> free,
                           ArrayRef<unsigned> inputs) {
  SmallVector<unsigned> rest;
  for (unsigned i : free)
    if (!llvm::is_contained(inputs, i) &&
        isa<RankedTensorType>(model.getArgumentTypes()[i]))
      rest.push_back(i);
  for (unsigned i : llvm::reverse(rest))
    if (isIntegerTensor(model.getArgumentTypes()[i]))
      return i;
  if (rest.size() >= 2)
    return rest.back();
  return std::nullopt;
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
    if (none && paramsArguments)
      data.supervision = paramsArgumentsSupervision(model, free, data.inputs);
    else if (none)
      for (unsigned i : free)
        if (!llvm::is_contained(data.inputs, i) && !data.supervision &&
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
    // The other float arguments are trained, but never the label or target
    // (chooseLossNoneSupervision).
    for (unsigned i : free)
      if (i == firstFloat ||
          (!none && isIntegerTensor(model.getArgumentTypes()[i])))
        data.inputs.push_back(i);
    if (none)
      data.supervision = paramsArgumentsSupervision(model, free, data.inputs);
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
    return emitError(model.getLoc())
           << "amp-build-train-step: @" << model.getSymName()
           << " has no argument left for the input (one batch of examples, "
              "dimension 0 the batch); name it with inputs=<index>";
  return data;
}

FailureOr<ParameterPlan>
mlir::amp::trainstep::selectParameters(func::FuncOp model,
                                       const TrainStepOptions &options,
                                       ArrayRef<arith::ConstantOp> noGradient) {
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
  if (failed(checkResourceSizes(model)))
    return failure();
  SmallVector<arith::ConstantOp> constants;
  for (Operation &op : body)
    if (auto constant = dyn_cast<arith::ConstantOp>(op);
        constant && isFloatTensor(constant.getType()))
      constants.push_back(constant);
  for (const std::string &key : request->keys)
    if (llvm::none_of(constants, [&](arith::ConstantOp c) {
          return matchesKeyPattern(resourceKey(c), key);
        }))
      return emitError(model.getLoc())
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
      return emitError(model.getLoc())
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
    param.named = true; // an argument cannot stay a constant
    param.name = "argument #" + std::to_string(i);
    param.type = cast<RankedTensorType>(arg.getType());
    plan.params.push_back(param);
  }
  // The constants of one dense_resource key are one tensor (a tied
  // weight); `__elided__` names every blob printed without its data, whose
  // constants are distinct weights.
  SmallVector<SmallVector<arith::ConstantOp, 1>> groups;
  llvm::StringMap<unsigned> groupOfKey;
  for (arith::ConstantOp c : constants) {
    std::string key = resourceKey(c);
    if (key.empty() || key == kElidedResourceKey) {
      groups.push_back({c});
      continue;
    }
    auto [it, inserted] = groupOfKey.try_emplace(key, groups.size());
    if (inserted)
      groups.push_back({c});
    else
      groups[it->second].push_back(c);
  }
  llvm::DenseSet<Operation *> withoutGradient;
  for (arith::ConstantOp c : noGradient)
    withoutGradient.insert(c);

  for (ArrayRef<arith::ConstantOp> group : groups) {
    arith::ConstantOp c = group.front();
    std::string key = resourceKey(c);
    auto type = cast<RankedTensorType>(c.getType());
    auto leave = [&](std::string why, LeftConstant::Notice notice,
                     ElementsAttr replacement) {
      for (arith::ConstantOp member : group)
        plan.leftConstants.push_back({member, why, notice, replacement});
    };
    bool named = llvm::any_of(request->keys, [&](const std::string &k) {
      return matchesKeyPattern(key, k);
    });
    bool active = llvm::any_of(group, [&](arith::ConstantOp member) {
      return activity.isActive(member.getResult());
    });
    bool noGradientPath = llvm::any_of(group, [&](arith::ConstantOp member) {
      return withoutGradient.contains(member);
    });
    if (named) {
      if (std::string problem = parameterTypeProblem(type); !problem.empty())
        return c.emitError() << "amp-build-train-step: constant '" << key
                             << "' is named in params= but cannot be a "
                                "parameter: "
                             << problem;
      if (!active)
        return c.emitError() << "amp-build-train-step: constant '" << key
                             << "' is named in params=, but the output does "
                                "not depend on it";
    } else {
      if (!request->constants)
        continue;
      std::string why;
      LeftConstant::Notice notice = LeftConstant::Notice::None;
      ElementsAttr replacement;
      if (staticElementCount(type) < options.minElements) {
        why = "fewer than min-elements=" + std::to_string(options.minElements) +
              " elements";
        // A named weight of the export (nn.PReLU()'s single slope, a learned
        // temperature) that would train otherwise: say so.
        if (!key.empty() && active && parameterTypeProblem(type).empty()) {
          why += "; name it in params= (or lower min-elements) to train it";
          notice = LeftConstant::Notice::Remark;
        } else if (active && parameterTypeProblem(type).empty()) {
          // The same printed inline (torch-mlir prints small tensors so).
          why += "; if it is a learned scalar (nn.PReLU()'s single slope, a "
                 "logit scale), pass min-elements=1 to train it";
          notice = LeftConstant::Notice::Remark;
        }
      } else if (llvm::any_of(options.frozen, [&](const std::string &p) {
                   return matchesKeyPattern(key, p);
                 }))
        why = "named in frozen=";
      else if (options.freezeRunningStats &&
               (StringRef(key).ends_with("running_mean") ||
                StringRef(key).ends_with("running_var")))
        why = "a BatchNorm running statistic (freeze-running-stats)";
      else if (std::string stat = runningStatisticReason(c);
               options.freezeRunningStats && !stat.empty() &&
               llvm::all_of(group.drop_front(), [](arith::ConstantOp m) {
                 return !runningStatisticReason(m).empty();
               })) {
        why = stat;
        notice = LeftConstant::Notice::Remark;
        if (key == kElidedResourceKey) {
          bool variance = StringRef(stat).contains("variance");
          why += variance ? "; its blob was printed without data: it is 1, "
                            "PyTorch's initial running_var"
                          : "; its blob was printed without data: it is 0, "
                            "PyTorch's initial running_mean";
          replacement = DenseElementsAttr::get(
              type,
              FloatAttr::get(type.getElementType(), variance ? 1.0 : 0.0));
        }
      } else if (!parameterTypeProblem(type).empty())
        why = "not an f32 tensor";
      else if (!active)
        why = "the output does not depend on it";
      else if (std::string notWeight =
                   notWeightReason(cast<ElementsAttr>(c.getValue()));
               !notWeight.empty()) {
        why = notWeight;
        notice = LeftConstant::Notice::Remark;
      } else if (noGradientPath) {
        why = noGradientReason;
        notice = LeftConstant::Notice::Warning;
      }
      if (!why.empty()) {
        leave(why, notice, replacement);
        continue;
      }
    }
    // One parameter for the key: every constant of the group reads it.
    for (arith::ConstantOp member : group.drop_front())
      if (member.getType() != type)
        return member.emitError()
               << "amp-build-train-step: constant '" << key << "' has type "
               << member.getType() << " here and " << type
               << " at its first use; the constants of one dense_resource key "
                  "are one tensor (a tied weight, one parameter) and need one "
                  "type";
    TrainedValue param;
    param.constants.assign(group.begin(), group.end());
    param.named = named;
    param.name = key.empty() ? "constant" : key;
    param.type = type;
    param.initialValue = c.getValue();
    // An elided normalisation weight / bias starts where PyTorch starts it
    // (1 / 0), not random or zero: a random gamma scales the normalised
    // activations down layer after layer, a zero one cuts every gradient
    // before it.
    if (key == kElidedResourceKey)
      if (std::optional<double> init = normalisationAffineInit(c)) {
        param.initialValue = DenseElementsAttr::get(
            type, FloatAttr::get(type.getElementType(), *init));
        ++(*init == 1.0 ? plan.normWeightsAtOne : plan.normBiasesAtZero);
      }
    plan.params.push_back(param);
  }
  llvm::sort(plan.leftConstants,
             [](const LeftConstant &x, const LeftConstant &y) {
               return x.constant->isBeforeInBlock(y.constant);
             });

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
    InFlightDiagnostic diag = emitError(model.getLoc())
                              << "amp-build-train-step: @" << model.getSymName()
                              << " has no trainable parameter: ";
    if (request->constants)
      diag << "no f32 tensor constant with at least min-elements="
           << options.minElements << " elements that the output depends on";
    if (request->constants && request->arguments)
      diag << ", and ";
    if (request->arguments)
      diag << "params=arguments found no weight argument (every argument is "
              "an input"
           << (options.loss == LossKind::None ? " or the label or target" : "")
           << ")";
    if (!request->arguments)
      diag << ", and no argument named in params= (weights passed as "
              "arguments: params=arguments)";
    else if (!request->constants)
      diag << (constants.empty()
                   ? "; @" + model.getSymName().str() +
                         " has no f32 tensor constant either"
                   : "; for weights held as constants use params=constants "
                     "(the default) or name their dense_resource keys");
    for (const LeftConstant &left : plan.leftConstants)
      diag.attachNote(left.constant->getLoc()) << "constant left: " << left.why;
    return diag;
  }
  return plan;
}
