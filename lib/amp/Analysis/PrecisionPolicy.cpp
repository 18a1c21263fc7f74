//===- PrecisionPolicy.cpp - autocast op classes and painting -------------===//
//
// Classes follow shared REFERENCE.md ("Autocast"): PyTorch
// aten/src/ATen/autocast_mode.cpp (lower_precision_fp / fp32 lists) and
// TensorFlow grappler auto_mixed_precision_lists.h (Allow/Deny/Infer/Clear).
// The painting follows TensorFlow's auto_mixed_precision.cc, adapted to SSA
// values whose contractions accumulate in f32.
//
//===----------------------------------------------------------------------===//

#include "amp/Analysis/PrecisionPolicy.h"

#include "amp/Analysis/Contraction.h"
#include "amp/Analysis/Gather.h"
#include "amp/Dialect/Amp/IR/AmpOps.h"
#include "amp/Support/Counts.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/raw_ostream.h"

#include <deque>

using namespace mlir;
using namespace mlir::amp;

StringRef mlir::amp::stringifyPrecisionClass(PrecisionClass cls) {
  switch (cls) {
  case PrecisionClass::Allow:
    return "allow";
  case PrecisionClass::Deny:
    return "deny";
  case PrecisionClass::Infer:
    return "infer";
  case PrecisionClass::Clear:
    return "clear";
  case PrecisionClass::Unknown:
    return "unknown";
  }
  llvm_unreachable("unknown class");
}

StringRef mlir::amp::stringifyPrecisionChoice(OpPrecisionChoice choice) {
  switch (choice) {
  case OpPrecisionChoice::F32:
    return "f32";
  case OpPrecisionChoice::Low:
    return "low";
  case OpPrecisionChoice::Mixed:
    return "mixed";
  case OpPrecisionChoice::AsUsed:
    return "as-used";
  }
  llvm_unreachable("unknown choice");
}

//===----------------------------------------------------------------------===//
// Classes
//===----------------------------------------------------------------------===//

static constexpr OpPrecision kDenyMath{
    PrecisionClass::Deny,
    "exp/log/pow/rsqrt/sqrt/erf/reciprocal: range-sensitive, fp32"};

/// Whether `op` belongs to one of the dialects `Ds` (false for unregistered
/// ops, which have no dialect).
template <typename... Ds> static bool inDialect(Operation *op) {
  Dialect *d = op->getDialect();
  return d && isa<Ds...>(d);
}

/// Math ops whose range or precision needs fp32 (REFERENCE.md, deny).
static bool isDenyMathOp(Operation *op) {
  return isa<math::ExpOp, math::Exp2Op, math::ExpM1Op, math::LogOp,
             math::Log2Op, math::Log10Op, math::Log1pOp, math::PowFOp,
             math::RsqrtOp, math::SqrtOp, math::ErfOp, math::ErfcOp,
             math::FPowIOp, math::CbrtOp>(op);
}

/// Ops that move, select or compare values without rounding: clear.
static bool isNeutralScalarOp(Operation *op) {
  return isa<arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
             arith::MinNumFOp, arith::SelectOp, arith::CmpFOp, arith::NegFOp,
             arith::ConstantOp, arith::ExtFOp, arith::TruncFOp, arith::SIToFPOp,
             arith::UIToFPOp, arith::FPToSIOp, arith::FPToUIOp,
             arith::BitcastOp, math::AbsFOp, math::CopySignOp, math::FloorOp,
             math::CeilOp, math::RoundOp, math::RoundEvenOp, math::TruncOp,
             linalg::YieldOp, linalg::IndexOp>(op);
}

/// Integer and index arithmetic: no floating point involved.
static bool isIntegerOp(Operation *op) {
  if (!inDialect<arith::ArithDialect>(op))
    return false;
  auto isInt = [](Type t) { return getElementTypeOrSelf(t).isIntOrIndex(); };
  return llvm::all_of(op->getOperandTypes(), isInt) &&
         llvm::all_of(op->getResultTypes(), isInt);
}

