// Setup steps every rank agrees on (src/engine/collective.hpp).

#include "collective.hpp"

#include <boost/mpi/collectives.hpp>
#include <boost/serialization/string.hpp>
#include <boost/serialization/utility.hpp>
#include <boost/serialization/vector.hpp>

#include <exception>
#include <string>
#include <utility>
#include <vector>

#include "pimdse/engine/explore.hpp"

namespace pimdse::engine::detail {

void agree(const boost::mpi::communicator& world, bool root_only, const std::function<void()>& step) {
    std::pair<int, std::string> mine{0, ""};
    if (!root_only || world.rank() == 0) {
        try {
            step();
        } catch (const std::exception& e) {
            mine = {static_cast<int>(exit_code_of(e)), e.what()};
        }
    }
    std::vector<std::pair<int, std::string>> all;
    boost::mpi::all_gather(world, mine, all);
    for (const auto& [code, message] : all) {
        if (code != 0) throw CollectiveError(static_cast<ExitCode>(code), message);
    }
}

}  // namespace pimdse::engine::detail
