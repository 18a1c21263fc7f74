//===- CheckGradients.cpp - amp-run --check-gradients ---------------------===//

#include "Session.h"

#include "amp/Runtime/GradientCheck.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/FormatVariadic.h"

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

int mlir::amp::runtime::checkGradientsMode(const RunRequest &request,
                                           llvm::raw_ostream &out,
                                           llvm::raw_ostream &err) {
  Session session(request, out, err);
  if (std::optional<int> failed = session.setUp())
    return *failed;
  GradientCheckOptions options;
  options.seed = request.seed;
  options.batchSize = request.batchSize;
  out << "amp-run: gradient check (f64, central differences, h = "
      << llvm::format("%g", options.relativeStep) << " x max(1, |w|), the "
      << options.largest << " largest and " << options.random
      << " random elements of every parameter; a disagreement is "
         "retried with h / 100 and h / 10^4 while their rounding noise stays "
         "below 1e-3 of the gradient; a difference within the quotient's "
         "rounding noise counts as 0)\n";
  // A model that rounds to 16 bits itself is checked without its roundings
  // (amp-promote-to-f64 low-precision): say so.
  bool rounds = false;
  session.module->walk([&](Operation *op) {
    for (Type t : op->getResultTypes()) {
      Type e = getElementTypeOrSelf(t);
      rounds |= e.isF16() || e.isBF16();
    }
  });
  if (rounds)
    out << "amp-run: the step computes f16/bf16 values of its own; they are "
           "computed in f64 here (its roundings left out: finite differences "
           "of a rounded loss are steps, and the backward treats each "
           "rounding as the identity)\n";
  auto result = checkGradients(*session.module, options, *session.backend,
                               *session.trainSet);
  if (!result)
    return session.fail("--check-gradients: " +
                        llvm::toString(result.takeError()));
  out << llvm::format("%-10s %-20s %8s %14s %14s %14s\n", "argument",
                      "parameter", "elements", "worst rel err", "backward",
                      "finite diff");
  // A parameter whose every checked element sits on a kink (a bias
  // before a ReLU whose inputs tie, common from a random start) was not
  // checked at all: its row and the verdict say so.
  std::string unchecked;
  for (const ParameterCheck &p : result->params) {
    bool allKinks = p.checked > 0 && p.kinks == p.checked;
    if (allKinks)
      unchecked +=
          (unchecked.empty() ? "#" : ", #") + std::to_string(p.argument);
    std::string error =
        allKinks ? "all on kinks" : llvm::formatv("{0:e3}", p.worstError).str();
    out << llvm::format("#%-9u %-20s %8lld %14s %14.6e %14.6e\n", p.argument,
                        p.type.c_str(), (long long)p.checked, error.c_str(),
                        p.analytic, p.numeric);
  }
  int64_t kinks = 0, checked = 0;
  for (const ParameterCheck &p : result->params) {
    kinks += p.kinks;
    checked += p.checked;
  }
  if (kinks)
    out << kinks << " of " << checked
        << " elements sit on a kink of the loss (ReLU at 0, a max "
           "tie): the one-sided differences disagree and the "
           "backward lies between them, so they count as agreeing\n";
  double worst = result->worstError();
  bool passed = worst <= request.checkGradientsTolerance;
  out << "loss " << llvm::format("%.6f", result->loss)
      << ", worst relative error " << llvm::format("%.3e", worst)
      << " (tolerance " << llvm::format("%g", request.checkGradientsTolerance)
      << "): " << (passed ? "passed" : "FAILED");
  if (!unchecked.empty())
    out << "; not checked: parameter"
        << (unchecked.find(',') != std::string::npos ? "s " : " ") << unchecked
        << " (every checked element sits on a kink; another --seed or "
           "the model's trained weights may check them)";
  out << "\n";
  out.flush();
  if (!passed)
    err << "amp-run: --check-gradients: the backward differs from "
           "the finite differences of the loss (worst relative "
           "error "
        << llvm::format("%.3e", worst) << ")\n";
  return passed ? 0 : 1;
}