/// Class of an elementwise computation from the ops it contains: any deny
/// math op makes it deny; float arithmetic makes it infer; only
/// max/select/compare/casts make it clear. An op outside arith/math makes it
/// unknown (never guessed).
static OpPrecision classifyBody(Region &body) {
  bool hasArith = false;
  Operation *unknownOp = nullptr;
  bool hasDeny = false;
  body.walk([&](Operation *inner) {
    if (isDenyMathOp(inner))
      hasDeny = true;
    else if (isNeutralScalarOp(inner) || isIntegerOp(inner))
      return;
    else if (inDialect<arith::ArithDialect, math::MathDialect>(inner))
      hasArith = true;
    else if (!unknownOp)
      unknownOp = inner;
  });
  if (unknownOp)
    return {PrecisionClass::Unknown,
            "body contains an op the policy does not know: stays fp32"};
  if (hasDeny)
    return kDenyMath;
  if (hasArith)
    return {PrecisionClass::Infer,
            "elementwise arithmetic: follows its inputs"};
  return {PrecisionClass::Clear,
          "elementwise max/select/compare/copy: no rounding"};
}

/// A generic contraction is a GEMM-like allow op only if it has an M or N
/// dimension (a parallel loop that indexes one input but not the other). A
/// "batched dot" whose parallel loops index both inputs, e.g. picking the
/// target logit as sum_c(logits * onehot) in a loss, is an elementwise
/// product plus a reduction: no Tensor Core gain, and it feeds the loss.
static bool isGemmLikeContraction(linalg::LinalgOp op) {
  if (!linalg::isaContractionOpInterface(op))
    return false;
  if (!isa<linalg::GenericOp>(op.getOperation()))
    return true; // named matmul/matvec/vecmat/dot/batch_matmul family
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  return succeeded(dims) && (!dims->m.empty() || !dims->n.empty());
}

/// A masked contraction: a linalg.generic with reduction loops whose body
/// yields `out + t`, where t is a product of its two float inputs (each
/// maybe widened by arith.extf) under zero or more `select(mask, t, 0)`
/// whose masks depend only on loop indices, and that has an M or N
/// dimension (a parallel loop indexing one input but not the other). This
/// is the form amp-differentiate gives the input gradient of a padded
/// convolution (the transposed convolution, zero where no output read the
/// position): a contraction, run as one (Mixed), as PyTorch's autocast runs
/// convolution backward in f16 with f32 accumulation.
static bool isMaskedContraction(linalg::LinalgOp op) {
  auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
  if (!generic || generic.getNumReductionLoops() == 0 ||
      !matchProductSum(generic))
    return false;
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  for (unsigned d = 0; d < generic.getNumLoops(); ++d)
    if (generic.getIteratorTypesArray()[d] == utils::IteratorType::parallel &&
        maps[0].isFunctionOfDim(d) != maps[1].isFunctionOfDim(d))
      return true;
  return false;
}

static bool isPooling(Operation *op) {
  return op->getName().getStringRef().starts_with("linalg.pooling_");
}

bool mlir::amp::isBroadcastOperand(OpOperand &use) {
  auto op = dyn_cast<linalg::LinalgOp>(use.getOwner());
  if (!op || !op.isDpsInput(&use))
    return false;
  AffineMap map = op.getMatchingIndexingMap(&use);
  return !map.isPermutation() || map.getNumDims() != op.getNumLoops();
}

bool mlir::amp::isFusedNormalization(Operation *operation) {
  auto op = dyn_cast<linalg::LinalgOp>(operation);
  if (!op || op.getNumLoops() == 0 || op.getNumReductionLoops() != 0 ||
      op->getNumRegions() != 1 || op.getBlock() == nullptr)
    return false;
  Block *body = op.getBlock();
  bool readsActivation = false;
  for (OpOperand *in : op.getDpsInputOperands())
    readsActivation |=
        !isBroadcastOperand(*in) &&
        isa<FloatType>(getElementTypeOrSelf(in->get().getType()));
  if (!readsActivation)
    return false;
  // Every value the range-sensitive ops read, traced back within the body,
  // comes from constants or per-channel operands.
  bool sawDeny = false, perChannelOnly = true;
  llvm::SmallPtrSet<Value, 16> seen;
  std::function<void(Value)> trace = [&](Value v) {
    if (!perChannelOnly || !seen.insert(v).second)
      return;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() != body)
        return; // defined outside the op: the same for every element
      unsigned n = arg.getArgNumber();
      perChannelOnly = n < op.getNumDpsInputs() &&
                       isBroadcastOperand(*op.getDpsInputOperand(n));
      return;
    }
    Operation *def = v.getDefiningOp();
    if (def->getBlock() != body)
      return;
    if (isa<linalg::IndexOp>(def)) {
      perChannelOnly = false;
      return;
    }
    for (Value operand : def->getOperands())
      trace(operand);
  };
  body->walk([&](Operation *inner) {
    if (!isDenyMathOp(inner))
      return;
    sawDeny = true;
    for (Value operand : inner->getOperands())
      trace(operand);
  });
  return sawDeny && perChannelOnly;
}

