//===- BuildTrainStep.cpp - forward model -> training step ----------------===//
//
// The driver of amp-build-train-step: select what is trained (an analysis,
// ParameterSelection.h), then build the step in one go: signature with
// roles, the forward cloned with parameters as arguments, the loss, the
// seed, the backward (autodiff::differentiate), the markers, the update;
// then the eval step. The output is checked against the training-step
// contract before the model is removed.
//
//===----------------------------------------------------------------------===//

#include "amp/TrainStep/BuildTrainStep.h"

#include "amp/Analysis/TrainingStep.h"
#include "amp/Autodiff/AdjointBuilders.h"
#include "amp/Autodiff/Differentiate.h"
#include "amp/Dialect/Amp/IR/AmpOps.h"
#include "amp/Raising/Passes.h"
#include "amp/Support/ModelSource.h"
#include "amp/TrainStep/Losses.h"
#include "amp/TrainStep/Optimizers.h"
#include "amp/TrainStep/ParameterSelection.h"
#include "amp/TrainStep/Rebatch.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::trainstep;

/// The model: `name`, or the only public func.func with a body that is not
/// already a training or eval step.
static FailureOr<func::FuncOp> findModel(ModuleOp module, StringRef name) {
  if (!name.empty()) {
    auto fn = module.lookupSymbol<func::FuncOp>(name);
    if (!fn)
      return emitError(module.getLoc())
             << "amp-build-train-step: no func.func @" << name
             << " in the module (function=)";
    return fn;
  }
  SmallVector<func::FuncOp> candidates;
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn.isPublic() && !fn.isDeclaration() && !fn->hasAttr(kTrainStepAttr) &&
        !fn->hasAttr(kEvalStepAttr))
      candidates.push_back(fn);
  if (candidates.size() == 1)
    return candidates.front();
  if (candidates.empty())
    return emitError(module.getLoc())
           << "amp-build-train-step: the module has no public func.func with "
              "a body (other than training and eval steps) to build a "
              "training step from";
  InFlightDiagnostic diag =
      emitError(module.getLoc())
      << "amp-build-train-step: the module has " << candidates.size()
      << " public functions with a body; name the model with function=<name>";
  for (func::FuncOp fn : candidates)
    diag.attachNote(fn.getLoc()) << "candidate @" << fn.getSymName();
  return failure();
}

