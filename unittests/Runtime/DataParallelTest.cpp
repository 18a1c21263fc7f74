//===- DataParallelTest.cpp - the data-parallel context's plain parts -----===//
//
// What needs no MPI: the shards of a global batch, the test-hook parser,
// the launcher's world size from the environment, the one-process context.
//
//===----------------------------------------------------------------------===//

#include "amp/Runtime/DataParallel.h"

#include "gtest/gtest.h"

#include <cstdlib>
#include <set>

using namespace mlir::amp;
using namespace mlir::amp::runtime;

namespace {
/// A context of any rank and size, for the shard arithmetic.
class FakeContext final : public DataParallelContext {
public:
  FakeContext(int rank, int size) : r(rank), n(size) {}
  int rank() const override { return r; }
  int worldSize() const override { return n; }
  MPIImplementation implementation() const override {
    return MPIImplementation::OpenMPI;
  }
  llvm::Error agree(uint64_t, llvm::StringRef) override {
    return llvm::Error::success();
  }
  [[noreturn]] void abort(int) override { std::abort(); }

private:
  int r, n;
};
} // namespace

// The ranks' shards of global step s are consecutive, rank 0 first, and
// together are exactly positions [s * N * B, (s + 1) * N * B) of the epoch's
// order: what a one-process run with the global batch sees at step s.
TEST(DataParallel, ShardsPartitionTheGlobalBatch) {
  const int64_t batch = 128;
  for (int size : {1, 2, 3, 4}) {
    for (int64_t step : {0, 1, 7}) {
      std::set<int64_t> positions;
      for (int rank = 0; rank < size; ++rank) {
        FakeContext ctx(rank, size);
        EXPECT_EQ(ctx.globalBatch(batch), batch * size);
        int64_t first = ctx.shardBegin(step, batch);
        EXPECT_EQ(first, step * size * batch + rank * batch);
        for (int64_t i = 0; i < batch; ++i)
          EXPECT_TRUE(positions.insert(first + i).second);
      }
      EXPECT_EQ(*positions.begin(), step * size * batch);
      EXPECT_EQ(*positions.rbegin(), (step + 1) * size * batch - 1);
      EXPECT_EQ(static_cast<int64_t>(positions.size()), size * batch);
    }
  }
}

TEST(DataParallel, OneProcess) {
  auto ctx = createSingleProcessContext();
  EXPECT_EQ(ctx->rank(), 0);
  EXPECT_EQ(ctx->worldSize(), 1);
  EXPECT_TRUE(ctx->reports());
  EXPECT_FALSE(static_cast<bool>(ctx->agree(42, "anything")));
}

TEST(DataParallel, ParsesInjections) {
  auto inf = parseInjection("grad-inf@1:3");
  ASSERT_TRUE(static_cast<bool>(inf));
  EXPECT_EQ(inf->kind, Injection::GradInf);
  EXPECT_EQ(inf->rank, 1);
  EXPECT_EQ(inf->step, 3);
  auto hang = parseInjection("hang@0:1");
  ASSERT_TRUE(static_cast<bool>(hang));
  EXPECT_EQ(hang->kind, Injection::Hang);
  for (const char *bad : {"grad-inf", "grad-inf@1", "grad-inf@x:1",
                          "grad-inf@-1:2", "loss-nan@1:0", "nan@1:2"}) {
    auto parsed = parseInjection(bad);
    EXPECT_FALSE(static_cast<bool>(parsed)) << bad;
    llvm::consumeError(parsed.takeError());
  }
}

TEST(DataParallel, LauncherWorldSize) {
  for (const char *name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"})
    unsetenv(name);
  EXPECT_FALSE(launcherWorldSize().has_value());
  setenv("PMI_SIZE", "4", 1);
  EXPECT_EQ(launcherWorldSize(), 4);
  setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
  EXPECT_EQ(launcherWorldSize(), 2); // Open MPI's own variable first
  setenv("OMPI_COMM_WORLD_SIZE", "two", 1);
  EXPECT_EQ(launcherWorldSize(), 4); // not a number: the next one
  unsetenv("OMPI_COMM_WORLD_SIZE");
  unsetenv("PMI_SIZE");
}
