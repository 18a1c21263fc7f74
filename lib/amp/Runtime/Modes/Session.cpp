//===- Session.cpp - what every mode of amp-run sets up -------------------===//

#include "Session.h"

#include "amp/InitAll.h"
#include "amp/Runtime/Checkpoint/Checkpoint.h"
#include "amp/Runtime/Checkpoint/ModelExport.h"
#include "amp/Runtime/CudaBackend.h"
#include "amp/Runtime/Data/DataSource.h"
#include "amp/Runtime/HostTensor.h"
#include "amp/Runtime/JitModule.h"
#include "amp/Runtime/SyntheticData.h"
#include "amp/Support/ModelSource.h"
#include "amp/Support/OutputFile.h"
#include "amp/Support/Threads.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cmath>
#include <cstdio>
#include <fcntl.h>
#include <thread>
#include <unistd.h>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

static std::string numberText(double v) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", v);
  return text;
}

Session::Session(const RunRequest &request, llvm::raw_ostream &out,
                 llvm::raw_ostream &err)
    : request(request), out(out), err(err) {}

Session::~Session() = default;

int Session::fail(const llvm::Twine &message) {
  out.flush();
  if (dp && dp->worldSize() > 1) {
    // One write, so that the ranks' lines do not interleave; then end the
    // job: the other ranks may wait for this one in a collective.
    err << ("amp-run (rank " + llvm::Twine(dp->rank()) + "): " + message + "\n")
               .str();
    err.flush();
    dp->abort(1);
  }
  err << "amp-run: " << message << "\n";
  err.flush();
  return 1;
}

int Session::failOnEveryRank(const llvm::Twine &message) {
  if (!dp || dp->worldSize() <= 1)
    return fail(message);
  out.flush();
  dp->trainingEnded(); // the watchdog: no step is coming
  if (dp->rank() == 0) {
    err << "amp-run: " << message << " [on all " << dp->worldSize()
        << " ranks: the rule reads the loss and the overflow flag the ranks "
           "all-reduce, so every rank stopped at this step]\n";
    err.flush();
  }
  return 1;
}

std::string Session::runLabel(const std::string &spec) const {
  switch (request.mode) {
  case RunRequest::Mode::CheckGradients:
    return "--check-gradients: ";
  case RunRequest::Mode::EvalOnly:
    return "--eval-only: run " + spec + ": ";
  case RunRequest::Mode::Train:
    break;
  }
  return "run " + spec + ": ";
}

/// "<precision>[+<loss-scale>]" with the request's rewrite options; an
/// error names what is wrong.
static llvm::Expected<TrainOptions> parseRun(const RunRequest &r,
                                             llvm::StringRef spec) {
  auto [prec, scale] = spec.split('+');
  std::optional<Precision> precision = parsePrecision(prec);
  if (!precision)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   describeBadPrecision(prec));
  if (spec.contains('+') && scale.empty())
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        "no loss-scale mode after '+' (dynamic, static or none; '" + prec +
            "' alone has none)");
  std::optional<LossScaleMode> mode =
      scale.empty() ? LossScaleMode::None : parseLossScaleMode(scale);
  if (!mode || *mode == LossScaleMode::Auto)
    return llvm::createStringError(
        llvm::inconvertibleErrorCode(),
        mode ? std::string("'auto' is not a loss-scale mode of a run "
                           "(dynamic, static or none)")
             : describeBadLossScaleMode(scale));
  TrainOptions o;
  o.rewrite = r.rewrite;
  o.rewrite.precision = *precision;
  o.rewrite.lossScale = *mode;
  o.epochs = r.epochs;
  o.batchSize = r.batchSize;
  o.maxStepsPerEpoch = r.maxSteps;
  o.memoryBudget = r.memoryBudget;
  o.seed = r.seed;
  o.progress = r.progress;
  o.progressSeconds = r.progressSeconds;
  o.extraPasses = r.testExtraPasses;
  o.emulateRanks = r.emulateRanks;
  o.checkpointEvery = r.checkpointEvery;
  o.testSignalAtStep = r.testSignalAtStep;
  return o;
}

/// The output of one run from a flag's path: P itself for a single output,
/// else P.<run><ext>, or <run><ext> inside P when P is a directory or ends
/// with '/'.
static std::string perRunPath(llvm::StringRef path, llvm::StringRef run,
                              llvm::StringRef ext, bool single) {
  if (path.ends_with("/") || llvm::sys::fs::is_directory(path))
    return (path.rtrim('/') + "/" + run + ext).str();
  return single ? path.str() : (path + "." + run + ext).str();
}

/// A stream or device (/dev/stdout, a pipe): written once, not named after.
static bool isStream(llvm::StringRef path) {
  if (standardStream(path))
    return true;
  llvm::sys::fs::file_status status;
  if (llvm::sys::fs::status(path, status))
    return false;
  return llvm::sys::fs::exists(status) &&
         status.type() != llvm::sys::fs::file_type::regular_file &&
         status.type() != llvm::sys::fs::file_type::directory_file;
}