static OpPrecision classifyLinalg(linalg::LinalgOp op) {
  if (isPooling(op)) {
    StringRef name = op->getName().getStringRef();
    if (name.contains("_max") || name.contains("_min"))
      return {PrecisionClass::Clear, "max/min pooling: no rounding"};
    return {PrecisionClass::Infer,
            "sum pooling: window sum, follows its inputs (TF AvgPool: infer)"};
  }
  if (isGemmLikeContraction(op))
    return {PrecisionClass::Allow,
            "contraction: low-precision inputs, fp32 accumulation"};
  if (linalg::isaConvolutionOpInterface(op))
    return {PrecisionClass::Allow,
            "convolution: low-precision inputs, fp32 accumulation"};
  if (isMaskedContraction(op))
    return {PrecisionClass::Allow,
            "masked contraction (a convolution's input gradient): "
            "low-precision inputs, fp32 accumulation"};
  if (isa<linalg::FillOp, linalg::CopyOp, linalg::TransposeOp,
          linalg::BroadcastOp>(op.getOperation()))
    return {PrecisionClass::Clear, "data movement"};
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      generic && getYieldedGather(generic))
    return {PrecisionClass::Deny,
            "gather (embedding lookup): stays in its table's type, fp32 (not "
            "on PyTorch autocast's lists: embedding runs in the weight's "
            "dtype)"};
  OpPrecision body = classifyBody(op->getRegion(0));
  if (body.cls == PrecisionClass::Deny && isFusedNormalization(op))
    return {PrecisionClass::Infer,
            "fused normalization: rsqrt/sqrt of per-channel statistics only; "
            "the activation follows its inputs, the statistics stay fp32 "
            "(TF FusedBatchNorm: infer)"};
  if (op.getNumReductionLoops() > 0) {
    if (body.cls == PrecisionClass::Clear)
      return {PrecisionClass::Clear, "max/min reduction: no rounding"};
    if (body.cls == PrecisionClass::Unknown)
      return body;
    return {PrecisionClass::Deny, "reduction: accumulates in fp32"};
  }
  return body;
}

/// TOSA ops by name (the TOSA 1.0 operator list).
static OpPrecision classifyTosa(StringRef name) {
  name.consume_front("tosa.");
  return llvm::StringSwitch<OpPrecision>(name)
      .Cases({"matmul", "fully_connected"},
             {PrecisionClass::Allow,
              "contraction: low-precision inputs, fp32 accumulation"})
      .Cases({"conv2d", "conv3d", "depthwise_conv2d", "transpose_conv2d"},
             {PrecisionClass::Allow,
              "convolution: low-precision inputs, fp32 accumulation "
              "(acc_type)"})
      .Cases({"exp", "log", "reciprocal", "rsqrt", "pow", "erf"}, kDenyMath)
      .Cases({"reduce_sum", "reduce_product"},
             {PrecisionClass::Deny, "reduction: accumulates in fp32"})
      .Cases(
          {"add", "sub", "mul", "sigmoid", "tanh", "sin", "cos"},
          {PrecisionClass::Infer, "elementwise arithmetic: follows its inputs"})
      .Case("avg_pool2d", {PrecisionClass::Infer,
                           "sum pooling: window sum, follows its inputs"})
      .Cases({"maximum", "minimum", "clamp", "select", "greater",
              "greater_equal", "equal", "abs", "negate", "floor", "ceil",
              "reduce_max", "reduce_min", "argmax", "max_pool2d"},
             {PrecisionClass::Clear, "max/min/select/compare: no rounding"})
      .Cases({"transpose", "reshape", "slice", "concat", "pad", "tile",
              "gather", "scatter", "reverse", "identity", "const",
              "const_shape", "cast"},
             {PrecisionClass::Clear, "data movement"})
      .Default(
          {PrecisionClass::Unknown, "TOSA op not in the policy: stays fp32"});
}

