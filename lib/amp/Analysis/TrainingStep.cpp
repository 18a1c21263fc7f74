//===- TrainingStep.cpp - the training-step contract ----------------------===//

#include "amp/Analysis/TrainingStep.h"

#include "amp/Analysis/SeedLinearity.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::amp;

std::optional<ArgRole> mlir::amp::parseArgRole(StringRef name) {
  return llvm::StringSwitch<std::optional<ArgRole>>(name)
      .Case("param", ArgRole::Param)
      .Case("opt_state", ArgRole::OptState)
      .Case("input", ArgRole::Input)
      .Case("label", ArgRole::Label)
      .Case("target", ArgRole::Target)
      .Case("loss_scale", ArgRole::LossScale)
      .Case("growth_tracker", ArgRole::GrowthTracker)
      .Case("hysteresis_tracker", ArgRole::HysteresisTracker)
      .Case("consecutive_skips", ArgRole::ConsecutiveSkips)
      .Default(std::nullopt);
}

StringRef mlir::amp::stringifyArgRole(ArgRole role) {
  switch (role) {
  case ArgRole::Param:
    return "param";
  case ArgRole::OptState:
    return "opt_state";
  case ArgRole::Input:
    return "input";
  case ArgRole::Label:
    return "label";
  case ArgRole::Target:
    return "target";
  case ArgRole::LossScale:
    return "loss_scale";
  case ArgRole::GrowthTracker:
    return "growth_tracker";
  case ArgRole::HysteresisTracker:
    return "hysteresis_tracker";
  case ArgRole::ConsecutiveSkips:
    return "consecutive_skips";
  }
  llvm_unreachable("unknown role");
}

std::optional<unsigned> TrainingStep::argWithRole(ArgRole role) const {
  for (auto [i, r] : llvm::enumerate(argRoles))
    if (r == role)
      return i;
  return std::nullopt;
}

static bool isF32Tensor(Type t) {
  auto tt = dyn_cast<RankedTensorType>(t);
  return tt && tt.getElementType().isF32();
}

/// A parameter stored in bf16 by amp-master-weights: a bf16 tensor whose
/// every use (in the function's blocks) is an arith.extf to f32, or the op
/// that rounds its update (Kahan reads the old stored value).
static bool isBF16Storage(BlockArgument arg) {
  auto tt = dyn_cast<RankedTensorType>(arg.getType());
  if (!tt || !tt.getElementType().isBF16())
    return false;
  return llvm::all_of(arg.getUsers(), [](Operation *user) {
    return isa<arith::ExtFOp>(user) || user->hasAttr(kRoundsUpdateAttr);
  });
}

static bool isScalarTensorOf(Type t, Type elem) {
  auto tt = dyn_cast<RankedTensorType>(t);
  return tt && tt.getRank() == 0 && tt.getElementType() == elem;
}

/// Checks one input: a ranked float or integer (token ids) tensor with a
/// leading, non-empty batch dimension.
static LogicalResult checkInput(func::FuncOp func, unsigned input) {
  BlockArgument in = func.getArgument(input);
  auto inType = dyn_cast<RankedTensorType>(in.getType());
  if (!inType || !isa<FloatType, IntegerType>(inType.getElementType()) ||
      inType.getRank() < 1)
    return emitError(in.getLoc())
           << "argument #" << input
           << " with amp.role = \"input\" must be a ranked float or integer "
              "tensor whose leading dimension is the batch, got "
           << in.getType();
  if (!inType.isDynamicDim(0) && inType.getDimSize(0) < 1)
    return emitError(in.getLoc())
           << "argument #" << input
           << " with amp.role = \"input\" has an empty batch (dimension 0 is "
           << inType.getDimSize(0) << ")";
  return success();
}