/// Creates and removes a temporary file in `dir`: whether a file can be
/// created there (a read-only mount, /proc, a full quota) where access(2)
/// alone cannot tell. An empty string when it can, else why not.
static std::string probeDirectory(llvm::StringRef dir) {
  int fd = -1;
  llvm::SmallString<128> probe;
  if (std::error_code ec = llvm::sys::fs::createUniqueFile(
          (dir + "/.amp-run-probe-%%%%%%").str(), fd, probe))
    return ec.message();
  llvm::sys::fs::closeFile(fd);
  llvm::sys::fs::remove(probe);
  return "";
}

/// Refuses an output file that cannot be written, before anything runs: a
/// directory, a file this process may not write, a missing or unwritable
/// directory for a new file, and any file beside which no temporary file
/// can be created (it is written through one, amp/Support/OutputFile.h).
static llvm::Error checkOutputFile(llvm::StringRef flag, llvm::StringRef path) {
  auto target = classifyOutput(path);
  if (!target)
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--" + flag + ": " +
                                       llvm::toString(target.takeError()));
  if (target->mode == OutputTarget::Mode::Atomic && !target->existing) {
    llvm::StringRef parent = llvm::sys::path::parent_path(target->path);
    std::string dir = parent.empty() ? "." : parent.str();
    if (!llvm::sys::fs::is_directory(dir))
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "--" + flag + ": cannot write '" + path + "': " +
              (llvm::sys::fs::exists(dir)
                   ? "'" + dir + "' is not a directory"
                   : "the directory '" + dir + "' does not exist"));
    if (access(dir.c_str(), W_OK) != 0)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "--" + flag + ": cannot write '" + path +
                                         "': the directory '" + dir +
                                         "' is not writable");
  }
  if (target->mode == OutputTarget::Mode::Atomic) {
    llvm::StringRef parent = llvm::sys::path::parent_path(target->path);
    if (std::string why = probeDirectory(parent.empty() ? "." : parent);
        !why.empty())
      return llvm::createStringError(
          llvm::inconvertibleErrorCode(),
          "--" + flag + ": cannot write '" + path +
              "': cannot create a temporary file beside it: " + why);
  }
  return llvm::Error::success();
}

/// Whether `a` and `b` name one file: the same absolute path once `.` and
/// `..` are resolved, or the same existing file under two names (a link).
static bool samePath(llvm::StringRef a, llvm::StringRef b) {
  if (a == b)
    return true;
  llvm::SmallString<256> x(a), y(b);
  if (!llvm::sys::fs::make_absolute(x) && !llvm::sys::fs::make_absolute(y)) {
    llvm::sys::path::remove_dots(x, /*remove_dot_dot=*/true);
    llvm::sys::path::remove_dots(y, /*remove_dot_dot=*/true);
    if (x == y)
      return true;
  }
  bool same = false;
  return !llvm::sys::fs::equivalent(a, b, same) && same;
}

/// A checkpoint directory to write: an existing writable directory, or one
/// whose nearest existing ancestor is a writable directory.
static llvm::Error checkOutputDirectory(llvm::StringRef flag,
                                        llvm::StringRef dir) {
  auto error = [&](const llvm::Twine &why) {
    return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                   "--" + flag + ": cannot write '" + dir +
                                       "': " + why);
  };
  std::string probe = dir.str();
  while (!probe.empty() && !llvm::sys::fs::exists(probe))
    probe = llvm::sys::path::parent_path(probe).str();
  if (probe.empty())
    probe = ".";
  if (!llvm::sys::fs::is_directory(probe))
    return error("'" + probe + "' is not a directory");
  if (access(probe.c_str(), W_OK) != 0)
    return error("the directory '" + probe + "' is not writable");
  if (std::string why = probeDirectory(probe); !why.empty())
    return error("cannot create a file in '" + probe + "': " + why);
  return llvm::Error::success();
}

void Session::outputsFor(size_t i, uint64_t seed, TrainOptions &o) const {
  const RunRequest &r = request;
  bool single = configs.size() == 1 && r.seeds == 1;
  std::string name = runSpecs[i];
  if (r.seeds > 1)
    name += ".seed" + std::to_string(seed);
  o.seed = seed;
  o.csvPath =
      r.csvPath.empty() ? "" : perRunPath(r.csvPath, name, ".csv", single);
  o.statePath.clear();
  if (!r.dumpStatePath.empty()) {
    // DIR/ names a directory: DIR/<run>, as --csv=DIR/ gives DIR/<run>.csv
    // (DIR/.<run> would be a hidden file).
    llvm::StringRef path = r.dumpStatePath;
    o.statePath = path.ends_with("/") ? (path.rtrim('/') + "/" + name).str()
                  : single            ? path.str()
                                      : (path + "." + name).str();
    if (dp)
      o.statePath += ".rank" + std::to_string(dp->rank());
  }
  auto perRunDir = [&](const std::string &dir) {
    if (dir.empty() || single)
      return dir;
    return (llvm::StringRef(dir).rtrim('/') + "/" + name).str();
  };
  o.checkpointDir = perRunDir(r.saveCheckpoint);
  o.resumeDir = perRunDir(r.resume);
}

