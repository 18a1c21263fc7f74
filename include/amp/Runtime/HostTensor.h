//===- HostTensor.h - host buffers passed to JIT-compiled steps -*- C++ -*-===//
//
// A host tensor owns 64-byte aligned storage and the MLIR strided-memref
// descriptor that lowered code reads (allocated ptr, aligned ptr, offset,
// sizes[rank], strides[rank]; identity layout), see MLIR's
// ExecutionEngine/CRunnerUtils.h `StridedMemRefType`.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_RUNTIME_HOSTTENSOR_H
#define AMP_RUNTIME_HOSTTENSOR_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::amp::runtime {

/// Bytes of physical memory of this machine, 0 when unknown (what the
/// driver checks buffer and dataset sizes against before allocating).
uint64_t physicalMemoryBytes();

enum class ElementKind { F32, F16, BF16, F64, I1, I8, I32, I64 };

/// Shape and element type of a tensor argument or result; all dimensions
/// static (a dynamic batch dimension is fixed before a spec is made).
struct TensorSpec {
  std::vector<int64_t> shape;
  ElementKind kind = ElementKind::F32;

  int64_t numElements() const;
  size_t elementBytes() const;
  std::string str() const; ///< e.g. "128x784xf32"
  /// numElements() * elementBytes(), or nullopt when that does not fit in
  /// 63 bits (a shape such as 2^32 x 2^32 x f32 wraps silently otherwise).
  std::optional<uint64_t> checkedBytes() const;
  /// The strided-memref descriptor words of a row-major buffer of this
  /// shape at `data` (allocated ptr, aligned ptr, offset 0, sizes, strides),
  /// what `_mlir_ciface_*` functions read (MLIR's CRunnerUtils.h
  /// `StridedMemRefType`).
  std::vector<int64_t> descriptorWords(const void *allocated,
                                       const void *aligned) const;

  /// The spec of a ranked tensor or memref type; dynamic dimensions take
  /// `dynamicSize` (error if it is <= 0), other element types are errors.
  /// Element types: f32, f16, bf16, f64, i1 (one byte each), i8, i32, i64.
  static llvm::Expected<TensorSpec> fromType(Type type,
                                             int64_t dynamicSize = -1);
};

class HostTensor {
public:
  explicit HostTensor(TensorSpec spec);
  HostTensor(const HostTensor &) = delete;
  HostTensor &operator=(const HostTensor &) = delete;

  const TensorSpec &spec() const { return tensorSpec; }
  void *data() { return dataPtr; }
  const void *data() const { return dataPtr; }
  template <typename T> T *as() { return static_cast<T *>(dataPtr); }
  template <typename T> const T *as() const {
    return static_cast<const T *>(dataPtr);
  }
  size_t sizeInBytes() const { return byteSize; }
  /// Pointer to the memref descriptor, what `_mlir_ciface_*` functions take.
  void *descriptor() { return descriptorWords.data(); }
  void fillZero();

private:
  TensorSpec tensorSpec;
  size_t byteSize = 0;
  std::unique_ptr<unsigned char[]> storage;
  void *dataPtr = nullptr;
  std::vector<int64_t> descriptorWords;
};

} // namespace mlir::amp::runtime

#endif // AMP_RUNTIME_HOSTTENSOR_H
