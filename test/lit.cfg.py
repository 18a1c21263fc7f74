# lit configuration of amp-mlir's FileCheck / -verify-diagnostics tests.
import os

import lit.formats
from lit.llvm import llvm_config

config.name = "AMP"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.amp_obj_root, "test")

config.substitutions.append(("%amp_src_root", config.amp_src_root))
config.substitutions.append(("%mlir_lib_dir", config.mlir_lib_dir))
config.substitutions.append(
    ("%amp_plugin", os.path.join(config.amp_obj_root, "lib", "libAmpMLIRPlugin.so")))

llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    ["amp-opt", "amp-run", "amp-robustness"], [config.amp_tools_dir])
llvm_config.add_tool_substitutions(
    ["mlir-opt", "mlir-runner", "FileCheck", "not", "count"],
    [config.llvm_tools_dir])

# Sanitizer builds (scripts/sanitize.sh): an instrumented plugin cannot load
# into Debian's uninstrumented mlir-opt-22.
if getattr(config, "amp_sanitize", "OFF") in ("ON", "1", "TRUE", "True"):
    config.excludes.append("Plugin")
