//===- GradientCheck.cpp - a step's backward against its own loss ---------===//

#include "amp/Runtime/GradientCheck.h"

#include "amp/Analysis/ParameterFanIn.h"
#include "amp/Analysis/TrainingStep.h"
#include "amp/Conversion/Passes.h"
#include "amp/Runtime/Batches.h"
#include "amp/Runtime/BoundStep.h"
#include "amp/Runtime/ParameterInit.h"
#include "amp/Runtime/Trainer.h"
#include "amp/Support/Diagnostics.h"
#include "amp/Transforms/Passes.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

static constexpr llvm::StringLiteral kCheckedFn = "amp_gradient_check";
/// The same function returning the loss alone: the finite differences call
/// it, and the lowering drops its dead backward (a third of the work).
static constexpr llvm::StringLiteral kLossFn = "amp_gradient_check_loss";

/// Adds @kLossFn, a copy of @kCheckedFn that returns only its first result.
static void addLossOnlyFunction(ModuleOp module) {
  auto fn = module.lookupSymbol<func::FuncOp>(kCheckedFn);
  OpBuilder b(fn);
  b.setInsertionPointAfter(fn);
  auto copy = cast<func::FuncOp>(b.clone(*fn));
  copy.setSymName(kLossFn);
  auto ret = cast<func::ReturnOp>(copy.getBody().front().getTerminator());
  Value loss = ret.getOperand(0);
  b.setInsertionPoint(ret);
  func::ReturnOp::create(b, ret.getLoc(), loss);
  ret.erase();
  copy.setFunctionType(FunctionType::get(
      module.getContext(), copy.getArgumentTypes(), loss.getType()));
}
/// f64 units in the last place of the loss that a difference quotient does
/// not resolve (GradientCheck.h).
static constexpr double kNoiseUlps = 16;
/// A relative disagreement above this is retried with smaller steps.
static constexpr double kRetryBelow = 1e-7;
/// A retry's rounding noise grows as 1/h: one whose noise exceeds this
/// fraction of the gradient cannot tell a wrong gradient from a right one,
/// and is no evidence (it would excuse a backward 2x off for gradients
/// near 1e-5).
static constexpr double kRetryMaxNoise = 1e-3;

/// Whether the loss has a kink at the checked point along one element
/// (ParameterCheck::kinks): the one-sided slopes disagree by more than
/// 1e-4 of the larger (plus the quotients' rounding noise) and `analytic`
/// lies between them. (1e-3 missed a kink crossed within h on one side:
/// AlexNet's first conv bias, gap ~7e-4, central error 3.5e-4.)
static bool isKink(double plus, double at, double minus, double h,
                   double analytic, double noise) {
  double right = (plus - at) / h, left = (at - minus) / h;
  double gap = std::fabs(right - left);
  if (!(gap > 1e-4 * std::max(std::fabs(right), std::fabs(left)) + 4 * noise))
    return false;
  double slack = 1e-6 * std::max(std::fabs(right), std::fabs(left)) + 2 * noise;
  return analytic >= std::min(left, right) - slack &&
         analytic <= std::max(left, right) + slack;
}

double GradientCheckResult::worstError() const {
  double worst = 0;
  for (const ParameterCheck &p : params)
    worst = std::max(worst, p.worstError);
  return worst;
}

FailureOr<SmallVector<unsigned>>
mlir::amp::runtime::makeGradientFunction(ModuleOp module, StringRef name) {
  func::FuncOp fn;
  for (auto f : llvm::make_early_inc_range(module.getOps<func::FuncOp>())) {
    if (f->hasAttr(kTrainStepAttr) && !fn)
      fn = f;
    else
      f.erase();
  }
  FailureOr<TrainingStep> step =
      TrainingStep::analyze(fn, /*requireMarkers=*/true);
  if (failed(step))
    return failure();
  if (!fn.getBody().hasOneBlock())
    return emitError(fn.getLoc(),
                     "the gradient check needs a single-block step");
  auto ret = cast<func::ReturnOp>(fn.getBody().front().getTerminator());
  SmallVector<Value> results{ret.getOperand(step->lossResult)};
  for (unsigned p : step->params)
    results.push_back(step->gradOfParam.lookup(p).getRaw());
  OpBuilder b(ret);
  func::ReturnOp::create(b, ret.getLoc(), results);
  ret.erase();
  fn.setFunctionType(FunctionType::get(
      module.getContext(), fn.getArgumentTypes(), TypeRange(results)));
  fn.removeResAttrsAttr();
  fn->removeAttr(kTrainStepAttr);
  fn.setSymName(name);
  return SmallVector<unsigned>(step->params.begin(), step->params.end());
}

/// Element `i` of an f64 buffer's host copy.
static double &at(DeviceBuffer &b, int64_t i) {
  return b.host().as<double>()[i];
}

