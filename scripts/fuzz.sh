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
ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" \
UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}" \
  "$build/bin/amp-fuzz" -max_total_time="$seconds" -max_len=16384 \
  -timeout=60 -rss_limit_mb=4096 -print_final_stats=1 -detect_leaks=0 \
  -artifact_prefix="$work/" "$@" "$work/corpus" "$work/seeds"
