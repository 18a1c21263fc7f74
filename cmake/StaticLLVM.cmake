# What amp's libraries link for MLIR and LLVM, in AMP_MLIR_LLVM_LIBS: the
# shared libMLIR.so and libLLVM.so (default), or with AMP_LINK_LLVM_STATIC=ON
# Debian's static archives, so that the tools run on a machine without LLVM
# 22 installed (scripts/gpu-bundle.sh packs them for a GPU machine;
# docs/gpu.md). ld.lld takes archives in any order and only the members that
# are used. Included from the top-level CMakeLists.txt after find_package(MLIR).
option(AMP_LINK_LLVM_STATIC
  "Link static MLIR/LLVM archives instead of libMLIR.so/libLLVM.so" OFF)
if(AMP_LINK_LLVM_STATIC)
  find_package(zstd REQUIRED) # zstd::libzstd_shared, named by LLVMSupport
  get_property(amp_mlir_all_libs GLOBAL PROPERTY MLIR_ALL_LIBS)
  set(amp_llvm_all_libs ${LLVM_AVAILABLE_LIBS})
  set(AMP_MLIR_LLVM_LIBS)
  foreach(lib IN LISTS amp_mlir_all_libs amp_llvm_all_libs)
    if(NOT TARGET ${lib} OR lib MATCHES "Exegesis|Test") # libpfm; tests
      continue()
    endif()
    get_target_property(type ${lib} TYPE)
    get_target_property(file ${lib} LOCATION)
    if(NOT type STREQUAL "STATIC_LIBRARY" OR NOT EXISTS "${file}")
      continue() # libMLIRExecutionEngineShared.so; Polly is not packaged
    endif()
    # Skip archives that need a package we do not use (CURL for
    # LLVMDebuginfod, libedit for LLVMLineEditor).
    get_target_property(deps ${lib} INTERFACE_LINK_LIBRARIES)
    set(usable ON)
    foreach(dep IN LISTS deps)
      if(dep MATCHES "::" AND NOT TARGET ${dep})
        set(usable OFF)
      endif()
    endforeach()
    if(usable)
      list(APPEND AMP_MLIR_LLVM_LIBS ${lib})
    endif()
  endforeach()
  list(APPEND AMP_MLIR_LLVM_LIBS MLIRExecutionEngine)
  # Debian builds MLIR against libLLVM.so: its archives name the shared
  # target `LLVM` (and shared runner libraries) in their link interface.
  # Drop those; the static LLVM archives above take their place.
  get_property(amp_imported DIRECTORY PROPERTY IMPORTED_TARGETS)
  foreach(lib IN LISTS amp_imported)
    get_target_property(lib_type ${lib} TYPE)
    if(NOT lib_type STREQUAL "STATIC_LIBRARY")
      continue()
    endif()
    get_target_property(deps ${lib} INTERFACE_LINK_LIBRARIES)
    if(deps)
      set(static_deps)
      foreach(dep IN LISTS deps)
        set(keep ON)
        string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" dep_name "${dep}")
        if(TARGET ${dep_name})
          get_target_property(dep_type ${dep_name} TYPE)
          get_target_property(dep_file ${dep_name} LOCATION)
          if((dep_type STREQUAL "SHARED_LIBRARY" AND
              dep_name MATCHES "^(LLVM|MLIR|mlir_)") OR NOT EXISTS "${dep_file}")
            set(keep OFF)
          endif()
        endif()
        if(keep)
          list(APPEND static_deps ${dep})
        endif()
      endforeach()
      set_property(TARGET ${lib} PROPERTY INTERFACE_LINK_LIBRARIES ${static_deps})
    endif()
  endforeach()
  add_link_options(-fuse-ld=lld LINKER:--as-needed LINKER:--gc-sections)
else()
  set(AMP_MLIR_LLVM_LIBS MLIR LLVM)
endif()
