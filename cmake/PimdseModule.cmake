# pimdse_add_module(<name> [DEPS <targets>...] [PRIVATE_DEPS <targets>...])
#
# Modules are folders (docs/architecture.md): src/<name>/*.cpp make the static library pimdse_<name>,
# aliased pimdse::<name>; headers live in include/pimdse/<name>/. A source file is
# registered by being in its module's folder.
function(pimdse_add_module name)
  cmake_parse_arguments(ARG "" "" "DEPS;PRIVATE_DEPS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${name}/*.cpp)
  add_library(pimdse_${name} STATIC ${sources})
  add_library(pimdse::${name} ALIAS pimdse_${name})
  target_compile_features(pimdse_${name} PUBLIC cxx_std_20)
  target_include_directories(pimdse_${name} PUBLIC ${PROJECT_SOURCE_DIR}/include ${PROJECT_BINARY_DIR}/include)
  target_link_libraries(pimdse_${name} PUBLIC ${ARG_DEPS} pimdse_sanitize PRIVATE ${ARG_PRIVATE_DEPS} pimdse_warnings)
endfunction()

# pimdse_add_test_suite(<module> DEPS <targets>... [FIXTURES <fixture>...]):
# tests/<module>/*_test.cpp become one GoogleTest program registered with CTest test by
# test; FIXTURES names CTest fixtures (e.g. generated input files) every test requires.
function(pimdse_add_test_suite name)
  cmake_parse_arguments(ARG "" "" "DEPS;FIXTURES" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/${name}/*_test.cpp)
  if(NOT sources)
    return()
  endif()
  add_executable(${name}_tests ${sources})
  target_link_libraries(${name}_tests PRIVATE ${ARG_DEPS} GTest::gtest GTest::gtest_main pimdse_warnings)
  target_compile_definitions(${name}_tests PRIVATE
    PIMDSE_SOURCE_DIR="${PROJECT_SOURCE_DIR}" PIMDSE_BINARY_DIR="${PROJECT_BINARY_DIR}")
  if(ARG_FIXTURES)
    gtest_discover_tests(${name}_tests DISCOVERY_TIMEOUT 60 PROPERTIES LABELS ${name}
                         FIXTURES_REQUIRED "${ARG_FIXTURES}")
  else()
    gtest_discover_tests(${name}_tests DISCOVERY_TIMEOUT 60 PROPERTIES LABELS ${name})
  endif()
endfunction()
