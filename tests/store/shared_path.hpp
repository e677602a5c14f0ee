#pragma once
// A temporary file name all ranks of an MPI test agree on.

#include <unistd.h>
#include <boost/mpi/collectives.hpp>
#include <boost/mpi/communicator.hpp>

#include <filesystem>
#include <string>

namespace pimdse::store::testing {

/// <tmp>/<stem>_<pid>_np<size>.h5, chosen by rank 0 (removed if present) and broadcast.
inline std::filesystem::path shared_path(const boost::mpi::communicator& world, const std::string& stem) {
    std::string name;
    if (world.rank() == 0) {
        name = (std::filesystem::temp_directory_path() /
                (stem + "_" + std::to_string(::getpid()) + "_np" + std::to_string(world.size()) + ".h5"))
                   .string();
        std::filesystem::remove(name);
    }
    boost::mpi::broadcast(world, name, 0);
    return name;
}

}  // namespace pimdse::store::testing
