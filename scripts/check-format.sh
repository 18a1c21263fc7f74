#!/usr/bin/env bash
# Checks that C++ sources follow .clang-format (LLVM style) with Debian's
# clang-format-22. Without an argument: every tracked C++ file. With a git
# revision: only the C++ files changed since it (e.g. origin/main).
# Exit status 1 and the offending places when a file is not formatted.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
fmt="${CLANG_FORMAT:-clang-format-22}"
if ! command -v "$fmt" >/dev/null; then
  echo "check-format: $fmt not found (scripts/install-deps.sh installs it)" >&2
  exit 1
fi
if [ $# -ge 1 ]; then
  if ! git rev-parse --verify --quiet "$1^{commit}" >/dev/null; then
    echo "check-format: '$1' is not a git revision" >&2
    exit 1
  fi
  mapfile -t files < <(git diff --name-only --diff-filter=d "$1" -- '*.cpp' '*.h')
else
  mapfile -t files < <(git ls-files -- '*.cpp' '*.h')
fi
if [ ${#files[@]} -eq 0 ]; then
  echo "check-format: no C++ files to check"
  exit 0
fi
"$fmt" --dry-run -Werror "${files[@]}"
echo "check-format: ${#files[@]} files formatted"