llvm::Expected<GradientCheckResult>
mlir::amp::runtime::checkGradients(ModuleOp module,
                                   const GradientCheckOptions &options,
                                   Backend &backend, const Dataset &data) {
  TrainOptions run;
  run.batchSize = options.batchSize;
  run.seed = options.seed;
  auto plan = planRun(module, run);
  if (!plan)
    return plan.takeError();
  if (llvm::Error err = checkRunAgainstData(*plan, data, data))
    return std::move(err);

  // The fan-in of each parameter, read before the step is retyped.
  func::FuncOp trainFn = findSteps(module)->first; // planRun found it
  std::vector<std::optional<int64_t>> fanIn;
  for (BlockArgument arg : trainFn.getArguments())
    fanIn.push_back(contractionFanIn(arg));

  OwningOpRef<ModuleOp> work(cast<ModuleOp>(module->clone()));
  SmallVector<unsigned> params;
  {
    DiagnosticCollector diagnostics(module.getContext());
    FailureOr<SmallVector<unsigned>> p =
        makeGradientFunction(*work, kCheckedFn);
    if (failed(p))
      return diagnostics.makeError("the gradient check cannot use the step");
    params = std::move(*p);
    addLossOnlyFunction(*work);
  }
  if (llvm::Error err = runPipeline(
          *work,
          [](OpPassManager &pm) {
            pm.addPass(createLowerAmpToStandard());
            // The model's own f16/bf16 roundings left out: finite
            // differences of a rounded loss are steps.
            PromoteToF64Options promote;
            promote.lowPrecision = true;
            pm.addPass(createPromoteToF64(promote));
          },
          "amp-lower-to-standard, amp-promote-to-f64{low-precision}"))
    return std::move(err);
  auto fn = work->lookupSymbol<func::FuncOp>(kCheckedFn);
  std::vector<TensorSpec> argSpecs, resultSpecs;
  for (Type t : fn.getArgumentTypes()) {
    auto spec = TensorSpec::fromType(t, plan->batch);
    if (!spec)
      return spec.takeError();
    argSpecs.push_back(*spec);
  }
  for (Type t : fn.getResultTypes()) {
    auto spec = TensorSpec::fromType(t, plan->batch);
    if (!spec)
      return spec.takeError();
    resultSpecs.push_back(*spec);
  }
  FailureOr<TrainingStep> roles =
      TrainingStep::analyze(trainFn, /*requireMarkers=*/true);
  unsigned labelArg = roles->label;
  auto jit = backend.compile(*work, {kCheckedFn, kLossFn});
  if (!jit)
    return jit.takeError();
  std::vector<std::unique_ptr<DeviceBuffer>> args, results;
  for (const TensorSpec &s : argSpecs)
    args.push_back(backend.allocate(s));
  for (const TensorSpec &s : resultSpecs)
    results.push_back(backend.allocate(s));

  // The state and the first batch of a training run with this seed
  // (BoundStep::resetState: a parameter's amp.initial_value, else a draw;
  // then the shuffle), widened to f64.
  auto layout = StepLayout::read(module, plan->batch);
  if (!layout)
    return layout.takeError();
  std::mt19937_64 rng(options.seed);
  for (unsigned p : params) {
    TensorSpec f32 = argSpecs[p];
    f32.kind = ElementKind::F32;
    HostTensor init(f32);
    const std::vector<char> &data = layout->initialData[p];
    if (!data.empty())
      std::memcpy(init.data(), data.data(), data.size());
    else
      initParameter(init, rng, fanIn[p]);
    {
      // A bias starts at exactly 0 (initParameter without data; torchvision
      // sets conv biases to 0 explicitly, exported as dense<0.0>), and then
      // every ReLU input it alone decides (a zero-padded border, an all-zero
      // patch after a ReLU) sits exactly on the ReLU's kink, where finite
      // differences disagree with any backward. The check runs at a point
      // off the kinks instead: such a parameter is drawn from U(-b, b),
      // b = 1/sqrt(fan-in) (0.1 when unknown), PyTorch's nn.Linear /
      // nn.Conv2d bias initialisation.
      bool allZero = true;
      for (int64_t i = 0; i < f32.numElements() && allZero; ++i)
        allZero = init.as<float>()[i] == 0.0f;
      if (argSpecs[p].shape.size() < 2 && allZero) {
        float bound = fanIn[p] && *fanIn[p] > 0
                          ? 1.0f / std::sqrt(static_cast<float>(*fanIn[p]))
                          : 0.1f;
        std::uniform_real_distribution<float> dist(-bound, bound);
        for (int64_t i = 0; i < f32.numElements(); ++i)
          init.as<float>()[i] = dist(rng);
      }
    }
    for (int64_t i = 0; i < f32.numElements(); ++i)
      at(*args[p], i) = init.as<float>()[i];
  }
  std::vector<int64_t> order(data.numExamples);
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  {
    // Every input and the label or target, in the types of the f64 step
    // (float inputs widened, integer inputs as they are).
    std::vector<HostTensor *> inputs;
    for (unsigned i : roles->inputs)
      inputs.push_back(&args[i]->host());
    fillStepBatch(data, order, 0, plan->batch, inputs, &args[labelArg]->host());
  }
  for (auto &a : args)
    a->upload();

  SmallVector<void *> descriptors;
  for (auto &a : args)
    descriptors.push_back(a->descriptor());
  for (auto &r : results)
    descriptors.push_back(r->descriptor());
  SmallVector<void *> lossDescriptors(descriptors.begin(),
                                      descriptors.begin() + args.size() + 1);
  auto call = [&](StringRef fnName,
                  SmallVector<void *> &with) -> llvm::Expected<double> {
    if (llvm::Error err = (*jit)->invokeDescriptors(fnName, with))
      return std::move(err);
    if (llvm::Error err = backend.checkCall())
      return std::move(err);
    return results[0]->readScalar<double>();
  };
  auto lossAt = [&]() { return call(kLossFn, lossDescriptors); };

  GradientCheckResult result;
  auto loss = call(kCheckedFn, descriptors);
  if (!loss)
    return loss.takeError();
  if (!std::isfinite(*loss))
    return makeError("the loss is not finite at the checked point");
  result.loss = *loss;
  std::vector<std::vector<double>> grads;
  for (size_t k = 0; k < params.size(); ++k) {
    DeviceBuffer &g = *results[k + 1];
    g.download();
    grads.emplace_back(g.host().as<double>(),
                       g.host().as<double>() + g.spec().numElements());
  }

  for (size_t k = 0; k < params.size(); ++k) {
    unsigned p = params[k];
    const std::vector<double> &g = grads[k];
    DeviceBuffer &w = *args[p];
    ParameterCheck check;
    check.argument = p;
    TensorSpec f32 = argSpecs[p];
    f32.kind = ElementKind::F32;
    check.type = f32.str();
    std::vector<int64_t> picks(g.size());
    std::iota(picks.begin(), picks.end(), 0);
    size_t largest = std::min<size_t>(options.largest, g.size());
    std::partial_sort(picks.begin(), picks.begin() + largest, picks.end(),
                      [&](int64_t a, int64_t b) {
                        return std::fabs(g[a]) > std::fabs(g[b]);
                      });
    picks.resize(largest);
    if (!g.empty()) {
      std::uniform_int_distribution<int64_t> any(0, g.size() - 1);
      for (int r = 0; r < options.random; ++r)
        picks.push_back(any(rng));
    }
    for (int64_t e : picks) {
      double saved = at(w, e);
      // A kink of the loss (a ReLU input, a max tie) closer to the point
      // than the step makes the difference quotient straddle it; a smaller
      // step does not, so a disagreement is retried with h / 100 and
      // h / 10^4 and the closest agreement counts. A kink exactly at the
      // point stays for every step: isKink. A retry counts only while its
      // rounding noise is below kRetryMaxNoise of the gradient.
      double error = INFINITY, numeric = 0;
      bool kink = false;
      double h = options.relativeStep * std::max(1.0, std::fabs(saved));
      for (int attempt = 0; attempt < 3 && error > kRetryBelow;
           ++attempt, h *= 1e-2) {
        at(w, e) = saved + h;
        w.upload();
        auto plus = lossAt();
        if (!plus)
          return plus.takeError();
        at(w, e) = saved - h;
        w.upload();
        auto minus = lossAt();
        if (!minus)
          return minus.takeError();
        at(w, e) = saved;
        w.upload();
        double quotient = (*plus - *minus) / (2 * h);
        // The difference quotient cannot resolve less than the rounding of
        // the two losses it subtracts (with margin for the rounding of the
        // loss's own reduction); that much of a disagreement is not
        // counted.
        double noise = kNoiseUlps * std::ldexp(1.0, -52) *
                       (std::fabs(*plus) + std::fabs(*minus)) / (2 * h);
        double magnitude =
            std::max({std::fabs(g[e]), std::fabs(quotient), 1e-300});
        if (attempt > 0 && noise > kRetryMaxNoise * magnitude)
          break; // smaller steps resolve even less
        double err =
            std::max(0.0, std::fabs(g[e] - quotient) - noise) / magnitude;
        if (!std::isfinite(err))
          err = INFINITY;
        bool atKink = err > 0 && isKink(*plus, *loss, *minus, h, g[e], noise);
        if (atKink)
          err = 0;
        if (attempt == 0 || err < error) {
          error = err;
          numeric = quotient;
          kink = atKink;
        }
      }
      if (kink)
        ++check.kinks;
      ++check.checked;
      if (check.checked == 1 || error > check.worstError) {
        check.worstElement = e;
        check.worstError = error;
        check.analytic = g[e];
        check.numeric = numeric;
      }
    }
    result.params.push_back(check);
  }
  return result;
}