/// Checks the inputs and the label: every input a float or integer tensor
/// with a leading batch dimension, all with the same batch size; the label
/// a rank-1 i32/i64 tensor (or a target, a float tensor) with that batch
/// size too.
static LogicalResult checkInputsAndLabel(func::FuncOp func,
                                         ArrayRef<unsigned> inputs,
                                         std::optional<unsigned> label) {
  for (unsigned input : inputs)
    if (failed(checkInput(func, input)))
      return failure();
  auto batchOf = [&](unsigned i) {
    return cast<RankedTensorType>(func.getArgument(i).getType()).getDimSize(0);
  };
  int64_t b0 = batchOf(inputs.front());
  for (unsigned input : inputs.drop_front()) {
    int64_t b = batchOf(input);
    if (!ShapedType::isDynamic(b0) && !ShapedType::isDynamic(b) && b != b0)
      return emitError(func.getArgument(input).getLoc())
             << "input argument #" << input << " has batch size " << b
             << ", input argument #" << inputs.front() << " " << b0
             << "; dimension 0 of every input is the batch";
  }
  if (!label)
    return success();
  BlockArgument lab = func.getArgument(*label);
  auto labType = dyn_cast<RankedTensorType>(lab.getType());
  auto role = func.getArgAttrOfType<StringAttr>(*label, kRoleAttr);
  bool target = role && role.getValue() == "target";
  if (target && (!labType || !isa<FloatType>(labType.getElementType()) ||
                 labType.getRank() < 1))
    return emitError(lab.getLoc())
           << "argument #" << *label
           << " with amp.role = \"target\" must be a ranked float tensor "
              "whose dimension 0 is the batch, got "
           << lab.getType();
  if (!target && (!labType || labType.getRank() != 1 ||
                  !(labType.getElementType().isInteger(32) ||
                    labType.getElementType().isInteger(64))))
    return emitError(lab.getLoc())
           << "argument #" << *label
           << " with amp.role = \"label\" must be a rank-1 tensor of i32 or "
              "i64 class indices (one per example), got "
           << lab.getType();
  int64_t b1 = labType.getDimSize(0);
  if (!ShapedType::isDynamic(b0) && !ShapedType::isDynamic(b1) && b0 != b1)
    return emitError(lab.getLoc())
           << (target ? "target" : "label") << " batch size " << b1
           << " differs from input batch size " << b0;
  return success();
}

/// The closest ancestor of `op` (or `op` itself) whose block belongs to the
/// function body or to an scf.for / scf.if: ops inside other regions
/// (linalg bodies) are judged by the op that holds them.
static Operation *flowAnchor(Operation *op) {
  while (Operation *parent = op->getParentOp()) {
    if (isa<func::FuncOp, scf::ForOp, scf::IfOp>(parent))
      return op;
    op = parent;
  }
  return op;
}

/// The values that `roots` are computed from (for the `amp.grad` raw
/// operands: the gradient sources; for the results: the live values),
/// followed per value through
/// scf.for (result / iter_arg k <- init k and yield operand k) and scf.if
/// (result k <- yield operand k of both branches); through other ops all
/// operands and the values their regions capture from above.
static llvm::DenseSet<Value> sourcesOf(ArrayRef<Value> roots) {
  llvm::DenseSet<Value> seen;
  SmallVector<Value> worklist;
  auto add = [&](Value v) {
    if (seen.insert(v).second)
      worklist.push_back(v);
  };
  for (Value root : roots)
    add(root);
  auto addLoopCarried = [&](scf::ForOp loop, unsigned k) {
    add(loop.getInitArgs()[k]);
    add(loop.getRegionIterArgs()[k]);
    add(loop.getYieldedValues()[k]);
  };
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp()))
        if (arg.getArgNumber() >= loop.getNumInductionVars())
          addLoopCarried(loop, arg.getArgNumber() - loop.getNumInductionVars());
      continue;
    }
    Operation *def = v.getDefiningOp();
    unsigned k = cast<OpResult>(v).getResultNumber();
    if (auto loop = dyn_cast<scf::ForOp>(def)) {
      addLoopCarried(loop, k);
      continue;
    }
    if (auto ifOp = dyn_cast<scf::IfOp>(def)) {
      add(ifOp.getCondition());
      for (Region *r : {&ifOp.getThenRegion(), &ifOp.getElseRegion()})
        if (!r->empty())
          add(r->front().getTerminator()->getOperand(k));
      continue;
    }
    for (Value operand : def->getOperands())
      add(operand);
    for (Region &region : def->getRegions()) {
      llvm::SetVector<Value> captured;
      getUsedValuesDefinedAbove(region, captured);
      for (Value c : captured)
        add(c);
    }
  }
  return seen;
}

