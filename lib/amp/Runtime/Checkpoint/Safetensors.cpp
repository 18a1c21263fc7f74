//===- Safetensors.cpp - the safetensors file format ----------------------===//

#include "amp/Runtime/Checkpoint/Safetensors.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace mlir::amp::runtime;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

const SafetensorsTensor *SafetensorsFile::find(llvm::StringRef name) const {
  for (const SafetensorsTensor &t : tensors)
    if (t.name == name)
      return &t;
  return nullptr;
}

size_t mlir::amp::runtime::safetensorsElementBytes(llvm::StringRef dtype) {
  return llvm::StringSwitch<size_t>(dtype)
      .Case("F64", 8)
      .Case("I64", 8)
      .Case("U64", 8)
      .Case("F32", 4)
      .Case("I32", 4)
      .Case("U32", 4)
      .Case("F16", 2)
      .Case("BF16", 2)
      .Case("I16", 2)
      .Case("U16", 2)
      .Case("I8", 1)
      .Case("U8", 1)
      .Case("BOOL", 1)
      .Default(0);
}

void mlir::amp::runtime::writeSafetensors(const SafetensorsFile &file,
                                          llvm::raw_ostream &os) {
  llvm::json::Object header;
  if (!file.metadata.empty()) {
    llvm::json::Object meta;
    for (const auto &[key, value] : file.metadata)
      meta[key] = value;
    header["__metadata__"] = std::move(meta);
  }
  uint64_t offset = 0;
  for (const SafetensorsTensor &t : file.tensors) {
    llvm::json::Array shape;
    for (int64_t d : t.shape)
      shape.push_back(d);
    uint64_t end = offset + t.bytes.size();
    header[t.name] =
        llvm::json::Object{{"dtype", t.dtype},
                           {"shape", std::move(shape)},
                           {"data_offsets", llvm::json::Array{offset, end}}};
    offset = end;
  }
  std::string text;
  llvm::raw_string_ostream(text) << llvm::json::Value(std::move(header));
  // The data starts 8-byte aligned (the format allows trailing spaces).
  text.append((8 - text.size() % 8) % 8, ' ');
  char length[8];
  llvm::support::endian::write64le(length, text.size());
  os.write(length, 8);
  os << text;
  for (const SafetensorsTensor &t : file.tensors)
    os.write(t.bytes.data(), t.bytes.size());
}

llvm::Expected<SafetensorsFile>
mlir::amp::runtime::readSafetensors(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!buffer)
    return makeError("cannot read '" + path +
                     "': " + buffer.getError().message());
  llvm::StringRef bytes = (*buffer)->getBuffer();
  auto bad = [&](const llvm::Twine &why) {
    return makeError("'" + path + "' is not a safetensors file: " + why);
  };
  if (bytes.size() < 8)
    return bad("it holds " + llvm::Twine(bytes.size()) +
               " bytes, fewer than the 8 of the header length");
  uint64_t headerSize = llvm::support::endian::read64le(bytes.data());
  if (headerSize > bytes.size() - 8)
    return bad("the header length " + llvm::Twine(headerSize) +
               " runs past the end of the file (" + llvm::Twine(bytes.size()) +
               " bytes)");
  auto json = llvm::json::parse(bytes.substr(8, headerSize));
  if (!json)
    return bad("the header is not JSON: " + llvm::toString(json.takeError()));
  const llvm::json::Object *header = json->getAsObject();
  if (!header)
    return bad("the header is not a JSON object");
  llvm::StringRef data = bytes.substr(8 + headerSize);
  SafetensorsFile file;
  std::vector<std::pair<uint64_t, SafetensorsTensor>> ordered;
  for (const auto &[key, value] : *header) {
    const llvm::json::Object *entry = value.getAsObject();
    if (!entry)
      return bad("entry '" + key.str() + "' is not an object");
    if (key == "__metadata__") {
      for (const auto &[mk, mv] : *entry) {
        std::optional<llvm::StringRef> s = mv.getAsString();
        if (!s)
          return bad("metadata '" + mk.str() + "' is not a string");
        file.metadata[mk.str()] = s->str();
      }
      continue;
    }
    SafetensorsTensor t;
    t.name = key.str();
    std::optional<llvm::StringRef> dtype = entry->getString("dtype");
    const llvm::json::Array *shape = entry->getArray("shape");
    const llvm::json::Array *offsets = entry->getArray("data_offsets");
    if (!dtype || !shape || !offsets || offsets->size() != 2)
      return bad("tensor '" + t.name +
                 "' lacks a dtype, a shape or two data_offsets");
    t.dtype = dtype->str();
    size_t elementBytes = safetensorsElementBytes(t.dtype);
    if (!elementBytes)
      return bad("tensor '" + t.name + "' has the unknown dtype " + t.dtype);
    uint64_t elements = 1;
    for (const llvm::json::Value &d : *shape) {
      std::optional<int64_t> n = d.getAsInteger();
      if (!n || *n < 0 || (*n && elements > (UINT64_MAX >> 4) / *n))
        return bad("tensor '" + t.name + "' has a bad shape");
      t.shape.push_back(*n);
      elements *= *n;
    }
    std::optional<int64_t> begin = (*offsets)[0].getAsInteger(),
                           end = (*offsets)[1].getAsInteger();
    if (!begin || !end || *begin < 0 || *end < *begin ||
        static_cast<uint64_t>(*end) > data.size())
      return bad("tensor '" + t.name + "' has data_offsets outside the " +
                 llvm::Twine(data.size()) + " bytes of data");
    if (static_cast<uint64_t>(*end - *begin) != elements * elementBytes)
      return bad("tensor '" + t.name + "' has " + llvm::Twine(*end - *begin) +
                 " bytes, its dtype and shape need " +
                 llvm::Twine(elements * elementBytes));
    t.bytes.assign(data.begin() + *begin, data.begin() + *end);
    ordered.emplace_back(*begin, std::move(t));
  }
  llvm::stable_sort(
      ordered, [](const auto &a, const auto &b) { return a.first < b.first; });
  for (auto &entry : ordered)
    file.tensors.push_back(std::move(entry.second));
  return file;
}
