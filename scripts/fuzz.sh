#!/usr/bin/env bash
# usage: scripts/fuzz.sh BUILD_DIR SECONDS [extra libFuzzer flags...]
# Runs amp-fuzz (built by scripts/sanitize.sh) for SECONDS on one core from a
# seed corpus of the project's own test cases (every .mlir file split at
# `// -----`, one case per seed) plus generated functions and training
# steps. New coverage goes to BUILD_DIR/fuzz/corpus, crashes to
# BUILD_DIR/fuzz/crash-*; a crash makes this script fail. A found crash
# becomes a lit test under test/Regression/ (docs/reliability.md). Leak
# checking is off on both levels (ASan's detect_leaks and libFuzzer's
# -detect_leaks, which re-runs inputs under malloc hooks): MLIR's global
# registries are never freed.
# libFuzzer runs every seed once before it looks at -max_total_time; under
# the sanitizers that takes about 0.6 s per seed (7 minutes for all 520),
# so AMP_FUZZ_SEED_LIMIT=N (sanitize.sh --ci: 64) runs an evenly spaced
# sample of N seeds instead (about 50 s, then mutation for the rest of
# SECONDS).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="$1" seconds="$2"
shift 2
work="$build/fuzz"
mkdir -p "$work/seeds" "$work/corpus"
if [ -z "$(ls -A "$work/seeds")" ]; then
  (cd "$root" && find test examples -name '*.mlir' ! -name 'upstream-*' | sort) | while read -r f; do
    awk -v out="$work/seeds/$(echo "$f" | tr '/' '_')" '
      /^\/\/ -----/ { n++; next } { print > (out "." n) }' "$root/$f"
  done
  "$build/bin/amp-robustness" --print --functions=50 --steps=20 --edge-cases=20 --forward-models=20 |
    awk -v out="$work/seeds/gen" '/^\/\/ -----/ { n++; next } { print > (out "." n) }'
fi
seeds="$work/seeds"
if [ -n "${AMP_FUZZ_SEED_LIMIT:-}" ]; then
  seeds="$work/seeds-sample"
  rm -rf "$seeds" && mkdir -p "$seeds"
  total=$(ls "$work/seeds" | wc -l)
  step=$(( (total + AMP_FUZZ_SEED_LIMIT - 1) / AMP_FUZZ_SEED_LIMIT ))
  ls "$work/seeds" | sort | awk -v step="$step" 'NR % step == 0' |
    while read -r f; do cp "$work/seeds/$f" "$seeds/"; done
fi
# AMP_FUZZ_SEED=S and AMP_FUZZ_RUNS=N (sanitize.sh --ci: 1 and 3000) make
# a run reproducible: libFuzzer's random seed fixed, and N inputs instead of
# what fits in SECONDS (which then only caps the run). From an empty corpus
# (a clean clone) the same commit then fuzzes the same inputs every time.
determinism=()
if [ -n "${AMP_FUZZ_SEED:-}" ]; then determinism+=(-seed="$AMP_FUZZ_SEED"); fi
if [ -n "${AMP_FUZZ_RUNS:-}" ]; then determinism+=(-runs="$AMP_FUZZ_RUNS"); fi
ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" \
UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}" \
  "$build/bin/amp-fuzz" -max_total_time="$seconds" -max_len=16384 \
  -timeout=60 -rss_limit_mb=4096 -print_final_stats=1 -detect_leaks=0 \
  -artifact_prefix="$work/" "${determinism[@]}" "$@" "$work/corpus" "$seeds"
