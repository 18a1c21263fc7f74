//===- DataSource.cpp - where amp-run's examples come from ----------------===//

#include "amp/Runtime/Data/DataSource.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"

#include <cstdlib>
#include <optional>
#include <utility>

using namespace mlir::amp::runtime;

DataSource::~DataSource() = default;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// The directory of `--data=fashion-mnist`: `dataDir`, else $AMP_DATA_DIR,
/// else Debian's.
static std::string fashionMnistDir(const std::string &dataDir) {
  if (!dataDir.empty())
    return dataDir;
  const char *env = std::getenv("AMP_DATA_DIR");
  return env && *env ? env : "/usr/share/datasets/fashion-mnist";
}

llvm::Expected<std::unique_ptr<DataSource>>
mlir::amp::runtime::parseDataSource(llvm::StringRef spec,
                                    const std::string &dataDir) {
  if (spec == "fashion-mnist")
    return createIdxSource(fashionMnistDir(dataDir),
                           "install Debian's dataset-fashion-mnist, or pass "
                           "--data-dir or set AMP_DATA_DIR");
  if (spec.consume_front("idx:")) {
    if (spec.empty())
      return makeError("--data=idx:DIR: give the directory of the IDX files");
    return createIdxSource(
        spec.str(), "--data=idx:DIR reads train-images-idx3-ubyte, "
                    "train-labels-idx1-ubyte, t10k-images-idx3-ubyte and "
                    "t10k-labels-idx1-ubyte there, each gzip-compressed "
                    "(.gz) or not");
  }
  if (spec.consume_front("npy:")) {
    llvm::SmallVector<llvm::StringRef> parts;
    spec.split(parts, ',');
    if ((parts.size() != 2 && parts.size() != 4) ||
        llvm::any_of(parts, [](llvm::StringRef p) { return p.empty(); }))
      return makeError("--data=npy:" + spec +
                       ": give TRAIN_X,TRAIN_Y or TRAIN_X,TRAIN_Y,TEST_X,"
                       "TEST_Y (.npy files)");
    std::vector<std::string> files;
    for (llvm::StringRef p : parts)
      files.push_back(p.str());
    return createNpySource(std::move(files));
  }
  return makeError("--data=" + spec +
                   ": must be fashion-mnist, synthetic, idx:DIR or "
                   "npy:TRAIN_X,TRAIN_Y[,TEST_X,TEST_Y]");
}

std::vector<std::string>
mlir::amp::runtime::dataSourceFiles(llvm::StringRef spec,
                                    const std::string &dataDir) {
  std::vector<std::string> files;
  std::string dir;
  if (spec == "fashion-mnist")
    dir = fashionMnistDir(dataDir);
  else if (spec.consume_front("idx:"))
    dir = spec.str();
  if (!dir.empty()) {
    for (const char *name :
         {"train-images-idx3-ubyte", "train-labels-idx1-ubyte",
          "t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"}) {
      std::string file = (llvm::StringRef(dir).rtrim('/') + "/" + name).str();
      files.push_back(file);
      files.push_back(file + ".gz");
    }
    return files;
  }
  if (spec.consume_front("npy:")) {
    llvm::SmallVector<llvm::StringRef> parts;
    spec.split(parts, ',');
    for (llvm::StringRef p : parts)
      if (!p.empty())
        files.push_back(p.str());
  }
  return files;
}

/// The tightest bound the step puts on its labels, and why; nullopt when it
/// puts none.
static std::optional<std::pair<int64_t, std::string>>
labelBound(const RunPlan &plan) {
  std::optional<std::pair<int64_t, std::string>> bound;
  auto tighten = [&](std::optional<int64_t> b, const std::string &why) {
    if (b && (!bound || *b < bound->first))
      bound = std::make_pair(*b, why);
  };
  tighten(plan.classes, "the eval step returns " +
                            std::to_string(plan.classes.value_or(0)) +
                            " logits per example");
  tighten(plan.labelClasses, "the step's label indexes " +
                                 std::to_string(plan.labelClasses.value_or(0)) +
                                 " classes (its amp.classes)");
  tighten(plan.lossClasses,
          "the step's loss reads its label as an index into " +
              std::to_string(plan.lossClasses.value_or(0)) + " classes");
  tighten(plan.targetClasses,
          "the step's one-hot target holds " +
              std::to_string(plan.targetClasses.value_or(0)) + " classes");
  return bound;
}

llvm::Error mlir::amp::runtime::labelOutOfRange(const RunPlan &plan,
                                                llvm::StringRef what,
                                                int64_t label,
                                                int64_t example) {
  std::string range = "labels are class indices, >= 0";
  if (auto bound = labelBound(plan))
    range = bound->second + ", labels must be in [0, " +
            std::to_string(bound->first) + ")";
  return makeError(what + ": label " + llvm::Twine(label) + " of example " +
                   llvm::Twine(example) + " is out of range: " + range);
}

llvm::Error mlir::amp::runtime::checkLabels(const RunPlan &plan,
                                            const Dataset &ds,
                                            llvm::StringRef what) {
  std::optional<int64_t> bound;
  if (auto b = labelBound(plan))
    bound = b->first;
  for (size_t i = 0; i < ds.labels.size(); ++i) {
    int32_t l = ds.labels[i];
    if (l < 0 || (bound && l >= *bound))
      return labelOutOfRange(plan, what, l, static_cast<int64_t>(i));
  }
  return llvm::Error::success();
}
