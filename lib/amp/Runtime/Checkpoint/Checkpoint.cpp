//===- Checkpoint.cpp - a training run's state on disk --------------------===//

#include "amp/Runtime/Checkpoint/Checkpoint.h"

#include "amp/Runtime/Checkpoint/Safetensors.h"
#include "amp/Support/MixedPrecisionConfig.h"
#include "amp/Support/OutputFile.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdio>
#include <cstring>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// The format's name and version, in the metadata.
static constexpr llvm::StringLiteral kFormat = "amp-checkpoint-1";

static llvm::StringRef dtypeOf(ElementKind kind) {
  switch (kind) {
  case ElementKind::F32:
    return "F32";
  case ElementKind::F16:
    return "F16";
  case ElementKind::BF16:
    return "BF16";
  case ElementKind::F64:
    return "F64";
  case ElementKind::I1:
    return "BOOL";
  case ElementKind::I8:
    return "I8";
  case ElementKind::I32:
    return "I32";
  case ElementKind::I64:
    return "I64";
  }
  return "";
}

uint64_t CheckpointIdentity::optionsHash() const {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const auto &[key, value] : options)
    for (char c : key + "=" + value + ";") {
      h ^= static_cast<unsigned char>(c);
      h *= 0x100000001b3ull;
    }
  return h;
}

std::string
mlir::amp::runtime::describeMismatch(const CheckpointIdentity &saved,
                                     const CheckpointIdentity &current) {
  if (saved.run != current.run)
    return "it was made by the run " + saved.run + ", this run is " +
           current.run;
  std::vector<std::string> differ;
  // Instrumentation and recompute do not change the state's bits;
  // checkpoints written before they were left out of the identity still
  // name them.
  for (const auto &[key, value] : current.options) {
    if (keepsStateBits(key))
      continue;
    auto it = saved.options.find(key);
    std::string was = it == saved.options.end() ? "(none)" : it->second;
    if (was != value)
      differ.push_back(key + "=" + was + " there, " + value + " here");
  }
  for (const auto &[key, value] : saved.options)
    if (!current.options.count(key) && !keepsStateBits(key))
      differ.push_back(key + "=" + value + " there, (none) here");
  if (!differ.empty())
    return "the run's options differ: " + llvm::join(differ, "; ");
  if (saved.signature != current.signature)
    return "it was made from another step: its signature is " +
           saved.signature + ", this step's " + current.signature;
  return "";
}

std::string mlir::amp::runtime::checkpointFile(llvm::StringRef dir) {
  if (llvm::sys::fs::is_regular_file(dir))
    return dir.str();
  return (dir.rtrim('/') + "/checkpoint.safetensors").str();
}

void mlir::amp::runtime::captureState(BoundStep &step, Checkpoint &checkpoint) {
  checkpoint.state.clear();
  const StepLayout &layout = step.layout();
  for (auto [arg, result] : layout.updates) {
    (void)result;
    DeviceBuffer &buffer = step.arg(arg);
    buffer.download();
    const HostTensor &host = buffer.host();
    SavedTensor t;
    t.argument = arg;
    t.role = stringifyArgRole(layout.argRoles[arg]).str();
    t.spec = host.spec();
    const char *data = static_cast<const char *>(host.data());
    t.bytes.assign(data, data + static_cast<size_t>(t.spec.numElements()) *
                                    t.spec.elementBytes());
    checkpoint.state.push_back(std::move(t));
  }
}

llvm::Error mlir::amp::runtime::restoreState(const Checkpoint &checkpoint,
                                             BoundStep &step) {
  const StepLayout &layout = step.layout();
  std::vector<bool> restored(step.numArgs(), false);
  for (const SavedTensor &t : checkpoint.state) {
    bool isState = llvm::any_of(layout.updates, [&](auto update) {
      return update.first == t.argument;
    });
    if (!isState)
      return makeError("the checkpoint holds argument #" +
                       llvm::Twine(t.argument) +
                       ", which is not state of this step");
    DeviceBuffer &buffer = step.arg(t.argument);
    if (buffer.spec().str() != t.spec.str())
      return makeError("the checkpoint's argument #" + llvm::Twine(t.argument) +
                       " (" + t.role + ") is " + t.spec.str() +
                       ", this step's " + buffer.spec().str());
    std::memcpy(buffer.host().data(), t.bytes.data(), t.bytes.size());
    buffer.upload();
    restored[t.argument] = true;
  }
  for (auto [arg, result] : layout.updates) {
    (void)result;
    if (!restored[arg])
      return makeError("the checkpoint lacks the state argument #" +
                       llvm::Twine(arg) + " (" +
                       stringifyArgRole(layout.argRoles[arg]) + ")");
  }
  return llvm::Error::success();
}

/// A double as C's hex float: read back bit for bit.
static std::string exactText(double v) {
  char text[64];
  std::snprintf(text, sizeof(text), "%a", v);
  return text;
}

