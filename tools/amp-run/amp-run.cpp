//===- amp-run.cpp - train an MLIR training step, fp32 vs mixed precision -===//
//
// The command line of amp-run: its flags fill one RunRequest and the mode
// (train, --check-gradients, --eval-only) is a library function of
// amp/Runtime/Modes.h that tests and the C++ API call as well. Flags:
// docs/training-step.md, docs/data-and-checkpoints.md.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"
#include "amp/InitAll.h"
#include "amp/Runtime/Modes.h"
#include "amp/Support/OptionParsers.h"
#include "amp/Support/OutputFile.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <deque>
#include <memory>

#ifndef AMP_VERSION
#define AMP_VERSION "unknown"
#endif

using namespace mlir;
namespace cl = llvm::cl;
namespace runtime = mlir::amp::runtime;

static cl::OptionCategory ampRunCategory("amp-run options");

/// Descriptions with their defaults appended; cl::desc keeps a StringRef.
static llvm::StringRef withDefault(llvm::StringRef desc,
                                   const std::string &value) {
  static std::deque<std::string> storage;
  storage.push_back((desc + " (default: " + value + ")").str());
  return storage.back();
}
static std::string defaultText(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", v);
  return text;
}
static std::string defaultText(int v) { return std::to_string(v); }
static std::string defaultText(bool v) { return v ? "true" : "false"; }
static std::string defaultText(amp::MasterWeights v) {
  return amp::stringifyMasterWeights(v).str();
}
static std::string defaultText(const std::string &v) {
  return v.empty() ? "none" : v;
}

/// "4000000", "512M" (10^6), "2Gi" (2^30): bytes; nothing when `text` is
/// not such a count or overflows int64_t.
static std::optional<int64_t> parseByteCount(llvm::StringRef text) {
  int64_t unit = 1;
  for (auto [suffix, scale] :
       {std::pair<llvm::StringRef, int64_t>{"Ki", int64_t(1) << 10},
        {"Mi", int64_t(1) << 20},
        {"Gi", int64_t(1) << 30},
        {"Ti", int64_t(1) << 40},
        {"K", 1000},
        {"M", 1000 * 1000},
        {"G", 1000 * 1000 * 1000},
        {"T", int64_t(1000) * 1000 * 1000 * 1000}})
    if (text.consume_back(suffix)) {
      unit = scale;
      break;
    }
  uint64_t count = 0;
  if (text.empty() || text.getAsInteger(10, count) ||
      count > uint64_t(INT64_MAX / unit))
    return std::nullopt;
  return static_cast<int64_t>(count) * unit;
}

static cl::opt<std::string> inputFile(cl::Positional,
                                      cl::desc("<training step .mlir>"),
                                      cl::Required, cl::cat(ampRunCategory));
static cl::list<std::string>
    runs("run",
         cl::desc("A run: <precision>[+<loss-scale>], precision f32|f16|bf16 "
                  "(amp-mixed-precision precision=), loss-scale "
                  "dynamic|static|none (loss-scale=; default none). Repeat or "
                  "comma-separate for several runs (default: f16+dynamic)"),
         cl::CommaSeparated, cl::cat(ampRunCategory));
static cl::opt<int>
    epochs("epochs", cl::desc(withDefault("Training epochs", defaultText(1))),
           cl::init(1), cl::cat(ampRunCategory));
static cl::opt<int64_t>
    batchSize("batch-size",
              cl::desc("Batch size when the input's batch dimension is dynamic "
                       "(default: the step's static batch size)"),
              cl::init(0), cl::cat(ampRunCategory));
static cl::opt<int64_t> maxSteps(
    "max-steps",
    cl::desc(withDefault("Limit steps per epoch (0: all)", defaultText(0))),
    cl::init(0), cl::cat(ampRunCategory));
static cl::opt<std::string> memoryBudget(
    "memory-budget",
    cl::desc(withDefault(
        "BYTES (K, M, G, T: powers of 1000; Ki, Mi, Gi, Ti: of 1024): after "
        "the "
        "table, for each run the largest batch whose training step's peak "
        "live bytes (amp-memory-report's, from the IR) fit; for a step whose "
        "batch is static, whether it fits",
        defaultText(std::string()))),
    cl::init(""), cl::cat(ampRunCategory));
