//===- Safetensors.h - the safetensors file format --------------*- C++ -*-===//
//
// Hugging Face's safetensors (https://huggingface.co/docs/safetensors): an
// 8-byte little-endian header length N, N bytes of JSON (one entry per
// tensor: {"dtype": "F32", "shape": [..], "data_offsets": [begin, end]},
// offsets into the bytes after the header; an optional "__metadata__" map of
// strings), then the tensors' raw little-endian bytes. amp-run's checkpoints
// are safetensors files (Checkpoint.h); numpy reads them in a few lines
// (docs/data-and-checkpoints.md).
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_CHECKPOINT_SAFETENSORS_H
#define AMP_RUNTIME_CHECKPOINT_SAFETENSORS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mlir::amp::runtime {

/// One tensor: its safetensors dtype ("F32", "F16", "BF16", "F64", "I64",
/// "I32", "I8", "U8", "BOOL"), shape (empty: a scalar) and row-major bytes.
struct SafetensorsTensor {
  std::string name;
  std::string dtype;
  std::vector<int64_t> shape;
  std::vector<char> bytes;
};

/// A safetensors file held in memory; tensors in file order.
struct SafetensorsFile {
  std::map<std::string, std::string> metadata;
  std::vector<SafetensorsTensor> tensors;

  /// The tensor named `name`, or null.
  const SafetensorsTensor *find(llvm::StringRef name) const;
};

/// Bytes per element of a safetensors dtype; 0 for an unknown one.
size_t safetensorsElementBytes(llvm::StringRef dtype);

/// Writes `file` (header padded with spaces to a multiple of 8 bytes, the
/// tensors in order, contiguous). The names must be unique.
void writeSafetensors(const SafetensorsFile &file, llvm::raw_ostream &os);

/// Reads and checks a safetensors file: the header length within the file,
/// the JSON, each entry's dtype, shape and offsets (inside the data, the
/// size its dtype and shape need). Errors name the file and what is wrong.
llvm::Expected<SafetensorsFile> readSafetensors(llvm::StringRef path);

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_CHECKPOINT_SAFETENSORS_H