/// Checks how the backward seed flows through the step. The backward is
/// every value derived from the seed that the `amp.grad` gradients are
/// computed from; loss scaling multiplies all of it by S.
/// - every `amp.grad` gradient must be derived from the seed; otherwise loss
///   scaling leaves it unscaled and the unscale shrinks it by 1/S;
/// - no value derived from the seed may be used outside the backward except
///   by `amp.grad` (and the `amp.count_underflow` observer): a result, the
///   update, a gradient norm or a clip factor computed from it would see a
///   gradient still multiplied by S (clip before unscale: the threshold
///   becomes max_norm / S, shared REFERENCE.md);
/// - a micro-batch accumulator of scaled gradients (an scf.for iter_arg in
///   the backward) must be f32 (gradient accumulation in fp32).
/// Through `scf.for` and `scf.if` the flow is followed per value (an
/// iter_arg / yielded value taints only its own result), so a loss summed in
/// a micro-batch loop beside the scaled gradients stays clean. Any other op
/// is conservative: a tainted operand taints all its results, and a value
/// leaving another op's region taints all results of that op.
/// A loop-carried value of the backward (a micro-batch accumulator of
/// scaled gradients) must be f32.
static LogicalResult checkAccumulator(scf::ForOp loop, unsigned k) {
  auto accType = dyn_cast<ShapedType>(loop.getRegionIterArgs()[k].getType());
  if (accType && isa<FloatType>(accType.getElementType()) &&
      !accType.getElementType().isF32())
    return loop.emitError("micro-batch accumulator #")
           << k << " of scaled gradients has type " << accType
           << "; accumulate gradients in f32 (a low-precision accumulator "
              "loses small contributions and overflows with the loss scale)";
  return success();
}

