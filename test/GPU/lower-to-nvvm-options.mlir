// amp-lower-to-nvvm checks its chip before it builds anything: a chip that
// LLVM's NVPTX backend does not know is one clear error (it used to abort
// in instruction selection of mma.sync, or fail later in ptxas).
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm="chip=sm_80x format=isa" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm="chip=sm_999 format=isa" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm="chip=compute_80 format=isa" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm="opt-level=7 format=isa" 2>&1 | FileCheck %s --check-prefix=OPT
// BAD: error: amp-lower-to-nvvm: chip '{{[a-z_0-9]+}}' is not a CUDA architecture that LLVM's NVPTX backend knows
// BAD-NOT: LLVM ERROR
// OPT: error: amp-lower-to-nvvm: opt-level must be 0-3, got 7
//
// sm_100 (Blackwell) needs PTX 8.6: without features=, LLVM picks the
// chip's minimum PTX version instead of the default +ptx80.
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm="chip=sm_100 format=isa" | FileCheck %s --check-prefix=SM100
// SM100: #nvvm.target<O = 3, chip = "sm_100">
// SM100: .version 8.6
// SM100: .target sm_100
// SM100: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