static OpPrecision classifyDefault(Operation *op) {
  if (!op->getDialect()) // unregistered op: never guess
    return {PrecisionClass::Unknown, "unregistered op: stays fp32"};
  if (isa<linalg::SoftmaxOp>(op))
    return {PrecisionClass::Deny, "softmax: exp and a sum, fp32"};
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return classifyLinalg(linalgOp);
  if (isa<linalg::YieldOp, linalg::IndexOp>(op))
    return {PrecisionClass::Clear, "linalg body terminator/index"};
  StringRef ns = op->getDialect()->getNamespace();
  if (ns == "tosa")
    return classifyTosa(op->getName().getStringRef());
  if (isa<tensor::TensorDialect>(op->getDialect()))
    return {PrecisionClass::Clear, "tensor data movement"};
  if (isa<func::FuncDialect, scf::SCFDialect>(op->getDialect()))
    return {PrecisionClass::Clear,
            "control flow / function boundary: value types kept"};
  if (isa<AmpDialect>(op->getDialect()))
    return {PrecisionClass::Deny, "loss-scaling state and gradients: fp32"};
  if (ns == "shard") // amp-data-parallel's all-reduces (docs/distributed.md)
    return {PrecisionClass::Deny, "collective: a sum over the ranks, fp32"};
  if (isDenyMathOp(op))
    return kDenyMath;
  if (isa<arith::ConstantOp>(op))
    return {PrecisionClass::Clear,
            "constant: converted at compile time for low-precision users"};
  if (isa<arith::ExtFOp, arith::TruncFOp>(op))
    return {PrecisionClass::Clear, "cast: absorbed where exact"};
  if (isIntegerOp(op))
    return {PrecisionClass::Clear, "integer/index arithmetic"};
  if (isNeutralScalarOp(op))
    return {PrecisionClass::Clear, "max/select/compare: no rounding"};
  if (inDialect<arith::ArithDialect, math::MathDialect>(op))
    return {PrecisionClass::Infer,
            "elementwise arithmetic: follows its inputs"};
  if (ns == "bufferization")
    return {PrecisionClass::Clear, "buffer/tensor conversion"};
  return {PrecisionClass::Unknown, "not in the policy: stays fp32"};
}

OpPrecision mlir::amp::classifyOp(Operation *op,
                                  const PolicyOverrides &overrides) {
  StringRef name = op->getName().getStringRef();
  if (overrides.deny.contains(name))
    return {PrecisionClass::Deny, "deny= option"};
  if (overrides.allow.contains(name))
    return {PrecisionClass::Allow, "allow= option"};
  return classifyDefault(op);
}

//===----------------------------------------------------------------------===//
// FLOPs
//===----------------------------------------------------------------------===//

ExistingNarrowing mlir::amp::findExistingNarrowing(Operation *root) {
  ExistingNarrowing found;
  root->walk([&](arith::TruncFOp cast) {
    auto in = dyn_cast<RankedTensorType>(cast.getIn().getType());
    auto out = dyn_cast<RankedTensorType>(cast.getType());
    if (!in || !out || !in.getElementType().isF32() ||
        !(out.getElementType().isF16() || out.getElementType().isBF16()))
      return WalkResult::advance();
    for (Operation *user : cast->getUsers())
      if (classifyOp(user).cls == PrecisionClass::Allow) {
        found = {cast, user, out.getElementType()};
        return WalkResult::interrupt();
      }
    return WalkResult::advance();
  });
  return found;
}