static LogicalResult checkSeedFlow(func::FuncOp func, TrainingStep &step) {
  SmallVector<Value> raws;
  for (auto &[p, grad] : step.gradOfParam)
    raws.push_back(grad.getRaw());
  llvm::DenseSet<Value> sources = sourcesOf(raws);
  // Values that reach a result (or the backward). A seed-derived value used
  // only by dead code (e.g. an input gradient an autodiff tool produced and
  // nobody uses) is harmless: canonicalization removes it.
  Operation *terminator = func.getBody().front().getTerminator();
  SmallVector<Value> liveRoots(terminator->getOperands());
  llvm::append_range(liveRoots, raws);
  llvm::DenseSet<Value> live = sourcesOf(liveRoots);
  auto isDead = [&](Operation *op) {
    return op->getNumResults() > 0 && isMemoryEffectFree(op) &&
           llvm::none_of(op->getResults(),
                         [&](Value r) { return live.contains(r); });
  };
  llvm::DenseSet<Value> tainted;
  SmallVector<Value> worklist;
  auto taint = [&](Value v) {
    if (tainted.insert(v).second)
      worklist.push_back(v);
  };
  Value seed = step.lossGrad.getResult();
  taint(seed);
  llvm::DenseSet<Operation *> reachedGrads;
  Operation *ret = func.getBody().front().getTerminator();
  auto escape = [&](Value v, Operation *user) {
    InFlightDiagnostic diag =
        v == seed
            ? user->emitError(
                  "this op uses amp.loss_grad (the backward seed) outside "
                  "the backward that computes the amp.grad gradients; the "
                  "seed becomes the loss scale S under loss scaling")
            : user->emitError(
                  "this op uses a value derived from the backward seed "
                  "(multiplied by the loss scale S under loss scaling) "
                  "outside the backward that computes the amp.grad "
                  "gradients; the update, gradient norms and clipping must "
                  "use the results of `amp.grad` (unscaled there)");
    diag.attachNote(step.lossGrad.getLoc()) << "backward seed here";
    return failure();
  };
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (sources.contains(v))
      step.backwardValues.insert(v);
    for (OpOperand &use : v.getUses()) {
      Operation *user = use.getOwner();
      unsigned idx = use.getOperandNumber();
      if (isa<GradOp>(user)) {
        reachedGrads.insert(user);
        continue;
      }
      if (isa<CountUnderflowOp>(user))
        continue;
      if (user == ret) {
        InFlightDiagnostic diag =
            emitError(v.getLoc())
            << "this value is derived from the backward seed and reaches "
               "result #"
            << idx
            << " without passing through amp.grad; route every parameter "
               "gradient through `amp.grad` and let the update use only its "
               "result (loss scaling unscales gradients there)";
        diag.attachNote(step.lossGrad.getLoc()) << "backward seed here";
        return failure();
      }
      // scf.for init value k -> iter_arg k and result k.
      if (auto loop = dyn_cast<scf::ForOp>(user);
          loop && idx >= loop.getNumControlOperands()) {
        unsigned k = idx - loop.getNumControlOperands();
        if (!sources.contains(loop->getResult(k))) {
          if (!live.contains(loop->getResult(k)))
            continue;
          return escape(v, loop);
        }
        if (failed(checkAccumulator(loop, k)))
          return failure();
        taint(loop.getRegionIterArgs()[k]);
        taint(loop->getResult(k));
        continue;
      }
      // scf.yield operand k -> result k of the scf.for / scf.if, and the
      // loop's iter_arg k (seen by the next iteration).
      if (auto yield = dyn_cast<scf::YieldOp>(user)) {
        Operation *parent = yield->getParentOp();
        if (isa<scf::ForOp, scf::IfOp>(parent)) {
          if (!sources.contains(parent->getResult(idx))) {
            if (!live.contains(parent->getResult(idx)))
              continue;
            return escape(v, parent);
          }
          taint(parent->getResult(idx));
          if (auto loop = dyn_cast<scf::ForOp>(parent)) {
            if (failed(checkAccumulator(loop, idx)))
              return failure();
            taint(loop.getRegionIterArgs()[idx]);
          }
          continue;
        }
      }
      Operation *anchor = flowAnchor(user);
      if (anchor != ret && !isa<GradOp, CountUnderflowOp>(anchor) &&
          llvm::none_of(anchor->getResults(),
                        [&](Value r) { return sources.contains(r); })) {
        if (isDead(anchor))
          continue;
        return escape(v, anchor);
      }
      for (Value r : user->getResults())
        taint(r);
      if (user->hasTrait<OpTrait::IsTerminator>())
        for (Operation *p = user->getParentOp(); p && p != func.getOperation();
             p = p->getParentOp())
          for (Value r : p->getResults())
            taint(r);
    }
  }
  // The backward must be linear in the seed (no decay added to the raw
  // gradient, no clipping of the scaled backward, ...): SeedLinearity.h.
  if (failed(checkSeedLinearity(func, seed, step.backwardValues)))
    return failure();
  for (unsigned p : step.params) {
    GradOp grad = step.gradOfParam.lookup(p);
    if (!reachedGrads.contains(grad.getOperation())) {
      InFlightDiagnostic diag =
          grad.emitError("the gradient of parameter "
                         "argument #")
          << p
          << " does not depend on the backward seed; compute the "
             "backward from `amp.loss_grad` so that loss scaling scales it";
      diag.attachNote(step.lossGrad.getLoc()) << "backward seed here";
      return failure();
    }
  }
  return success();
}

