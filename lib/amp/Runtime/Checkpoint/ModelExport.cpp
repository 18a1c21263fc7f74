//===- ModelExport.cpp - trained weights back into the model's IR ---------===//

#include "amp/Runtime/Checkpoint/ModelExport.h"

#include "amp/Analysis/TrainingStep.h"
#include "amp/Support/ModelSource.h"
#include "amp/Support/OutputFile.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <tuple>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Expected<std::map<unsigned, ModelBlob>>
mlir::amp::runtime::parameterModelBlobs(func::FuncOp trainFn) {
  std::map<unsigned, ModelBlob> blobs;
  std::map<std::string, unsigned> owner;
  std::map<std::pair<unsigned, unsigned>, unsigned> elidedOwner;
  for (unsigned i = 0; i < trainFn.getNumArguments(); ++i) {
    auto role = trainFn.getArgAttrOfType<StringAttr>(i, kRoleAttr);
    if (!role || parseArgRole(role.getValue()) != ArgRole::Param)
      continue;
    std::string what = "the parameter argument #" + std::to_string(i) +
                       " of @" + trainFn.getSymName().str();
    ModelBlob blob;
    llvm::raw_string_ostream(blob.type) << trainFn.getArgument(i).getType();
    // An elided constant: found by its place in the model.
    if (auto at = trainFn.getArgAttrOfType<FileLineColLoc>(i, kElidedAtAttr)) {
      std::pair<unsigned, unsigned> place{at.getLine(), at.getColumn()};
      if (auto [it, fresh] = elidedOwner.try_emplace(place, i); !fresh)
        return makeError(what + " and argument #" + std::to_string(it->second) +
                         " come from the same elided constant (line " +
                         std::to_string(place.first) +
                         " of the model): one constant cannot hold two "
                         "trained parameters; --save-checkpoint=DIR keeps "
                         "every trained parameter");
      blob.key = "amp_trained_" + std::to_string(i);
      blob.elidedAt = place;
      blobs[i] = std::move(blob);
      continue;
    }
    Attribute initial = trainFn.getArgAttr(i, kInitialValueAttr);
    if (isa_and_present<DenseElementsAttr>(initial))
      return makeError(
          what + " starts from a dense literal (arith.constant dense<...>, "
                 "such as the splat gamma and beta of a BatchNorm at its "
                 "initialisation, which torch-mlir prints inline and shares "
                 "between layers): --save-model writes trained parameters "
                 "into dense_resource blobs only; --save-checkpoint=DIR keeps "
                 "every trained parameter");
    auto resource = dyn_cast_if_present<DenseResourceElementsAttr>(initial);
    if (!resource)
      return makeError(
          what + " has no amp.initial_value = dense_resource<key> (a "
                 "parameter made from a function argument, params=arguments, "
                 "or a hand-written step): there is no blob in the model to "
                 "write it into; --save-checkpoint=DIR keeps every trained "
                 "parameter");
    std::string key = resource.getRawHandle().getKey().str();
    if (key == kElidedResourceKey)
      return makeError(what + " starts from the elided blob __elided__ and "
                              "the step does not say where its constant is "
                              "(amp.elided_at: build the step again with "
                              "this amp-build-train-step); --save-checkpoint="
                              "DIR keeps every trained parameter");
    if (auto [it, fresh] = owner.try_emplace(key, i); !fresh)
      return makeError(what + " and argument #" + std::to_string(it->second) +
                       " start from the same blob '" + key +
                       "': one blob cannot hold two trained parameters");
    blob.key = key;
    blobs[i] = std::move(blob);
  }
  return blobs;
}

namespace {
/// One entry `key: "0x..."` of the builtin resources: where its value's text
/// (between the quotes) lies.
struct BlobEntry {
  std::string key;
  size_t valueBegin = 0, valueEnd = 0;
};

/// The builtin dialect's entries of the resource section of `text`, and
/// where a new entry goes (after the last one, or after the opening brace).
struct ResourceSection {
  std::vector<BlobEntry> entries;
  size_t insertAt = 0;
};
} // namespace

