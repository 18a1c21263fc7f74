// --check-gradients counts an element whose one-sided differences disagree
// (a kink of the loss: a ReLU input or a max tie at the checked point) as
// agreeing. When every checked element of a parameter sits on one, that
// parameter was not checked at all: its row says "all on kinks" and the
// verdict names it. Before, the row showed 0.000e+00 and the verdict a
// plain "passed" (a new user's break-it pass: the CNN of examples/pytorch
// with its weights elided, where every checked element of the biases
// before the ReLUs sat on a kink).
// RUN: sed -e 's/dense_resource<[a-z0-9_.]*>/dense_resource<__elided__>/g' -e '/^{-#/,$d' %amp_src_root/examples/pytorch/cnn.mlir > %t.model.mlir
// RUN: amp-opt %t.model.mlir --amp-build-train-step -o %t.step.mlir
// RUN: amp-run %t.step.mlir --check-gradients | FileCheck %s
// CHECK: #1 {{.*}} all on kinks
// CHECK: passed; not checked: parameters #1, #3{{.*}} (every checked element sits on a kink
