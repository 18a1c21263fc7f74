//===- MemoryReport.cpp - the bytes a training step keeps ----------------===//

#include "amp/Analysis/MemoryReport.h"

#include "amp/Analysis/TrainingStep.h"
#include "amp/Support/Counts.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/Format.h"

#include <limits>

using namespace mlir;
using namespace mlir::amp;

std::optional<int64_t>
mlir::amp::bytesOf(Type type, std::optional<int64_t> dynamicExtent) {
  Type elem = type;
  int64_t n = 1;
  if (auto shaped = dyn_cast<ShapedType>(type)) {
    if (!shaped.hasRank())
      return std::nullopt;
    if (shaped.hasStaticShape()) {
      n = staticElementCount(shaped);
    } else {
      if (!dynamicExtent)
        return std::nullopt;
      for (int64_t extent : shaped.getShape())
        n = saturatingMul(n, ShapedType::isDynamic(extent) ? *dynamicExtent
                                                           : extent);
    }
    elem = shaped.getElementType();
  }
  if (!elem.isIntOrIndexOrFloat())
    return std::nullopt;
  int64_t bits = elem.isIndex() ? 64 : elem.getIntOrFloatBitWidth();
  return saturatingMul(n, (bits + 7) / 8);
}

std::string mlir::amp::formatBytes(int64_t b) {
  if (b == std::numeric_limits<int64_t>::max())
    return "over 9.2 EB (2^63 B: the count saturated)";
  const char *units[] = {"B", "KB", "MB", "GB", "TB"};
  double v = double(b);
  int u = 0;
  while (v >= 1000.0 && u < 4) {
    v /= 1000.0;
    ++u;
  }
  std::string s;
  llvm::raw_string_ostream os(s);
  if (u == 0)
    os << b << " B";
  else
    os << llvm::format("%.1f %s", v, units[u]) << " (" << b << " B)";
  return s;
}

llvm::json::Object MemoryReport::toJSON() const {
  llvm::json::Object o{{"parameters", parameterBytes},
                       {"optimizer_state", optimizerStateBytes},
                       {"loss_scale_state", lossScaleStateBytes},
                       {"batch", batchBytes},
                       {"peak_live", peakLiveBytes},
                       {"approximate", approximate}};
  if (keptForBackwardBytes)
    o["kept_for_backward"] = *keptForBackwardBytes;
  else
    o["kept_for_backward"] = nullptr;
  return o;
}

/// Operands of `op` plus the values its regions use from above.
static SmallVector<Value> usedValues(Operation *op) {
  llvm::SetVector<Value> vals(op->operand_begin(), op->operand_end());
  getUsedValuesDefinedAbove(op->getRegions(), vals);
  return vals.takeVector();
}

