//===- Contraction.cpp - matmul-shaped linalg.generic on buffers ----------===//

#include "amp/Analysis/Contraction.h"
#include "amp/Analysis/BufferUses.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::amp;

bool mlir::amp::isIndexMask(Value v, Block *body) {
  if (isa<BlockArgument>(v))
    return false;
  Operation *def = v.getDefiningOp();
  if (def->getBlock() != body)
    return def->hasTrait<OpTrait::ConstantLike>();
  if (isa<linalg::IndexOp>(def) || def->hasTrait<OpTrait::ConstantLike>())
    return true;
  if (def->getNumRegions() != 0 || !isPure(def) ||
      llvm::any_of(def->getResultTypes(),
                   [](Type t) { return isa<FloatType>(t); }))
    return false;
  return llvm::all_of(def->getOperands(), [&](Value operand) {
    return isIndexMask(operand, body);
  });
}

std::optional<ProductSum> mlir::amp::matchProductSum(linalg::GenericOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1)
    return std::nullopt;
  Block *body = op.getBody();
  auto yield = cast<linalg::YieldOp>(body->getTerminator());
  if (yield.getValues().size() != 1)
    return std::nullopt;
  auto add = yield.getValues().front().getDefiningOp<arith::AddFOp>();
  if (!add)
    return std::nullopt;
  BlockArgument out = op.getRegionOutputArgs().front();
  Value term = add.getLhs() == out   ? add.getRhs()
               : add.getRhs() == out ? add.getLhs()
                                     : Value();
  ProductSum sum;
  while (auto select =
             term ? term.getDefiningOp<arith::SelectOp>() : arith::SelectOp()) {
    if (!matchPattern(select.getFalseValue(), m_AnyZeroFloat()) ||
        !isIndexMask(select.getCondition(), body))
      return std::nullopt;
    sum.masks.push_back(select);
    term = select.getTrueValue();
  }
  auto mul = term ? term.getDefiningOp<arith::MulFOp>() : arith::MulFOp();
  if (!mul)
    return std::nullopt;
  // The input number of a factor (a block argument or its extf).
  auto inputOf = [&](Value v, bool &extended) -> std::optional<unsigned> {
    extended = false;
    if (auto ext = v.getDefiningOp<arith::ExtFOp>()) {
      v = ext.getIn();
      extended = true;
    }
    auto arg = dyn_cast<BlockArgument>(v);
    if (!arg || arg.getOwner() != body || arg.getArgNumber() >= 2)
      return std::nullopt;
    return arg.getArgNumber();
  };
  bool extL, extR;
  std::optional<unsigned> l = inputOf(mul.getLhs(), extL),
                          r = inputOf(mul.getRhs(), extR);
  if (!l || !r || *l == *r)
    return std::nullopt;
  sum.extend[*l] = extL;
  sum.extend[*r] = extR;
  return sum;
}

/// Body `yield(out + x * y)`, x and y block arguments 0 and 1 or their
/// extf, in any operand order, and nothing else; sets whether each argument
/// is widened.
static bool matchMulAddBody(linalg::GenericOp op, bool &ext0, bool &ext1) {
  std::optional<ProductSum> sum = matchProductSum(op);
  if (!sum || !sum->masks.empty())
    return false;
  ext0 = sum->extend[0];
  ext1 = sum->extend[1];
  // Nothing else in the body: mul, add, yield and the extfs.
  return op.getBody()->getOperations().size() ==
         3 + static_cast<size_t>(ext0) + static_cast<size_t>(ext1);
}

std::optional<BufferContraction>
mlir::amp::matchBufferContraction(linalg::GenericOp op) {
  if (!op.hasPureBufferSemantics() || op.getNumDpsInputs() != 2 ||
      op.getNumDpsInits() != 1 || op.getNumLoops() != 3)
    return std::nullopt;
  for (Value v : op->getOperands()) {
    auto type = dyn_cast<MemRefType>(v.getType());
    if (!type || type.getRank() != 2 || !isa<FloatType>(type.getElementType()))
      return std::nullopt;
  }
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  std::optional<unsigned> k;
  for (auto [pos, it] : llvm::enumerate(iterators)) {
    if (it != utils::IteratorType::reduction)
      continue;
    if (k)
      return std::nullopt;
    k = pos;
  }
  if (!k)
    return std::nullopt;

  // Loop position of result `r` of `map`, if it is a plain loop dimension.
  auto dimOf = [](AffineMap map, unsigned r) -> std::optional<unsigned> {
    if (auto d = dyn_cast<AffineDimExpr>(map.getResult(r)))
      return d.getPosition();
    return std::nullopt;
  };
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  for (AffineMap map : maps)
    if (map.getNumResults() != 2 || map.getNumSymbols() != 0)
      return std::nullopt;
  std::optional<unsigned> i = dimOf(maps[2], 0), j = dimOf(maps[2], 1);
  if (!i || !j || *i == *j || *i == *k || *j == *k)
    return std::nullopt;

  BufferContraction c;
  c.op = op;
  c.c = op.getDpsInits()[0];
  c.iLoop = *i;
  c.jLoop = *j;
  c.kLoop = *k;
  // Each input is indexed by {i, k} (A) or {k, j} (B), in either order.
  auto roleOf = [&](AffineMap map, bool &isA, bool &transposed) {
    std::optional<unsigned> d0 = dimOf(map, 0), d1 = dimOf(map, 1);
    if (!d0 || !d1)
      return false;
    if ((*d0 == *i && *d1 == *k) || (*d0 == *k && *d1 == *i)) {
      isA = true;
      transposed = *d0 == *k;
      return true;
    }
    if ((*d0 == *k && *d1 == *j) || (*d0 == *j && *d1 == *k)) {
      isA = false;
      transposed = *d0 == *j;
      return true;
    }
    return false;
  };
  bool isA0, isA1, transposed0, transposed1;
  if (!roleOf(maps[0], isA0, transposed0) ||
      !roleOf(maps[1], isA1, transposed1) || isA0 == isA1)
    return std::nullopt;
  bool ext0, ext1;
  if (!matchMulAddBody(op, ext0, ext1))
    return std::nullopt;
  Value in0 = op.getDpsInputs()[0], in1 = op.getDpsInputs()[1];
  if (isA0) {
    c.a = in0, c.b = in1, c.transposeA = transposed0,
    c.transposeB = transposed1, c.extendA = ext0, c.extendB = ext1;
  } else {
    c.a = in1, c.b = in0, c.transposeA = transposed1,
    c.transposeB = transposed0, c.extendA = ext1, c.extendB = ext0;
  }
  // A kernel that keeps C in registers across k must not see C's stores
  // through A or B (bufferization never makes them share memory; a
  // memref.view of one byte buffer as two types could).
  if (viewRoot(c.c) == viewRoot(c.a) || viewRoot(c.c) == viewRoot(c.b))
    return std::nullopt;
  return c;
}

bool mlir::amp::isContractionLike(linalg::LinalgOp op) {
  if (op.getNumReductionLoops() == 0)
    return false;
  int64_t tensors = llvm::count_if(op.getDpsInputOperands(), [&](OpOperand *o) {
    return op.getMatchingIndexingMap(o).getNumResults() > 0;
  });
  return tensors >= 2;
}
