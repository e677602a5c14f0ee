# Every third-party package of the design is found here, for real, from Debian's packages.
find_package(Threads REQUIRED)
find_package(MPI 3.0 REQUIRED COMPONENTS CXX)
find_package(Boost 1.74 REQUIRED COMPONENTS mpi serialization)

# Debian installs serial and parallel HDF5 side by side; ask for the parallel one and
# refuse a serial one, since the sweep writes its file collectively.
set(HDF5_PREFER_PARALLEL ON)
find_package(HDF5 REQUIRED COMPONENTS C)
if(NOT HDF5_IS_PARALLEL)
  message(FATAL_ERROR
    "pimdse needs a parallel (MPI) HDF5, but found a serial one at ${HDF5_INCLUDE_DIRS}. "
    "On Debian install libhdf5-openmpi-dev, or point HDF5_ROOT at a parallel build.")
endif()
if(NOT TARGET pimdse_hdf5)
  add_library(pimdse_hdf5 INTERFACE)
  target_include_directories(pimdse_hdf5 SYSTEM INTERFACE ${HDF5_C_INCLUDE_DIRS} ${HDF5_INCLUDE_DIRS})
  target_link_libraries(pimdse_hdf5 INTERFACE ${HDF5_C_LIBRARIES} MPI::MPI_C)
  target_compile_definitions(pimdse_hdf5 INTERFACE ${HDF5_DEFINITIONS} ${HDF5_C_DEFINITIONS})
endif()

find_package(Eigen3 3.3 REQUIRED NO_MODULE)
find_package(yaml-cpp REQUIRED)
find_package(CLI11 REQUIRED)
# ONNX import (io): Debian's libonnx-dev ships a CMake package whose onnx_proto target links
# protobuf::libprotobuf, which find_package(Protobuf) defines.
find_package(Protobuf REQUIRED)
find_package(ONNX REQUIRED)

find_package(PkgConfig REQUIRED)
pkg_check_modules(COINCBC REQUIRED IMPORTED_TARGET cbc osi-clp)
# XGBoost's C API (tuner, proposer "xgboost"), from Debian's libxgboost-dev through its
# xgboost.pc: the package's CMake config also imports the `xgboost` command-line program,
# which Debian ships in another package, and refuses to load without it.
pkg_check_modules(XGBOOST REQUIRED IMPORTED_TARGET xgboost)

if(PIMDSE_BUILD_TESTS)
  find_package(GTest REQUIRED)
endif()
if(PIMDSE_BUILD_BENCHMARKS)
  find_package(benchmark REQUIRED)
endif()
