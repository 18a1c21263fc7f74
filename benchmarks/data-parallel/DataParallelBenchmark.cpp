//===- DataParallelBenchmark.cpp - the cost of the gradient reduction -----===//
//
// amp-bench-data-parallel, run under `mpirun -np N` (scripts/bench.sh: 2
// ranks on this machine): the cost of amp-data-parallel's reduction per
// training step, against the step time and against plain MPI_Allreduce calls
// of the same bytes, for the flat bucket and per gradient. Each rank
// compiles the Fashion-MNIST MLP step (f32) three times: without
// communication, with `bucket=flat` (one all-reduce of all 235,146 gradient
// values, plus the loss's), with `bucket=per-gradient` (six plus the
// loss's); then runs the three in turn, step after step, on synthetic
// batches, each timed from an MPI_Barrier to the next one (until every rank
// is done, so that the ranks' imbalance on a loaded machine is in every
// variant alike), and times plain MPI_Allreduce calls of the same sizes the
// same way. Figures are the fastest of the timed steps (other processes on
// the two shared cores only add time; medians are printed beside them); the
// reduction's cost is best(step with it) - best(step without). Prints
// `ROW|...` lines (benchmarks/README.md) on rank 0.
//
// Usage: mpirun -np 2 amp-bench-data-parallel [--step=FILE] [--steps=N]
//
//===----------------------------------------------------------------------===//

#include "../BenchRows.h"
#include "amp/Analysis/TrainingStep.h"
#include "amp/Distributed/Passes.h"
#include "amp/InitAll.h"
#include "amp/Pipelines/Pipelines.h"
#include "amp/Runtime/Batches.h"
#include "amp/Runtime/BoundStep.h"
#include "amp/Runtime/DataParallel.h"
#include "amp/Runtime/SyntheticData.h"
#include "amp/Support/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <numeric>
#include <random>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::amp;
using ::amp::bench::fmt;
using ::amp::bench::median;
using ::amp::bench::row;

namespace {
/// One compiled variant of the step and its step times.
struct Variant {
  std::string name;
  std::unique_ptr<runtime::BoundStep> step;
  std::vector<double> ms;
};
} // namespace

/// The fastest of the timings: two ranks on two cores that other processes
/// share only ever lose time to them (and a waiting rank spins in MPI), so
/// the best step is the one closest to an unloaded machine's.
static double best(const std::vector<double> &v) {
  return *std::min_element(v.begin(), v.end());
}

static double nowMs() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// The training step of `module` rewritten for f32 (and, with `dp`, by
/// amp-data-parallel), bound to the CPU, in amp-run's initial state.
static std::unique_ptr<runtime::BoundStep>
compile(ModuleOp module, runtime::Backend &backend,
        std::optional<DataParallelOptions> dp) {
  OwningOpRef<ModuleOp> work(cast<ModuleOp>(module->clone()));
  for (auto fn : llvm::make_early_inc_range(work->getOps<func::FuncOp>()))
    if (!fn->hasAttr(kTrainStepAttr))
      fn.erase(); // only the training step is timed
  MixedPrecisionConfig fp32;
  fp32.precision = Precision::F32;
  fp32.lossScale = LossScaleMode::None;
  if (llvm::Error err = runPipeline(
          *work,
          [&](OpPassManager &pm) {
            buildMixedPrecisionPipeline(pm, fp32);
            if (dp)
              pm.addPass(createDataParallel(*dp));
          },
          "amp-data-parallel")) {
    llvm::errs() << llvm::toString(std::move(err)) << "\n";
    return nullptr;
  }
  auto bound = runtime::BoundStep::create(*work, backend, /*batch=*/0);
  if (!bound) {
    llvm::errs() << llvm::toString(bound.takeError()) << "\n";
    return nullptr;
  }
  std::mt19937_64 rng(0);
  (*bound)->resetState(rng);
  return std::move(*bound);
}