int64_t mlir::amp::estimateFlops(Operation *op) {
  // Softmax: max, subtract, exp, sum and divide per element.
  if (isa<linalg::SoftmaxOp>(op))
    return saturatingMul(5, staticElementCount(op->getResult(0).getType()));
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    int64_t iterations = 1;
    for (int64_t r : linalgOp.getStaticLoopRanges())
      iterations = saturatingMul(iterations, ShapedType::isDynamic(r) ? 1 : r);
    int64_t bodyOps = 0;
    op->getRegion(0).walk([&](Operation *inner) {
      if (inDialect<arith::ArithDialect, math::MathDialect>(inner) &&
          !isa<arith::ConstantOp, arith::ExtFOp, arith::TruncFOp>(inner) &&
          llvm::any_of(inner->getResultTypes(),
                       [](Type t) { return isa<FloatType>(t); }))
        ++bodyOps;
    });
    return saturatingMul(iterations, bodyOps);
  }
  if (op->getNumResults() == 1 &&
      inDialect<arith::ArithDialect, math::MathDialect>(op) &&
      !isa<arith::ConstantOp, arith::ExtFOp, arith::TruncFOp>(op) &&
      isa<FloatType>(getElementTypeOrSelf(op->getResult(0).getType())))
    return staticElementCount(op->getResult(0).getType());
  return 0;
}

//===----------------------------------------------------------------------===//
// Painting
//===----------------------------------------------------------------------===//

bool AutocastPlan::readsLow(OpOperand &use) const {
  Operation *op = use.getOwner();
  OpPrecisionChoice choice = choiceOf(op);
  if (!isa<RankedTensorType>(use.get().getType()))
    return false;
  if (choice == OpPrecisionChoice::Low)
    return !(isBroadcastOperand(use) && isFusedNormalization(op));
  if (choice != OpPrecisionChoice::Mixed)
    return false;
  auto dps = dyn_cast<DestinationStyleOpInterface>(op);
  return !dps || dps.isDpsInput(&use);
}

bool AutocastPlan::storesLow(Value value) const {
  Operation *def = value.getDefiningOp();
  return def && isa<RankedTensorType>(value.getType()) &&
         choiceOf(def) == OpPrecisionChoice::Low;
}

namespace {

bool isF32Tensor(Type t);
bool isLowFloat(Type t) {
  Type e = getElementTypeOrSelf(t);
  return e.isF16() || e.isBF16();
}
bool isF32Tensor(Type t) {
  return isa<RankedTensorType>(t) && getElementTypeOrSelf(t).isF32();
}
bool isFloatTensor(Type t) {
  return isa<RankedTensorType>(t) && isa<FloatType>(getElementTypeOrSelf(t));
}

std::string describe(Operation *op) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "'" << op->getName() << "' at ";
  op->getLoc().print(os);
  return s;
}

enum class Role {
  Seed,  ///< allow op painted low/mixed, or already low in the input
  Deny,  ///< deny class: stays f32, spreads deny forward
  Infer, ///< paintable infer op
  Clear, ///< paintable clear op
  Fixed, ///< never painted (structure, unknown, not rewritable)
  Wire,  ///< existing tensor cast: the graph passes through it
  Source ///< constant / tensor.empty: materialized per user
};

/// Whether `op` can run as Mixed: a linalg contraction/convolution on
/// tensors whose single accumulator is f32.
bool isMixedCandidate(Operation *op) {
  // tosa.matmul: f16 x f16 -> f32 is a legal TOSA type combination (fp32
  // accumulation); its zero points follow the inputs.
  if (op->getName().getStringRef() == "tosa.matmul")
    return op->getNumResults() == 1 && isF32Tensor(op->getResultTypes()[0]);
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp || isPooling(op) || !linalgOp.hasPureTensorSemantics() ||
      linalgOp.getNumDpsInits() != 1 ||
      !getElementTypeOrSelf(linalgOp.getDpsInits()[0].getType()).isF32())
    return false;
  if (!isGemmLikeContraction(linalgOp) &&
      !linalg::isaConvolutionOpInterface(linalgOp) &&
      !isMaskedContraction(linalgOp))
    return false;
  return llvm::any_of(linalgOp.getDpsInputs(),
                      [](Value v) { return isFloatTensor(v.getType()); });
}

