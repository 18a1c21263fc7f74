#!/usr/bin/env bash
# README command 2: install what is missing, build, run every test (lit
# suite + GoogleTest unit and execution tests) under CTest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${AMP_BUILD_DIR:-$root/build}"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"

# Sanitizer subset (docs/reliability.md): ASan + UBSan build of amp-opt,
# amp-run and the robustness tools into build-sanitize, then the lit suite,
# a robustness corpus and 60 s of libFuzzer on them (about 5 minutes on two
# cores from cold). AMP_SKIP_SANITIZE=1 skips it.
if [ "${AMP_SKIP_SANITIZE:-0}" != 1 ]; then
  "$root/scripts/sanitize.sh" --ci
fi
