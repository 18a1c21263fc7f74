//===- FusedCheckBenchmark.cpp - amp.unscale_and_check vs memcpy ----------===//
//
// JIT-compiles (runtime::JitModule, the project's CPU pipeline) a function
// that applies `amp.unscale_and_check` to 100 f32 gradients of a small GPT
// (d_model 384, 8 layers, vocab 6400, context 256; 63.9 MiB in all) and
// times one call against two references measured in the same process:
//
//   memcpy   std::memcpy of every gradient into a destination buffer (the
//            same bytes read and written once);
//   unfused  the same function written without the fused op and compiled the
//            same way: per gradient one isfinite or-reduction (a
//            linalg.generic that only reads g) and one scale pass (a second
//            generic), so every gradient is read twice.
//
// Google Benchmark runs the three interleaved (fixed iterations, several
// repetitions); the figures use each benchmark's fastest repetition.
// Usage: amp-bench-fused-check [--dump-mlir] [--benchmark_* flags]
//
//===----------------------------------------------------------------------===//

#include "amp/InitAll.h"
#include "amp/Runtime/HostTensor.h"
#include "amp/Runtime/JitModule.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/raw_ostream.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::amp::runtime;

namespace {

using Shape = std::vector<int64_t>;

/// Gradient shapes of a GPT-style model (PyTorch layout, weights [out, in]):
/// embeddings, 8 blocks of 12 tensors, final layer norm: 100 tensors.
std::vector<Shape> gradientShapes() {
  const int64_t d = 384, ff = 4 * d, vocab = 6400, ctx = 256, layers = 8;
  std::vector<Shape> shapes = {{vocab, d}, {ctx, d}};
  for (int64_t l = 0; l < layers; ++l) {
    shapes.push_back({d});        // ln1.weight
    shapes.push_back({d});        // ln1.bias
    shapes.push_back({3 * d, d}); // attn.qkv.weight
    shapes.push_back({3 * d});    // attn.qkv.bias
    shapes.push_back({d, d});     // attn.proj.weight
    shapes.push_back({d});        // attn.proj.bias
    shapes.push_back({d});        // ln2.weight
    shapes.push_back({d});        // ln2.bias
    shapes.push_back({ff, d});    // mlp.fc1.weight
    shapes.push_back({ff});       // mlp.fc1.bias
    shapes.push_back({d, ff});    // mlp.fc2.weight
    shapes.push_back({d});        // mlp.fc2.bias
  }
  shapes.push_back({d}); // ln_f.weight
  shapes.push_back({d}); // ln_f.bias
  return shapes;
}

std::string tensorType(const Shape &shape) {
  std::string s = "tensor<";
  for (int64_t dim : shape)
    s += std::to_string(dim) + "x";
  return s + "f32>";
}

/// func @fused: the gradients and inv_scale in, amp.unscale_and_check out.
/// func @unfused: the same results from a separate isfinite reduction and a
/// separate scale pass per gradient. Each gradient's reduction starts from
/// its own `false` and the flags are or-ed as scalars, inv_scale is read
/// once: the best form of the unfused computation for the CPU pipeline.
std::string buildModule(const std::vector<Shape> &shapes) {
  const size_t n = shapes.size();
  std::string args, types, results;
  for (size_t i = 0; i < n; ++i) {
    std::string t = tensorType(shapes[i]);
    args += "%g" + std::to_string(i) + ": " + t + ", ";
    types += (i ? ", " : "") + t;
    results += t + ", ";
  }
  args += "%inv: tensor<f32>";
  results += "tensor<i1>";

  std::string m;
  m += "#id1 = affine_map<(d0) -> (d0)>\n";
  m += "#sc1 = affine_map<(d0) -> ()>\n";
  m += "#id2 = affine_map<(d0, d1) -> (d0, d1)>\n";
  m += "#sc2 = affine_map<(d0, d1) -> ()>\n";
  m += "module {\n";

  // Fused.
  m += "func.func @fused(" + args + ") -> (" + results + ") {\n";
  m += "  %u:" + std::to_string(n) + ", %f = amp.unscale_and_check ";
  for (size_t i = 0; i < n; ++i)
    m += "%g" + std::to_string(i) + (i + 1 < n ? ", " : " ");
  m += "inv_scale %inv : " + types + "\n  return ";
  for (size_t i = 0; i < n; ++i)
    m += "%u#" + std::to_string(i) + ", ";
  m += "%f : " + results + "\n}\n";

  // Unfused.
  m += "func.func @unfused(" + args + ") -> (" + results + ") {\n";
  m += "  %false = arith.constant false\n";
  m += "  %false_t = arith.constant dense<false> : tensor<i1>\n";
  m += "  %inf = arith.constant 0x7F800000 : f32\n";
  m += "  %s = tensor.extract %inv[] : tensor<f32>\n";
  std::string acc = "%false";
  for (size_t i = 0; i < n; ++i) {
    std::string k = std::to_string(i), t = tensorType(shapes[i]);
    bool r2 = shapes[i].size() == 2;
    std::string id = r2 ? "#id2" : "#id1", sc = r2 ? "#sc2" : "#sc1";
    std::string red = r2 ? "\"reduction\", \"reduction\"" : "\"reduction\"";
    std::string par = r2 ? "\"parallel\", \"parallel\"" : "\"parallel\"";
    m += "  %c" + k + " = linalg.generic {indexing_maps = [" + id + ", " + sc +
         "], iterator_types = [" + red + "]} ins(%g" + k + " : " + t +
         ") outs(%false_t : tensor<i1>) {\n"
         "  ^bb0(%x: f32, %a: i1):\n"
         "    %abs = math.absf %x : f32\n"
         "    %nf = arith.cmpf uge, %abs, %inf : f32\n"
         "    %o = arith.ori %a, %nf : i1\n"
         "    linalg.yield %o : i1\n"
         "  } -> tensor<i1>\n";
    m += "  %e" + k + " = tensor.empty() : " + t + "\n";
    m += "  %u" + k + " = linalg.generic {indexing_maps = [" + id + ", " + id +
         "], iterator_types = [" + par + "]} ins(%g" + k + " : " + t +
         ") outs(%e" + k + " : " + t +
         ") {\n"
         "  ^bb0(%x: f32, %y: f32):\n"
         "    %p = arith.mulf %x, %s : f32\n"
         "    linalg.yield %p : f32\n"
         "  } -> " +
         t + "\n";
    m += "  %b" + k + " = tensor.extract %c" + k + "[] : tensor<i1>\n";
    m += "  %acc" + k + " = arith.ori " + acc + ", %b" + k + " : i1\n";
    acc = "%acc" + k;
  }
  m += "  %flag = tensor.from_elements " + acc + " : tensor<i1>\n  return ";
  for (size_t i = 0; i < n; ++i)
    m += "%u" + std::to_string(i) + ", ";
  m += "%flag : " + results + "\n}\n}\n";
  return m;
}

struct Fixture {
  std::unique_ptr<JitModule> jit;
  std::vector<std::unique_ptr<HostTensor>> grads, outs;
  std::unique_ptr<HostTensor> inv, flag;
  std::vector<HostTensor *> buffers; ///< grads, inv, outs, flag
  size_t totalBytes = 0;
};

Fixture *fixture = nullptr;

void callOrDie(const char *name) {
  if (llvm::Error err = fixture->jit->invoke(name, fixture->buffers)) {
    llvm::errs() << "amp-bench-fused-check: calling @" << name
                 << " failed: " << llvm::toString(std::move(err)) << "\n";
    std::exit(1);
  }
}

bool flagSet() { return fixture->flag->as<uint8_t>()[0] & 1; }

/// Outputs equal g * inv bit for bit, the flag is false for finite
/// gradients and true with a NaN, +inf or -inf anywhere.
bool verify(const char *name) {
  Fixture &f = *fixture;
  const float inv = f.inv->as<float>()[0];
  for (auto &o : f.outs)
    std::memset(o->data(), 0xff, o->sizeInBytes());
  f.flag->as<uint8_t>()[0] = 1;
  callOrDie(name);
  for (size_t i = 0; i < f.grads.size(); ++i) {
    const float *g = f.grads[i]->as<float>(), *y = f.outs[i]->as<float>();
    for (int64_t e = 0, n = f.grads[i]->spec().numElements(); e < n; ++e) {
      float want = g[e] * inv;
      if (std::memcmp(&want, &y[e], sizeof(float)) != 0) {
        llvm::errs() << "@" << name << ": gradient " << i << " element " << e
                     << ": " << y[e] << ", expected " << want << "\n";
        return false;
      }
    }
  }
  if (flagSet()) {
    llvm::errs() << "@" << name << ": found_inf set for finite gradients\n";
    return false;
  }
  struct Poke {
    size_t grad;
    int64_t elem;
    float value;
  };
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<Poke> pokes = {
      {0, 0, -inf},
      {37, 1000, std::numeric_limits<float>::quiet_NaN()},
      {f.grads.size() - 1, f.grads.back()->spec().numElements() - 1, inf},
      {51, 12345, -std::numeric_limits<float>::quiet_NaN()}};
  for (const Poke &p : pokes) {
    float *g = f.grads[p.grad]->as<float>();
    int64_t elem = p.elem % f.grads[p.grad]->spec().numElements();
    float saved = g[elem];
    g[elem] = p.value;
    f.flag->as<uint8_t>()[0] = 0;
    callOrDie(name);
    g[elem] = saved;
    if (!flagSet()) {
      llvm::errs() << "@" << name << ": found_inf not set for " << p.value
                   << " in gradient " << p.grad << "\n";
      return false;
    }
  }
  return true;
}

void BM_Fused(benchmark::State &state) {
  for (auto _ : state)
    callOrDie("fused");
}

void BM_Unfused(benchmark::State &state) {
  for (auto _ : state)
    callOrDie("unfused");
}

void BM_Memcpy(benchmark::State &state) {
  Fixture &f = *fixture;
  for (auto _ : state) {
    for (size_t i = 0; i < f.grads.size(); ++i)
      std::memcpy(f.outs[i]->data(), f.grads[i]->data(),
                  f.grads[i]->sizeInBytes());
    benchmark::ClobberMemory();
  }
}

/// The console table, plus each benchmark's fastest repetition in seconds.
class MinReporter : public benchmark::ConsoleReporter {
public:
  MinReporter() : ConsoleReporter(OO_Tabular) {} // no colours
  std::map<std::string, double> minSeconds;
  void ReportRuns(const std::vector<Run> &runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run &run : runs)
      if (!run.error_occurred && run.run_type == Run::RT_Aggregate &&
          run.aggregate_name == "min")
        minSeconds[run.run_name.function_name] =
            run.GetAdjustedRealTime() /
            benchmark::GetTimeUnitMultiplier(run.time_unit);
  }
};

