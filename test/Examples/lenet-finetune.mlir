// A torch-mlir-form export with real weights (examples/pytorch/
// lenet_trained.mlir: LeNet-5 for 28x28 grey images at batch 1, trained
// briefly in PyTorch, test accuracy 0.7174 there) re-batched to 32 and
// fine-tuned on Fashion-MNIST from its own weights, in f32 and in f16 with
// dynamic loss scaling: both gain over the file's weights and end within
// one point of each other (600 steps here to keep CI short; a whole epoch,
// 1875 steps, gave 0.8466 and 0.8467 on 2026-12-03).
// RUN: amp-opt %amp_src_root/examples/pytorch/lenet_trained.mlir --amp-build-train-step="loss=softmax-cross-entropy batch=32" -o %t.step.mlir
// RUN: amp-run %t.step.mlir --run=f32,f16+dynamic --max-steps=600 --progress=false --csv=%t.csv > %t.out
// RUN: python3 -c "import re,sys; t=open('%t.out').read(); a={m.group(1): float(m.group(2)) for m in re.finditer(r'^(f32|f16 \+ dynamic) +\S+ +(\S+)', t, re.M)}; print(a); sys.exit(0 if len(a) == 2 and min(a.values()) > 0.78 and abs(a['f32'] - a['f16 + dynamic']) <= 0.01 else 1)" | FileCheck %s
// CHECK: {'f32': 0.{{[0-9]+}}, 'f16 + dynamic': 0.{{[0-9]+}}}
