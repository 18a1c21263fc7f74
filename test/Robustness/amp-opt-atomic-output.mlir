// amp-opt writes -o atomically: a failing pass exits non-zero, leaves no new
// output file, keeps an existing one byte for byte and leaves no temporary
// file behind; a successful run replaces the file.
// RUN: rm -rf %t && mkdir -p %t
// RUN: echo "previous contents" > %t/existing.mlir
// RUN: not amp-opt %s -amp-loss-scaling -o %t/existing.mlir 2>&1 | FileCheck %s --check-prefix=ERR
// RUN: FileCheck %s --check-prefix=KEPT < %t/existing.mlir
// RUN: not amp-opt %s -amp-loss-scaling -o %t/new.mlir
// RUN: not ls %t/new.mlir
// RUN: ls %t | count 1
// RUN: amp-opt %s -o %t/existing.mlir
// RUN: FileCheck %s --check-prefix=NEW < %t/existing.mlir
// RUN: ls %t | count 1
// Non-regular outputs are written directly (and never replaced).
// RUN: amp-opt %s -o /dev/null
// Through a symbolic link the file it points to is replaced, the link stays.
// RUN: ln -s existing.mlir %t/link.mlir
// RUN: amp-opt %s -o %t/link.mlir
// RUN: test -L %t/link.mlir
// RUN: FileCheck %s --check-prefix=NEW < %t/existing.mlir
// A directory is an error that names it.
// RUN: not amp-opt %s -o %t 2>&1 | FileCheck %s --check-prefix=DIR -DDIR=%t
// DIR: error: cannot write '[[DIR]]': is a directory

// ERR: error: training step 'not_a_step' has no argument with amp.role = "param"
// KEPT: previous contents
// NEW: func.func @not_a_step

func.func @not_a_step() attributes {amp.train_step} {
  return
}
// The replacement keeps the mode of the file it replaces (600 stays 600,
// 664 stays 664); a new file gets 0666 minus the umask.
// RUN: chmod 600 %t/existing.mlir && amp-opt %s -o %t/existing.mlir
// RUN: stat -c %%a %t/existing.mlir | FileCheck %s --check-prefix=MODE600
// MODE600: {{^}}600{{$}}
// RUN: chmod 664 %t/existing.mlir && amp-opt %s -o %t/existing.mlir
// RUN: stat -c %%a %t/existing.mlir | FileCheck %s --check-prefix=MODE664
// MODE664: {{^}}664{{$}}
// RUN: rm -f %t/fresh.mlir && (umask 022 && amp-opt %s -o %t/fresh.mlir)
// RUN: stat -c %%a %t/fresh.mlir | FileCheck %s --check-prefix=MODE644
// MODE644: {{^}}644{{$}}
