// The options of amp-build-train-step show their defaults in --help (they
// come from the option descriptions in TrainStep/Passes.td).
// RUN: amp-opt --help | FileCheck %s
// CHECK: --amp-build-train-step 
// CHECK: --batch{{.*}} - {{.*}}default: absent
// CHECK: --beta1{{.*}} - {{.*}}default: 0.9
// CHECK: --beta2{{.*}} - {{.*}}default: 0.999
// CHECK: --eps{{.*}} - {{.*}}default: 1e-8
// CHECK: --eval-step{{.*}} - {{.*}}default: true
// CHECK: --freeze-running-stats{{.*}} - {{.*}}default: true
// CHECK: --frozen{{.*}} - {{.*}}default: none
// CHECK: --function{{.*}} - {{.*}}default: the only public func.func with a body
// CHECK: --input{{.*}} - {{.*}}default: -1, the default inputs
// CHECK: --inputs{{.*}} - {{.*}}default: every argument that is not a parameter
// CHECK: --loss{{.*}} - {{.*}}default: softmax-cross-entropy
// CHECK: --lr{{.*}} - {{.*}}default: 0, the optimizer
// CHECK: --min-elements{{.*}} - {{.*}}default: 2
// CHECK: --momentum{{.*}} - {{.*}}default: 0.9
// CHECK: --optimizer{{.*}} - {{.*}}default: momentum
// CHECK: --params{{.*}} - {{.*}}default: constants
// CHECK: --weight-decay{{.*}} - {{.*}}default: 0
// CHECK: --amp-check-llvm-lowering