std::optional<int> Session::checkOutputs() {
  const RunRequest &r = request;
  size_t outputs = configs.size() * static_cast<size_t>(r.seeds);
  // A stream takes one output; several runs' would be renamed into regular
  // files beside it (/dev/stdout.f32.csv).
  struct Flag {
    const char *name;
    const std::string &path;
    const char *naming;
  };
  // Every file the outputs write, per run and seed, against each other and
  // against the files the runs read (the step, the data, the checkpoint a
  // run resumes from): the last writer would replace the others' bytes.
  struct Named {
    std::string flag, path;
  };
  std::vector<Named> written, read = {{"the step file", r.stepPath}};
  auto add = [](std::vector<Named> &to, const std::string &flag,
                const std::string &path) {
    if (!path.empty() && !isStream(path) &&
        !llvm::StringRef(path).ends_with("/"))
      to.push_back({flag, path});
  };
  for (size_t i = 0; i < configs.size(); ++i) {
    if (!r.rewrite.autocastReport.empty())
      add(written, "autocast-report",
          perRunPath(r.rewrite.autocastReport, runSpecs[i], ".json",
                     configs.size() == 1));
    for (int k = 0; k < r.seeds; ++k) {
      TrainOptions o = configs[i];
      outputsFor(i, r.seed + static_cast<uint64_t>(k), o);
      add(written, "csv", o.csvPath);
      add(written, "dump-state", o.statePath);
      if (!o.checkpointDir.empty())
        add(written, "save-checkpoint", checkpointFile(o.checkpointDir));
      if (!o.resumeDir.empty())
        add(read, "the checkpoint --resume reads", checkpointFile(o.resumeDir));
    }
  }
  add(written, "save-model", r.saveModel);
  if (r.data != "synthetic")
    for (const std::string &file : dataSourceFiles(r.data, r.dataDir))
      add(read, "a data file of --data", file);
  for (size_t i = 0; i < written.size(); ++i) {
    const Named &w = written[i];
    for (const Named &in : read)
      if (samePath(w.path, in.path) &&
          !(w.flag == "save-checkpoint" &&
            in.flag == "the checkpoint --resume reads"))
        return fail("--" + w.flag + "=" + w.path + " is " + in.flag +
                    " it would replace; give another path");
    for (size_t j = 0; j < i; ++j)
      if (samePath(written[j].path, w.path))
        return fail("--" + written[j].flag + " and --" + w.flag +
                    " name the same file " + w.path +
                    ": one would replace the other; give two paths");
  }
  for (const Flag &f :
       {Flag{"csv", r.csvPath, "P.<run>.csv"},
        Flag{"dump-state", r.dumpStatePath, "P.<run>"},
        Flag{"autocast-report", r.rewrite.autocastReport, "P.<run>.json"}}) {
    if (f.path.empty() || outputs == 1 || !isStream(f.path))
      continue;
    return fail("--" + llvm::Twine(f.name) + "=" + f.path +
                ": a stream or device takes the output of one run, and " +
                llvm::Twine(outputs) +
                " runs were asked for; give a directory (--" + f.name +
                "=DIR/: DIR/<run>) or a file name P (" + f.naming + ")");
  }
  if (!r.saveModel.empty()) {
    if (outputs != 1)
      return fail("--save-model=" + r.saveModel +
                  ": writes the model of one run, and " + llvm::Twine(outputs) +
                  " runs were asked for; give one --run and one seed");
    if (llvm::Error e = checkOutputFile("save-model", r.saveModel))
      return fail(llvm::toString(std::move(e)));
  }
  if (dp && dp->worldSize() > 1 && !r.dumpStatePath.empty() &&
      isStream(r.dumpStatePath))
    return fail("--dump-state=" + r.dumpStatePath +
                ": each rank writes its own digest (P.rank<R>); give a file "
                "name");
  if ((!r.saveCheckpoint.empty() || !r.resume.empty()) && r.seeds > 1)
    return fail("--seeds=" + llvm::Twine(r.seeds) +
                ": checkpoints are per run, not per seed; train one seed "
                "(--seed=N) with --save-checkpoint or --resume");
  for (size_t i = 0; i < configs.size(); ++i) {
    // The directory of --csv=DIR/ or --dump-state=DIR/ is made (as a
    // directory is meant).
    for (const std::string *dir : {&r.csvPath, &r.dumpStatePath})
      if (!dir->empty() && llvm::StringRef(*dir).ends_with("/"))
        (void)llvm::sys::fs::create_directories(*dir);
    if (!r.rewrite.autocastReport.empty()) {
      if (llvm::StringRef(r.rewrite.autocastReport).ends_with("/"))
        (void)llvm::sys::fs::create_directories(r.rewrite.autocastReport);
      configs[i].rewrite.autocastReport = perRunPath(
          r.rewrite.autocastReport, runSpecs[i], ".json", configs.size() == 1);
      if (llvm::Error e = checkOutputFile("autocast-report",
                                          configs[i].rewrite.autocastReport))
        return fail(llvm::toString(std::move(e)));
    }
    for (int k = 0; k < r.seeds; ++k) {
      TrainOptions o = configs[i];
      outputsFor(i, r.seed + static_cast<uint64_t>(k), o);
      if (!o.csvPath.empty())
        if (llvm::Error e = checkOutputFile("csv", o.csvPath))
          return fail(llvm::toString(std::move(e)));
      if (!o.statePath.empty())
        if (llvm::Error e = checkOutputFile("dump-state", o.statePath))
          return fail(llvm::toString(std::move(e)));
      if (!o.checkpointDir.empty() && (!dp || dp->reports()))
        if (llvm::Error e =
                checkOutputDirectory("save-checkpoint", o.checkpointDir))
          return fail(llvm::toString(std::move(e)));
      if (!o.resumeDir.empty() &&
          !llvm::sys::fs::exists(checkpointFile(o.resumeDir))) {
        // A run of several writes DIR/<run>/: name it when it is there.
        std::string perRun =
            (llvm::StringRef(r.resume).rtrim('/') + "/" + runSpecs[i]).str();
        std::string hint =
            perRun != o.resumeDir &&
                    llvm::sys::fs::exists(checkpointFile(perRun))
                ? "; " + perRun +
                      " holds one (written by a --run of several runs): "
                      "--resume=" +
                      perRun
                : std::string();
        return fail("--resume=" + r.resume + ": no checkpoint of run " +
                    runSpecs[i] + " (" + checkpointFile(o.resumeDir) +
                    " does not exist)" + hint);
      }
    }
  }
  return std::nullopt;
}

