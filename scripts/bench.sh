#!/usr/bin/env bash
# README command: install what is missing, build, run every benchmark and
# print one table of figures, references and goals (benchmarks/README.md).
# Each benchmark's own output goes to build/bench/<name>.log. The CPU step
# (amp-bench-cpu-step) runs its peers in the same run: PyTorch eager on the
# CPU (Debian's python3-torch, /usr/bin/python3) and the same GEMMs in
# OpenBLAS, interleaved with our steps; its rows are ratios.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${AMP_BUILD_DIR:-$root/build}"
"$root/scripts/install-deps.sh" --bench
"$root/scripts/build.sh"
mkdir -p "$build/bench"
rows="$build/bench/rows.txt"
: > "$rows"
status=0
for bench in amp-bench-compile-time amp-bench-fused-check amp-bench-training amp-bench-autocast amp-bench-cpu-step amp-bench-data-parallel; do
  exe="$build/bin/$bench"
  # Data parallelism: 2 ranks under mpirun on this machine (built with MPI).
  launch=()
  if [ "$bench" = amp-bench-data-parallel ]; then
    if [ ! -x "$exe" ]; then
      echo "bench: $bench skipped (this build has no MPI)"
      continue
    fi
    launch=(mpirun -np 2 --oversubscribe)
    if [ "$(id -u)" -eq 0 ]; then launch+=(--allow-run-as-root); fi
  fi
  if [ ! -x "$exe" ]; then
    echo "bench: $exe was not built" >&2
    status=1
    continue
  fi
  echo "bench: running $bench (log: $build/bench/$bench.log)"
  if ! (cd "$root" && "${launch[@]}" "$exe" > "$build/bench/$bench.log" 2>&1); then
    echo "bench: $bench failed; see $build/bench/$bench.log" >&2
    status=1
  fi
  grep '^ROW|' "$build/bench/$bench.log" >> "$rows" || true
done

echo
echo "amp-mlir benchmarks, $(date -u +%Y-%m-%d), $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
awk -F'|' '
  BEGIN { printf "%-62s %-34s %-40s %-10s %s\n", "benchmark", "figure", "reference", "goal", "verdict"
          printf "%-62s %-34s %-40s %-10s %s\n", "---------", "------", "---------", "----", "-------" }
  { printf "%-62s %-34s %-40s %-10s %s\n", $2, $3, $4, $5, $6 }' "$rows"
exit $status