FailureOr<MemoryReport>
mlir::amp::analyzeMemory(func::FuncOp fn,
                         std::optional<int64_t> dynamicExtent) {
  FailureOr<TrainingStep> step =
      TrainingStep::analyze(fn, /*requireMarkers=*/false);
  if (failed(step))
    return failure();
  MemoryReport r;
  auto bytes = [&](Value v) -> int64_t {
    std::optional<int64_t> b = bytesOf(v.getType(), dynamicExtent);
    if (!b)
      r.approximate = true;
    return b.value_or(0);
  };

  Block &body = fn.getBody().front();
  int64_t argumentBytes = 0;
  for (auto [i, role] : llvm::enumerate(step->argRoles)) {
    int64_t b = bytes(body.getArgument(i));
    argumentBytes = saturatingAdd(argumentBytes, b);
    switch (role) {
    case ArgRole::Param:
      r.parameterBytes = saturatingAdd(r.parameterBytes, b);
      break;
    case ArgRole::OptState:
      r.optimizerStateBytes = saturatingAdd(r.optimizerStateBytes, b);
      break;
    case ArgRole::Input:
    case ArgRole::Label:
    case ArgRole::Target:
      r.batchBytes = saturatingAdd(r.batchBytes, b);
      break;
    case ArgRole::LossScale:
    case ArgRole::GrowthTracker:
    case ArgRole::HysteresisTracker:
    case ArgRole::ConsecutiveSkips:
      r.lossScaleStateBytes = saturatingAdd(r.lossScaleStateBytes, b);
      break;
    }
  }
  if (!fn.getBody().hasOneBlock())
    r.approximate = true;

  // Peak live: values die after their last top-level use.
  llvm::DenseMap<Value, size_t> lastUse;
  SmallVector<Operation *> ops;
  for (Operation &op : body) {
    for (Value v : usedValues(&op))
      lastUse[v] = ops.size();
    ops.push_back(&op);
  }
  llvm::DenseMap<size_t, SmallVector<Value>> diesAfter;
  int64_t live = argumentBytes;
  r.peakLiveBytes = live;
  std::optional<size_t> peakAt; // none: the arguments alone
  // A tensor.empty holds no data (only a shape): the op that writes into
  // it is what allocates, and is counted.
  auto held = [&](Value v) -> int64_t {
    return v.getDefiningOp<tensor::EmptyOp>() ? 0 : bytes(v);
  };
  for (auto [i, op] : llvm::enumerate(ops)) {
    for (Value res : op->getResults()) {
      live = saturatingAdd(live, held(res));
      auto it = lastUse.find(res);
      diesAfter[it == lastUse.end() ? i : it->second].push_back(res);
    }
    if (live > r.peakLiveBytes) {
      r.peakLiveBytes = live;
      peakAt = i;
    }
    // A saturated total (shapes past 2^63 bytes) stays saturated: what is
    // left after a death is unknown.
    for (Value v : diesAfter.lookup(i))
      if (live != std::numeric_limits<int64_t>::max())
        live -= held(v);
  }
  // What holds the peak: the arguments, and the results of the ops up to
  // the peak's op that are read at it or later (or are its own results).
  for (BlockArgument arg : body.getArguments())
    r.peak.push_back({arg, bytes(arg)});
  if (peakAt)
    for (size_t i = 0; i <= *peakAt; ++i)
      for (Value res : ops[i]->getResults()) {
        auto it = lastUse.find(res);
        if (i == *peakAt || (it != lastUse.end() && it->second >= *peakAt))
          r.peak.push_back({res, held(res)});
      }

  // Kept for the backward: what is live where the backward starts. Values
  // defined before the seed's unit (not arguments, not constants) that an op
  // after it reads; a value the backward recomputes from those is not kept.
  if (!step->lossGrad)
    return r;
  Operation *seedUnit = body.findAncestorOpInBlock(*step->lossGrad);
  if (!seedUnit)
    return r;
  if (seedUnit != step->lossGrad.getOperation())
    r.approximate = true; // the seed is inside a loop: the loop is one unit
  llvm::DenseSet<Value> constant, forward, read;
  SmallVector<Value> definitions; // forward values in program order
  bool afterSeed = false;
  for (Operation *op : ops) {
    SmallVector<Value> used = usedValues(op);
    if (op == seedUnit) {
      afterSeed = true;
      continue;
    }
    if (afterSeed) {
      if (op->hasTrait<OpTrait::IsTerminator>())
        continue;
      for (Value v : used)
        if (forward.contains(v))
          read.insert(v);
      continue;
    }
    bool isConstant =
        llvm::all_of(used, [&](Value v) { return constant.contains(v); });
    for (Value res : op->getResults()) {
      (isConstant ? constant : forward).insert(res);
      if (!isConstant)
        definitions.push_back(res);
    }
  }
  SmallVector<Value> kept;
  for (Value v : definitions)
    if (read.contains(v))
      kept.push_back(v);
  int64_t total = 0;
  for (Value v : kept) {
    int64_t b = bytes(v);
    total = saturatingAdd(total, b);
    r.kept.push_back({v, b});
  }
  r.keptForBackwardBytes = total;
  return r;
}