static LogicalResult checkModel(ModuleOp module, func::FuncOp model) {
  if (model.isDeclaration())
    return emitError(model.getLoc())
           << "amp-build-train-step: @" << model.getSymName()
           << " is a declaration; the model needs a body";
  if (!model.getBody().hasOneBlock())
    return emitError(model.getLoc())
           << "amp-build-train-step: the body of @" << model.getSymName()
           << " has several blocks; write its control flow with scf (scf.if, "
              "scf.for) so that it has a single block";
  if (model.getNumResults() != 1)
    return emitError(model.getLoc())
           << "amp-build-train-step: @" << model.getSymName() << " returns "
           << model.getNumResults()
           << " values; the model returns one (its logits, its regression "
              "output or its loss): name the one to train with output=<index>";
  // TOSA (torch-mlir's and TFLite's other output) has no adjoint rules: its
  // weights are tosa.const, not constants the builder would train.
  Operation *tosa = nullptr;
  model.walk([&](Operation *op) {
    if (op->getDialect() && op->getDialect()->getNamespace() == "tosa") {
      tosa = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (tosa) {
    return emitError(tosa->getLoc())
           << "amp-build-train-step: @" << model.getSymName() << " holds TOSA ("
           << tosa->getName()
           << "); the builder differentiates linalg on tensors: lower it "
              "first, e.g. mlir-opt "
              "--pass-pipeline=\"builtin.module(func.func(tosa-to-linalg-"
              "named,tosa-to-linalg,tosa-to-arith,tosa-to-tensor,"
              "canonicalize))\"";
  }
  for (StringRef name : {kTrainStepName, kEvalStepName}) {
    if (model.getSymName() == name)
      return emitError(model.getLoc())
             << "amp-build-train-step: the model is named @" << name
             << ", the name of a function the builder adds; rename it";
    if (Operation *existing = module.lookupSymbol(name))
      return emitError(existing->getLoc())
             << "amp-build-train-step: cannot add @" << name
             << ": the module already has a symbol of that name";
  }
  return success();
}

namespace {
/// The arguments of the step being built, by role.
struct StepArguments {
  SmallVector<Value> params, state, inputs;
  Value supervision;
};
} // namespace

/// A linalg op whose body reads an init that is a `tensor.empty` (an
/// accumulator never filled: `linalg.matmul ... outs(%empty)`, which some
/// exports write where PyTorch's matmul starts from zeros) reads undefined
/// values; the clone reads zeros instead (a linalg.fill of the empty), with
/// a warning on the model's op when `warn`.
static void zeroUninitialisedInit(OpBuilder &b, Operation *op, bool warn) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || !linalgOp.hasPureTensorSemantics())
    return;
  for (OpOperand &init : linalgOp.getDpsInitsMutable()) {
    auto empty = init.get().getDefiningOp<tensor::EmptyOp>();
    Type element = getElementTypeOrSelf(init.get().getType());
    if (!empty || !linalgOp.payloadUsesValueFromOperand(&init) ||
        !isa<FloatType, IntegerType>(element))
      continue;
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPoint(op);
    Value zero =
        arith::ConstantOp::create(b, op->getLoc(), b.getZeroAttr(element));
    Value filled =
        linalg::FillOp::create(b, op->getLoc(), zero, init.get()).getResult(0);
    init.set(filled);
    if (warn)
      emitWarning(op->getLoc())
          << "amp-build-train-step: init #"
          << init.getOperandNumber() - linalgOp.getNumDpsInputs()
          << " is a tensor.empty that the op reads (its values "
             "are undefined); the step starts it from zeros, "
             "as PyTorch's op does";
  }
}

/// Clones the ops of `model`'s body at `b`'s insertion point with `map`,
/// skipping the constants that became parameters and giving the left ones
/// with a replacement (an elided running statistic) that value; returns the
/// clone of the returned value. Inits read from a bare tensor.empty start from
/// zeros (zeroUninitialisedInit).
static Value cloneForward(OpBuilder &b, func::FuncOp model,
                          const ParameterPlan &plan, IRMapping &map,
                          bool warn) {
  llvm::DenseSet<Operation *> trained;
  for (const TrainedValue &p : plan.params)
    for (arith::ConstantOp c : p.constants)
      trained.insert(c);
  llvm::DenseMap<Operation *, ElementsAttr> replaced;
  for (const LeftConstant &left : plan.leftConstants)
    if (left.replacement)
      replaced[left.constant] = left.replacement;
  Block &body = model.getBody().front();
  for (Operation &op : body.without_terminator()) {
    if (trained.contains(&op))
      continue;
    if (ElementsAttr value = replaced.lookup(&op)) {
      map.map(op.getResult(0),
              arith::ConstantOp::create(b, op.getLoc(), value).getResult());
      continue;
    }
    Operation *clone = b.clone(op, map);
    zeroUninitialisedInit(b, clone, warn);
  }
  return map.lookupOrDefault(body.getTerminator()->getOperand(0));
}

/// Maps the model's inputs and trained values to the step's arguments.
static void mapModelValues(const ParameterPlan &plan, func::FuncOp model,
                           ValueRange params, ValueRange inputs,
                           IRMapping &map) {
  for (auto [i, input] : llvm::zip_equal(plan.inputs, inputs))
    map.map(model.getArgument(i), input);
  for (auto [p, arg] : llvm::zip_equal(plan.params, params)) {
    if (p.isArgument)
      map.map(model.getArgument(p.argument), arg);
    // A tied weight: every constant of its key reads the one argument.
    for (arith::ConstantOp c : p.constants)
      map.map(c.getResult(), arg);
  }
}

static StringAttr roleOf(MLIRContext *ctx, Type supervision) {
  auto tensor = cast<RankedTensorType>(supervision);
  return StringAttr::get(
      ctx, isa<FloatType>(tensor.getElementType()) ? "target" : "label");
}

/// The train step's signature and its argument attributes.
/// The model file `model` was read from: the file its module's (else its
/// own) location names, if that file exists and defines @<model>; empty
/// otherwise (standard input, locations of another source such as
/// torch-mlir's Python debug locations).
static std::string modelFile(func::FuncOp model, std::string &text) {
  SmallVector<Location, 2> locs;
  if (auto module = model->getParentOfType<ModuleOp>())
    locs.push_back(module.getLoc());
  locs.push_back(model.getLoc());
  for (Location loc : locs) {
    auto file = dyn_cast<FileLineColLoc>(loc);
    if (!file)
      continue;
    SmallString<256> path(file.getFilename().getValue());
    if (path.empty() || path == "-" || path == "<stdin>" ||
        llvm::sys::fs::make_absolute(path))
      continue;
    auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
    if (!buffer ||
        !(*buffer)->getBuffer().contains("@" + model.getSymName().str()))
      continue;
    text = (*buffer)->getBuffer().str();
    return path.str().str();
  }
  return "";
}

/// For amp-run --save-model (Runtime/Checkpoint/ModelExport.h): the model
/// file's path and hash on the step's module, and, on each parameter made
/// from a constant printed without its data, that constant's place in the
/// file (`amp.elided_at`), if the file holds it there. A remark counts the
/// elided parameters whose place is not known.
static void recordModelSource(func::FuncOp model, func::FuncOp fn,
                              const ParameterPlan &plan) {
  MLIRContext *ctx = model.getContext();
  std::string text;
  std::string path = modelFile(model, text);
  auto module = fn->getParentOfType<ModuleOp>();
  if (!path.empty() && module) {
    module->setAttr(kSourceModelAttr, StringAttr::get(ctx, path));
    module->setAttr(kSourceModelHashAttr,
                    StringAttr::get(ctx, modelTextHash(text)));
  }
  unsigned unplaced = 0;
  for (auto [i, p] : llvm::enumerate(plan.params)) {
    if (p.constants.empty())
      continue;
    arith::ConstantOp first = p.constants.front();
    if (resourceKey(first) != kElidedResourceKey)
      continue;
    std::string type;
    llvm::raw_string_ostream(type) << p.type;
    auto at = dyn_cast<FileLineColLoc>(first.getLoc());
    SmallString<256> where;
    if (at) {
      where = at.getFilename().getValue();
      llvm::sys::fs::make_absolute(where);
    }
    if (path.empty() || !at || where != path ||
        findElidedConstant(text, at.getLine(), at.getColumn(), type) ==
            llvm::StringRef::npos) {
      ++unplaced;
      continue;
    }
    fn.setArgAttr(i, kElidedAtAttr, at);
  }
  if (unplaced)
    emitRemark(model.getLoc())
        << "amp-build-train-step: " << unplaced
        << " parameter(s) come from constants printed without their data "
           "(__elided__) whose place in the model file is not known (the "
           "model was read from standard input, or its locations name "
           "another file, e.g. torch-mlir's Python debug locations): "
           "amp-run --save-model cannot write them; --save-checkpoint can";
}

static func::FuncOp createTrainFunction(OpBuilder &b, func::FuncOp model,
                                        const ParameterPlan &plan,
                                        ArrayRef<StateSlot> state,
                                        Type supervisionType) {
  MLIRContext *ctx = b.getContext();
  SmallVector<Type> args, results = {RankedTensorType::get({}, b.getF32Type())};
  SmallVector<Location> locs;
  for (const TrainedValue &p : plan.params) {
    args.push_back(p.type);
    locs.push_back(p.isArgument ? model.getArgument(p.argument).getLoc()
                                : p.constants.front()->getLoc());
  }
  for (const StateSlot &s : state) {
    args.push_back(s.type);
    locs.push_back(model.getLoc());
  }
  llvm::append_range(results, args);
  for (unsigned input : plan.inputs) {
    args.push_back(model.getArgumentTypes()[input]);
    locs.push_back(model.getArgument(input).getLoc());
  }
  args.push_back(supervisionType);
  locs.push_back(plan.supervision
                     ? model.getArgument(*plan.supervision).getLoc()
                     : model.getLoc());

  auto fn = func::FuncOp::create(b, model.getLoc(), kTrainStepName,
                                 b.getFunctionType(args, results));
  fn->setAttr(kTrainStepAttr, UnitAttr::get(ctx));
  Block *entry = fn.addEntryBlock();
  for (auto [arg, loc] : llvm::zip_equal(entry->getArguments(), locs))
    arg.setLoc(loc);
  unsigned i = 0;
  for (const TrainedValue &p : plan.params) {
    fn.setArgAttr(i, kRoleAttr, StringAttr::get(ctx, "param"));
    if (p.initialValue)
      fn.setArgAttr(i, kInitialValueAttr, p.initialValue);
    ++i;
  }
  recordModelSource(model, fn, plan);
  for (size_t s = 0; s < state.size(); ++s, ++i)
    fn.setArgAttr(i, kRoleAttr, StringAttr::get(ctx, "opt_state"));
  for (size_t k = 0; k < plan.inputs.size(); ++k, ++i)
    fn.setArgAttr(i, kRoleAttr, StringAttr::get(ctx, "input"));
  fn.setArgAttr(i, kRoleAttr, roleOf(ctx, supervisionType));
  // Class labels of batch x classes logits: how many classes they index.
  auto logits = dyn_cast<RankedTensorType>(model.getResultTypes()[0]);
  if (roleOf(ctx, supervisionType) == "label" && logits &&
      logits.getRank() == 2 && !logits.isDynamicDim(1))
    fn.setArgAttr(i, kClassesAttr, b.getI64IntegerAttr(logits.getDimSize(1)));
  fn.setResultAttr(0, kRoleAttr, StringAttr::get(ctx, "loss"));
  for (unsigned r = 1; r < fn.getNumResults(); ++r)
    fn.setResultAttr(r, kUpdatesAttr, b.getI64IntegerAttr(r - 1));
  return fn;
}

/// The values computed from `seed`'s results: theirs, and those of every
/// later op of its block that reads one (as an operand or a value its
/// regions capture).
static llvm::DenseSet<Value> dependentsOf(Operation *seed) {
  llvm::DenseSet<Value> dependents(seed->result_begin(), seed->result_end());
  for (Operation *op = seed->getNextNode(); op; op = op->getNextNode())
    if (llvm::any_of(autodiff::getOperandsAndCapturedValues(op),
                     [&](Value v) { return dependents.contains(v); }))
      dependents.insert(op->result_begin(), op->result_end());
  return dependents;
}

/// Fills the train step's body; failure (with located errors) when the
/// backward cannot be built. `withoutGradient` gets the indices of the
/// parameters whose gradient does not depend on the seed: the loss reaches
/// them only through ops without a derivative (fptosi, a comparison), so
/// their gradient is a constant zero that the contract does not accept.
static LogicalResult
buildTrainBody(func::FuncOp fn, func::FuncOp model, const ParameterPlan &plan,
               const TrainStepOptions &options, size_t numState,
               SmallVectorImpl<unsigned> &withoutGradient) {
  Block &entry = fn.getBody().front();
  OpBuilder b = OpBuilder::atBlockEnd(&entry);
  size_t n = plan.params.size();
  StepArguments args;
  for (size_t i = 0; i < n; ++i)
    args.params.push_back(entry.getArgument(i));
  for (size_t i = 0; i < numState; ++i)
    args.state.push_back(entry.getArgument(n + i));
  size_t numInputs = plan.inputs.size();
  for (size_t k = 0; k < numInputs; ++k)
    args.inputs.push_back(entry.getArgument(n + numState + k));
  args.supervision = entry.getArgument(n + numState + numInputs);

  IRMapping map;
  mapModelValues(plan, model, args.params, args.inputs, map);
  if (plan.supervision)
    map.map(model.getArgument(*plan.supervision), args.supervision);
  Value output = cloneForward(b, model, plan, map, /*warn=*/true);
  Location lossLoc = model.getBody().front().getTerminator()->getLoc();
  Value loss = buildLoss(b, lossLoc, options.loss, output, args.supervision);

  auto seed = LossGradOp::create(b, lossLoc, loss);
  FailureOr<SmallVector<Value>> raw =
      autodiff::differentiate(b, loss, seed, args.params);
  if (failed(raw))
    return failure();
  llvm::DenseSet<Value> fromSeed = dependentsOf(seed);
  for (auto [i, g] : llvm::enumerate(*raw))
    if (!fromSeed.contains(g))
      withoutGradient.push_back(i);
  if (!withoutGradient.empty())
    return success();
  SmallVector<Value> grads;
  for (auto [g, p] : llvm::zip_equal(*raw, args.params))
    grads.push_back(GradOp::create(b, p.getLoc(), g, p));

  SmallVector<Value> newParams, newState;
  buildUpdates(b, fn.getLoc(), options, args.params, grads, args.state,
               newParams, newState);
  // The forward may have been rewritten (calls inlined, loops unrolled);
  // the seed's operand is the loss as it is now.
  SmallVector<Value> results = {seed.getLoss()};
  llvm::append_range(results, newParams);
  llvm::append_range(results, newState);
  func::ReturnOp::create(b, fn.getLoc(), results);
  return success();
}

/// @eval_step(params..., inputs...) -> logits: the model's forward alone.
static func::FuncOp buildEvalStep(OpBuilder &b, func::FuncOp model,
                                  const ParameterPlan &plan) {
  MLIRContext *ctx = b.getContext();
  SmallVector<Type> args;
  for (const TrainedValue &p : plan.params)
    args.push_back(p.type);
  for (unsigned input : plan.inputs)
    args.push_back(model.getArgumentTypes()[input]);
  auto fn =
      func::FuncOp::create(b, model.getLoc(), kEvalStepName,
                           b.getFunctionType(args, model.getResultTypes()));
  fn->setAttr(kEvalStepAttr, UnitAttr::get(ctx));
  Block *entry = fn.addEntryBlock();
  size_t n = plan.params.size();
  for (size_t i = 0; i < n; ++i)
    fn.setArgAttr(i, kRoleAttr, StringAttr::get(ctx, "param"));
  for (size_t k = 0; k < plan.inputs.size(); ++k)
    fn.setArgAttr(n + k, kRoleAttr, StringAttr::get(ctx, "input"));
  fn.setResultAttr(0, kRoleAttr, StringAttr::get(ctx, "logits"));
  OpBuilder body = OpBuilder::atBlockEnd(entry);
  IRMapping map;
  mapModelValues(plan, model, entry->getArguments().take_front(n),
                 entry->getArguments().drop_front(n), map);
  Value logits = cloneForward(body, model, plan, map, /*warn=*/false);
  func::ReturnOp::create(
      body, model.getBody().front().getTerminator()->getLoc(), logits);
  return fn;
}

/// Erases the private symbols other than functions (torch-mlir's
/// `ml_program.global private mutable @global_seed`, the RNG state of an
/// exported model) that nothing references once the model is gone: the
/// lowerings have no rule for them, and the step does not need them.
static void eraseUnusedPrivateData(ModuleOp module) {
  SmallVector<Operation *> dead;
  for (Operation &op : module.getBody()->getOperations()) {
    auto symbol = dyn_cast<SymbolOpInterface>(&op);
    if (symbol && symbol.isPrivate() && !isa<FunctionOpInterface>(&op) &&
        SymbolTable::symbolKnownUseEmpty(&op, module))
      dead.push_back(&op);
  }
  for (Operation *op : dead)
    op->erase();
}

/// batch-dim=: a copy of `model` with the batch moved to dimension 0 of
/// its inputs and output (Rebatch.h, moveBatchFirst), or null when every
/// value is 0; `givenDims` gets each input's batch dimension as given, for
/// re-batching's messages. Errors: a count of values that fits neither
/// rule, an ambiguous loss=none target, moveBatchFirst's.
static FailureOr<func::FuncOp>
moveSequenceFirst(func::FuncOp model, const TrainStepOptions &options,
                  SmallVectorImpl<unsigned> &givenDims) {
  if (llvm::all_of(options.batchDim, [](int64_t d) { return d == 0; }))
    return func::FuncOp();
  FailureOr<ParameterPlan> layout = selectParameters(model, options);
  if (failed(layout))
    return failure();
  SmallVector<unsigned> moved(layout->inputs.begin(), layout->inputs.end());
  size_t n = moved.size(), given = options.batchDim.size();
  bool withSupervision =
      options.loss == LossKind::None && layout->supervision.has_value();
  if (given != 1 && given != n && !(withSupervision && given == n + 1)) {
    InFlightDiagnostic diag = emitError(model.getLoc())
                              << "amp-build-train-step: batch-dim= has "
                              << given << " values, and @" << model.getSymName()
                              << " has " << n << " inputs (arguments";
    for (unsigned i : moved)
      diag << " #" << i;
    diag << "); give one value for every input, or one per input in "
            "their order"
         << (withSupervision ? " (and one more for the label or target)" : "");
    return failure();
  }
  for (size_t k = 0; k < n; ++k)
    givenDims.push_back(
        static_cast<unsigned>(options.batchDim[given == 1 ? 0 : k]));
  SmallVector<unsigned> dims(givenDims.begin(), givenDims.end());
  if (withSupervision) {
    // The model's own label or target. One value: the dimension that holds
    // the inputs' traced batch (a target [S, B, E] like the input, or
    // [B, C] after a pooling); both holding it (S == B or C == B) is
    // ambiguous: refused.
    auto type = dyn_cast<RankedTensorType>(
        model.getArgumentTypes()[*layout->supervision]);
    int64_t d = 0, d0 = options.batchDim[0];
    if (given == n + 1) {
      d = options.batchDim[n];
    } else if (given == 1 && type && type.getRank() > d0 && d0 != 0) {
      auto first = cast<RankedTensorType>(model.getArgumentTypes()[moved[0]]);
      int64_t traced = first.getDimSize(d0);
      bool atD = type.getDimSize(d0) == traced;
      bool atZero = type.getDimSize(0) == traced;
      if (atD && atZero)
        return emitError(model.getArgument(*layout->supervision).getLoc())
               << "amp-build-train-step: batch-dim=" << d0
               << " with loss=none: the label or target, argument #"
               << *layout->supervision << " (" << type
               << "), has the inputs' traced batch (" << traced
               << ") in dimension 0 and in dimension " << d0
               << "; name its batch dimension with one more value: "
                  "batch-dim="
               << d0 << "," << d0
               << " ([S, B, ...] as the input) or batch-dim=" << d0
               << ",0 ([B, ...])";
      d = atD ? d0 : 0;
    }
    moved.push_back(*layout->supervision);
    dims.push_back(static_cast<unsigned>(d));
  }
  func::FuncOp copy = model.clone();
  std::string option = "batch-dim=";
  for (auto [k, d] : llvm::enumerate(options.batchDim))
    option += (k ? "," : "") + std::to_string(d);
  if (failed(moveBatchFirst(copy, moved, dims, options.loss != LossKind::None,
                            "amp-build-train-step", option))) {
    copy.erase();
    return failure();
  }
  return copy;
}

/// Without batch-dim=: warns when dimension 0 of the inputs mixes examples
/// while dimension 1 holds independent ones (re-batching's analysis,
/// `followsBatch`): a sequence-first model (PyTorch's batch_first=False),
/// whose sequence positions the step would train as examples.
static LogicalResult warnIfSequenceFirst(func::FuncOp model,
                                         const TrainStepOptions &options) {
  if (!options.batchDim.empty() || options.loss == LossKind::None)
    return success();
  FailureOr<ParameterPlan> layout = selectParameters(model, options);
  if (failed(layout))
    return failure();
  SmallVector<unsigned> inputs(layout->inputs.begin(), layout->inputs.end());
  // (A dynamic dimension 0 is the batch: nothing to suggest.)
  bool ranked = !inputs.empty() && llvm::all_of(inputs, [&](unsigned i) {
    auto type = dyn_cast<RankedTensorType>(model.getArgumentTypes()[i]);
    return type && type.getRank() >= 2 && !type.isDynamicDim(0);
  });
  if (ranked &&
      !followsBatch(model, inputs, SmallVector<unsigned>(inputs.size(), 0)) &&
      followsBatch(model, inputs, SmallVector<unsigned>(inputs.size(), 1)))
    emitWarning(model.getLoc())
        << "amp-build-train-step: @" << model.getSymName()
        << " mixes the elements along dimension 0 of its input, which the "
           "step takes as the batch, while dimension 1 holds independent "
           "examples: a sequence-first model (PyTorch's batch_first=False, "
           "the default of nn.MultiheadAttention, nn.Transformer*, "
           "nn.LSTM, nn.GRU) takes batch-dim=1, or its sequence positions "
           "are trained as examples";
  return success();
}

FailureOr<BuiltSteps>
mlir::amp::trainstep::buildTrainStep(ModuleOp module,
                                     const TrainStepOptions &options) {
  if (std::string why = options.validate(); !why.empty())
    return emitError(module.getLoc()) << "amp-build-train-step: " << why;
  FailureOr<func::FuncOp> found = findModel(module, options.function);
  if (failed(found))
    return failure();
  func::FuncOp model = *found;
  // output=: the steps are built from a copy that returns that result
  // only, as batch= builds them from a re-batched copy, so that the module
  // is unchanged on error (and callers of the model keep its signature).
  func::FuncOp original = model, rebatched;
  llvm::scope_exit eraseCopy([&]() {
    if (rebatched)
      rebatched.erase();
  });
  if (options.output >= 0) {
    if (model.isDeclaration() ||
        options.output >= static_cast<int64_t>(model.getNumResults()))
      return emitError(model.getLoc())
             << "amp-build-train-step: output=" << options.output
             << " is out of range: @" << model.getSymName() << " returns "
             << model.getNumResults() << " values";
    rebatched = model = model.clone();
    Operation *ret = model.getBody().back().getTerminator();
    Value kept = ret->getOperand(static_cast<unsigned>(options.output));
    ret->setOperands(kept);
    model.setFunctionType(FunctionType::get(
        model.getContext(), model.getArgumentTypes(), kept.getType()));
  }
  if (failed(checkModel(module, model)))
    return failure();
  // batch-dim=: the batch moved to dimension 0 of the inputs and the output
  // first; without it, a warning for a sequence-first model.
  SmallVector<unsigned> givenDims;
  FailureOr<func::FuncOp> moved = moveSequenceFirst(model, options, givenDims);
  if (failed(moved) || failed(warnIfSequenceFirst(model, options)))
    return failure();
  if (*moved) {
    if (rebatched)
      rebatched.erase();
    rebatched = model = *moved;
  }
  if (int64_t batch = *parseBatch(options.batch); batch != 0) {
    // The model's own loss reduces over the batch (a mean divides by the
    // traced size), which re-batching cannot follow.
    if (options.loss == LossKind::None)
      return emitError(model.getLoc())
             << "amp-build-train-step: batch= with loss=none: @"
             << model.getSymName()
             << " returns its own loss, a reduction over the batch it was "
                "traced at, and re-batching follows the batch only to an "
                "output that keeps it in dimension 0; build the step at the "
                "exported batch, or export the model without its loss and "
                "use loss=mse or loss=softmax-cross-entropy";
    FailureOr<ParameterPlan> traced = selectParameters(model, options);
    if (failed(traced))
      return failure();
    func::FuncOp copy = model.clone();
    if (rebatched)
      rebatched.erase();
    rebatched = copy;
    if (failed(rebatch(rebatched, traced->inputs, batch, "amp-build-train-step",
                       givenDims)))
      return failure();
    model = rebatched;
  }
  // A rewrite of the model on a copy, which replaces it when the rewrite
  // changed something (the module stays unchanged on error).
  auto rewriteCopy = [&](llvm::function_ref<bool(func::FuncOp)> rewrite) {
    func::FuncOp copy = model.clone();
    if (!rewrite(copy)) {
      copy.erase();
      return;
    }
    if (rebatched)
      rebatched.erase();
    rebatched = model = copy;
  };
  // Decomposed softmaxes as linalg.softmax, whose backward reads only the
  // probabilities (amp-raise-softmax).
  if (options.raiseSoftmax)
    rewriteCopy(raiseSoftmax);
  // Splats and elided blobs that several ops read are distinct weights:
  // one constant per use (splitSharedConstants).
  rewriteCopy(splitSharedConstants);
  Operation *ret = model.getBody().front().getTerminator();

  FailureOr<Type> supervision =
      supervisionType(options.loss, model.getResultTypes()[0], ret->getLoc());
  if (failed(supervision))
    return failure();
  FailureOr<ParameterPlan> plan = selectParameters(model, options);
  if (failed(plan))
    return failure();
  Type supervisionArg = *supervision;
  // The contract's batch is dimension 0 of every input, and the label or
  // target built from the output has the output's dimension 0.
  auto outputType = dyn_cast<RankedTensorType>(model.getResultTypes()[0]);
  std::optional<std::pair<unsigned, int64_t>> batch; // (argument, size)
  if (options.loss != LossKind::None && outputType &&
      outputType.getRank() >= 1 && !outputType.isDynamicDim(0))
    batch = {~0u, outputType.getDimSize(0)};
  for (unsigned input : plan->inputs) {
    auto inputType = cast<RankedTensorType>(model.getArgumentTypes()[input]);
    if (inputType.isDynamicDim(0))
      continue;
    if (!batch) {
      batch = {input, inputType.getDimSize(0)};
      continue;
    }
    if (inputType.getDimSize(0) == batch->second)
      continue;
    InFlightDiagnostic diag = emitError(model.getArgument(input).getLoc())
                              << "amp-build-train-step: the input (argument #"
                              << input << ", " << inputType << ") has "
                              << inputType.getDimSize(0) << " in dimension 0, ";
    if (batch->first == ~0u)
      diag << "the output (" << outputType << ") " << batch->second
           << "; dimension 0 of both is the batch";
    else
      diag << "the input argument #" << batch->first << " " << batch->second
           << "; dimension 0 of every input is the batch";
    diag << " (transpose the input, or name the inputs with inputs=; a "
            "weight passed as an argument belongs in params=";
    if (options.batchDim.empty() && inputType.getRank() >= 2 &&
        batch->first == ~0u && inputType.getDimSize(1) == batch->second)
      diag << "; a sequence-first model, PyTorch's batch_first=False, "
              "takes batch-dim=1";
    diag << ")";
    return failure();
  }
  if (options.loss == LossKind::None) {
    // The model's own label or target; without one an unused label, as the
    // contract has one (one class index per example of the input).
    if (plan->supervision)
      supervisionArg = model.getArgumentTypes()[*plan->supervision];
    else
      supervisionArg = RankedTensorType::get(
          {cast<RankedTensorType>(model.getArgumentTypes()[plan->input])
               .getDimSize(0)},
          IntegerType::get(module.getContext(), 32));
  }

  // Build; a parameter the loss has no gradient for (found by building its
  // backward) is an error when params= names it and otherwise stays a
  // constant (selectParameters' noGradient), and the step is built again.
  OpBuilder b(original);
  BuiltSteps steps;
  auto eraseBuilt = [&]() {
    if (steps.eval)
      steps.eval.erase();
    if (steps.train)
      steps.train.erase();
    steps = {};
  };
  SmallVector<arith::ConstantOp> noGradient;
  for (;;) {
    SmallVector<RankedTensorType> paramTypes;
    SmallVector<std::string> paramNames;
    for (const TrainedValue &p : plan->params) {
      paramTypes.push_back(p.type);
      paramNames.push_back(p.name);
    }
    SmallVector<StateSlot> state = optimizerState(
        options.optimizer, paramTypes, paramNames, module.getContext());
    b.setInsertionPointAfter(original);
    steps.train = createTrainFunction(b, model, *plan, state, supervisionArg);
    SmallVector<unsigned> withoutGradient;
    if (failed(buildTrainBody(steps.train, model, *plan, options, state.size(),
                              withoutGradient))) {
      eraseBuilt();
      return failure();
    }
    if (withoutGradient.empty())
      break;
    eraseBuilt();
    for (unsigned i : withoutGradient) {
      const TrainedValue &p = plan->params[i];
      if (!p.named) {
        noGradient.push_back(p.constants.front());
        continue;
      }
      InFlightDiagnostic diag =
          p.isArgument ? emitError(model.getArgument(p.argument).getLoc())
                       : p.constants.front()->emitError();
      diag << "amp-build-train-step: "
           << (p.isArgument ? p.name + " of @" + model.getSymName().str()
                            : "constant '" + p.name + "'")
           << " is named in params=, but the loss has no gradient for it: "
              "the output depends on it only through ops without a "
              "derivative (an integer conversion such as arith.fptosi / "
              "arith.sitofp, a comparison), so training would never change "
              "it; "
           << (p.isArgument ? "name the trained arguments by index in "
                              "params= without it"
                            : "drop it from params=");
      return failure();
    }
    plan = selectParameters(model, options, noGradient);
    if (failed(plan))
      return failure();
  }
  auto logits = dyn_cast<RankedTensorType>(model.getResultTypes()[0]);
  if (options.evalStep && options.loss != LossKind::None && logits &&
      logits.getRank() == 2) {
    b.setInsertionPointAfter(steps.train);
    steps.eval = buildEvalStep(b, model, *plan);
  }

  // The model's dead code (an export keeps ops whose results nothing reads,
  // e.g. bias adds of a block whose attention reads the products before
  // them) goes: a dead constant without its blob would stop promotion to f64
  // and the lowerings for nothing.
  for (func::FuncOp fn : {steps.train, steps.eval})
    if (fn)
      autodiff::eraseDeadOps(fn.getBody().front());

  // What the rest of the compiler will check: the contract.
  if (failed(TrainingStep::analyze(steps.train)) ||
      (steps.eval && failed(EvalStep::analyze(steps.eval)))) {
    emitError(model.getLoc())
        << "amp-build-train-step: the step built from @" << model.getSymName()
        << " breaks the training-step contract (the errors "
           "above); this is a bug of the builder";
    eraseBuilt();
    return failure();
  }
  // What params=constants left that the user may not expect: values that
  // are not weights (a remark), weights the loss has no gradient for (a
  // warning).
  // One notice per reason: a warning per constant of the model, a remark
  // for all constants left for the same reason (a MobileNet has 34
  // BatchNorm running variances), at the first. The copies of a split
  // constant share its location.
  struct Notice {
    const LeftConstant *left;
    SmallVector<Location> constants;
    unsigned uses = 0;
  };
  SmallVector<Notice> notices;
  for (const LeftConstant &left : plan->leftConstants) {
    if (left.notice == LeftConstant::Notice::None)
      continue;
    Location loc = left.constant->getLoc();
    auto same = llvm::find_if(notices, [&](const Notice &n) {
      return n.left->why == left.why &&
             (left.notice == LeftConstant::Notice::Remark ||
              n.constants.front() == loc);
    });
    if (same == notices.end())
      same = notices.insert(notices.end(), Notice{&left, {}, 0});
    if (!llvm::is_contained(same->constants, loc))
      same->constants.push_back(loc);
    ++same->uses;
  }
  for (const Notice &n : notices) {
    std::string key = resourceKey(n.left->constant);
    std::string what = key.empty() || key == kElidedResourceKey
                           ? "this constant"
                           : "constant '" + key + "'";
    if (n.constants.size() > 1)
      what += " and " + std::to_string(n.constants.size() - 1) +
              " more like it (" + std::to_string(n.uses) +
              " uses in all) stay constants: ";
    else
      what += (n.uses > 1 ? " (at its " + std::to_string(n.uses) + " uses)"
                          : std::string()) +
              " stays a constant: ";
    Location loc = n.constants.front();
    if (n.left->notice == LeftConstant::Notice::Remark)
      emitRemark(loc) << "amp-build-train-step: " << what << n.left->why;
    else
      emitWarning(loc) << "amp-build-train-step: " << what << n.left->why;
  }
  if (plan->normWeightsAtOne || plan->normBiasesAtZero)
    emitRemark(model.getLoc())
        << "amp-build-train-step: the normalisation weights ("
        << plan->normWeightsAtOne << ") and biases (" << plan->normBiasesAtZero
        << ") printed without data (__elided__) start at 1 and 0, "
           "PyTorch's initial values, not random";
  if (SymbolTable::symbolKnownUseEmpty(original, module))
    original.erase();
  eraseUnusedPrivateData(module);
  return steps;
}