FailureOr<TrainingStep> TrainingStep::analyze(func::FuncOp func,
                                              bool requireMarkers) {
  TrainingStep step;
  step.func = func;
  bool ok = true;
  unsigned numArgs = func.getNumArguments();
  unsigned numResults = func.getNumResults();
  if (func.isExternal())
    return emitError(func.getLoc(), "amp.train_step function '")
           << func.getSymName() << "' has no body";
  if (!func.getBody().hasOneBlock())
    return emitError(func.getLoc(), "training step '")
           << func.getSymName()
           << "' has several blocks; write its control flow with scf "
              "(scf.for, scf.if) so that it has a single block";

  // Arguments and their roles.
  std::optional<unsigned> label;
  for (unsigned i = 0; i < numArgs; ++i) {
    BlockArgument arg = func.getArgument(i);
    auto role = func.getArgAttrOfType<StringAttr>(i, kRoleAttr);
    std::optional<ArgRole> parsed;
    if (role)
      parsed = parseArgRole(role.getValue());
    if (!parsed) {
      emitError(arg.getLoc())
          << "argument #" << i << " of training step '" << func.getSymName()
          << "' needs amp.role = \"param\", \"opt_state\", \"input\", "
             "\"label\" or \"target\""
          << (role ? (", got \"" + role.getValue() + "\"").str() : "");
      ok = false;
      step.argRoles.push_back(ArgRole::Input);
      continue;
    }
    step.argRoles.push_back(*parsed);
    switch (*parsed) {
    case ArgRole::Param:
      if (!isF32Tensor(arg.getType()) && !isBF16Storage(arg)) {
        emitError(arg.getLoc())
            << "parameter argument #" << i << " has type " << arg.getType()
            << "; parameters are fp32 master weights and must be ranked "
               "tensors of f32 (bf16 storage is what amp-master-weights "
               "writes: a bf16 tensor read only through arith.extf to f32)";
        ok = false;
      }
      step.params.push_back(i);
      break;
    case ArgRole::OptState:
      if (!isa<RankedTensorType>(arg.getType())) {
        emitError(arg.getLoc())
            << "optimizer-state argument #" << i
            << " must be a ranked tensor, got " << arg.getType();
        ok = false;
      }
      step.optStates.push_back(i);
      break;
    case ArgRole::Input:
      step.inputs.push_back(i);
      break;
    case ArgRole::Label:
    case ArgRole::Target: {
      if (label) {
        emitError(arg.getLoc())
            << "argument #" << i << " is a second amp.role = \""
            << stringifyArgRole(*parsed) << "\" (first: argument #" << *label
            << "); a training step takes one label (or target)";
        ok = false;
      }
      label = i;
      break;
    }
    case ArgRole::LossScale:
      if (!isScalarTensorOf(arg.getType(),
                            Float32Type::get(func.getContext()))) {
        emitError(arg.getLoc())
            << "loss_scale argument #" << i << " must be tensor<f32>, got "
            << arg.getType();
        ok = false;
      }
      break;
    case ArgRole::GrowthTracker:
    case ArgRole::HysteresisTracker:
    case ArgRole::ConsecutiveSkips:
      // Counters are i32 (an f16 counter would stop at 2048 exact steps).
      if (!isScalarTensorOf(arg.getType(),
                            IntegerType::get(func.getContext(), 32))) {
        emitError(arg.getLoc())
            << stringifyArgRole(*parsed) << " argument #" << i
            << " must be tensor<i32>, got " << arg.getType();
        ok = false;
      }
      break;
    }
  }
  if (step.params.empty()) {
    emitError(func.getLoc(), "training step '")
        << func.getSymName()
        << "' has no argument with amp.role = \"param\"; mark the fp32 "
           "master weights";
    ok = false;
  }
  if (step.inputs.empty() || !label) {
    emitError(func.getLoc(), "training step '")
        << func.getSymName() << "' needs "
        << (step.inputs.empty() ? "an argument with amp.role = \"input\""
                                : "one argument with amp.role = \"label\" "
                                  "(or \"target\")");
    ok = false;
  } else if (failed(checkInputsAndLabel(func, step.inputs, label))) {
    ok = false;
  }
  if (!step.inputs.empty())
    step.input = step.inputs.front();
  if (label)
    step.label = *label;

  // Results: the loss, the updated state, found_inf.
  std::optional<unsigned> loss;
  for (unsigned r = 0; r < numResults; ++r) {
    Type type = func.getResultTypes()[r];
    auto role = func.getResultAttrOfType<StringAttr>(r, kRoleAttr);
    auto updates = func.getResultAttrOfType<IntegerAttr>(r, kUpdatesAttr);
    if (role && role.getValue() == "loss") {
      if (loss) {
        emitError(func.getLoc(), "result #")
            << r << " is a second amp.role = \"loss\" (first: result #" << *loss
            << ")";
        ok = false;
      }
      if (!isScalarTensorOf(type, Float32Type::get(func.getContext()))) {
        emitError(func.getLoc(), "loss result #")
            << r << " must be tensor<f32> (the loss stays fp32), got " << type;
        ok = false;
      }
      loss = r;
      continue;
    }
    if (role && role.getValue() == "found_inf") {
      step.foundInfResult = r;
      continue;
    }
    if (role && role.getValue() == kUnderflowCountRole) {
      step.underflowCountResult = r;
      continue;
    }
    if (role && role.getValue() == kUnderflowTotalRole) {
      step.underflowTotalResult = r;
      continue;
    }
    if (role && role.getValue() == kUpdateStatsRole) {
      step.updateStatsResult = r;
      continue;
    }
    if (!updates) {
      emitError(func.getLoc(), "result #")
          << r << " of training step '" << func.getSymName()
          << "' needs amp.role = \"loss\" or amp.updates = <argument index> "
             "(the new value of a param, opt_state or loss-scale state "
             "argument; other result roles: \"found_inf\", \""
          << kUnderflowCountRole << "\", \"" << kUnderflowTotalRole << "\")";
      ok = false;
      continue;
    }
    int64_t idx = updates.getInt();
    if (idx < 0 || idx >= numArgs) {
      emitError(func.getLoc(), "result #")
          << r << " has amp.updates = " << idx
          << ", out of range: the function has " << numArgs << " arguments";
      ok = false;
      continue;
    }
    ArgRole argRole = step.argRoles[idx];
    if (argRole == ArgRole::Input || argRole == ArgRole::Label ||
        argRole == ArgRole::Target) {
      emitError(func.getLoc(), "result #")
          << r << " has amp.updates = " << idx << ", but argument #" << idx
          << " is the " << stringifyArgRole(argRole)
          << "; only param, opt_state, loss_scale and growth_tracker "
             "arguments are updated";
      ok = false;
      continue;
    }
    if (func.getArgument(idx).getType() != type) {
      emitError(func.getLoc(), "result #")
          << r << " (amp.updates = " << idx << ") has type " << type
          << " but argument #" << idx << " has type "
          << func.getArgument(idx).getType();
      ok = false;
      continue;
    }
    if (!step.updateOfArg.try_emplace(idx, r).second) {
      emitError(func.getLoc(), "results #")
          << step.updateOfArg[idx] << " and #" << r
          << " both have amp.updates = " << idx;
      ok = false;
    }
  }
  if (!loss) {
    emitError(func.getLoc(), "training step '")
        << func.getSymName()
        << "' needs one tensor<f32> result with amp.role = \"loss\"";
    ok = false;
  } else {
    step.lossResult = *loss;
  }
  for (unsigned i = 0; i < numArgs; ++i) {
    ArgRole role = step.argRoles[i];
    if ((role == ArgRole::Param || role == ArgRole::OptState) &&
        !step.updateOfArg.count(i)) {
      emitError(func.getArgument(i).getLoc())
          << stringifyArgRole(role) << " argument #" << i
          << " has no result with amp.updates = " << i
          << "; return its new value";
      ok = false;
    }
  }

  // Markers: exactly one amp.loss_grad, one amp.grad per parameter.
  func.walk([&](Operation *op) {
    if (auto seed = dyn_cast<LossGradOp>(op)) {
      if (step.lossGrad) {
        InFlightDiagnostic diag =
            seed.emitError("second amp.loss_grad in training step '")
            << func.getSymName()
            << "'; the backward has exactly one seed d(loss)/d(loss)";
        diag.attachNote(step.lossGrad.getLoc()) << "first amp.loss_grad here";
        ok = false;
        return;
      }
      step.lossGrad = seed;
      return;
    }
    auto grad = dyn_cast<GradOp>(op);
    if (!grad)
      return;
    // A parameter stored in bf16 (amp-master-weights) is marked through
    // the arith.extf that reads it.
    Value param = grad.getParam();
    if (auto ext = param.getDefiningOp<arith::ExtFOp>())
      param = ext.getIn();
    auto arg = dyn_cast<BlockArgument>(param);
    if (!arg || arg.getOwner() != &func.getBody().front() ||
        step.argRoles[arg.getArgNumber()] != ArgRole::Param) {
      grad.emitError("amp.grad's second operand must be a training-step "
                     "argument with amp.role = \"param\"");
      ok = false;
      return;
    }
    auto [it, inserted] =
        step.gradOfParam.try_emplace(arg.getArgNumber(), grad);
    if (!inserted) {
      InFlightDiagnostic diag = grad.emitError("second amp.grad for parameter "
                                               "argument #")
                                << arg.getArgNumber();
      diag.attachNote(it->second.getLoc()) << "first amp.grad here";
      ok = false;
    }
  });
  if (requireMarkers) {
    if (!step.lossGrad) {
      emitError(func.getLoc(), "training step '")
          << func.getSymName()
          << "' has no amp.loss_grad; the backward must start from "
             "`amp.loss_grad %loss` (the seed d(loss)/d(loss))";
      ok = false;
    }
    for (unsigned p : step.params)
      if (!step.gradOfParam.count(p)) {
        emitError(func.getArgument(p).getLoc())
            << "parameter argument #" << p
            << " has no amp.grad; mark its gradient with `amp.grad %g, %arg"
            << p << "` before the update uses it";
        ok = false;
      }
  }
  if (!ok)
    return failure();
  if (requireMarkers && failed(checkSeedFlow(func, step)))
    return failure();
  return step;
}