/// Whether the linalg op `op` reads `use` only as the sign test of a
/// ReLU mask: its block argument feeds nothing but `arith.cmpf` against a
/// constant zero (the mask of a ReLU's backward reads the ReLU's result so).
/// Such a read carries no magnitude into the op's results, so it is not a
/// path of the painting: the operand is read in whatever precision its
/// producer stores it (exactly, by extf, where the op stays f32). A sign
/// test changes under rounding only where a value flushes to zero; an
/// equality between two values (a max's tie test) can change wherever two
/// values round alike, so those reads stay edges.
bool readsOnlyAsSignTest(Operation *op, OpOperand &use) {
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  if (!linalgOp)
    return false;
  BlockArgument arg = linalgOp.getMatchingBlockArgument(&use);
  return arg && !arg.use_empty() &&
         llvm::all_of(arg.getUsers(), [&](Operation *user) {
           auto compare = dyn_cast<arith::CmpFOp>(user);
           if (!compare)
             return false;
           Value other =
               compare.getLhs() == arg ? compare.getRhs() : compare.getLhs();
           FloatAttr zero;
           return other != arg && matchPattern(other, m_Constant(&zero)) &&
                  zero.getValue().isZero();
         });
}

/// A sum pooling on tensors with one f32 accumulator.
bool isMixedCandidatePool(Operation *op) {
  auto linalgOp = cast<linalg::LinalgOp>(op);
  return linalgOp.hasPureTensorSemantics() && linalgOp.getNumDpsInits() == 1 &&
         getElementTypeOrSelf(linalgOp.getDpsInits()[0].getType()).isF32();
}

/// Why `op` cannot store its tensors in low precision (empty if it can).
StringRef whyNotLowCandidate(Operation *op) {
  if (op->hasTrait<OpTrait::IsTerminator>() ||
      inDialect<func::FuncDialect, scf::SCFDialect, AmpDialect>(op))
    return "structure: value types kept";
  bool anyF32 = false, anyF64 = false;
  for (Type t : op->getResultTypes()) {
    if (!isa<FloatType>(getElementTypeOrSelf(t)))
      continue;
    anyF64 |= getElementTypeOrSelf(t).isF64();
    if (!isa<RankedTensorType>(t))
      return "scalar float result";
    anyF32 |= getElementTypeOrSelf(t).isF32();
  }
  bool isLinalg = isa<linalg::LinalgOp>(op);
  if (llvm::any_of(op->getOperandTypes(),
                   [](Type t) { return isa<BaseMemRefType>(t); }))
    return "buffer operand";
  for (Type t : op->getOperandTypes()) {
    if (!isa<FloatType>(getElementTypeOrSelf(t)))
      continue;
    if (!isa<RankedTensorType>(t) && !isLinalg)
      return "scalar float operand";
    anyF32 |= isa<RankedTensorType>(t) && getElementTypeOrSelf(t).isF32();
    anyF64 |= getElementTypeOrSelf(t).isF64();
  }
  if (!anyF32 && anyF64)
    return "f64 tensors: autocast demotes only f32";
  if (!anyF32)
    return "no f32 tensor";
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    if (!linalgOp.hasPureTensorSemantics())
      return "linalg op on buffers";
    return "";
  }
  if (isa<tensor::PadOp>(op))
    return "";
  if (op->getNumRegions() != 0)
    return "op with regions";
  return "";
}

} // namespace

namespace {
/// The def-use graph of one root, with the roles of its nodes.
struct PaintGraph {
  llvm::DenseMap<Operation *, Role> role;
  llvm::DenseMap<Operation *, llvm::SmallVector<Operation *, 4>> preds, succs;

  /// The planned producer of `v`, looking through existing casts.
  Operation *producer(Value v) {
    Operation *def = v.getDefiningOp();
    while (def && role.lookup(def) == Role::Wire)
      def = def->getOperand(0).getDefiningOp();
    if (!def || !role.count(def) || role.lookup(def) == Role::Source)
      return nullptr;
    return def;
  }
};
} // namespace

