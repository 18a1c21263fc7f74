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
config.substitutions.append(("%amp_obj_root", config.amp_obj_root))
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

# The OpenMP runtime that steps lowered with threads != 1 call (LLVM 22's
# libomp, found at configure time): `%libomp` for mlir-runner -shared-libs.
config.substitutions.append(("%libomp", getattr(config, "amp_libomp", "")))
if os.path.exists(getattr(config, "amp_libomp", "")):
    config.available_features.add("libomp")

# `avx512bf16`: the host CPU has AVX512_BF16 (the flags line of
# /proc/cpuinfo), so code with vdpbf16ps (amp-cpu-tile-contractions
# bf16-dot) runs here; amp-run's --bf16-dot=auto then picks it.
try:
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("flags") and "avx512_bf16" in line.split():
                config.available_features.add("avx512bf16")
                break
except OSError:
    pass

# GPU (docs/gpu.md). `ptxas`: a CUDA toolkit (bin/ptxas, nvvm/libdevice) at
# $CUDA_HOME or /usr/local/cuda, needed by the compile tests under test/GPU
# (gpu-module-to-binary). `cuda-device`: a usable NVIDIA GPU (nvidia-smi
# lists one), needed by the execution tests; `cuda-runtime`: the build made
# libamp_cuda_runtime.so (CUDA toolkit found at configure time).
import shutil
import subprocess

cuda_home = os.environ.get("CUDA_HOME", "/usr/local/cuda")
if os.path.exists(os.path.join(cuda_home, "bin", "ptxas")):
    config.available_features.add("ptxas")
    config.environment["CUDA_HOME"] = cuda_home
# Only if it was built: scripts/sanitize.sh --ci builds a subset of targets
# in which the runtime (and the fake driver beside it) are absent.
if getattr(config, "amp_cuda_runtime", "") and os.path.exists(
        config.amp_cuda_runtime):
    config.available_features.add("cuda-runtime")
nvidia_smi = shutil.which("nvidia-smi")
if nvidia_smi:
    try:
        listed = subprocess.run([nvidia_smi, "-L"], capture_output=True,
                                text=True, timeout=30)
        if listed.returncode == 0 and "GPU" in listed.stdout:
            config.available_features.add("cuda-device")
    except (OSError, subprocess.SubprocessError):
        pass
# Where amp-run finds Fashion-MNIST when a test passes no --data-dir (a GPU
# machine's bundle keeps it elsewhere: scripts/gpu-check.sh --bundle).
if os.environ.get("AMP_DATA_DIR"):
    config.environment["AMP_DATA_DIR"] = os.environ["AMP_DATA_DIR"]
# The GPU benchmark (built with the CUDA runtime and AMP_BUILD_BENCHMARKS).
if os.path.exists(os.path.join(config.amp_tools_dir,
                               "amp-bench-gpu-fused-check")):
    config.available_features.add("gpu-bench")
    llvm_config.add_tool_substitutions(["amp-bench-gpu-fused-check"],
                                       [config.amp_tools_dir])
# The autocast benchmark's command line (built with AMP_BUILD_BENCHMARKS).
if os.path.exists(os.path.join(config.amp_tools_dir, "amp-bench-autocast")):
    config.available_features.add("autocast-bench")
    llvm_config.add_tool_substitutions(["amp-bench-autocast"],
                                       [config.amp_tools_dir])
config.substitutions.append(("%amp_cuda_runtime",
                             getattr(config, "amp_cuda_runtime", "")))
config.substitutions.append(("%fake_cuda_dir", os.path.join(
    config.amp_obj_root, "test", "GPU", "fake-driver")))
# Sanitizer builds (scripts/sanitize.sh): an instrumented plugin cannot load
# into Debian's uninstrumented mlir-opt-22.
# Examples/ trains whole examples for minutes (it runs in the uninstrumented
# CTest run, within CI's time budget).
if getattr(config, "amp_sanitize", "OFF") in ("ON", "1", "TRUE", "True"):
    config.excludes.append("Plugin")
    config.excludes.append("Examples")

# Data parallelism (docs/distributed.md). `mpi`: the build links MPI and
# mpirun exists; %mpirun starts ranks on this machine only (loopback,
# --oversubscribe for more ranks than cores, --allow-run-as-root as root).
# Without MPI or mpirun the tests that need it are UNSUPPORTED.
# The sanitizer build's lit run leaves them out (scripts/sanitize.sh; they
# run in the uninstrumented CTest run, within CI's time budget).
mpirun = shutil.which("mpirun")
sanitized = getattr(config, "amp_sanitize", "OFF") in ("ON", "1", "TRUE", "True")
if (getattr(config, "amp_have_mpi", "OFF") in ("ON", "1", "TRUE") and mpirun
        and not sanitized):
    config.available_features.add("mpi")
    # A rank waiting in a collective yields its core instead of spinning
    # (the ranks share two cores with the other tests).
    mpirun_flags = ["--oversubscribe", "--mca", "mpi_yield_when_idle", "1"]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        mpirun_flags.append("--allow-run-as-root")
    config.substitutions.append(
        ("%mpirun", " ".join([mpirun] + mpirun_flags)))

# A Python with numpy (reads amp-run's checkpoints and .npy data as a user
# would): `%numpy_python`, feature `numpy`.
import subprocess as _subprocess
for _python in [shutil.which("python3"), "/usr/bin/python3"]:
    if _python and os.path.exists(_python) and _subprocess.run(
            [_python, "-c", "import numpy"],
            capture_output=True).returncode == 0:
        config.available_features.add("numpy")
        config.substitutions.append(("%numpy_python", _python))
        break
