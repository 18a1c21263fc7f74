// REQUIRES: ptxas
// scripts/gpu-check.sh --bundle: bad arguments and bad bundles fail early
// with one clear line and build nothing.
// RUN: not %amp_src_root/scripts/gpu-check.sh --bundle= 2>&1 | FileCheck %s --check-prefix=USAGE
// RUN: not %amp_src_root/scripts/gpu-check.sh --part=gpu 2>&1 | FileCheck %s --check-prefix=USAGE
// USAGE: usage: {{.*}}gpu-check.sh [--dry-run] [--bundle=DIR] [--part=all|train|bench]
// RUN: rm -rf %t && mkdir -p %t/empty %t/corrupt %t/bench/bin
// RUN: not %amp_src_root/scripts/gpu-check.sh --bundle=%t/empty 2>&1 | FileCheck %s --check-prefix=NOPAYLOAD
// NOPAYLOAD: gpu-check: no {{.*}}empty/payload.tar.xz (scripts/gpu-bundle.sh)
// RUN: echo "not an archive" > %t/corrupt/payload.tar.xz
// RUN: env TMPDIR=%t not %amp_src_root/scripts/gpu-check.sh --bundle=%t/corrupt --part=bench 2>&1 | FileCheck %s --check-prefix=CORRUPT
// CORRUPT: gpu-check: cannot unpack {{.*}}corrupt/payload.tar.xz ({{.*}}); rebuild it with scripts/gpu-bundle.sh
// RUN: not ls %t/amp-gpu-bundle-bench
// A bench-only bundle asked for the train part.
// RUN: printf '#!/bin/sh\n' > %t/bench/bin/amp-bench-gpu-fused-check && chmod +x %t/bench/bin/amp-bench-gpu-fused-check
// RUN: tar -C %t/bench -cJf %t/bench/payload.tar.xz bin
// RUN: env TMPDIR=%t not %amp_src_root/scripts/gpu-check.sh --bundle=%t/bench --part=train 2>&1 | FileCheck %s --check-prefix=PART
// PART: gpu-check: {{.*}}bench holds no train part (train: amp-run; bench: amp-bench-gpu-fused-check)
