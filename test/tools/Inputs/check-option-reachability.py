"""Checks that every option of the amp-mixed-precision pipeline (as
`amp-opt --help` lists it) is reachable from amp-run: a flag of the same
name in `amp-run --help`, or precision/loss-scale, which --run sets.
Usage: check-option-reachability.py <amp-opt --help> <amp-run --help>.
Prints one summary line; exits 1 naming every unreachable option."""
import re
import sys

opt_help = open(sys.argv[1]).read().splitlines()
run_help = open(sys.argv[2]).read()

# The pipeline's options are indented under its own entry.
options = []
inside = False
indent = None
for line in opt_help:
    entry = re.match(r"^(\s*)--([\w-]+)", line)
    if not entry:
        continue
    if entry.group(2) == "amp-mixed-precision":
        inside, indent = True, len(entry.group(1))
        continue
    if inside:
        if len(entry.group(1)) <= indent:
            break
        options.append(entry.group(2))

if not options:
    print("no options of amp-mixed-precision found in amp-opt --help")
    sys.exit(1)
by_run = {"precision", "loss-scale"}
missing = [o for o in options
           if o not in by_run and not re.search(r"--%s[=\s]" % re.escape(o),
                                                run_help)]
if "--run=" not in run_help:
    missing += sorted(by_run)
if missing:
    print("amp-mixed-precision options not reachable from amp-run: " +
          ", ".join(missing))
    sys.exit(1)
print("amp-mixed-precision: %d options, all reachable from amp-run"
      % len(options))