int main(int argc, char **argv) {
  std::string stepFile = AMP_SOURCE_DIR "/examples/fashion-mnist/mlp.mlir";
  int64_t steps = 100, warmup = 5;
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg.consume_front("--step="))
      stepFile = arg.str();
    else if (arg.consume_front("--steps=") && !arg.getAsInteger(10, steps) &&
             steps > 0)
      continue;
    else {
      llvm::errs() << "usage: mpirun -np N amp-bench-data-parallel "
                      "[--step=FILE] [--steps=N>0]\n";
      return 1;
    }
  }
  auto context = runtime::createMpiContext();
  if (!context) {
    llvm::errs() << "amp-bench-data-parallel: "
                 << llvm::toString(context.takeError()) << "\n";
    return 1;
  }
  runtime::DataParallelContext &ctx = **context;
  bool report = ctx.reports();

  DialectRegistry registry;
  registerAllDialectsAndExtensions(registry);
  MLIRContext mlirContext(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &mlirContext);
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(stepFile, sourceMgr, &mlirContext);
  if (!module)
    ctx.abort(1);
  auto backend = runtime::createCpuBackend();
  std::vector<Variant> variants(3);
  variants[0].name = "no communication";
  variants[1].name = "flat bucket";
  variants[2].name = "per gradient";
  DataParallelOptions flat;
  flat.worldSize = ctx.worldSize();
  flat.mpi = ctx.implementation();
  DataParallelOptions perGradient = flat;
  perGradient.bucket = GradientBucketing::PerGradient;
  variants[0].step = compile(*module, *backend, std::nullopt);
  variants[1].step = compile(*module, *backend, flat);
  variants[2].step = compile(*module, *backend, perGradient);
  for (Variant &v : variants)
    if (!v.step)
      ctx.abort(1);

  // The bytes the step reduces: each gradient (one per parameter), the loss.
  const runtime::StepLayout &layout = variants[0].step->layout();
  std::vector<int64_t> sizes;
  for (unsigned p : layout.params)
    sizes.push_back(layout.argSpecs[p].numElements());
  int64_t total = std::accumulate(sizes.begin(), sizes.end(), int64_t(0));
  std::vector<float> send(total), recv(total), lossIn(1), lossOut(1);

  int64_t batch = layout.batch;
  runtime::Dataset data = runtime::makeSyntheticDataset(
      16 * batch * ctx.worldSize(), layout.argSpecs[layout.input].shape[1], 10,
      /*seed=*/0);
  std::vector<int64_t> order(data.numExamples);
  std::iota(order.begin(), order.end(), 0);
  std::vector<double> plainFlat, plainPer;
  int64_t stepsPerEpoch = data.numExamples / (batch * ctx.worldSize());
  for (int64_t i = 0; i < warmup + steps; ++i) {
    int64_t first = ctx.shardBegin(i % stepsPerEpoch, batch);
    for (Variant &v : variants) {
      runtime::BoundStep &step = *v.step;
      runtime::fillBatch(data, order, first, batch,
                         step.arg(layout.input).host(),
                         &step.arg(layout.label).host());
      MPI_Barrier(MPI_COMM_WORLD);
      double t0 = nowMs();
      if (llvm::Error err = step.run()) {
        llvm::errs() << llvm::toString(std::move(err)) << "\n";
        ctx.abort(1);
      }
      // Until every rank has finished: with and without the reduction alike,
      // so that the difference is the reduction, not the ranks' imbalance
      // (on a loaded machine one rank waits for the other in either case).
      MPI_Barrier(MPI_COMM_WORLD);
      double t = nowMs() - t0;
      step.carry();
      if (i >= warmup)
        v.ms.push_back(t);
    }
    // The same bytes with plain calls: one bucket + the loss; one call per
    // gradient + the loss.
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = nowMs();
    MPI_Allreduce(lossIn.data(), lossOut.data(), 1, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
    MPI_Allreduce(send.data(), recv.data(), static_cast<int>(total), MPI_FLOAT,
                  MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    double t1 = nowMs();
    MPI_Barrier(MPI_COMM_WORLD);
    double t2 = nowMs();
    MPI_Allreduce(lossIn.data(), lossOut.data(), 1, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
    int64_t offset = 0;
    for (int64_t n : sizes) {
      MPI_Allreduce(send.data() + offset, recv.data() + offset,
                    static_cast<int>(n), MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
      offset += n;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    double t3 = nowMs();
    if (i >= warmup) {
      plainFlat.push_back(t1 - t0);
      plainPer.push_back(t3 - t2);
    }
  }

  double local = best(variants[0].ms);
  if (report) {
    llvm::outs() << "amp-bench-data-parallel: " << ctx.worldSize() << " ranks, "
                 << stepFile << " (f32, batch " << batch << " per rank), "
                 << steps << " steps after " << warmup
                 << " warm-up steps; best (median) in ms\n";
    for (const Variant &v : variants)
      llvm::outs() << "  step, " << v.name << ": " << fmt("%.3f", best(v.ms))
                   << " (" << fmt("%.3f", median(v.ms)) << ")\n";
    llvm::outs() << "  plain MPI_Allreduce, " << total * 4
                 << " B + 4 B: " << fmt("%.3f", best(plainFlat)) << " ("
                 << fmt("%.3f", median(plainFlat)) << "); in "
                 << sizes.size() + 1
                 << " calls: " << fmt("%.3f", best(plainPer)) << " ("
                 << fmt("%.3f", median(plainPer)) << ")\n";
  }
  std::string where =
      "data-parallel MLP f32, " + std::to_string(ctx.worldSize()) + " ranks, ";
  struct Case {
    const Variant &variant;
    double plain;
    std::string calls;
  };
  for (const Case &c :
       {Case{variants[1], best(plainFlat),
             "1 call of " + std::to_string(total * 4) + " B + 1 of 4 B"},
        Case{variants[2], best(plainPer),
             std::to_string(sizes.size()) + " calls, " +
                 std::to_string(total * 4) + " B, + 1 of 4 B"}}) {
    double step = best(c.variant.ms), cost = step - local;
    if (!report)
      continue;
    row(where + c.variant.name + ": reduction per step / step time",
        fmt("%.2f", cost / step) + " (" + fmt("%.3f", cost) + " of " +
            fmt("%.3f", step) + " ms)",
        "step without communication " + fmt("%.3f", local) + " ms", "info",
        "-");
    double ratio = cost / c.plain;
    row(where + c.variant.name +
            ": reduction per step / plain MPI_Allreduce of the same bytes",
        fmt("%.2f", ratio) + " (" + fmt("%.3f", cost) + " vs " +
            fmt("%.3f", c.plain) + " ms)",
        "MPI_Allreduce, " + c.calls, "<= 1.5", ratio <= 1.5 ? "met" : "missed");
  }
  return 0;
}
