#!/usr/bin/env python3
"""run-bounded.py SECONDS COMMAND...: runs COMMAND (its stdout and stderr
pass through), then prints "exit status N" or, when it ran longer than
SECONDS and was killed, "TIMED OUT after SECONDS s"; exits 0 either way, so
that a test can FileCheck how a command that should fail ended (a hang is
not a failure)."""
import subprocess
import sys

seconds, command = float(sys.argv[1]), sys.argv[2:]
try:
    status = subprocess.run(command, timeout=seconds).returncode
    print(f"exit status {status}", flush=True)
except subprocess.TimeoutExpired:
    print(f"TIMED OUT after {seconds:g} s", flush=True)
