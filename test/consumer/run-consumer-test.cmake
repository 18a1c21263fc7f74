# CTest `install-consumer`: install the current build into a prefix under the
# build directory, configure and build test/consumer against it (a separate
# CMake project that only does find_package(AmpMLIR)), and run the consumer on
# its embedded step and on examples/fashion-mnist/mlp.mlir; also run the
# installed amp-opt. Expects the build to be complete (ctest after
# `cmake --build`).
#
#   cmake -DAMP_BUILD_DIR=... -DAMP_SOURCE_DIR=... -DWORK_DIR=...
#         -DGENERATOR=... -DMAKE_PROGRAM=... -DCXX_COMPILER=... -DC_COMPILER=...
#         -P run-consumer-test.cmake
foreach(var AMP_BUILD_DIR AMP_SOURCE_DIR WORK_DIR GENERATOR CXX_COMPILER
    C_COMPILER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run-consumer-test.cmake: -D${var}=... missing")
  endif()
endforeach()

set(prefix ${WORK_DIR}/prefix)
set(build ${WORK_DIR}/build)
set(mlp ${AMP_SOURCE_DIR}/examples/fashion-mnist/mlp.mlir)
file(REMOVE_RECURSE ${WORK_DIR})

# Runs a command; its output is shown only when it fails (QUIET) or always.
function(run mode)
  if(mode STREQUAL "QUIET")
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc
      OUTPUT_VARIABLE out ERROR_VARIABLE out)
  else()
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  endif()
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "${out}\nFAILED (${rc}): ${cmd}")
  endif()
endfunction()

message(STATUS "install ${AMP_BUILD_DIR} -> ${prefix}")
run(QUIET ${CMAKE_COMMAND} --install ${AMP_BUILD_DIR} --prefix ${prefix})
foreach(f include/amp/AmpMLIR.h include/amp/Pipelines/Pipelines.h
    include/amp/Transforms/Passes.h.inc include/amp/Dialect/Amp/IR/AmpOps.h.inc
    lib/cmake/AmpMLIR/AmpMLIRConfig.cmake lib/cmake/AmpMLIR/AmpMLIRTargets.cmake
    bin/amp-opt bin/amp-run)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${prefix}/${f}")
  endif()
endforeach()

message(STATUS "installed amp-opt --amp-mixed-precision mlp.mlir")
execute_process(COMMAND ${prefix}/bin/amp-opt --amp-mixed-precision ${mlp}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "amp\\.unscale_and_check")
  message(FATAL_ERROR "installed amp-opt failed (${rc}): ${err}")
endif()
run(QUIET ${prefix}/bin/amp-run --help)

message(STATUS "configure + build test/consumer against ${prefix}")
set(make_program)
if(MAKE_PROGRAM)
  set(make_program -DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM})
endif()
run(QUIET ${CMAKE_COMMAND} -G ${GENERATOR} ${make_program}
  -S ${AMP_SOURCE_DIR}/test/consumer -B ${build}
  -DCMAKE_BUILD_TYPE=Release
  -DCMAKE_C_COMPILER=${C_COMPILER} -DCMAKE_CXX_COMPILER=${CXX_COMPILER}
  -DCMAKE_PREFIX_PATH=${prefix})
run(QUIET ${CMAKE_COMMAND} --build ${build})

message(STATUS "run the consumer")
run(SHOW ${build}/amp-consumer)
run(SHOW ${build}/amp-consumer ${mlp})