static bool isBareKey(llvm::StringRef key) {
  if (key.empty() || !(llvm::isAlpha(key[0]) || key[0] == '_'))
    return false;
  return llvm::all_of(key, [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
  });
}

/// nullopt: no resource section of the builtin dialect; an error: a section
/// this scanner cannot read.
static llvm::Expected<std::optional<ResourceSection>>
findResourceSection(llvm::StringRef text, llvm::StringRef path) {
  size_t meta = text.rfind("{-#");
  if (meta == llvm::StringRef::npos)
    return std::nullopt;
  size_t dialects = text.find("dialect_resources", meta);
  if (dialects == llvm::StringRef::npos)
    return std::nullopt;
  size_t builtin = text.find("builtin", dialects);
  size_t end = text.find("#-}", dialects);
  if (builtin == llvm::StringRef::npos || builtin > end)
    return std::nullopt;
  auto bad = [&](size_t at, const llvm::Twine &why) {
    return makeError(path + ": the resource section at byte " +
                     llvm::Twine(at) + " " + why +
                     " (expected `key: \"0x...\"` entries)");
  };
  size_t p = text.find('{', builtin);
  if (p == llvm::StringRef::npos)
    return bad(builtin, "has no '{' after 'builtin'");
  ResourceSection section;
  section.insertAt = ++p;
  auto skip = [&]() {
    while (p < text.size() && (llvm::isSpace(text[p]) || text[p] == ','))
      ++p;
  };
  while (true) {
    skip();
    if (p >= text.size())
      return bad(p, "ends early");
    if (text[p] == '}')
      break;
    BlobEntry entry;
    if (text[p] == '"') {
      size_t close = text.find('"', p + 1);
      if (close == llvm::StringRef::npos)
        return bad(p, "has an unterminated key");
      entry.key = text.slice(p + 1, close).str();
      p = close + 1;
    } else {
      size_t colon = text.find(':', p);
      if (colon == llvm::StringRef::npos)
        return bad(p, "has a key without ':'");
      entry.key = text.slice(p, colon).trim().str();
      p = colon;
    }
    skip();
    if (p >= text.size() || text[p] != ':')
      return bad(p, "has no ':' after the key '" + entry.key + "'");
    ++p;
    skip();
    if (p >= text.size() || text[p] != '"')
      return bad(p, "has no quoted value for the key '" + entry.key + "'");
    entry.valueBegin = p + 1;
    entry.valueEnd = text.find('"', p + 1);
    if (entry.valueEnd == llvm::StringRef::npos)
      return bad(p, "has an unterminated value");
    p = entry.valueEnd + 1;
    section.insertAt = p;
    section.entries.push_back(std::move(entry));
  }
  return section;
}

static std::string hexBytes(const std::vector<char> &bytes) {
  return llvm::toHex(llvm::StringRef(bytes.data(), bytes.size()),
                     /*LowerCase=*/false);
}

