//===- HostTensor.cpp - host buffers for JIT-compiled steps ---------------===//

#include "amp/Runtime/HostTensor.h"

#include <cstdint>
#include <cstring>
#include <unistd.h>

using namespace mlir;
using namespace mlir::amp::runtime;

uint64_t mlir::amp::runtime::physicalMemoryBytes() {
  long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || pageSize <= 0)
    return 0;
  return static_cast<uint64_t>(pages) * static_cast<uint64_t>(pageSize);
}

int64_t TensorSpec::numElements() const {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

size_t TensorSpec::elementBytes() const {
  switch (kind) {
  case ElementKind::F64:
  case ElementKind::I64:
    return 8;
  case ElementKind::F32:
  case ElementKind::I32:
    return 4;
  case ElementKind::F16:
  case ElementKind::BF16:
    return 2;
  case ElementKind::I1:
  case ElementKind::I8:
    return 1; // i1 memrefs are stored one byte per element
  }
  return 0;
}

std::optional<uint64_t> TensorSpec::checkedBytes() const {
  uint64_t bytes = elementBytes();
  for (int64_t d : shape) {
    if (d < 0)
      return std::nullopt;
    uint64_t next;
    if (__builtin_mul_overflow(bytes, static_cast<uint64_t>(d), &next) ||
        next > static_cast<uint64_t>(INT64_MAX))
      return std::nullopt;
    bytes = next;
  }
  return bytes;
}

std::vector<int64_t> TensorSpec::descriptorWords(const void *allocated,
                                                 const void *aligned) const {
  int64_t rank = static_cast<int64_t>(shape.size());
  std::vector<int64_t> words(3 + 2 * rank, 0);
  words[0] = static_cast<int64_t>(reinterpret_cast<intptr_t>(allocated));
  words[1] = static_cast<int64_t>(reinterpret_cast<intptr_t>(aligned));
  int64_t stride = 1;
  for (int64_t d = rank - 1; d >= 0; --d) {
    words[3 + d] = shape[d];
    words[3 + rank + d] = stride;
    stride *= shape[d];
  }
  return words;
}

std::string TensorSpec::str() const {
  std::string s;
  for (int64_t d : shape)
    s += std::to_string(d) + "x";
  static const char *names[] = {"f32", "f16", "bf16", "f64",
                                "i1",  "i8",  "i32",  "i64"};
  return s + names[static_cast<int>(kind)];
}

llvm::Expected<TensorSpec> TensorSpec::fromType(Type type,
                                                int64_t dynamicSize) {
  auto shaped = dyn_cast<ShapedType>(type);
  auto fail = [&](const llvm::Twine &why) {
    std::string str;
    llvm::raw_string_ostream os(str);
    os << type;
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "type " + str + ": " + why);
  };
  if (!shaped || !shaped.hasRank())
    return fail("only ranked tensors can be bound to host buffers");
  TensorSpec spec;
  for (int64_t d : shaped.getShape()) {
    if (ShapedType::isDynamic(d)) {
      if (dynamicSize <= 0)
        return fail("dynamic dimension needs a size (pass --batch-size)");
      d = dynamicSize;
    }
    spec.shape.push_back(d);
  }
  Type e = shaped.getElementType();
  if (e.isF32())
    spec.kind = ElementKind::F32;
  else if (e.isF16())
    spec.kind = ElementKind::F16;
  else if (e.isBF16())
    spec.kind = ElementKind::BF16;
  else if (e.isF64())
    spec.kind = ElementKind::F64;
  else if (e.isInteger(1))
    spec.kind = ElementKind::I1;
  else if (e.isInteger(8))
    spec.kind = ElementKind::I8;
  else if (e.isInteger(32))
    spec.kind = ElementKind::I32;
  else if (e.isInteger(64))
    spec.kind = ElementKind::I64;
  else
    return fail("unsupported element type");
  return spec;
}

HostTensor::HostTensor(TensorSpec spec) : tensorSpec(std::move(spec)) {
  constexpr size_t kAlign = 64;
  byteSize =
      static_cast<size_t>(tensorSpec.numElements()) * tensorSpec.elementBytes();
  storage = std::make_unique<unsigned char[]>(byteSize + kAlign);
  auto addr = reinterpret_cast<uintptr_t>(storage.get());
  dataPtr = reinterpret_cast<void *>((addr + kAlign - 1) & ~(kAlign - 1));
  std::memset(dataPtr, 0, byteSize);
  descriptorWords = tensorSpec.descriptorWords(storage.get(), dataPtr);
}

void HostTensor::fillZero() { std::memset(dataPtr, 0, byteSize); }
