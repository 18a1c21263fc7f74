//===- Pipelines.h - named amp pass pipelines -------------------*- C++ -*-===//
//
// The project's pipelines as C++ functions, so that a compiler embedding the
// library builds exactly what `amp-opt --amp-mixed-precision` and
// `--amp-lower-to-llvm` run.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_PIPELINES_PIPELINES_H
#define AMP_PIPELINES_PIPELINES_H

#include "amp/Support/MixedPrecisionConfig.h"
#include "amp/Support/OptionParsers.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"
#include <functional>
#include <optional>

namespace mlir::amp {

/// The textual options of the registered `amp-mixed-precision` pipeline:
/// one option per entry of AMP_MIXED_PRECISION_OPTIONS
/// (amp/Support/MixedPrecisionConfig.h), same names, defaults and
/// descriptions. Everything else takes the plain `MixedPrecisionConfig`.
struct MixedPrecisionOptions
    : public PassPipelineOptions<MixedPrecisionOptions> {
#define AMP_PIPELINE_OPTION(TYPE, FIELD, NAME, DEFAULT, DESC)                  \
  Option<TYPE> FIELD{*this, NAME, llvm::cl::desc(DESC),                        \
                     llvm::cl::init(DEFAULT)};
#define AMP_PIPELINE_LIST(TYPE, FIELD, NAME, DESC)                             \
  ListOption<TYPE> FIELD{*this, NAME, llvm::cl::desc(DESC)};
  AMP_MIXED_PRECISION_OPTIONS(AMP_PIPELINE_OPTION, AMP_PIPELINE_OPTION,
                              AMP_PIPELINE_LIST)
#undef AMP_PIPELINE_OPTION
#undef AMP_PIPELINE_LIST

  /// The options as the plain struct (every field set).
  MixedPrecisionConfig toConfig() const;
};

/// Adds `amp-autocast` with `config.precision` and the autocast options
/// (nothing for f32 unless a report was asked for: the pass then warns that
/// none is written).
void addAutocast(OpPassManager &pm, const MixedPrecisionConfig &config);

/// Adds `amp-loss-scaling` with the loss-scale options (mode from
/// `config.lossScale`; `precision` resolves auto and rejects bf16).
void addLossScaling(OpPassManager &pm, const MixedPrecisionConfig &config);

/// Contract check, autocast (unless precision=f32), canonicalize + cse, loss
/// scaling (unless loss-scale=none), amp-master-weights (unless
/// master-weights=f32), amp-instrument-updates (with update-stats), cse.
/// The result still holds amp
/// ops (unscale_and_check, update_scale) and tensors.
///
/// `observe`, when set, is called on every `amp.train_step` function after
/// amp-recompute-for-backward and before amp-loss-scaling, where the
/// `amp.loss_grad` seed still marks where the backward starts: the step as
/// it will run, for e.g. its memory report (Analysis/MemoryReport.h; amp-run
/// prints one per run). It must not change the IR.
using TrainStepObserver = std::function<void(func::FuncOp step)>;
void buildMixedPrecisionPipeline(OpPassManager &pm,
                                 const MixedPrecisionConfig &config,
                                 TrainStepObserver observe = nullptr);

/// What `amp-lower-to-llvm` can be asked for.
struct LowerToLLVMConfig {
  /// Threads that run the step's parallel loops (contraction tiles,
  /// elementwise and reduction chunks, the fused check;
  /// amp-cpu-parallelize): 0 = OpenMP's default (every core, or
  /// OMP_NUM_THREADS), N > 1 = exactly N (OpenMP num_threads), 1 = plain
  /// loops without OpenMP. Unless 1, the code calls libomp (`__kmpc_*`),
  /// which the JIT loads (JitModule). Results do not depend on it.
  unsigned threads = 0;
  /// Elementwise fusion on tensors (amp-cpu-fuse-elementwise; without it
  /// the pass runs with unscale-only, fusing just the unscale split off the
  /// fused check into the optimizer update). Same bits
  /// (ThreadDeterminismTest and LossScalingProperty.ScaleOneIsBitIdentical
  /// check with it). Off by default: it makes the transformer-block step
  /// slower on the CPU (docs/performance.md).
  bool fuse = false;
  /// The CPU's AVX512_BF16 instructions: bf16 x bf16 -> f32 contractions
  /// on `vdpbf16ps` (amp-cpu-tile-contractions bf16-dot), and f32 -> bf16
  /// roundings on `vcvtneps2bf16` (LLVM's own lowering of `fptrunc`, where
  /// off they are integer ops): the code then runs only on CPUs with
  /// AVX512_BF16. Unset: off here, and JitModule::compile decides from the
  /// host's CPU features (on where it has AVX512_BF16). The results are
  /// those of the FMA kernel and the integer rounding bit for bit, but for
  /// denormals (inputs, products, partial sums and rounded values below
  /// 1.2e-38, which the instructions read and write as zero) and NaN
  /// payloads (docs/performance.md).
  std::optional<bool> bf16Dot;
  /// Convolutions and their weight and input gradients as one GEMM per
  /// image on the micro-kernels (amp-cpu-convolutions-to-gemm: im2col);
  /// off, they run as loop nests. Not the same bits: the GEMM sums each
  /// output's terms in another order.
  bool convolutionsAsGemm = true;
  /// linalg ops with short rows (< 64), f16 values or reductions inside
  /// their rows (poolings) as loops over explicit vectors of their output
  /// rows (amp-cpu-vectorize-rows), where LLVM's loop vectorizer leaves
  /// them scalar. Same bits.
  bool vectorizeRows = true;
  /// f32 exponentials as a polynomial (amp-cpu-polynomial-exp: upstream's
  /// Cephes approximation, NaN passed through), which vectorizes, instead
  /// of one libm `expf` call per element. Not the same bits: within 1 ulp
  /// of exp rounded to f32 (6 ulp just below overflow), results below
  /// 2^-126 approximate and 0 below about x = -87.65.
  bool polynomialExp = true;
  /// f32 erf (an exact GELU's) as a rational approximation
  /// (amp-cpu-polynomial-erf: upstream's), which vectorizes, instead of
  /// one libm `erff` call per element. Not the same bits: within 3e-7 of
  /// erf (absolute).
  bool polynomialErf = true;
  /// f32 tanh (a tanh-form GELU's) as a rational approximation
  /// (amp-cpu-polynomial-tanh: upstream's), which vectorizes, instead of
  /// one libm `tanhf` call per element. Not the same bits: within 6 ulp
  /// of tanh rounded to f32.
  bool polynomialTanh = true;
  /// Every outermost loop nest of the step as a function of its own
  /// (amp-cpu-outline-loop-nests), so that LLVM compiles many small
  /// functions instead of one huge one: MobileNetV3's `opt -O3` 31 s ->
  /// 18 s, amp-run's whole compile 0.62-0.80x (docs/performance.md).
  /// Same bits.
  bool outlineLoops = true;
  /// NR of the FMA micro-kernel (amp-cpu-tile-contractions tile-cols: f32
  /// contractions, and f16 / bf16 ones on widened operands): 16, one
  /// vector<16xf32> per row of a 6-row tile, twelve 8-wide accumulators on
  /// AVX2's 16 registers; on AVX-512's 32 registers that is six 16-wide
  /// ones, too few to cover an FMA's latency at two per cycle, and 32
  /// (twelve) made the f32 steps 1.1-1.3x faster on an AMD EPYC with
  /// AVX-512 (docs/performance.md). Unset: 16 here, and JitModule::compile
  /// decides from the host's CPU features (32 where it has AVX-512F). Any
  /// width runs on any x86-64 CPU (wider vectors are split); the results
  /// are the same bits (each element of C adds its products in the same
  /// order).
  std::optional<int64_t> fmaTileCols;
};

/// The textual options of the registered `amp-lower-to-llvm` pipeline.
struct LowerToLLVMOptions : public PassPipelineOptions<LowerToLLVMOptions> {
  Option<unsigned> threads{
      *this, "threads",
      llvm::cl::desc("Threads of the step's parallel loops: 0 = every core "
                     "(OpenMP's default, OMP_NUM_THREADS), 1 = no OpenMP, N "
                     "= N threads; results do not depend on it"),
      llvm::cl::init(0)};
  Option<bool> fuse{
      *this, "fuse",
      llvm::cl::desc("Fuse every elementwise chain on tensors (experimental, "
                     "off by default: it slows the transformer-block step; "
                     "the unscale is fused into the optimizer either way)"),
      llvm::cl::init(false)};
  Option<bool> bf16Dot{
      *this, "bf16-dot",
      llvm::cl::desc("bf16 contractions on AVX512_BF16's vdpbf16ps and "
                     "f32 -> bf16 roundings on its vcvtneps2bf16 (the code "
                     "then needs a CPU with it; amp-run and the JIT decide "
                     "from the host's features)"),
      llvm::cl::init(false)};
  Option<bool> convolutionsAsGemm{
      *this, "conv-gemm",
      llvm::cl::desc("Convolutions and their gradients as one GEMM per image "
                     "on the micro-kernels (im2col; default on)"),
      llvm::cl::init(true)};
  Option<bool> vectorizeRows{
      *this, "vectorize-rows",
      llvm::cl::desc("Ops with short rows, f16 values or pooling windows "
                     "as loops over vectors of their output rows "
                     "(amp-cpu-vectorize-rows; default on, same bits)"),
      llvm::cl::init(true)};
  Option<bool> polynomialExp{
      *this, "polynomial-exp",
      llvm::cl::desc("f32 math.exp as a vectorizing polynomial "
                     "(amp-cpu-polynomial-exp; default on; within 1 ulp, "
                     "0 below about x = -87.65) instead of libm's expf"),
      llvm::cl::init(true)};
  Option<bool> polynomialErf{
      *this, "polynomial-erf",
      llvm::cl::desc("f32 math.erf as a vectorizing rational approximation "
                     "(amp-cpu-polynomial-erf; default on; within 3e-7 of "
                     "erf) instead of libm's erff"),
      llvm::cl::init(true)};
  Option<bool> polynomialTanh{
      *this, "polynomial-tanh",
      llvm::cl::desc("f32 math.tanh as a vectorizing rational approximation "
                     "(amp-cpu-polynomial-tanh; default on; within 6 ulp) "
                     "instead of libm's tanhf"),
      llvm::cl::init(true)};
  Option<bool> outlineLoops{
      *this, "outline-loops",
      llvm::cl::desc("Every outermost loop nest as a function of its own "
                     "(amp-cpu-outline-loop-nests; default on, same bits): "
                     "LLVM compiles a large step faster"),
      llvm::cl::init(true)};
  Option<int64_t> fmaTileCols{
      *this, "fma-tile-cols",
      llvm::cl::desc(
          "Columns of C per FMA micro-tile (amp-cpu-tile-contractions "
          "tile-cols; same bits): 16 for AVX2's registers, 32 for "
          "AVX-512's (amp-run and the JIT decide from the host's "
          "features)"),
      llvm::cl::init(16)};
  LowerToLLVMConfig toConfig() const {
    return {threads,       fuse,          bf16Dot,       convolutionsAsGemm,
            vectorizeRows, polynomialExp, polynomialErf, polynomialTanh,
            outlineLoops,  fmaTileCols};
  }
};

/// Lowers a (mixed-precision or fp32) step to the LLVM dialect for the CPU:
/// amp ops to linalg, contraction loops ordered for SIMD, one-shot
/// bufferization with identity layouts at function boundaries, results as
/// caller-allocated out-params (every public function then returns nothing
/// and takes one memref per argument and per former result), ownership-based
/// deallocation, non-contiguous copies as loops (no runtime library
/// needed), register-tiled contractions, parallel chunks on
/// `config.threads` threads (OpenMP), loops, bf16 expansion, LLVM.
/// Functions that should be callable from C need `llvm.emit_c_interface`
/// before this runs.
void buildLowerToLLVMPipeline(OpPassManager &pm,
                              const LowerToLLVMConfig &config = {});

/// Stage of amp-lower-to-llvm and amp-lower-to-nvvm, after one-shot
/// bufferization and before buffer-results-to-out-params: a memref returned
/// twice by one func.return (`return %m, %m`) is copied into a fresh buffer,
/// so that every out-parameter gets its own (upstream
/// buffer-results-to-out-params{hoist-static-allocs} crashes otherwise).
std::unique_ptr<Pass> createDistinctReturnedBuffersPass();

/// The check at the start of `pipeline` (amp-lower-to-llvm, amp-lower-to-nvvm)
/// of inputs it is known not to handle, each a located error that says what
/// to do: `dense_resource` constants without data or of the wrong size, an
/// expand_shape group of more than one dynamic size (upstream
/// expand-strided-metadata crashes on it), static shapes of 2^63 bytes or
/// more; with `checkDialects`, also every op of a dialect the CPU pipeline
/// does not lower. TOSA ops left dead by the TOSA conversions are erased.
std::unique_ptr<Pass> createCheckLowerableInputPass(llvm::StringRef pipeline,
                                                    bool checkDialects);

/// canonicalize without upstream's RemoveDuplicateSuccessorInputUses, which
/// is quadratic in the results of the skip-update scf.if (Pipelines.cpp).
std::unique_ptr<Pass> createStepCanonicalizer();

/// Tensors to buffers, shared by the CPU and GPU lowerings: one-shot
/// bufferization (function boundaries with identity layouts, allocations
/// returned from micro-batch loops allowed), distinct returned buffers,
/// results to out-params (public functions too, static allocations
/// hoisted), with `sinkResultCopies` amp-cpu-sink-result-copies (the CPU
/// lowering: the skip-update region writes the new state in place) and
/// buffer-loop-hoisting (static allocations in loops made once, before
/// them), then the ownership-based deallocation pipeline.
void addBufferizeToOutParams(OpPassManager &pm, bool sinkResultCopies = false);

/// Registers `amp-mixed-precision` and `amp-lower-to-llvm`.
void registerAmpPipelines();

/// Options of `amp-lower-to-nvvm` (docs/gpu.md). Defaults target Hopper.
struct LowerToNVVMOptions : public PassPipelineOptions<LowerToNVVMOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("CUDA SM architecture, e.g. sm_80, "
                                          "sm_90"),
                           llvm::cl::init("sm_90")};
  Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX target features (PTX ISA version), e.g. +ptx80"),
      llvm::cl::init("+ptx80")};
  Option<std::string> format{
      *this, "format",
      llvm::cl::desc("Kernel object format: isa (PTX text), bin (cubin via "
                     "ptxas) or fatbin (cubin + PTX via ptxas and fatbinary)"),
      llvm::cl::init("fatbin")};
  Option<unsigned> optLevel{*this, "opt-level",
                            llvm::cl::desc("LLVM optimization level (0-3) of "
                                           "the kernels"),
                            llvm::cl::init(3)};
  Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("CUDA toolkit directory holding bin/ptxas and "
                     "nvvm/libdevice (default: $CUDA_HOME, then "
                     "/usr/local/cuda)"),
      llvm::cl::init("")};
  Option<bool> kernelBarePointers{
      *this, "kernel-bare-pointers",
      llvm::cl::desc("Pass memrefs to kernels as bare pointers (8 bytes "
                     "instead of a descriptor; needs static shapes, so "
                     "turn it off for dynamic ones)"),
      llvm::cl::init(true)};
  Option<int64_t> blockSize{
      *this, "block-size",
      llvm::cl::desc("Threads per block of one-dimensional loops"),
      llvm::cl::init(256)};
  Option<bool> tensorCores{
      *this, "tensor-cores",
      llvm::cl::desc("f16/bf16 contractions with f32 accumulation whose sizes "
                     "are multiples of 16 x 8 x 16 run on Tensor Cores "
                     "(mma.sync, amp-gpu-tensor-core-contractions) when chip "
                     "is sm_80 or newer; the rest stay one thread per "
                     "output"),
      llvm::cl::init(true)};
};

