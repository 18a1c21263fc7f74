//===- BenchRows.h - the table rows every benchmark prints ------*- C++ -*-===//
//
// A benchmark prints each figure as one line
// "ROW|<bench>|<figure>|<reference>|<goal>|<verdict>" that scripts/bench.sh
// collects into one table (benchmarks/README.md), plus the small numeric
// helpers the rows are made with.
//
//===----------------------------------------------------------------------===//

#ifndef AMP_BENCHMARKS_BENCHROWS_H
#define AMP_BENCHMARKS_BENCHROWS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace amp::bench {

/// One table row on stdout, flushed (a crash later keeps the rows so far).
inline void row(llvm::StringRef bench, llvm::StringRef figure,
                llvm::StringRef ref, llvm::StringRef goal,
                llvm::StringRef verdict) {
  llvm::outs() << "ROW|" << bench << "|" << figure << "|" << ref << "|" << goal
               << "|" << verdict << "\n";
  llvm::outs().flush();
}

/// `v` printed with the printf format `f` (one double conversion).
inline std::string fmt(const char *f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), f, v);
  return buf;
}

/// The median of `v` (the mean of the middle two for an even count); 0 for
/// no values.
inline double median(std::vector<double> v) {
  if (v.empty())
    return 0;
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

} // namespace amp::bench

#endif // AMP_BENCHMARKS_BENCHROWS_H