static cl::opt<std::string> dataSource(
    "data",
    cl::desc("Training data: fashion-mnist (Debian's IDX files, --data-dir); "
             "idx:DIR (any MNIST-format directory: train-images-idx3-ubyte, "
             "train-labels-idx1-ubyte, t10k-..., gzip or not); "
             "npy:TRAIN_X,TRAIN_Y[,TEST_X,TEST_Y] (NumPy .npy: float32, "
             "float64 or uint8 inputs, uint8 scaled by 1/255; int32, int64 or "
             "uint8 labels, or float targets of the step's target shape; "
             "without test files the eval step runs on the training set); "
             "or synthetic (seeded data of the step's own inputs: U[0, 1) "
             "floats, integers in --synthetic-int-range; labels and targets "
             "per --synthetic-labels) (docs/data-and-checkpoints.md) "
             "(default: fashion-mnist)"),
    cl::init("fashion-mnist"), cl::cat(ampRunCategory));
static cl::opt<int64_t> syntheticExamples(
    "synthetic-examples",
    cl::desc("--data=synthetic: training examples (default: 64 batches); the "
             "test set has a quarter as many"),
    cl::init(0), cl::cat(ampRunCategory));
static cl::opt<int64_t> syntheticIntRange(
    "synthetic-int-range",
    cl::desc("--data=synthetic: integer inputs (token ids) are drawn from "
             "[0, N) (default: the rows of the table the step indexes with "
             "them, e.g. an embedding's vocabulary; 2 when nothing bounds "
             "them)"),
    cl::init(0), cl::cat(ampRunCategory));
static cl::opt<std::string> syntheticLabels(
    "synthetic-labels",
    cl::desc("--data=synthetic: teacher (each label the argmax of a fixed "
             "random linear map of the example's inputs, so a model can "
             "learn it) or random (uniform, independent of the inputs: for "
             "throughput only) (default: teacher)"),
    cl::init("teacher"), cl::cat(ampRunCategory));
static cl::opt<int> classes(
    "classes",
    cl::desc("--data=synthetic: label classes (default: the eval step's "
             "logits, else 10)"),
    cl::init(0), cl::cat(ampRunCategory));
static cl::opt<bool> checkGradientsFlag(
    "check-gradients",
    cl::desc("Instead of training: compare the step's backward (its amp.grad "
             "gradients) with central finite differences of its own loss, "
             "in f64, on the largest and a few random elements of every "
             "parameter, from the initial state on the first batch; prints "
             "the worst relative error, exit 1 above "
             "--check-gradients-tolerance"),
    cl::init(false), cl::cat(ampRunCategory));
static cl::opt<double> checkGradientsTolerance(
    "check-gradients-tolerance",
    cl::desc(withDefault("Largest relative error --check-gradients accepts",
                         "1e-05")),
    cl::init(1e-5), cl::cat(ampRunCategory));
static cl::opt<bool>
    testPasses("amp-enable-test-passes", cl::Hidden,
               cl::desc("Register the test-only passes (amp-test-crash)"));
static cl::opt<std::string> testExtraPasses(
    "test-extra-passes", cl::Hidden,
    cl::desc("Test hook: a textual pass pipeline run after the rewrite"),
    cl::init(""));
static cl::opt<std::string>
    dataDir("data-dir",
            cl::desc("Directory with the IDX .gz files (default: "
                     "$AMP_DATA_DIR, else Debian's "
                     "/usr/share/datasets/fashion-mnist)"),
            cl::init(""), cl::cat(ampRunCategory));
static cl::opt<std::string>
    csvPath("csv",
            cl::desc("Write per-step CSV here: P itself for a single run "
                     "of one seed, else one file P.<run>.csv per run "
                     "(P.<run>.seed<N>.csv with --seeds); <run>.csv inside P "
                     "when P is a directory or ends with '/'; a stream or "
                     "device (/dev/stdout) takes one run's CSV only "
                     "(default: none)"),
            cl::init(""), cl::cat(ampRunCategory));
