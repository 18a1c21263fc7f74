//===- DataSource.h - where amp-run's examples come from --------*- C++ -*-===//
//
// One interface for every data format amp-run reads (`--data=`,
// docs/data-and-checkpoints.md): a source loads a training and a test split
// as Datasets (IdxDataset.h) and checks them against the run's plan
// (Trainer.h: the step's input and target shapes, its classes) before
// training, with errors that name the file and the mismatch. A new format
// is one new file beside the others (IdxSource.cpp, NpySource.cpp) and a
// line in `parseDataSource`.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_DATA_DATASOURCE_H
#define AMP_RUNTIME_DATA_DATASOURCE_H

#include "amp/Runtime/IdxDataset.h"
#include "amp/Runtime/Trainer.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

namespace mlir::amp::runtime {

/// A training and a test split.
struct DataSplits {
  Dataset train, test;
};

class DataSource {
public:
  virtual ~DataSource();
  /// Loads both splits and checks them against `plan` (shapes, element
  /// types, counts, label ranges, finite values); progress and notes go to
  /// `log`. Errors name the file and what does not fit.
  virtual llvm::Expected<DataSplits> load(const RunPlan &plan,
                                          llvm::raw_ostream &log) = 0;
};

/// `--data=` but synthetic: `fashion-mnist` (the IDX files in `dataDir`,
/// empty: $AMP_DATA_DIR, else Debian's /usr/share/datasets/fashion-mnist),
/// `idx:DIR` (any MNIST-format directory), `npy:TRAIN_X,TRAIN_Y[,TEST_X,
/// TEST_Y]`. Errors: an unknown format, a malformed list of files.
llvm::Expected<std::unique_ptr<DataSource>>
parseDataSource(llvm::StringRef spec, const std::string &dataDir);

/// The files `--data=spec` reads (with `dataDir` as for parseDataSource),
/// whether they exist or not: the four IDX files of a directory, with and
/// without .gz, or the listed .npy files; none for synthetic data or a
/// malformed spec. amp-run refuses an output that would replace one.
std::vector<std::string> dataSourceFiles(llvm::StringRef spec,
                                         const std::string &dataDir);

/// The IDX files of `dir` (IdxSource.cpp): train-images-idx3-ubyte and
/// train-labels-idx1-ubyte, t10k-images-idx3-ubyte and
/// t10k-labels-idx1-ubyte, each gzip-compressed (`.gz`) or not. A missing
/// file is reported with `missingHint` (how to get the files).
std::unique_ptr<DataSource> createIdxSource(std::string dir,
                                            std::string missingHint);

/// NumPy `.npy` files (NpySource.cpp): inputs of shape (N, ...) in float32,
/// float64 or uint8 (scaled by 1/255 as IDX images are); labels of shape
/// (N,) in int32, int64 or uint8, or float targets of the step's target
/// shape. A batch x K target takes either: float labels are its regression
/// targets (K per example), integer ones are fed one-hot; both splits must
/// hold the same kind. Without test files the test split is the training
/// split.
std::unique_ptr<DataSource> createNpySource(std::vector<std::string> files);

/// Checks that the training labels index the step's classes (its eval
/// step's logits, the label's amp.classes, a one-hot target's width) and
/// are not negative; `what` names the labels (e.g. a file). The error is
/// labelOutOfRange's.
llvm::Error checkLabels(const RunPlan &plan, const Dataset &ds,
                        llvm::StringRef what);

/// "<what>: label L of example E is out of range: <why>, labels must be in
/// [0, N)", with the tightest bound the step puts on its labels and where
/// it comes from (or ">= 0" when the step puts none): for a label too large
/// or negative alike.
llvm::Error labelOutOfRange(const RunPlan &plan, llvm::StringRef what,
                            int64_t label, int64_t example);

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_DATA_DATASOURCE_H