/// --save-model, before anything trains: the model file (--model, or the
/// one the step records), and every parameter has a blob of its own in it
/// (ModelExport.h), of its size.
std::optional<int> Session::checkModelExport() {
  const RunRequest &r = request;
  if (r.saveModel.empty())
    return std::nullopt;
  auto steps = findSteps(*module);
  if (!steps)
    return fail("--save-model: " + llvm::toString(steps.takeError()));
  func::FuncOp trainFn = steps->first;
  modelPath = r.model;
  if (modelPath.empty()) {
    auto source = (*module)->getAttrOfType<StringAttr>(kSourceModelAttr);
    if (!source)
      return fail("--save-model needs --model=FILE: the forward model the "
                  "step was built from (amp-build-train-step's input), whose "
                  "dense_resource blobs take the trained weights; this step "
                  "does not record it (amp.source_model)");
    modelPath = source.getValue().str();
    if (!llvm::sys::fs::exists(modelPath))
      return fail("--save-model: the step was built from " + modelPath +
                  " (amp.source_model), which does not exist here; give "
                  "--model=FILE");
  }
  // The model file under any name (./m.mlir, a symbolic or hard link): the
  // trained model would replace the weights it started from.
  bool same = false;
  if (!llvm::sys::fs::equivalent(r.saveModel, modelPath, same) && same)
    return fail("--save-model=" + r.saveModel +
                (r.model.empty() ? " is the model the step was built from, "
                                 : " is the --model file ") +
                modelPath +
                ": the trained model would replace the model it was read "
                "from; give another path");
  auto found = parameterModelBlobs(trainFn);
  if (!found)
    return fail("--save-model: " + llvm::toString(found.takeError()));
  modelBlobs = std::move(*found);
  std::map<std::string, std::vector<char>> blobs;
  std::vector<ModelBlob> elided;
  for (const auto &[arg, blob] : modelBlobs) {
    auto spec = TensorSpec::fromType(trainFn.getArgument(arg).getType(),
                                     plans[0].batch);
    if (!spec)
      return fail("--save-model: " + llvm::toString(spec.takeError()));
    blobs[blob.key].resize(static_cast<size_t>(spec->numElements()) *
                           spec->elementBytes());
    if (blob.elidedAt)
      elided.push_back(blob);
  }
  auto buffer = llvm::MemoryBuffer::getFile(modelPath, /*IsText=*/false);
  if (!buffer)
    return fail("--model=" + modelPath +
                ": cannot read it: " + buffer.getError().message());
  // Elided weights are written by their places in the file: only into the
  // bytes the step was built from (an edit that keeps every place, such as
  // two swapped names, would put weights into the wrong constants).
  if (!elided.empty()) {
    auto hash = (*module)->getAttrOfType<StringAttr>(kSourceModelHashAttr);
    if (!hash || hash.getValue() != modelTextHash((*buffer)->getBuffer()))
      return fail("--save-model: " + modelPath +
                  " is not the file the step was built from byte for byte "
                  "(amp.source_model_xxh3" +
                  (hash ? " differs" : " is missing") +
                  "), and the step's elided weights are written by their "
                  "places in it; build the step again from this file, or "
                  "keep the weights with --save-checkpoint=DIR");
  }
  if (auto text = replaceResourceBlobs((*buffer)->getBuffer(), modelPath, blobs,
                                       elided);
      !text)
    return fail("--save-model: " + llvm::toString(text.takeError()));
  return std::nullopt;
}

