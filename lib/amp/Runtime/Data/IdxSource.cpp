//===- IdxSource.cpp - MNIST-format IDX directories -----------------------===//
//
// `--data=fashion-mnist` and `--data=idx:DIR`: the four IDX files of an
// MNIST-format directory (IdxDataset.h reads them, gzip or not).
//
//===----------------------------------------------------------------------===//

#include "amp/Runtime/Data/DataSource.h"

#include "llvm/Support/FileSystem.h"

using namespace mlir::amp::runtime;

namespace {
class IdxSource : public DataSource {
public:
  IdxSource(std::string dir, std::string missingHint)
      : dir(std::move(dir)), missingHint(std::move(missingHint)) {}
  llvm::Expected<DataSplits> load(const RunPlan &plan,
                                  llvm::raw_ostream &log) override;

private:
  /// `<dir>/<name>.gz` if it exists, else `<dir>/<name>` (a missing file
  /// is reported by readIdxFile under the .gz name, as Debian installs it).
  /// When both exist, a note says which one is read.
  std::string file(const std::string &name, llvm::raw_ostream &log) const {
    std::string gz = dir + "/" + name + ".gz", plain = dir + "/" + name;
    bool hasPlain = llvm::sys::fs::exists(plain);
    if (llvm::sys::fs::exists(gz) && hasPlain)
      log << "amp-run: note: both " << gz << " and " << plain
          << " exist; reading " << gz << "\n";
    return llvm::sys::fs::exists(gz) || !hasPlain ? gz : plain;
  }
  llvm::Expected<Dataset> split(const RunPlan &plan, const char *prefix,
                                llvm::raw_ostream &log);
  std::string dir, missingHint;
};
} // namespace

llvm::Expected<Dataset> IdxSource::split(const RunPlan &plan,
                                         const char *prefix,
                                         llvm::raw_ostream &log) {
  std::string images = file(std::string(prefix) + "-images-idx3-ubyte", log);
  std::string labels = file(std::string(prefix) + "-labels-idx1-ubyte", log);
  for (const std::string &path : {images, labels})
    if (!llvm::sys::fs::exists(path))
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     path + ": cannot open: no such file (" +
                                         missingHint + ")");
  auto ds = loadIdxDataset(images, labels);
  if (!ds)
    return ds.takeError();
  // A one-input f32 step: each image is its input (flattened).
  if (plan.inputs.size() == 1 && !plan.inputs.front().integer &&
      !plan.targetValues && ds->exampleSize != plan.valuesPerExample)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        images + ": images of " + llvm::Twine(ds->exampleSize) +
            " pixels, but the step's input " + plan.inputs.front().type +
            " takes " + llvm::Twine(plan.valuesPerExample) +
            " values per example");
  return ds;
}

llvm::Expected<DataSplits> IdxSource::load(const RunPlan &plan,
                                           llvm::raw_ostream &log) {
  log << "amp-run: loading " << dir << "\n";
  log.flush();
  DataSplits splits;
  auto train = split(plan, "train", log);
  if (!train)
    return train.takeError();
  auto test = split(plan, "t10k", log);
  if (!test)
    return test.takeError();
  // The labels against the step's classes: checkRunAgainstData.
  splits.train = std::move(*train);
  splits.test = std::move(*test);
  return splits;
}

std::unique_ptr<DataSource>
mlir::amp::runtime::createIdxSource(std::string dir, std::string missingHint) {
  return std::make_unique<IdxSource>(std::move(dir), std::move(missingHint));
}