llvm::Error mlir::amp::runtime::writeCheckpoint(const Checkpoint &c,
                                                llvm::StringRef dir) {
  if (std::error_code ec = llvm::sys::fs::create_directories(dir))
    return makeError("cannot create the checkpoint directory '" + dir +
                     "': " + ec.message());
  SafetensorsFile file;
  auto &m = file.metadata;
  m["format"] = kFormat.str();
  m["run"] = c.identity.run;
  m["signature"] = c.identity.signature;
  if (!c.identity.stepFingerprint.empty())
    m["step_fingerprint"] = c.identity.stepFingerprint;
  for (const auto &[key, value] : c.identity.options)
    m["option." + key] = value;
  m["options_hash"] = llvm::utohexstr(c.identity.optionsHash());
  m["epoch"] = std::to_string(c.epoch);
  m["step_in_epoch"] = std::to_string(c.stepInEpoch);
  m["steps"] = std::to_string(c.steps);
  m["skipped_steps"] = std::to_string(c.skippedSteps);
  m["epoch_loss_sum"] = exactText(c.epochLossSum);
  m["epoch_loss_count"] = std::to_string(c.epochLossCount);
  m["epoch_skipped"] = std::to_string(c.epochSkipped);
  m["last_epoch_loss"] = exactText(c.lastEpochLoss);
  m["test_accuracy"] = exactText(c.testAccuracy);
  m["seed"] = std::to_string(c.seed);
  m["rng_state"] = c.rngState;
  for (const SavedTensor &t : c.state) {
    std::string name = "arg" + std::to_string(t.argument);
    m[name + ".role"] = t.role;
    file.tensors.push_back(
        {name, dtypeOf(t.spec.kind).str(), t.spec.shape, t.bytes});
  }
  SafetensorsTensor order;
  order.name = "data.order";
  order.dtype = "I64";
  order.shape = {static_cast<int64_t>(c.order.size())};
  order.bytes.resize(c.order.size() * sizeof(int64_t));
  std::memcpy(order.bytes.data(), c.order.data(), order.bytes.size());
  file.tensors.push_back(std::move(order));

  auto out = OutputFile::open(checkpointFile(dir), ".tmp");
  if (!out)
    return out.takeError();
  writeSafetensors(file, (*out)->os());
  return (*out)->commit();
}

llvm::Expected<Checkpoint>
mlir::amp::runtime::readCheckpoint(llvm::StringRef dir) {
  std::string path = checkpointFile(dir);
  if (!llvm::sys::fs::exists(path))
    return makeError("no checkpoint at '" + dir + "' (" + path +
                     " does not exist)");
  auto file = readSafetensors(path);
  if (!file)
    return file.takeError();
  auto bad = [&](const llvm::Twine &why) {
    return makeError("'" + path + "' is not an amp-run checkpoint: " + why);
  };
  auto &m = file->metadata;
  if (m["format"] != kFormat)
    return bad("its metadata 'format' is '" + m["format"] + "', not " +
               kFormat);
  Checkpoint c;
  c.identity.run = m["run"];
  c.identity.signature = m["signature"];
  if (auto it = m.find("step_fingerprint"); it != m.end())
    c.identity.stepFingerprint = it->second;
  for (const auto &[key, value] : m)
    if (llvm::StringRef(key).starts_with("option."))
      c.identity.options[key.substr(7)] = value;
  auto integer = [&](llvm::StringRef key, auto &field) -> llvm::Error {
    long long v;
    if (llvm::StringRef(m[key.str()]).getAsInteger(10, v))
      return bad("metadata '" + key + "' is not an integer");
    field = static_cast<std::remove_reference_t<decltype(field)>>(v);
    return llvm::Error::success();
  };
  auto real = [&](llvm::StringRef key, double &field) -> llvm::Error {
    const std::string &text = m[key.str()];
    char *end = nullptr;
    field = std::strtod(text.c_str(), &end);
    if (text.empty() || *end)
      return bad("metadata '" + key + "' is not a number");
    return llvm::Error::success();
  };
  unsigned long long seed = 0;
  if (llvm::StringRef(m["seed"]).getAsInteger(10, seed))
    return bad("metadata 'seed' is not an integer");
  c.seed = seed;
  for (auto [key, field] :
       {std::pair<const char *, int64_t *>{"step_in_epoch", &c.stepInEpoch},
        {"steps", &c.steps},
        {"skipped_steps", &c.skippedSteps},
        {"epoch_loss_count", &c.epochLossCount},
        {"epoch_skipped", &c.epochSkipped}})
    if (llvm::Error err = integer(key, *field))
      return std::move(err);
  if (llvm::Error err = integer("epoch", c.epoch))
    return std::move(err);
  for (auto [key, field] :
       {std::pair<const char *, double *>{"epoch_loss_sum", &c.epochLossSum},
        {"last_epoch_loss", &c.lastEpochLoss},
        {"test_accuracy", &c.testAccuracy}})
    if (llvm::Error err = real(key, *field))
      return std::move(err);
  c.rngState = m["rng_state"];
  for (const SafetensorsTensor &t : file->tensors) {
    if (t.name == "data.order") {
      if (t.dtype != "I64" || t.shape.size() != 1)
        return bad("'data.order' is not a vector of I64");
      c.order.resize(t.shape[0]);
      std::memcpy(c.order.data(), t.bytes.data(), t.bytes.size());
      continue;
    }
    unsigned arg;
    if (!llvm::StringRef(t.name).consume_front("arg") ||
        llvm::StringRef(t.name).drop_front(3).getAsInteger(10, arg))
      return bad("unexpected tensor '" + t.name + "'");
    SavedTensor s;
    s.argument = arg;
    s.role = m[t.name + ".role"];
    s.spec.shape = t.shape;
    ElementKind kinds[] = {ElementKind::F32,  ElementKind::F16,
                           ElementKind::BF16, ElementKind::F64,
                           ElementKind::I1,   ElementKind::I8,
                           ElementKind::I32,  ElementKind::I64};
    bool known = false;
    for (ElementKind k : kinds)
      if (dtypeOf(k) == t.dtype) {
        s.spec.kind = k;
        known = true;
      }
    if (!known)
      return bad("tensor '" + t.name + "' has the dtype " + t.dtype +
                 ", which no step argument has");
    s.bytes = t.bytes;
    c.state.push_back(std::move(s));
  }
  return c;
}
