// amp-lower-to-nvvm checks its options before it builds anything: a chip
// that LLVM's NVPTX backend does not know is one clear error (it used to
// abort in instruction selection of mma.sync, or fail later in ptxas).
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm="chip=sm_80x format=isa" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm="chip=sm_999 format=isa" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm="chip=compute_80 format=isa" 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm="opt-level=7 format=isa" 2>&1 | FileCheck %s --check-prefix=OPT
// Features: a PTX version too old for the chip (LLVM aborted), entries that
// are not NVPTX features (LLVM warned once per kernel and ignored them), and
// a block size out of range (the error used to print the whole function).
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm="chip=sm_90 features=+ptx60 format=isa" 2>&1 | FileCheck %s --check-prefix=OLDPTX
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm="chip=sm_100 features=+ptx80 format=isa" 2>&1 | FileCheck %s --check-prefix=OLDPTX100
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm="features=+ptx999 format=isa" 2>&1 | FileCheck %s --check-prefix=FEAT
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm="features=garbage format=isa" 2>&1 | FileCheck %s --check-prefix=SIGN
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm="block-size=0 format=isa" 2>&1 | FileCheck %s --check-prefix=BLOCK
// OLDPTX: error: amp-lower-to-nvvm: PTX 6.0 (features=+ptx60) is too old for sm_90, which needs PTX 7.8 or newer
// OLDPTX-NOT: LLVM ERROR
// OLDPTX100: error: amp-lower-to-nvvm: PTX 8.0 (features=+ptx80) is too old for sm_100, which needs PTX 8.6 or newer
// FEAT: error: amp-lower-to-nvvm: features entry '+ptx999' is not an NVPTX feature
// SIGN: error: amp-lower-to-nvvm: features entry 'garbage' must start with + or -
// An unknown object format used to print an error and exit 0 with the
// unserialized module on stdout.
// RUN: not amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm="format=foo" 2>&1 | FileCheck %s --check-prefix=FORMAT
// FORMAT: error: amp-lower-to-nvvm: format must be isa, bin or fatbin, got 'foo'
// FORMAT-NOT: func.func
// BLOCK: error: amp-lower-to-nvvm: block-size must be in [1, 1024], got 0
// BLOCK-NOT: func.func
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