static cl::opt<uint64_t>
    seed("seed", cl::desc(withDefault("Parameter init and shuffle seed", "0")),
         cl::init(0), cl::cat(ampRunCategory));
static cl::opt<int> seeds(
    "seeds",
    cl::desc(withDefault("Train every run this many times, with seeds --seed, "
                         "--seed + 1, ...; the table shows the mean and the "
                         "sample standard deviation of the test accuracy "
                         "('acc sd') over them",
                         "1")),
    cl::init(1), cl::cat(ampRunCategory));
static cl::opt<bool> progress(
    "progress",
    cl::desc(withDefault("Progress within an epoch: a live line on a "
                         "terminal, else a line every --progress-seconds",
                         "true")),
    cl::init(true), cl::cat(ampRunCategory));
static cl::opt<double> progressSeconds(
    "progress-seconds",
    cl::desc(withDefault("Seconds between progress lines when the output is "
                         "not a terminal (0: none)",
                         "15")),
    cl::init(15), cl::cat(ampRunCategory));
static cl::opt<std::string>
    device("device",
           cl::desc("Where to train: cpu (JIT) or cuda (amp-lower-to-nvvm, "
                    "docs/gpu.md) (default: cpu)"),
           cl::init("cpu"), cl::cat(ampRunCategory));
static cl::opt<std::string> bf16Dot(
    "bf16-dot",
    cl::desc(withDefault(
        "--device=cpu: bf16 x bf16 -> f32 contractions on AVX512_BF16's "
        "vdpbf16ps and f32 -> bf16 roundings on its vcvtneps2bf16: auto "
        "(where this CPU has AVX512_BF16), on or off (the FMA kernel on "
        "widened operands, roundings as integer ops); the same results but "
        "for denormals (flushed to zero) and NaN payloads "
        "(amp-lower-to-llvm bf16-dot=)",
        "auto")),
    cl::init("auto"), cl::cat(ampRunCategory));
static cl::opt<bool> convGemm(
    "conv-gemm",
    cl::desc(withDefault(
        "--device=cpu: convolutions and their gradients as one GEMM per "
        "image on the micro-kernels (im2col; amp-lower-to-llvm conv-gemm=); "
        "false runs them as loop nests (other summation orders, other bits)",
        "true")),
    cl::init(true), cl::cat(ampRunCategory));
static cl::opt<bool> polynomialExp(
    "polynomial-exp",
    cl::desc(withDefault(
        "--device=cpu: f32 exponentials as a vectorizing polynomial (within "
        "1 ulp, 0 below about x = -87.65; amp-lower-to-llvm "
        "polynomial-exp=); false calls libm's expf per element",
        "true")),
    cl::init(true), cl::cat(ampRunCategory));
static cl::opt<bool> polynomialErf(
    "polynomial-erf",
    cl::desc(withDefault(
        "--device=cpu: f32 erf (an exact GELU's) as a vectorizing rational "
        "approximation (within 3e-7; amp-lower-to-llvm polynomial-erf=); "
        "false calls libm's erff per element",
        "true")),
    cl::init(true), cl::cat(ampRunCategory));
static cl::opt<bool> polynomialTanh(
    "polynomial-tanh",
    cl::desc(withDefault(
        "--device=cpu: f32 tanh (a tanh-form GELU's) as a vectorizing "
        "rational approximation (within 6 ulp; amp-lower-to-llvm "
        "polynomial-tanh=); false calls libm's tanhf per element",
        "true")),
    cl::init(true), cl::cat(ampRunCategory));
static cl::opt<bool> tensorCores(
    "tensor-cores",
    cl::desc(withDefault(
        "--device=cuda: f16/bf16 contractions with f32 accumulation on Tensor "
        "Cores (mma.sync) on sm_80 and newer; false keeps them one thread per "
        "output (amp-lower-to-nvvm tensor-cores=)",
        "true")),
    cl::init(true), cl::cat(ampRunCategory));