double minOf(const std::vector<double> &v) {
  return *std::min_element(v.begin(), v.end());
}

} // namespace

int main(int argc, char **argv) {
  bool dumpMlir = false;
  std::vector<char *> args;
  args.push_back(argv[0]);
  std::string interleave = "--benchmark_enable_random_interleaving=true";
  args.push_back(interleave.data());
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--dump-mlir") == 0)
      dumpMlir = true;
    else
      args.push_back(argv[i]);
  }
  int benchArgc = static_cast<int>(args.size());
  benchmark::Initialize(&benchArgc, args.data());
  if (benchmark::ReportUnrecognizedArguments(benchArgc, args.data()))
    return 1;

  std::vector<Shape> shapes = gradientShapes();
  std::string source = buildModule(shapes);
  if (dumpMlir) {
    llvm::outs() << source;
    return 0;
  }

  DialectRegistry registry;
  mlir::amp::registerAllDialectsAndExtensions(registry);
  MLIRContext context(registry);
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(source, ParserConfig(&context));
  if (!module) {
    llvm::errs() << "amp-bench-fused-check: cannot parse the generated "
                    "module\n";
    return 1;
  }
  Fixture f;
  auto start = std::chrono::steady_clock::now();
  auto jit = JitModule::compile(*module, {"fused", "unfused"});
  if (!jit) {
    llvm::errs() << "amp-bench-fused-check: " << llvm::toString(jit.takeError())
                 << "\n";
    return 1;
  }
  f.jit = std::move(*jit);
  auto seconds = [](std::chrono::steady_clock::time_point since) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() -
                                         since)
        .count();
  };
  std::printf("lowering @fused and @unfused to LLVM IR: %.1f s\n",
              seconds(start));

  // Scaled gradients: uniform in [-1000, 1000), finite; inv = 2^-15.
  uint64_t rng = 0x9e3779b97f4a7c15ull;
  for (const Shape &shape : shapes) {
    auto g = std::make_unique<HostTensor>(TensorSpec{shape, ElementKind::F32});
    float *p = g->as<float>();
    for (int64_t e = 0, n = g->spec().numElements(); e < n; ++e) {
      rng = rng * 6364136223846793005ull + 1442695040888963407ull;
      p[e] = static_cast<float>(
          static_cast<double>(rng >> 40) / (1 << 24) * 2000.0 - 1000.0);
    }
    f.totalBytes += g->sizeInBytes();
    f.outs.push_back(
        std::make_unique<HostTensor>(TensorSpec{shape, ElementKind::F32}));
    f.outs.back()->fillZero();
    f.grads.push_back(std::move(g));
  }
  f.inv = std::make_unique<HostTensor>(TensorSpec{{}, ElementKind::F32});
  f.inv->as<float>()[0] = std::ldexp(1.0f, -15);
  f.flag = std::make_unique<HostTensor>(TensorSpec{{}, ElementKind::I1});
  for (auto &g : f.grads)
    f.buffers.push_back(g.get());
  f.buffers.push_back(f.inv.get());
  for (auto &o : f.outs)
    f.buffers.push_back(o.get());
  f.buffers.push_back(f.flag.get());
  fixture = &f;

  std::printf("%zu gradients, %.1f MiB (%zu bytes)\n", shapes.size(),
              f.totalBytes / 1048576.0, f.totalBytes);
  start = std::chrono::steady_clock::now();
  if (!verify("fused") || !verify("unfused"))
    return 1;
  std::printf("results checked (finite, -inf, NaN, +inf; the first calls "
              "include LLVM codegen): %.1f s\n",
              seconds(start));

  const int iterations = 4, repetitions = 15;
  auto configure = [&](benchmark::internal::Benchmark *b) {
    b->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(iterations)
        ->Repetitions(repetitions)
        ->ReportAggregatesOnly(true)
        ->ComputeStatistics("min", minOf);
  };
  configure(benchmark::RegisterBenchmark("fused_unscale_check", BM_Fused));
  configure(benchmark::RegisterBenchmark("memcpy", BM_Memcpy));
  configure(
      benchmark::RegisterBenchmark("unfused_check_then_scale", BM_Unfused));
  MinReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  std::fflush(stdout);

  auto &mins = reporter.minSeconds;
  if (!mins.count("fused_unscale_check") || !mins.count("memcpy") ||
      !mins.count("unfused_check_then_scale")) {
    std::printf("not all benchmarks ran (filter?): no rows\n");
    return 0;
  }
  double fused = mins["fused_unscale_check"], copy = mins["memcpy"],
         unfused = mins["unfused_check_then_scale"];
  double ratio = fused / copy, speedup = unfused / fused;
  double gbps = 2.0 * f.totalBytes / fused / 1e9;
  double copyGbps = 2.0 * f.totalBytes / copy / 1e9;
  std::printf("fastest of %d repetitions x %d calls: fused %.3f ms, memcpy "
              "%.3f ms, unfused %.3f ms\n",
              repetitions, iterations, fused * 1e3, copy * 1e3, unfused * 1e3);
  std::printf("ROW|fused unscale+check vs memcpy (100 tensors, 64 MB)|%.2fx|"
              "memcpy of the same bytes|<= 1.3x|%s\n",
              ratio, ratio <= 1.3 ? "met" : "missed");
  std::printf("ROW|unfused vs fused unscale+check|%.2fx|separate isfinite + "
              "scale per tensor|> 1x|%s\n",
              speedup, speedup > 1.0 ? "met" : "missed");
  std::printf("ROW|fused unscale+check bandwidth|%.1f GB/s (read+write)|"
              "memcpy %.1f GB/s|-|-\n",
              gbps, copyGbps);
  return 0;
}