std::optional<int> Session::prepare() {
  const RunRequest &r = request;
  bool checkGradients = r.mode == RunRequest::Mode::CheckGradients;
  // 1. Options, every run's, before anything is loaded.
  runSpecs = r.runs;
  // (--check-gradients checks the fp32 step: its plan is the f32 run's, so
  // that nothing the f16 rewrite refuses stops the check.)
  if (runSpecs.empty())
    runSpecs.push_back(checkGradients ? "f32" : "f16+dynamic");
  if (r.batchSizeGiven && r.batchSize < 1)
    return fail("--batch-size=" + llvm::Twine(r.batchSize) + ": must be >= 1");
  if (r.epochs < 1)
    return fail("--epochs=" + llvm::Twine(r.epochs) + ": must be >= 1");
  if (r.maxSteps < 0)
    return fail("--max-steps=" + llvm::Twine(r.maxSteps) +
                ": must be >= 0 (0: every batch)");
  if (r.memoryBudget < 0)
    return fail("--memory-budget=" + llvm::Twine(r.memoryBudget) +
                ": must be >= 0 bytes (0: none)");
  if (r.seeds < 1)
    return fail("--seeds=" + llvm::Twine(r.seeds) + ": must be >= 1");
  if (!(r.progressSeconds >= 0) || !std::isfinite(r.progressSeconds))
    return fail("--progress-seconds=" + numberText(r.progressSeconds) +
                ": must be a finite number >= 0");
  if (r.checkpointEvery < 0)
    return fail("--checkpoint-every=" + llvm::Twine(r.checkpointEvery) +
                ": must be >= 0 (0: at the end of each epoch only)");
  if (r.saveModel.empty() && !r.model.empty())
    return fail("--model=" + r.model +
                " is read by --save-model only; give --save-model=FILE or "
                "drop --model");
  if (r.checkpointEvery > 0 && r.saveCheckpoint.empty())
    return fail("--checkpoint-every needs --save-checkpoint=DIR");
  for (const std::string &spec : runSpecs) {
    auto o = parseRun(r, spec);
    if (!o)
      return fail("bad --run '" + spec + "': " + llvm::toString(o.takeError()));
    if (std::string why = o->rewrite.validate(); !why.empty()) {
      // A bad scale option names its flag; a run that cannot be (bf16 with
      // loss scaling) names the run.
      llvm::StringRef text(why);
      if (text.starts_with("loss-scale=") || text.starts_with("precision="))
        return fail("--run '" + spec + "': " + why);
      return fail("--" + why);
    }
    configs.push_back(*o);
  }
  // Twice the same run, also under two spellings (f16 and f16+none with
  // loss-scale auto, f32 and f32+none, ...).
  for (size_t i = 0; i < runSpecs.size(); ++i)
    for (size_t j = 0; j < i; ++j) {
      if (runSpecs[i] == runSpecs[j])
        return fail("--run '" + runSpecs[i] + "' is given twice");
      if (configs[i].rewrite.runName() == configs[j].rewrite.runName())
        return fail("--run '" + runSpecs[j] + "' and '" + runSpecs[i] +
                    "' are the same run (" + configs[i].rewrite.runName() +
                    ")");
    }
  if (r.syntheticLabels != "teacher" && r.syntheticLabels != "random")
    return fail("--synthetic-labels=" + r.syntheticLabels +
                ": must be teacher or random");
  // The synthetic data's options say nothing about other data: a user who
  // gives them expects an effect they would not have.
  if (r.data != "synthetic")
    for (auto [flag, given] :
         {std::pair<const char *, bool>{"--synthetic-examples",
                                        r.syntheticExamples > 0},
          {"--classes", r.classes > 0},
          {"--synthetic-int-range", r.syntheticIntRange > 0}})
      if (given)
        return fail(llvm::Twine(flag) +
                    " shapes --data=synthetic only, and "
                    "--data=" +
                    r.data + " was given: the data's own " +
                    "examples, labels and values are used; drop it");
  if (r.data != "synthetic")
    if (auto source = parseDataSource(r.data, r.dataDir); !source)
      return fail(llvm::toString(source.takeError()));
  if (r.syntheticExamples < 0 || r.classes < 0)
    return fail("--synthetic-examples and --classes must be >= 1 (or 0: "
                "their defaults)");
  if (!(r.checkGradientsTolerance > 0))
    return fail("--check-gradients-tolerance=" +
                numberText(r.checkGradientsTolerance) + ": must be > 0");
  if (r.device != "cpu" && r.device != "cuda")
    return fail("--device=" + r.device + ": must be cpu or cuda");
  if (r.device == "cpu" && r.tensorCoresGiven)
    return fail("--tensor-cores is for --device=cuda");
  if (r.device == "cuda" && r.threadsGiven)
    return fail("--threads is for --device=cpu");
  if (r.bf16Dot != "auto" && r.bf16Dot != "on" && r.bf16Dot != "off")
    return fail("--bf16-dot=" + r.bf16Dot + ": must be auto, on or off");
  if (r.device == "cuda" && r.bf16Dot != "auto")
    return fail("--bf16-dot is for --device=cpu");
  if (r.device == "cuda" && r.convGemmGiven)
    return fail("--conv-gemm is for --device=cpu");
  if (r.device == "cuda" && r.polynomialExpGiven)
    return fail("--polynomial-exp is for --device=cpu");
  if (r.device == "cuda" && r.polynomialErfGiven)
    return fail("--polynomial-erf is for --device=cpu");
  if (r.device == "cuda" && r.polynomialTanhGiven)
    return fail("--polynomial-tanh is for --device=cpu");
  if (r.bf16Dot == "on" && !JitModule::hostHasAVX512BF16())
    return fail("--bf16-dot=on: the bf16 dot-product kernel needs a CPU with "
                "AVX512_BF16, which this one lacks (auto picks the FMA kernel "
                "here)");
  if (r.threads > kMaxCpuThreads)
    return fail("--threads=" + llvm::Twine(r.threads) +
                ": must be 0 (every core) or 1.." +
                llvm::Twine(kMaxCpuThreads) + " (this machine has " +
                llvm::Twine(std::thread::hardware_concurrency()) +
                " hardware threads)");

  // 1b. Data parallelism: MPI_Init before anything is loaded, so that every
  // rank fails or runs alike; ranks other than 0 print nothing on stdout.
  if (r.dataParallel != "auto" && r.dataParallel != "on" &&
      r.dataParallel != "off")
    return fail("--data-parallel=" + r.dataParallel +
                ": must be auto, on or off");
  if (r.dpReducePrecision != "f32" && r.dpReducePrecision != "low")
    return fail("--dp-reduce-precision=" + r.dpReducePrecision +
                ": must be f32 or low");
  if (!(r.dpTimeout >= 0))
    return fail("--dp-timeout=" + numberText(r.dpTimeout) + ": must be >= 0");
  std::optional<int> launched = launcherWorldSize();
  bool useMpi = r.dataParallel == "on" ||
                (r.dataParallel == "auto" && launched && *launched > 1);
  if (r.dataParallel == "off" && launched && *launched > 1)
    return fail("started by an MPI launcher with " + llvm::Twine(*launched) +
                " ranks but --data-parallel=off: every rank would train "
                "alone; drop the flag, or start one process");
  InjectionPlan injection;
  if (!r.testInject.empty()) {
    auto parsed = parseInjection(r.testInject);
    if (!parsed)
      return fail("--test-inject=" + r.testInject + ": " +
                  llvm::toString(parsed.takeError()));
    if (!useMpi)
      return fail("--test-inject is a data-parallel test hook: start amp-run "
                  "with mpirun or pass --data-parallel=on");
    injection = *parsed;
  }
  if (useMpi) {
    if (r.device != "cpu")
      return fail("--device=" + r.device +
                  ": data-parallel training runs on the CPU; the GPU path "
                  "(NCCL or CUDA-aware MPI) is planned in "
                  "docs/distributed.md");
    if (checkGradients)
      return fail(r.dataParallel == "on"
                      ? "--check-gradients runs on one process: drop "
                        "--data-parallel=on"
                      : "--check-gradients runs on one process: start it "
                        "without mpirun");
    MpiContextOptions mpiOptions;
    mpiOptions.stepTimeoutSeconds = r.dpTimeout;
    auto created = createMpiContext(mpiOptions);
    if (!created)
      return fail((r.dataParallel == "on"
                       ? "--data-parallel=on: "
                       : "started by mpirun with " + std::to_string(*launched) +
                             " ranks: ") +
                  llvm::toString(created.takeError()));
    mpi = std::move(*created);
    dp = mpi.get();
    if (injection.rank >= dp->worldSize())
      return fail("--test-inject=" + r.testInject + ": there is no rank " +
                  llvm::Twine(injection.rank) + " of " +
                  llvm::Twine(dp->worldSize()));
    for (TrainOptions &o : configs) {
      DataParallelRun run;
      run.context = dp;
      run.bucket = r.dpBucket;
      run.lowPrecisionReduce = r.dpReducePrecision == "low";
      run.injection = injection;
      o.dataParallel = run;
    }
    if (!dp->reports()) {
      out.flush();
      int null = open("/dev/null", O_WRONLY);
      if (null >= 0) {
        dup2(null, STDOUT_FILENO);
        close(null);
      }
    }
  }

  // 1c. Every output path, before anything is loaded or trained.
  if (std::optional<int> failed = checkOutputs())
    return failed;

  // 2. The device.
  if (r.device == "cuda") {
    CudaBackendOptions cuda;
    cuda.tensorCores = r.tensorCores;
    auto gpu = createCudaBackend(cuda);
    if (!gpu)
      return fail("--device=cuda: " + llvm::toString(gpu.takeError()));
    backend = std::move(*gpu);
  } else {
    LowerToLLVMConfig lowering;
    lowering.threads = r.threads;
    if (r.bf16Dot != "auto")
      lowering.bf16Dot = r.bf16Dot == "on";
    lowering.convolutionsAsGemm = r.convGemm;
    lowering.polynomialExp = r.polynomialExp;
    lowering.polynomialErf = r.polynomialErf;
    lowering.polynomialTanh = r.polynomialTanh;
    backend = createCpuBackend(lowering);
  }

  // 3. The step, and every run planned on it.
  DialectRegistry registry;
  registerAllDialectsAndExtensions(registry);
  context = std::make_unique<MLIRContext>(registry);
  // Diagnostics name the location; they do not dump the whole function.
  context->printOpOnDiagnostic(false);
  diagnostics =
      std::make_unique<SourceMgrDiagnosticHandler>(sourceMgr, context.get());
  module = parseSourceFile<ModuleOp>(r.stepPath, sourceMgr, context.get());
  if (!module)
    return fail("cannot parse " + r.stepPath);
  for (size_t i = 0; i < configs.size(); ++i) {
    auto plan = planRun(*module, configs[i]);
    if (!plan)
      return fail(runLabel(runSpecs[i]) + llvm::toString(plan.takeError()));
    plans.push_back(*plan);
  }
  if (std::optional<int> failed = checkModelExport())
    return failed;
  // A checkpoint to resume from is this run's (its options, its seed, epochs
  // left), and --eval-only has an eval step: before any data is loaded.
  DataUse use = r.mode == RunRequest::Mode::EvalOnly ? DataUse::EvaluationOnly
                                                     : DataUse::Training;
  for (size_t i = 0; i < configs.size(); ++i) {
    if (use == DataUse::EvaluationOnly && !plans[i].classes)
      return fail(runLabel(runSpecs[i]) +
                  "the step has no amp.eval_step: --eval-only evaluates one");
    TrainOptions o = configs[i];
    outputsFor(i, r.seed, o);
    if (llvm::Error e = checkResume(o, plans[i], use))
      return fail(runLabel(runSpecs[i]) + llvm::toString(std::move(e)));
  }
  for (const std::string &note : plans.front().notes)
    out << "amp-run: note: " << note << "\n";
  if (dp)
    out << "amp-run: data-parallel over " << dp->worldSize()
        << (dp->worldSize() == 1 ? " rank" : " ranks")
        << " (MPI), global batch " << plans[0].globalBatch << " = "
        << dp->worldSize() << " x " << plans[0].batch << "\n";
  if (r.emulateRanks > 1)
    out << "amp-run: one process reproducing " << r.emulateRanks
        << " data-parallel ranks: every sum over the batch in "
        << r.emulateRanks << " chunks, batch " << plans[0].batch << " = "
        << r.emulateRanks << " x " << plans[0].batch / r.emulateRanks << "\n";
  return std::nullopt;
}

