//===- amp-opt.cpp - mlir-opt with the amp dialect and passes -------------===//
//
// All upstream dialects and passes plus amp's, run by upstream's MlirOptMain,
// with two additions:
//  - atomic output: with `-o FILE`, the result goes to a temporary file beside
//    FILE that is renamed over FILE only when every pass succeeded; on any
//    error (and on SIGINT/SIGTERM/SIGPIPE or a crash) the temporary file is
//    removed and FILE is left exactly as it was. Non-regular outputs
//    (-o /dev/null, a pipe) and stdout are written directly; through a
//    symbolic link the file it points to is replaced; a FILE the user may not
//    write is refused, and the replacement keeps FILE's mode
//    (amp/Support/OutputFile.h);
//  - crash containment (on by default; --amp-crash-containment=false turns it
//    off): a pass that crashes is reported as an error naming the pass, with
//    a reproducer file (--amp-crash-reproducer=PATH, default a new
//    amp-crash-reproducer-*.mlir in $TMPDIR or /tmp), after LLVM's stack
//    dump; the tool exits 1 and writes no output
//    (amp/Support/CrashContainment.h). Passes then run single-threaded.
// Test-only passes (amp-test-crash) exist only with the hidden flag
// --amp-enable-test-passes.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"

#include "amp/InitAll.h"
#include "amp/Support/CrashContainment.h"
#include "amp/Support/OutputFile.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace mlir;

static llvm::cl::opt<bool> crashContainment(
    "amp-crash-containment",
    llvm::cl::desc("Turn a crash inside a pass into an error naming the "
                   "pass, with a reproducer file (default on; passes then run "
                   "single-threaded)"),
    llvm::cl::init(true));
static llvm::cl::opt<std::string> crashReproducer(
    "amp-crash-reproducer",
    llvm::cl::desc("Where the reproducer of a crashed pass goes (default: a "
                   "new amp-crash-reproducer-*.mlir in $TMPDIR or /tmp)"),
    llvm::cl::value_desc("filename"), llvm::cl::init(""));
static llvm::cl::opt<bool>
    testPasses("amp-enable-test-passes", llvm::cl::Hidden,
               llvm::cl::desc("Register amp-opt's test-only passes"));

int main(int argc, char **argv) {
  // First: LLVM's signal handlers; SIGINT, SIGTERM, crashes and SIGPIPE
  // remove the temporary output file.
  llvm::InitLLVM init(argc, argv);
  amp::removeTemporaryOutputsOnSigpipe();
  DialectRegistry registry;
  amp::registerAllDialectsAndExtensions(registry);
  amp::registerAllPassesAndPipelines();
  // Passes must be registered before the command line is parsed.
  for (int i = 1; i < argc; ++i)
    if (llvm::StringRef(argv[i]).ltrim('-') == "amp-enable-test-passes")
      amp::registerTestPasses();
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "amp-mlir optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldListPasses()) {
    printRegisteredPasses();
    return 0;
  }

  if (inputFilename == "-" &&
      llvm::sys::Process::FileDescriptorIsDisplayed(fileno(stdin)))
    llvm::errs() << "(processing input from stdin now, hit ctrl-c/ctrl-d to "
                    "interrupt)\n";
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &errorMessage);
  if (!input) {
    llvm::errs() << errorMessage << "\n";
    return 1;
  }
  auto output = amp::OutputFile::open(outputFilename, ".amp-opt-tmp");
  if (!output) {
    llvm::errs() << "error: " << llvm::toString(output.takeError()) << "\n";
    return 1;
  }

  amp::CrashContainmentOptions containOptions;
  containOptions.enabled = crashContainment;
  containOptions.reproducerPath = crashReproducer;
  amp::DriverCrashContainment containment(containOptions);
  MlirOptMainConfig base = config;
  config.setPassPipelineSetupFn([&](PassManager &pm) -> LogicalResult {
    if (failed(base.setupPassPipeline(pm)))
      return failure();
    containment.attach(pm);
    return success();
  });
  LogicalResult result = failure();
  if (!containment.run([&] {
        result =
            MlirOptMain((*output)->os(), std::move(input), registry, config);
      })) {
    // The driver's objects (context, IR) are abandoned on the crashed stack:
    // leave without touching them.
    (*output)->discard();
    llvm::errs() << "amp-opt: "
                 << (containment.crashedInPass()
                         ? "a pass crashed (error above)"
                         : "crashed outside a pass (stack dump above)")
                 << "; no output written\n";
    llvm::errs().flush();
    llvm::outs().flush();
    std::_Exit(1);
  }
  if (failed(result))
    return 1; // the output file is discarded
  if (llvm::Error err = (*output)->commit()) {
    llvm::errs() << "error: " << llvm::toString(std::move(err)) << "\n";
    return 1;
  }
  return 0;
}
