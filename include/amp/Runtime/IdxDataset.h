//===- IdxDataset.h - IDX (MNIST format) files, gzip via zlib ---*- C++ -*-===//
//
// Reads the IDX files of MNIST and Fashion-MNIST (LeCun et al.; Xiao et al.
// 2017), plain or gzip-compressed (zlib's gzread reads both), as Debian's
// dataset-fashion-mnist installs them under
// /usr/share/datasets/fashion-mnist/.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_IDXDATASET_H
#define AMP_RUNTIME_IDXDATASET_H

#include "llvm/Support/Error.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace mlir::amp::runtime {

/// The data of one step argument per example (synthetic data of a step's
/// own inputs and target, SyntheticData.h): numExamples x valuesPerExample
/// values, floats or integers.
struct DataField {
  bool integer = false;
  int64_t valuesPerExample = 0;
  std::vector<float> floats; ///< when !integer
  std::vector<int64_t> ints; ///< when integer
};

/// A labelled image set: `numExamples` images of `exampleSize` pixels each,
/// row-major, scaled from bytes to [0, 1] floats; one class index per image.
/// Synthetic data for a step whose inputs are not one f32 image (several
/// inputs, integer inputs) has one field per input instead of the images,
/// and a step with a regression target one field for it.
struct Dataset {
  int64_t numExamples = 0;
  int64_t exampleSize = 0;     ///< pixels per image (28 * 28 for MNIST)
  std::vector<float> images;   ///< numExamples x exampleSize
  std::vector<int32_t> labels; ///< numExamples, values in [0, numClasses)
  int32_t numClasses = 0;      ///< 1 + the largest label
  /// Not empty: field k feeds the step's k-th input (argument order) and
  /// `images` is empty (exampleSize is the first field's values).
  std::vector<DataField> inputs;
  /// A regression target per example (synthetic data of a target that is
  /// not batch x classes, `.npy` float targets); none: a target gets the
  /// one-hot labels.
  std::optional<DataField> target;
  /// What supervises the examples, for messages.
  const char *supervision() const {
    return target ? "float regression targets" : "integer class labels";
  }
};

/// Reads an unsigned-byte IDX file (magic 0x0000080N, N dimensions,
/// big-endian sizes). Returns the dimension sizes and the bytes. Errors name
/// the file and what is wrong (missing, truncated, bad magic, not ubyte).
llvm::Expected<std::pair<std::vector<int64_t>, std::vector<uint8_t>>>
readIdxFile(const std::string &path);

/// Reads an images file (3 dimensions: count x rows x cols) and a labels file
/// (1 dimension: count) and checks that the counts agree.
llvm::Expected<Dataset> loadIdxDataset(const std::string &imagesPath,
                                       const std::string &labelsPath);

/// Loads "<dir>/train-images-idx3-ubyte.gz" + labels (train=true) or the
/// "t10k-" files (train=false).
llvm::Expected<Dataset> loadFashionMnist(const std::string &dir, bool train);

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_IDXDATASET_H