FailureOr<EvalStep> EvalStep::analyze(func::FuncOp func) {
  EvalStep step;
  step.func = func;
  if (func.isExternal())
    return emitError(func.getLoc(), "amp.eval_step function '")
           << func.getSymName() << "' has no body";
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto role = func.getArgAttrOfType<StringAttr>(i, kRoleAttr);
    if (role && role.getValue() == "param") {
      step.params.push_back(i);
    } else if (role && role.getValue() == "input") {
      step.inputs.push_back(i);
    } else {
      return emitError(func.getArgument(i).getLoc())
             << "argument #" << i << " of eval step '" << func.getSymName()
             << "' needs amp.role = \"param\" or \"input\"";
    }
  }
  if (step.inputs.empty())
    return emitError(func.getLoc(), "eval step '")
           << func.getSymName() << "' needs an amp.role = \"input\" argument";
  if (failed(checkInputsAndLabel(func, step.inputs, std::nullopt)))
    return failure();
  step.input = step.inputs.front();
  if (func.getNumResults() != 1 ||
      func.getResultAttrOfType<StringAttr>(0, kRoleAttr) !=
          StringAttr::get(func.getContext(), "logits"))
    return emitError(func.getLoc(), "eval step '")
           << func.getSymName()
           << "' must return one result with amp.role = \"logits\"";
  auto logits = dyn_cast<RankedTensorType>(func.getResultTypes()[0]);
  if (!logits || logits.getRank() != 2 || !logits.getElementType().isF32())
    return emitError(func.getLoc(),
                     "logits result must be a batch x classes tensor of "
                     "f32, got ")
           << func.getResultTypes()[0];
  return step;
}

LogicalResult mlir::amp::forEachTrainStep(
    ModuleOp module, llvm::StringRef pass,
    llvm::function_ref<LogicalResult(func::FuncOp)> fn) {
  bool any = false;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (!func->hasAttr(kTrainStepAttr))
      continue;
    any = true;
    if (failed(fn(func)))
      return failure();
  }
  if (!any)
    return emitError(module.getLoc())
           << pass
           << ": no func.func with the amp.train_step attribute; mark the "
              "training step (docs/training-step.md)";
  return success();
}

LogicalResult mlir::amp::forEachStepWithSeed(
    ModuleOp module, llvm::StringRef pass,
    llvm::function_ref<void(func::FuncOp, Operation *)> fn) {
  return forEachTrainStep(module, pass, [&](func::FuncOp func) {
    FailureOr<TrainingStep> step =
        TrainingStep::analyze(func, /*requireMarkers=*/false);
    if (failed(step))
      return failure();
    if (step->lossGrad && func.getBody().hasOneBlock() &&
        step->lossGrad->getBlock() == &func.getBody().front())
      fn(func, step->lossGrad);
    return success();
  });
}
