//===- EvalOnly.cpp - amp-run --eval-only ---------------------------------===//
//
// The eval step on the test set from the step's initial values (a model's
// own weights) or a checkpoint's (--resume), for each run; nothing is
// trained.
//
//===----------------------------------------------------------------------===//

#include "Session.h"

#include "llvm/Support/Format.h"

#include <algorithm>
#include <vector>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

int mlir::amp::runtime::evaluateOnly(const RunRequest &request,
                                     llvm::raw_ostream &out,
                                     llvm::raw_ostream &err) {
  Session session(request, out, err);
  if (std::optional<int> failed = session.setUp())
    return *failed;
  // Every run is evaluated before the table is printed: a run that cannot
  // be (a checkpoint of another step, a failed compile) is refused without
  // a table.
  std::vector<EvalResult> results;
  for (size_t i = 0; i < session.configs.size(); ++i) {
    TrainOptions o = session.configs[i];
    session.outputsFor(i, request.seed, o);
    auto r = evaluate(*session.module, o, *session.backend, *session.testSet);
    if (!r)
      return session.fail(session.runLabel(session.runSpecs[i]) +
                          llvm::toString(r.takeError()));
    results.push_back(std::move(*r));
  }
  // The run column fits the longest run name.
  int width = 16;
  for (const EvalResult &r : results)
    width = std::max(width, static_cast<int>(r.name.size()));
  out << "\n"
      << llvm::format("%-*s %10s %12s %8s  %s\n", width, "run", "test acc",
                      "test loss", "examples", "from");
  for (const EvalResult &r : results)
    out << llvm::format("%-*s %10.4f %12.6f %8lld  %s\n", width, r.name.c_str(),
                        r.accuracy, r.loss, (long long)r.examples,
                        r.startedFrom.c_str());
  out << "(test loss: the mean cross-entropy of the eval step's logits)\n";
  out.flush();
  return 0;
}