llvm::Expected<std::string> mlir::amp::runtime::replaceResourceBlobs(
    llvm::StringRef text, llvm::StringRef path,
    const std::map<std::string, std::vector<char>> &blobs,
    const std::vector<ModelBlob> &elided) {
  auto section = findResourceSection(text, path);
  if (!section)
    return section.takeError();
  // (offset, length, replacement), applied from the end.
  std::vector<std::tuple<size_t, size_t, std::string>> edits;
  std::string added;
  // The elided constants get their keys.
  llvm::StringSet<> named;
  for (const ModelBlob &blob : elided) {
    if (!blob.elidedAt)
      continue;
    auto [line, column] = *blob.elidedAt;
    std::string where =
        path.str() + ":" + std::to_string(line) + ":" + std::to_string(column);
    if (text.contains("dense_resource<" + blob.key + ">"))
      return makeError(where + ": the model already has a blob named '" +
                       blob.key +
                       "', the key the elided constant there "
                       "would get");
    size_t found = findElidedConstant(text, line, column, blob.type);
    if (found == llvm::StringRef::npos)
      return makeError(
          where + ": no `" + kElidedResourceText + " : " + blob.type +
          "` there, where the step says the constant of a parameter is: it "
          "is not the model the step was built from (give the --model the "
          "step's parameters came from)");
    edits.emplace_back(found + kResourcePrefix.size(),
                       kElidedResourceKey.size(), blob.key);
    named.insert(blob.key);
  }
  for (const auto &[key, bytes] : blobs) {
    std::string quoted = "\"" + key + "\"";
    if (!named.contains(key) && !text.contains("dense_resource<" + key + ">") &&
        !text.contains("dense_resource<" + quoted + ">"))
      return makeError(path + ": the model has no dense_resource<" + key +
                       ">: it is not the model the step was built from "
                       "(give the --model the step's parameters came from)");
    const BlobEntry *entry = nullptr;
    if (*section)
      for (const BlobEntry &e : (*section)->entries)
        if (e.key == key)
          entry = &e;
    if (!entry) {
      // A model printed without its blobs: the trained one fills it in.
      added += ",\n      " + (isBareKey(key) ? key : quoted) +
               ": \"0x04000000" + hexBytes(bytes) + "\"";
      continue;
    }
    llvm::StringRef value = text.slice(entry->valueBegin, entry->valueEnd);
    size_t hexDigits = value.size() >= 10 ? value.size() - 10 : 0;
    if (!value.starts_with("0x") || value.size() < 10 ||
        hexDigits != 2 * bytes.size())
      return makeError(path + ": the blob '" + key + "' holds " +
                       llvm::Twine(hexDigits / 2) +
                       " bytes, the trained "
                       "parameter " +
                       llvm::Twine(bytes.size()) +
                       ": the model is not the one the step was built from");
    edits.emplace_back(entry->valueBegin + 10, hexDigits, hexBytes(bytes));
  }
  if (!added.empty()) {
    if (*section) {
      // After the last entry, or right after the brace of an empty one.
      bool empty = (*section)->entries.empty();
      edits.emplace_back((*section)->insertAt, 0,
                         empty ? added.substr(1) : added);
    } else {
      std::string tail = text.ends_with("\n") ? "" : "\n";
      tail += "{-#\n  dialect_resources: {\n    builtin: {" + added.substr(1) +
              "\n    }\n  }\n#-}\n";
      edits.emplace_back(text.size(), 0, tail);
    }
  }
  std::sort(edits.begin(), edits.end(), [](const auto &a, const auto &b) {
    return std::get<0>(a) > std::get<0>(b);
  });
  std::string result = text.str();
  for (const auto &[at, length, replacement] : edits)
    result.replace(at, length, replacement);
  return result;
}

llvm::Error mlir::amp::runtime::writeTrainedModel(
    llvm::StringRef modelPath, llvm::StringRef outPath,
    const std::map<std::string, std::vector<char>> &blobs,
    const std::vector<ModelBlob> &elided) {
  auto buffer = llvm::MemoryBuffer::getFile(modelPath, /*IsText=*/false);
  if (!buffer)
    return makeError("--model=" + modelPath +
                     ": cannot read it: " + buffer.getError().message());
  auto text =
      replaceResourceBlobs((*buffer)->getBuffer(), modelPath, blobs, elided);
  if (!text)
    return text.takeError();
  auto file = OutputFile::open(outPath, ".amp-run-tmp");
  if (!file)
    return makeError("--save-model: " + llvm::toString(file.takeError()));
  (*file)->os() << *text;
  if (llvm::Error e = (*file)->commit())
    return makeError("--save-model: " + llvm::toString(std::move(e)));
  return llvm::Error::success();
}
