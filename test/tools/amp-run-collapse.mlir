// Scale collapse is reported, not trained through silently (shared
// REFERENCE.md, "Failure modes"): amp-run stops with a message naming the
// cause and exits non-zero.
//
// Gradients overflow at every scale: 4 -> 2 -> 1 = the floor; the step at
// the floor still overflows.
// RUN: not amp-run %S/Inputs/always-overflow.mlir --run=f32+dynamic --init-scale=4 --min-scale=1 --max-steps=20 > %t.floor.out 2> %t.floor.err
// RUN: FileCheck %s --check-prefix=FLOOR < %t.floor.err
// FLOOR: amp-run: run f32+dynamic: step 3 (epoch 1): the loss scale is at its floor (1, --min-scale) and the gradients still overflow (3 consecutive skipped steps): backing off cannot help; stopping
//
// The same with hysteresis 2 (Megatron's rule): the first back-off comes at
// the second overflow (4 -> 2), the next at once (the hysteresis refills
// only when the scale grows), so the step at the floor is step 4.
// RUN: not amp-run %S/Inputs/always-overflow.mlir --run=f16+dynamic --init-scale=4 --min-scale=1 --hysteresis=2 --max-steps=20 2>&1 | FileCheck %s --check-prefix=HYST
// HYST: step 4 (epoch 1): the loss scale is at its floor (1, --min-scale) and the gradients still overflow (4 consecutive skipped steps)
//
// A non-finite loss does not depend on S: stop at once, whatever the mode.
// RUN: not amp-run %S/Inputs/nonfinite-loss.mlir --run=f16+dynamic --max-steps=20 2>&1 | FileCheck %s --check-prefix=LOSS
// RUN: not amp-run %S/Inputs/nonfinite-loss.mlir --run=f32 --max-steps=20 2>&1 | FileCheck %s --check-prefix=LOSS
// LOSS: step 1 (epoch 1): the loss itself is non-finite (inf): the forward pass overflowed, which does not depend on the loss scale, so backing off cannot help; stopping
//
// --csv is written atomically: a run that stops on scale collapse still
// publishes its complete rows; a run that fails before training leaves no
// file, and neither leaves a temporary file behind.
// RUN: rm -rf %t.csvdir && mkdir -p %t.csvdir
// RUN: not amp-run %S/Inputs/always-overflow.mlir --run=f32+dynamic --init-scale=4 --min-scale=1 --max-steps=20 --csv=%t.csvdir/floor.csv
// RUN: FileCheck %s --check-prefix=CSV < %t.csvdir/floor.csv
// CSV: run,step,epoch,loss,loss_scale,found_inf,step_ms
// CSV-NEXT: {{.*}},1,1,{{.*}},4,1,
// CSV-NEXT: {{.*}},2,1,{{.*}},2,1,
// CSV-NEXT: {{.*}},3,1,{{.*}},1,1,
// RUN: wc -l < %t.csvdir/floor.csv | FileCheck %s --check-prefix=LINES
// LINES: 4
// RUN: not amp-run %S/Inputs/always-overflow.mlir --run=f32+dynamic --init-scale=4 --min-scale=8 --csv=%t.csvdir/bad.csv 2>&1 | FileCheck %s --check-prefix=BEFORE
// BEFORE: amp-run: --init-scale=4: lies outside [min-scale, max-scale] = [8, 1.67772e+07]
// RUN: ls %t.csvdir | FileCheck %s --check-prefix=FILES
// FILES-NOT: bad.csv
// FILES: floor.csv
// FILES-NOT: {{.}}
// Through a symbolic link the CSV replaces the file it points to and the
// link stays; a directory gets <run>.csv inside it (the table's run name
// was used as a suffix: a hidden ".f32.csv"); no temporary file is left.
// RUN: ln -s floor.csv %t.csvdir/link.csv
// RUN: not amp-run %S/Inputs/always-overflow.mlir --run=f32+dynamic --init-scale=4 --min-scale=1 --max-steps=20 --csv=%t.csvdir/link.csv
// RUN: test -L %t.csvdir/link.csv
// RUN: FileCheck %s --check-prefix=CSV < %t.csvdir/floor.csv
// RUN: not amp-run %S/Inputs/always-overflow.mlir --run=f32 --max-steps=2 --csv=%t.csvdir
// RUN: FileCheck %s --check-prefix=CSVDIR < %t.csvdir/f32.csv
// CSVDIR: run,step,epoch,loss
// RUN: ls -A %t.csvdir | count 3
