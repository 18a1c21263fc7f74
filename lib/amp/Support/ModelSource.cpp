//===- ModelSource.cpp - where a built step's weights are in its model ----===//

#include "amp/Support/ModelSource.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>

using namespace mlir;

size_t amp::offsetOfLineColumn(llvm::StringRef text, unsigned line,
                               unsigned column) {
  if (line == 0 || column == 0)
    return llvm::StringRef::npos;
  size_t at = 0;
  for (unsigned l = 1; l < line; ++l) {
    at = text.find('\n', at);
    if (at == llvm::StringRef::npos)
      return at;
    ++at;
  }
  size_t end = std::min(text.find('\n', at), text.size());
  if (at + column - 1 >= end)
    return llvm::StringRef::npos;
  return at + column - 1;
}

size_t amp::findElidedConstant(llvm::StringRef text, unsigned line,
                               unsigned column, llvm::StringRef type) {
  size_t at = offsetOfLineColumn(text, line, column);
  if (at == llvm::StringRef::npos)
    return at;
  llvm::StringRef rest = text.slice(at, text.find('\n', at));
  size_t found = rest.find(kElidedResourceText);
  if (found == llvm::StringRef::npos)
    return found;
  llvm::StringRef after =
      rest.drop_front(found + kElidedResourceText.size()).ltrim();
  if (!after.consume_front(":") || !after.ltrim().starts_with(type))
    return llvm::StringRef::npos;
  return at + found;
}

std::string amp::modelTextHash(llvm::StringRef text) {
  std::string hex;
  llvm::raw_string_ostream(hex) << llvm::format_hex_no_prefix(
      llvm::xxh3_64bits(llvm::ArrayRef(
          reinterpret_cast<const uint8_t *>(text.data()), text.size())),
      16);
  return hex;
}
