# Build facts reach the code through one generated header (openPMD's pattern).
find_package(Git QUIET)
set(PIMDSE_GIT_REVISION "unknown")
if(GIT_FOUND AND EXISTS ${PROJECT_SOURCE_DIR}/.git)
  execute_process(COMMAND ${GIT_EXECUTABLE} describe --always --dirty --abbrev=12
                  WORKING_DIRECTORY ${PROJECT_SOURCE_DIR}
                  OUTPUT_VARIABLE PIMDSE_GIT_REVISION OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET RESULT_VARIABLE git_result)
  if(NOT git_result EQUAL 0 OR PIMDSE_GIT_REVISION STREQUAL "")
    set(PIMDSE_GIT_REVISION "unknown")
  endif()
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/build_info.hpp.in
               ${PROJECT_BINARY_DIR}/include/pimdse/build_info.hpp @ONLY)
