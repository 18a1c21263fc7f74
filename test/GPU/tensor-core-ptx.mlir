// REQUIRES: ptxas
// Tensor Cores in the f16 and bf16 MLP step (amp-lower-to-nvvm, tensor-cores=true by
// default from sm_80): the contractions whose sizes are multiples of
// 16 x 8 x 16 become mma.sync with f16 (or bf16) operands and f32
// accumulators:
// forward 128x784 * 784x256 and 128x256 * 256x128 (32 x 32 warp tiles,
// 8 mma.sync per k-step), the input gradient 128x128 * (256x128)^T (8), the
// weight gradients (128x256)^T * 128x128 (8) and (128x784)^T * 128x256
// (784 rows: 16 x 32 tiles, 4), and the eval step's two forward matmuls:
// 5 * 8 - 4 + 2 * 8 = 52. The count guards the contractions whose f16
// operand amp-recompute-for-backward recomputes right before them (the
// input gradient's W2 and the first weight gradient's x): that copy's only
// use is the contraction, and amp-gpu-fuse-elementwise must not fuse it
// into it (a truncf inside the body, on the f32 buffer, is the SIMT path:
// 40 instead of 52 from 2026-12-03 until the fusion left contractions
// alone). The last layer (N = 10, or K = 10 in its input
// gradient) stays one thread per output. ptxas accepts the kernels for sm_80
// (format=bin) and sm_90.
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm="chip=sm_80 format=isa" \
// RUN:   | grep -o "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" | count 52
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm="chip=sm_80 format=bin" -o /dev/null
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm="chip=sm_90 format=isa" \
// RUN:   | FileCheck %s --check-prefix=SM90
// SM90: .target sm_90
// SM90: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
//
// bf16: the same 52, as mma.sync with bf16 operands, accepted by ptxas for
// sm_80 and sm_90.
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision="precision=bf16 loss-scale=none" --amp-lower-to-nvvm="chip=sm_80 format=isa" \
// RUN:   | grep -o "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32" | count 52
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision="precision=bf16 loss-scale=none" --amp-lower-to-nvvm="chip=sm_80 format=bin" -o /dev/null
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision="precision=bf16 loss-scale=none" --amp-lower-to-nvvm="chip=sm_90 format=bin" -o /dev/null
//
// Off: tensor-cores=false, a chip before sm_80, fp32.
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm="chip=sm_80 format=isa tensor-cores=false" \
// RUN:   | FileCheck %s --check-prefix=OFF
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision --amp-lower-to-nvvm="chip=sm_75 format=isa" \
// RUN:   | FileCheck %s --check-prefix=OFF
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision="precision=bf16 loss-scale=none" --amp-lower-to-nvvm="format=isa tensor-cores=false" \
// RUN:   | FileCheck %s --check-prefix=OFF
// RUN: amp-opt %amp_src_root/examples/fashion-mnist/mlp.mlir --amp-mixed-precision="precision=f32 loss-scale=none" --amp-lower-to-nvvm="format=isa" \
// RUN:   | FileCheck %s --check-prefix=OFF
// OFF: gpu.binary
// OFF-NOT: mma.sync
