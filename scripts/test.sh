#!/usr/bin/env bash
# README command 2: install what is missing, build, run every test (lit
# suite + GoogleTest unit and execution tests) under CTest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${AMP_BUILD_DIR:-$root/build}"
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
ctest --test-dir "$build" --output-on-failure