AutocastPlan mlir::amp::planAutocast(Operation *root,
                                     const AutocastPlanOptions &options) {
  AutocastPlan plan;
  PaintGraph g;
  llvm::DenseSet<Operation *> mixed; // Seed nodes that run as Mixed

  // Collect ops outside linalg bodies, in program order, with their roles.
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == root)
      return WalkResult::advance();
    OpDecision d;
    d.policy = classifyOp(op, options.overrides);
    Role r = Role::Fixed;
    bool floatTensorResults = llvm::any_of(op->getResultTypes(), isFloatTensor);
    bool allLow =
        floatTensorResults && llvm::all_of(op->getResultTypes(), [](Type t) {
          return !isFloatTensor(t) || isLowFloat(t);
        });
    bool f32TensorSource =
        op->getNumResults() == 1 && isF32Tensor(op->getResultTypes()[0]) &&
        (isa<tensor::EmptyOp>(op) ||
         (op->hasTrait<OpTrait::ConstantLike>() &&
          llvm::any_of(op->getAttrs(), [](NamedAttribute a) {
            // dense<...> and dense_resource<...>
            // (torch-mlir's weights)
            return isa<DenseFPElementsAttr, DenseResourceElementsAttr>(
                a.getValue());
          })));
    if (f32TensorSource) {
      r = Role::Source;
      d.choice = OpPrecisionChoice::AsUsed;
      d.rule = "source: materialized in the type each user needs";
    } else if (isa<arith::ExtFOp, arith::TruncFOp>(op) &&
               isFloatTensor(op->getResultTypes()[0])) {
      r = Role::Wire;
      d.choice = OpPrecisionChoice::AsUsed;
      d.rule = "existing cast: reused, or absorbed where exact";
    } else if (d.policy.cls == PrecisionClass::Unknown) {
      d.rule = "unknown op: stays f32 (reported, never guessed)";
    } else if (d.policy.cls == PrecisionClass::Deny) {
      r = Role::Deny;
      d.rule = "deny class";
    } else if (d.policy.cls == PrecisionClass::Allow && isMixedCandidate(op)) {
      r = Role::Seed;
      mixed.insert(op);
      d.choice = OpPrecisionChoice::Mixed;
      d.rule = "rule 1: allow op";
    } else if (allLow && whyNotLowCandidate(op) == "no f32 tensor") {
      r = Role::Seed;
      d.choice = OpPrecisionChoice::Low;
      d.rule = "already low precision in the input";
    } else if (StringRef why = whyNotLowCandidate(op); !why.empty()) {
      d.rule =
          ("not rewritable in low precision (" + why + "): types unchanged")
              .str();
    } else if (d.policy.cls == PrecisionClass::Allow) {
      r = Role::Seed;
      d.choice = OpPrecisionChoice::Low;
      d.rule = "rule 1: allow op";
    } else {
      r = d.policy.cls == PrecisionClass::Infer ? Role::Infer : Role::Clear;
      d.rule = "not between allow ops: stays f32";
    }
    g.role[op] = r;
    plan.order.push_back(op);
    plan.decisions[op] = std::move(d);
    return isa<linalg::LinalgOp>(op) ? WalkResult::skip()
                                     : WalkResult::advance();
  });

  // Edges between planned ops along float tensor values. The accumulator
  // of a Mixed op is not a low-precision path.
  for (Operation *op : plan.order) {
    Role r = g.role[op];
    if (r == Role::Source || r == Role::Wire)
      continue;
    for (OpOperand &use : op->getOpOperands()) {
      if (!isFloatTensor(use.get().getType()))
        continue;
      if (mixed.contains(op) && isa<DestinationStyleOpInterface>(op) &&
          !cast<DestinationStyleOpInterface>(op).isDpsInput(&use))
        continue;
      if (readsOnlyAsSignTest(op, use))
        continue;
      Operation *def = g.producer(use.get());
      if (!def || def == op)
        continue;
      g.preds[op].push_back(def);
      g.succs[def].push_back(op);
    }
  }

  llvm::DenseSet<Operation *> low; // ops whose tensors are stored low
  llvm::DenseSet<Operation *> denied;
  auto isPaintable = [&](Operation *op) {
    Role r = g.role.lookup(op);
    return (r == Role::Infer || r == Role::Clear) && !denied.contains(op) &&
           !low.contains(op);
  };

  // Rule 2: deny spreads forward through infer/clear.
  llvm::DenseMap<Operation *, Operation *> denySource;
  std::deque<Operation *> work;
  for (Operation *op : plan.order)
    if (g.role[op] == Role::Deny) {
      denySource[op] = op;
      work.push_back(op);
    }
  while (!work.empty()) {
    Operation *op = work.front();
    work.pop_front();
    for (Operation *s : g.succs[op]) {
      Role r = g.role[s];
      if ((r == Role::Infer || r == Role::Clear) && !denySource.count(s)) {
        denySource[s] = denySource[op];
        work.push_back(s);
      }
    }
  }
  // A reached clear op is denied only if a path through reached clear ops
  // ends at an infer or deny op (TF: "a forward path from a deny node to a
  // deny/infer node").
  for (auto &[op, src] : denySource)
    if (g.role[op] == Role::Infer || g.role[op] == Role::Deny) {
      denied.insert(op);
      work.push_back(op);
    }
  while (!work.empty()) {
    Operation *op = work.front();
    work.pop_front();
    for (Operation *p : g.preds[op])
      if (g.role[p] == Role::Clear && denySource.count(p) &&
          denied.insert(p).second)
        work.push_back(p);
  }
  for (Operation *op : denied)
    if (g.role[op] != Role::Deny)
      plan.decisions[op].rule =
          "rule 2: deny propagated from " + describe(denySource[op]);

  // Rule 3: infer/clear ops both downstream and upstream of allow ops.
  llvm::SmallVector<Operation *> seeds;
  for (Operation *op : plan.order)
    if (g.role[op] == Role::Seed)
      seeds.push_back(op);
  auto reach = [&](bool forward) {
    llvm::DenseMap<Operation *, Operation *> from;
    std::deque<Operation *> q;
    for (Operation *s : seeds) {
      from[s] = s;
      q.push_back(s);
    }
    while (!q.empty()) {
      Operation *op = q.front();
      q.pop_front();
      for (Operation *n : forward ? g.succs[op] : g.preds[op])
        if (isPaintable(n) && !from.count(n)) {
          from[n] = from[op];
          q.push_back(n);
        }
    }
    return from;
  };
  llvm::DenseMap<Operation *, Operation *> down = reach(true),
                                           up = reach(false);
  for (Operation *op : plan.order) {
    if (!isPaintable(op) || !down.count(op) || !up.count(op))
      continue;
    low.insert(op);
    OpDecision &d = plan.decisions[op];
    d.choice = OpPrecisionChoice::Low;
    d.rule = "rule 3: between allow ops " + describe(down[op]) + " and " +
             describe(up[op]);
  }
  for (Operation *s : seeds)
    if (!mixed.contains(s))
      low.insert(s);

  // Rule 4: clear ops next to low-precision values. From a Mixed op only
  // backwards (its inputs are low; its result is an f32 accumulator).
  for (Operation *op : plan.order)
    if (low.contains(op) || mixed.contains(op))
      work.push_back(op);
  while (!work.empty()) {
    Operation *op = work.front();
    work.pop_front();
    auto visit = [&](Operation *n) {
      if (g.role[n] != Role::Clear || !isPaintable(n))
        return;
      low.insert(n);
      OpDecision &d = plan.decisions[n];
      d.choice = OpPrecisionChoice::Low;
      d.rule = "rule 4: clear op next to low-precision " + describe(op);
      work.push_back(n);
    };
    for (Operation *p : g.preds[op])
      visit(p);
    if (!mixed.contains(op))
      for (Operation *s : g.succs[op])
        visit(s);
  }

  // Item 4 of the contract: a painted sum pooling (a window reduction) reads
  // low-precision inputs but keeps an f32 accumulator, like a convolution.
  for (Operation *op : plan.order) {
    OpDecision &d = plan.decisions[op];
    if (d.choice == OpPrecisionChoice::Low && isPooling(op) &&
        d.policy.cls == PrecisionClass::Infer && isMixedCandidatePool(op)) {
      d.choice = OpPrecisionChoice::Mixed;
      d.rule += "; window sum accumulates in f32";
    }
  }
  return plan;
}