// Data-parallel training over MPI (docs/distributed.md).
static cl::opt<std::string> dataParallel(
    "data-parallel",
    cl::desc("Data-parallel training over MPI: auto (on when started by "
             "mpirun with more than one rank), on (MPI_Init even for one "
             "rank), off (default: auto)"),
    cl::init("auto"), cl::cat(ampRunCategory));
static cl::opt<amp::GradientBucketing> dpBucket(
    "dp-bucket",
    cl::desc("Data-parallel: gradients in one all-reduce (flat) or one "
             "all-reduce per gradient (amp-data-parallel bucket=) (default: "
             "flat)"),
    cl::values(clEnumValN(amp::GradientBucketing::Flat, "flat",
                          "one all-reduce over all gradients"),
               clEnumValN(amp::GradientBucketing::PerGradient, "per-gradient",
                          "one all-reduce per gradient")),
    cl::init(amp::GradientBucketing::Flat), cl::cat(ampRunCategory));
static cl::opt<std::string> dpReducePrecision(
    "dp-reduce-precision",
    cl::desc("Data-parallel: reduce gradients in f32, or in the run's low "
             "precision (low: f16 or bf16; f32 runs stay f32; "
             "amp-data-parallel reduce-precision=) (default: f32)"),
    cl::init("f32"), cl::cat(ampRunCategory));
static cl::opt<double> dpTimeout(
    "dp-timeout",
    cl::desc(withDefault("Data-parallel: end the job when no training step "
                         "finishes within this many seconds (a rank died or "
                         "hangs before a collective; 0: never)",
                         "600")),
    cl::init(600), cl::cat(ampRunCategory));
static cl::opt<int64_t> emulateRanks(
    "emulate-ranks",
    cl::desc("One process reproducing N data-parallel ranks: every sum over "
             "the batch in N consecutive chunks of batch / N, each from "
             "zero, added in order (amp-chunk-batch-reductions); a step at "
             "N x B then trains as N ranks at B do (for N = 2 bit for bit "
             "in f32 and bf16; f16 also needs --init-scale N times larger, "
             "docs/distributed.md) (default: 1, off)"),
    cl::init(1), cl::cat(ampRunCategory));
static cl::opt<std::string> testInject(
    "test-inject",
    cl::desc("Data-parallel test hook: KIND@RANK:STEP with KIND grad-inf "
             "(+inf in the first gradient), loss-nan (NaN in the loss), fail "
             "(the rank fails) or hang (the rank stops), on one rank before "
             "one step (counted over the run) (default: none)"),
    cl::init(""), cl::cat(ampRunCategory));
static cl::opt<std::string> dumpState(
    "dump-state",
    cl::desc("After each run write the state's digest (one line per "
             "parameter, optimizer and loss-scale state: FNV-1a 64 of its "
             "bytes, scalars' values) to P (P.<run> for several runs; "
             ".rank<R> appended when data-parallel) (default: none)"),
    cl::init(""), cl::cat(ampRunCategory));
static cl::opt<bool> evalOnly(
    "eval-only",
    cl::desc("Instead of training: run the eval step on the test set from "
             "the step's initial values (a model's own weights) or from "
             "--resume's checkpoint, for each --run; prints the accuracy and "
             "the mean cross-entropy"),
    cl::init(false), cl::cat(ampRunCategory));
static cl::opt<std::string> saveCheckpoint(
    "save-checkpoint",
    cl::desc("Write a checkpoint (DIR/checkpoint.safetensors: the state, the "
             "position, the data order; docs/data-and-checkpoints.md) at the "
             "end of every epoch, every --checkpoint-every steps and on "
             "SIGINT/SIGTERM (the step finishes, the checkpoint is written, "
             "exit 130/143); several runs: DIR/<run>/ each (default: none)"),
    cl::init(""), cl::cat(ampRunCategory));
