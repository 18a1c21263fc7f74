# Generated reference docs: docs/passes.md from Passes.td (-gen-pass-doc) and
# docs/dialect.md from AmpOps.td (-gen-dialect-doc). Run as a script:
#   cmake -DMODE=check|update -DDOCS_DIR=<repo>/docs
#         -DGEN_PASSES=<AmpPasses.md> -DGEN_DIALECT=<AmpDialect.md> -P AmpDocs.cmake
# MODE=update writes the docs; MODE=check fails if they differ from what the
# .td files generate (the docs-in-sync test).
foreach(var MODE DOCS_DIR GEN_PASSES GEN_DIALECT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "AmpDocs.cmake: ${var} is not set")
  endif()
endforeach()

function(amp_doc generated target title)
  file(READ "${generated}" body)
  # Hugo's table-of-contents marker means nothing on plain Markdown viewers.
  string(REPLACE "\n[TOC]\n" "\n" body "${body}")
  set(text "<!-- Generated from the TableGen sources by `cmake --build build --target amp-update-docs`; do not edit. -->\n\n")
  if(NOT title STREQUAL "")
    string(APPEND text "# ${title}\n\n")
  endif()
  string(APPEND text "${body}")
  if(MODE STREQUAL "update")
    file(WRITE "${DOCS_DIR}/${target}" "${text}")
    message(STATUS "wrote ${DOCS_DIR}/${target}")
  else()
    if(EXISTS "${DOCS_DIR}/${target}")
      file(READ "${DOCS_DIR}/${target}" current)
    else()
      set(current "")
    endif()
    if(NOT current STREQUAL text)
      message(FATAL_ERROR "docs/${target} is out of date with the .td sources: "
                          "run `cmake --build build --target amp-update-docs` and commit it")
    endif()
  endif()
endfunction()

amp_doc("${GEN_PASSES}" passes.md "amp passes")
amp_doc("${GEN_DIALECT}" dialect.md "")