std::optional<int> Session::loadData() {
  const RunRequest &r = request;
  if (r.data == "synthetic") {
    int64_t batch = 0;
    for (const RunPlan &p : plans)
      batch = std::max(batch, p.batch);
    int64_t examples =
        r.syntheticExamples > 0 ? r.syntheticExamples : 64 * batch;
    // The classes the step reads: its logits, its label's amp.classes, the
    // logits its loss selects from, the values of a one-hot target (a
    // loss=none step's float target); else 10.
    int32_t numClasses = r.classes > 0            ? r.classes
                         : plans[0].classes       ? *plans[0].classes
                         : plans[0].labelClasses  ? *plans[0].labelClasses
                         : plans[0].lossClasses   ? *plans[0].lossClasses
                         : plans[0].targetClasses ? *plans[0].targetClasses
                                                  : 10;
    // The test set: a quarter as many, at least one batch. (Not one per
    // class: for ImageNet's 1000 classes at batch 1 that was 1000 forward
    // passes of a ResNet after every epoch, most of a short run.)
    int64_t testExamples = std::max<int64_t>(examples / 4, batch);
    const RunPlan &plan = plans[0];
    SyntheticLabels labels = r.syntheticLabels == "random"
                                 ? SyntheticLabels::Random
                                 : SyntheticLabels::Teacher;
    const char *labelsText = labels == SyntheticLabels::Random
                                 ? "uniform random labels"
                                 : "labels from a fixed random teacher";
    if (!plan.needsStepData()) {
      // Both sets (test: a quarter) as f32 values plus an i32 label each,
      // checked before they are allocated.
      uint64_t values = static_cast<uint64_t>(plan.valuesPerExample);
      uint64_t perExample = values * 4 + 4, memory = physicalMemoryBytes();
      if (values > (UINT64_MAX / 8) / static_cast<uint64_t>(examples) ||
          (memory &&
           perExample * static_cast<uint64_t>(examples) / 4 * 5 > memory))
        return fail("--synthetic-examples=" + llvm::Twine(examples) +
                    ": the synthetic data (" + llvm::Twine(examples) +
                    " examples of " + llvm::Twine(values) +
                    " f32 values, plus a test set of a quarter) does not fit "
                    "in this machine's memory");
      out << "amp-run: synthetic data, " << examples << " training examples of "
          << plan.valuesPerExample << " values, " << numClasses << " classes, "
          << labelsText << "\n";
      trainSet = makeSyntheticDataset(examples, plan.valuesPerExample,
                                      numClasses, r.seed, labels, r.seed);
      testSet = makeSyntheticDataset(testExamples, plan.valuesPerExample,
                                     numClasses, r.seed + 1, labels, r.seed);
    } else {
      // Data of the step's own inputs and target (Dataset::inputs).
      if (r.syntheticIntRange < 0)
        return fail(
            "--synthetic-int-range=" + llvm::Twine(r.syntheticIntRange) +
            ": must be >= 1 (or 0: from the step)");
      std::vector<SyntheticInput> inputs;
      std::string description;
      uint64_t values = 0;
      for (const RunPlan::Input &in : plan.inputs) {
        SyntheticInput s;
        s.valuesPerExample = in.valuesPerExample;
        s.integer = in.integer;
        std::string what =
            llvm::formatv("argument #{0} ({1}): {2} ", in.argument, in.type,
                          in.valuesPerExample)
                .str();
        bool boolean = in.maskRow > 0;
        bool i1 = llvm::StringRef(in.type).ends_with("xi1>");
        if (i1 && r.syntheticIntRange > 2)
          return fail(
              "--synthetic-int-range=" + llvm::Twine(r.syntheticIntRange) +
              ": the input argument #" + llvm::Twine(in.argument) + " (" +
              in.type + ") is boolean; its values are 0 and 1");
        if (boolean && !in.indexBound && r.syntheticIntRange == 0) {
          s.maskRow = in.maskRow;
          s.attendMask = in.attendMask;
          // (An integer mask, an HF-style attention_mask: 1 and 0.)
          const char *on = i1 ? "true" : "1", *off = i1 ? "false" : "0";
          const char *keep = in.attendMask ? on : off;
          const char *drop = in.attendMask ? off : on;
          what += llvm::formatv(
                      "{5}, each row of {0} {1} mask (its "
                      "first k {2}, the rest {3}, k in [1, {4}])",
                      in.maskRow, in.attendMask ? "an attention" : "a padding",
                      keep, drop, std::max<int64_t>(1, in.maskRow - 1),
                      i1 ? "booleans" : "integers 0 and 1")
                      .str();
        } else if (in.integer) {
          if (r.syntheticIntRange > 0 && in.indexBound &&
              r.syntheticIntRange > *in.indexBound)
            return fail(
                "--synthetic-int-range=" + llvm::Twine(r.syntheticIntRange) +
                ": the integer input argument #" + llvm::Twine(in.argument) +
                " (" + in.type + ") indexes a table of " +
                llvm::Twine(*in.indexBound) + " rows; values from [0, " +
                llvm::Twine(r.syntheticIntRange) + ") would read past it");
          s.intRange = r.syntheticIntRange > 0 ? r.syntheticIntRange
                       : in.indexBound         ? *in.indexBound
                                               : 2;
          what += "integers from [0, " + std::to_string(s.intRange) + ")";
          if (r.syntheticIntRange > 0)
            what += " (--synthetic-int-range)";
          else if (in.indexBound)
            what += " (the rows of the table it indexes)";
          else
            out << "amp-run: note: the integer input argument #" << in.argument
                << " (" << in.type
                << ") indexes no table amp-run can see; its "
                   "synthetic values are drawn from [0, 2) "
                   "(--synthetic-int-range=N: [0, N))\n";
        } else {
          what += "f32 values from U[0, 1)";
        }
        description += "\n  " + what;
        values += static_cast<uint64_t>(in.valuesPerExample);
        inputs.push_back(s);
      }
      if (plan.targetValues) {
        description += llvm::formatv("\n  target ({0}): {1} values "
                                     "tanh(a fixed random function of the "
                                     "inputs)",
                                     plan.targetType, *plan.targetValues)
                           .str();
        values += static_cast<uint64_t>(*plan.targetValues);
      }
      // Every value is stored as 4 or 8 bytes, plus a label per example.
      uint64_t memory = physicalMemoryBytes();
      if (values > (UINT64_MAX / 16) / static_cast<uint64_t>(examples) ||
          (memory &&
           (values * 8 + 4) * static_cast<uint64_t>(examples) / 4 * 5 > memory))
        return fail("--synthetic-examples=" + llvm::Twine(examples) +
                    ": the synthetic data (" + llvm::Twine(examples) +
                    " examples of " + llvm::Twine(values) +
                    " values, plus a test set of a quarter) does not fit "
                    "in this machine's memory");
      out << "amp-run: synthetic data, " << examples << " training examples";
      if (!plan.targetValues) {
        out << ", " << numClasses << " classes";
        description += "\n  " + std::string(labelsText);
      }
      out << ":" << description << "\n";
      trainSet = makeSyntheticStepDataset(examples, inputs, plan.targetValues,
                                          numClasses, r.seed, r.seed, labels);
      testSet =
          makeSyntheticStepDataset(testExamples, inputs, plan.targetValues,
                                   numClasses, r.seed + 1, r.seed, labels);
    }
  } else {
    // Files: each source checks them against the first run's plan (the
    // runs share the step's shapes) and names the file that does not fit.
    auto source = parseDataSource(r.data, r.dataDir);
    if (!source)
      return fail(llvm::toString(source.takeError()));
    auto splits = (*source)->load(plans[0], out);
    if (!splits)
      return fail(llvm::toString(splits.takeError()));
    trainSet = std::move(splits->train);
    testSet = std::move(splits->test);
  }
  // --eval-only reads the test set alone: a training set smaller than a
  // batch does not matter to it.
  DataUse use = r.mode == RunRequest::Mode::EvalOnly ? DataUse::EvaluationOnly
                                                     : DataUse::Training;
  for (size_t i = 0; i < plans.size(); ++i)
    if (llvm::Error e = checkRunAgainstData(plans[i], *trainSet, *testSet, use))
      return fail(runLabel(runSpecs[i]) + llvm::toString(std::move(e)));
  return std::nullopt;
}

int mlir::amp::runtime::runRequest(const RunRequest &request,
                                   llvm::raw_ostream &out,
                                   llvm::raw_ostream &err) {
  switch (request.mode) {
  case RunRequest::Mode::CheckGradients:
    return checkGradientsMode(request, out, err);
  case RunRequest::Mode::EvalOnly:
    return evaluateOnly(request, out, err);
  case RunRequest::Mode::Train:
    break;
  }
  return trainRuns(request, out, err);
}