static cl::opt<int64_t> checkpointEvery(
    "checkpoint-every",
    cl::desc("With --save-checkpoint: also every N steps (default: 0, at the "
             "end of each epoch only)"),
    cl::init(0), cl::cat(ampRunCategory));
static cl::opt<std::string> resume(
    "resume",
    cl::desc("Continue the run from the checkpoint in DIR (DIR/<run>/ for "
             "several runs), bit for bit as if it had not stopped; --epochs "
             "counts from the run's start; a checkpoint of another step, "
             "precision or loss-scale configuration is refused (default: "
             "none)"),
    cl::init(""), cl::cat(ampRunCategory));
static cl::opt<std::string> saveModel(
    "save-model",
    cl::desc("After training, write the forward model the step was built "
             "from (--model, default: the step's amp.source_model) with the "
             "trained weights in its dense_resource "
             "blobs, every other byte as it was; one run; atomically "
             "(default: none)"),
    cl::init(""), cl::cat(ampRunCategory));
static cl::opt<std::string> modelFile(
    "model",
    cl::desc("With --save-model: the forward model (.mlir, torch-mlir's "
             "form) the step was built from by amp-build-train-step; elided "
             "weights (dense_resource<__elided__>) are named and filled in "
             "(default: the file the step records, amp.source_model)"),
    cl::init(""), cl::cat(ampRunCategory));
static cl::opt<int64_t> testSignalAtStep(
    "test-signal-at-step", cl::Hidden,
    cl::desc("Test hook: raise SIGINT after the N-th step this process "
             "trains (counted over all runs)"),
    cl::init(0), cl::cat(ampRunCategory));
static cl::opt<int64_t> testSignalWhileCompiling(
    "test-signal-while-compiling", cl::Hidden,
    cl::desc("Test hook: raise SIGINT when the N-th run (over runs and "
             "seeds, from 1) starts compiling"),
    cl::init(0), cl::cat(ampRunCategory));

// The rewrite's options, one flag per option of amp-mixed-precision with the
// same name (amp/Support/MixedPrecisionConfig.h); precision and loss-scale
// are given per run by --run.
#define AMP_RUN_SKIP(TYPE, FIELD, NAME, DEFAULT, DESC)
#define AMP_RUN_FLAG(TYPE, FIELD, NAME, DEFAULT, DESC)                         \
  static cl::opt<TYPE> FIELD##Flag(                                            \
      NAME, cl::desc(withDefault(DESC, defaultText(TYPE(DEFAULT)))),           \
      cl::init(DEFAULT), cl::cat(ampRunCategory));
#define AMP_RUN_LIST(TYPE, FIELD, NAME, DESC)                                  \
  static cl::list<TYPE> FIELD##Flag(NAME, cl::desc(DESC), cl::CommaSeparated,  \
                                    cl::cat(ampRunCategory));
AMP_MIXED_PRECISION_OPTIONS(AMP_RUN_SKIP, AMP_RUN_FLAG, AMP_RUN_LIST)
#undef AMP_RUN_SKIP
#undef AMP_RUN_FLAG
#undef AMP_RUN_LIST