/// Lowers a (mixed-precision or fp32) step to host LLVM code plus one
/// `gpu.binary` of CUDA kernels for `options.chip`: the fused
/// unscale-and-check as one kernel over every gradient, skip decision and
/// loss-scale update on the device (no host read of found_inf), amp ops to
/// linalg, one-shot bufferization with results as out-params (every memref
/// is device memory), linalg to parallel loops tiled to blocks and threads,
/// kernel outlining, NVVM, one stream per step (gpu-async-region), host code
/// to LLVM calling the `mgpu*` runtime (lib/amp/Runtime/CudaRuntime.cpp),
/// serialization with the CUDA toolkit. Fails located on any op left
/// unconverted (`amp-check-nvvm-lowering`).
void buildLowerToNVVMPipeline(OpPassManager &pm,
                              const LowerToNVVMOptions &options);

/// Empty when `options` name a chip that LLVM's NVPTX backend knows
/// (sm_XY with an optional suffix: sm_80, sm_90a), features that are NVPTX
/// features with a PTX version the chip accepts, a block-size of 1-1024 and
/// an opt-level of 0-3; otherwise why not, one line. `amp-lower-to-nvvm` on the
/// command line fails with it; callers of buildLowerToNVVMPipeline should check
/// first (an unknown chip otherwise aborts in LLVM's instruction selection of
/// mma.sync or fails in ptxas).
std::string checkLowerToNVVMOptions(const LowerToNVVMOptions &options);

/// Registers `amp-lower-to-nvvm`.
void registerAmpGPUPipelines();

} // namespace mlir::amp

#endif // AMP_PIPELINES_PIPELINES_H
