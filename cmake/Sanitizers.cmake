# AMP_SANITIZE=ON: AddressSanitizer + UndefinedBehaviorSanitizer on amp's own
# code (libraries, tools, tests), plus libFuzzer coverage instrumentation and
# the amp-fuzz target. Debian's libMLIR.so / libLLVM.so are not instrumented:
# memory errors inside them are found only where ASan intercepts (malloc/free,
# mem* functions), and UB inside them not at all. See docs/reliability.md and
# scripts/sanitize.sh (which builds into build-sanitize/).
option(AMP_SANITIZE "Build with ASan + UBSan (and libFuzzer instrumentation)" OFF)

if(AMP_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "AMP_SANITIZE=ON needs clang (libFuzzer); use clang++-22")
  endif()
  # vptr: needs RTTI-consistent type info across the uninstrumented shared
  # LLVM libraries; function: indirect calls into them have no type hash.
  set(AMP_SANITIZER_FLAGS
    -fsanitize=address,undefined
    -fno-sanitize=vptr,function
    -fno-sanitize-recover=undefined
    -fno-omit-frame-pointer
    -fsanitize=fuzzer-no-link)
  add_compile_options(${AMP_SANITIZER_FLAGS} -g1)
  add_link_options(-fsanitize=address,undefined)
  message(STATUS "amp-mlir: ASan + UBSan + libFuzzer instrumentation on")
endif()
