//===- DataParallel.cpp - the process group of a data-parallel run --------===//

#include "amp/Runtime/DataParallel.h"

#include "amp/Runtime/BoundStep.h"
#include "amp/Runtime/JitModule.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>

using namespace mlir;
using namespace mlir::amp;
using namespace mlir::amp::runtime;

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

namespace {
class SingleProcessContext final : public DataParallelContext {
public:
  int rank() const override { return 0; }
  int worldSize() const override { return 1; }
  MPIImplementation implementation() const override {
    return MPIImplementation::OpenMPI;
  }
  llvm::Error agree(uint64_t, llvm::StringRef) override {
    return llvm::Error::success();
  }
  [[noreturn]] void abort(int exitCode) override { std::exit(exitCode); }
};
} // namespace

std::unique_ptr<DataParallelContext>
mlir::amp::runtime::createSingleProcessContext() {
  return std::make_unique<SingleProcessContext>();
}

std::optional<int> mlir::amp::runtime::launcherWorldSize() {
  // Open MPI's mpirun, MPICH's Hydra (mpiexec), PMIx launchers (srun).
  for (const char *name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"}) {
    const char *value = std::getenv(name);
    int size = 0;
    if (value && !llvm::StringRef(value).getAsInteger(10, size) && size > 0)
      return size;
  }
  return std::nullopt;
}

llvm::Expected<InjectionPlan>
mlir::amp::runtime::parseInjection(llvm::StringRef spec) {
  auto [kindText, where] = spec.split('@');
  auto [rankText, stepText] = where.split(':');
  InjectionPlan plan;
  plan.kind = llvm::StringSwitch<Injection>(kindText)
                  .Case("grad-inf", Injection::GradInf)
                  .Case("loss-nan", Injection::LossNaN)
                  .Case("fail", Injection::Fail)
                  .Case("hang", Injection::Hang)
                  .Default(Injection::None);
  if (plan.kind == Injection::None)
    return makeError("'" + kindText +
                     "' is not an injection (grad-inf, loss-nan, fail, hang)");
  if (rankText.getAsInteger(10, plan.rank) || plan.rank < 0 ||
      stepText.getAsInteger(10, plan.step) || plan.step < 1)
    return makeError("'" + spec +
                     "': write KIND@RANK:STEP with RANK >= 0 and STEP >= 1 "
                     "(counted over the run), e.g. grad-inf@1:3");
  return plan;
}

/// What the step's test hook returns at its next call.
static std::atomic<int32_t> stepInjection{0};

void mlir::amp::runtime::setStepInjection(int32_t code) {
  stepInjection.store(code);
}

/// The test hook amp-data-parallel's `test-injection` makes the step call
/// (JitModule::provideSymbol gives the JIT its address).
extern "C" int32_t amp_dp_test_injection() { return stepInjection.load(); }

void mlir::amp::runtime::provideTestInjectionHook() {
  JitModule::provideSymbol(kTestInjectionFn,
                           reinterpret_cast<void *>(&amp_dp_test_injection));
}

/// FNV-1a, 64 bits.
static uint64_t fnv1a(const void *data, size_t bytes) {
  uint64_t hash = 14695981039346656037ull;
  const auto *p = static_cast<const unsigned char *>(data);
  for (size_t i = 0; i < bytes; ++i) {
    hash ^= p[i];
    hash *= 1099511628211ull;
  }
  return hash;
}

llvm::Error mlir::amp::runtime::writeStateDigest(BoundStep &step,
                                                 llvm::StringRef header,
                                                 const std::string &path) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return makeError("cannot write '" + path + "': " + ec.message());
  os << header << "\n";
  const StepLayout &layout = step.layout();
  for (auto [arg, result] : layout.updates) {
    DeviceBuffer &buffer = step.arg(arg);
    buffer.download();
    const HostTensor &host = buffer.host();
    const TensorSpec &spec = host.spec();
    size_t bytes =
        static_cast<size_t>(spec.numElements()) * spec.elementBytes();
    char hash[32];
    std::snprintf(hash, sizeof(hash), "%016llx",
                  static_cast<unsigned long long>(fnv1a(host.data(), bytes)));
    os << "arg " << arg << " " << stringifyArgRole(layout.argRoles[arg]) << " "
       << spec.str() << " fnv1a64=" << hash;
    if (spec.numElements() == 1 && spec.shape.empty()) {
      char value[32] = "";
      if (spec.kind == ElementKind::F32)
        std::snprintf(value, sizeof(value), "%.9g",
                      static_cast<double>(host.as<float>()[0]));
      else if (spec.kind == ElementKind::I32)
        std::snprintf(value, sizeof(value), "%d", host.as<int32_t>()[0]);
      if (*value)
        os << " value=" << value;
    }
    os << "\n";
  }
  os.close();
  if (os.has_error()) {
    os.clear_error();
    return makeError("cannot write '" + path + "'");
  }
  return llvm::Error::success();
}