/// `--threads`. libLLVM registers a hidden global option of that name
/// (unused by the JIT), so amp-run drops it and registers its own here,
/// after static initialization.
static cl::opt<unsigned> &threadsOption() {
  if (cl::Option *llvmOption = cl::getRegisteredOptions().lookup("threads"))
    llvmOption->removeArgument();
  static cl::opt<unsigned> option(
      "threads",
      cl::desc("--device=cpu: threads of the step's parallel loops "
               "(amp-lower-to-llvm threads=): 0 = every core (OpenMP's "
               "default, OMP_NUM_THREADS if set), 1 = no OpenMP; the results "
               "do not depend on it; at most 256 (default: 0)"),
      cl::init(0), cl::cat(ampRunCategory));
  return option;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  // A temporary CSV is removed also when amp-run's output pipe closes.
  amp::removeTemporaryOutputsOnSigpipe();
  cl::opt<unsigned> &cpuThreads = threadsOption();
  cl::HideUnrelatedOptions(ampRunCategory);
  cl::AddExtraVersionPrinter([](llvm::raw_ostream &os) {
    os << "amp-mlir " << AMP_VERSION << " (amp-run), built with LLVM/MLIR "
       << LLVM_VERSION_STRING << "\n";
  });
  // Passes by name for --test-extra-passes; the test-only ones before the
  // options are parsed.
  amp::registerAllPassesAndPipelines();
  for (int i = 1; i < argc; ++i)
    if (llvm::StringRef(argv[i]).ltrim('-') == "amp-enable-test-passes")
      amp::registerTestPasses();
  // amp-run names one report per run.
  autocastReportFlag.setDescription(
      "Write amp-autocast's JSON report (every op's class, reason, precision "
      "and rule) of each run: P itself for a single run, else P.<run>.json, "
      "or <run>.json inside P when P is a directory or ends with '/'; a "
      "stream or device takes one run's report only (default: none)");
  cl::ParseCommandLineOptions(
      argc, argv,
      "amp-run: train an MLIR training step in fp32 and mixed precision\n");

  // --check-gradients checks the step's own backward, in f64 and before the
  // rewrite, on one batch, and --eval-only trains nothing: a flag that only
  // shapes a training run would be ignored, so it is refused.
  if (checkGradientsFlag || evalOnly) {
    // std::addressof: cl::list's operator& yields its storage.
    std::vector<const cl::Option *> trainingOnly = {&epochs,
                                                    &maxSteps,
                                                    &seeds,
                                                    &memoryBudget,
                                                    &csvPath,
                                                    &dumpState,
                                                    &saveCheckpoint,
                                                    &checkpointEvery,
                                                    &testSignalAtStep,
                                                    &testSignalWhileCompiling,
                                                    &saveModel,
                                                    &modelFile};
#define AMP_RUN_NONE(TYPE, FIELD, NAME, DEFAULT, DESC)
    if (checkGradientsFlag) {
      trainingOnly.push_back(std::addressof(runs));
      trainingOnly.push_back(&emulateRanks);
      trainingOnly.push_back(&resume);
#define AMP_RUN_ADD(TYPE, FIELD, NAME, DEFAULT, DESC)                          \
  trainingOnly.push_back(&FIELD##Flag);
#define AMP_RUN_ADD_LIST(TYPE, FIELD, NAME, DESC)                              \
  trainingOnly.push_back(std::addressof(FIELD##Flag));
      AMP_MIXED_PRECISION_OPTIONS(AMP_RUN_NONE, AMP_RUN_ADD, AMP_RUN_ADD_LIST)
#undef AMP_RUN_ADD
#undef AMP_RUN_ADD_LIST
    } else {
      // --eval-only: the rewrite's options that the eval step does not
      // depend on (the loss scale's dynamics, the update's rounding, the
      // training step's statistics).
#define AMP_RUN_ADD_TRAINING(TYPE, FIELD, NAME, DEFAULT, DESC)                 \
  if (amp::shapesTrainingOnly(NAME))                                           \
    trainingOnly.push_back(&FIELD##Flag);
#define AMP_RUN_NONE_LIST(TYPE, FIELD, NAME, DESC)
      AMP_MIXED_PRECISION_OPTIONS(AMP_RUN_NONE, AMP_RUN_ADD_TRAINING,
                                  AMP_RUN_NONE_LIST)
#undef AMP_RUN_ADD_TRAINING
#undef AMP_RUN_NONE_LIST
    }
#undef AMP_RUN_NONE
    for (const cl::Option *option : trainingOnly)
      if (option->getNumOccurrences()) {
        llvm::errs()
            << "amp-run: "
            << (checkGradientsFlag
                    ? "--check-gradients checks the step's own backward in "
                      "f64, before the mixed-precision rewrite, on the first "
                      "batch: --"
                    : "--eval-only evaluates the step's eval step and trains "
                      "nothing: --")
            << option->ArgStr << " shapes a training run and does not apply; "
            << "drop it\n";
        return 1;
      }
    if (checkGradientsFlag && evalOnly) {
      llvm::errs() << "amp-run: --check-gradients and --eval-only are two "
                      "modes; give one\n";
      return 1;
    }
  }

  // The flags fill one request; the mode is a library function
  // (amp/Runtime/Modes.h).
  runtime::RunRequest request;
  request.mode = checkGradientsFlag ? runtime::RunRequest::Mode::CheckGradients
                 : evalOnly         ? runtime::RunRequest::Mode::EvalOnly
                                    : runtime::RunRequest::Mode::Train;
  request.stepPath = inputFile;
  request.runs.assign(runs.begin(), runs.end());
#define AMP_RUN_SET(TYPE, FIELD, NAME, DEFAULT, DESC)                          \
  request.rewrite.FIELD = FIELD##Flag;
#define AMP_RUN_SET_LIST(TYPE, FIELD, NAME, DESC)                              \
  request.rewrite.FIELD.assign(FIELD##Flag.begin(), FIELD##Flag.end());
#define AMP_RUN_NONE(TYPE, FIELD, NAME, DEFAULT, DESC)
  AMP_MIXED_PRECISION_OPTIONS(AMP_RUN_NONE, AMP_RUN_SET, AMP_RUN_SET_LIST)
#undef AMP_RUN_SET
#undef AMP_RUN_SET_LIST
#undef AMP_RUN_NONE
  request.epochs = epochs;
  request.batchSize = batchSize;
  request.batchSizeGiven = batchSize.getNumOccurrences() > 0;
  request.maxSteps = maxSteps;
  if (memoryBudget.getNumOccurrences() > 0) {
    std::optional<int64_t> bytes = parseByteCount(memoryBudget);
    if (!bytes || *bytes < 1) {
      llvm::errs() << "amp-run: --memory-budget=" << memoryBudget
                   << ": not a byte count from 1 to 2^63 - 1 (e.g. 4000000, "
                      "512M, 2Gi)\n";
      return 1;
    }
    request.memoryBudget = *bytes;
  }
  request.seed = seed;
  request.seeds = seeds;
  request.progress = progress;
  request.progressSeconds = progressSeconds;
  request.testExtraPasses = testExtraPasses;
  request.emulateRanks = emulateRanks;
  request.checkGradientsTolerance = checkGradientsTolerance;
  request.data = dataSource;
  request.dataDir = dataDir;
  request.syntheticExamples = syntheticExamples;
  request.syntheticIntRange = syntheticIntRange;
  request.syntheticLabels = syntheticLabels;
  request.classes = classes;
  request.device = device;
  request.tensorCores = tensorCores;
  request.tensorCoresGiven = tensorCores.getNumOccurrences() > 0;
  request.threads = cpuThreads;
  request.threadsGiven = cpuThreads.getNumOccurrences() > 0;
  request.bf16Dot = bf16Dot;
  request.convGemm = convGemm;
  request.convGemmGiven = convGemm.getNumOccurrences() > 0;
  request.polynomialExp = polynomialExp;
  request.polynomialExpGiven = polynomialExp.getNumOccurrences() > 0;
  request.polynomialErf = polynomialErf;
  request.polynomialErfGiven = polynomialErf.getNumOccurrences() > 0;
  request.polynomialTanh = polynomialTanh;
  request.polynomialTanhGiven = polynomialTanh.getNumOccurrences() > 0;
  request.dataParallel = dataParallel;
  request.dpBucket = dpBucket;
  request.dpReducePrecision = dpReducePrecision;
  request.dpTimeout = dpTimeout;
  request.testInject = testInject;
  request.csvPath = csvPath;
  request.dumpStatePath = dumpState;
  request.saveCheckpoint = saveCheckpoint;
  request.checkpointEvery = checkpointEvery;
  request.resume = resume;
  request.saveModel = saveModel;
  request.model = modelFile;
  request.testSignalAtStep = testSignalAtStep;
  request.testSignalWhileCompiling = testSignalWhileCompiling;
  return runtime::runRequest(request, llvm::outs(), llvm::errs());
}
