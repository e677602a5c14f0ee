// The messages between rank 0 and the workers (src/engine/wire.hpp).

#include "wire.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

namespace pimdse::engine::detail {

std::optional<boost::mpi::status> wait_for(const boost::mpi::communicator& world, int source,
                                           std::initializer_list<int> tags,
                                           const std::function<bool()>& also) {
    auto pause = std::chrono::microseconds(50);
    for (;;) {
        for (int tag : tags) {
            if (auto s = world.iprobe(source, tag)) return *s;
        }
        if (also && also()) return std::nullopt;
        std::this_thread::sleep_for(pause);
        pause = std::min(pause * 2, std::chrono::microseconds(2000));
    }
}

std::vector<char> result_message(const store::CandidateRecord& r, const store::BatchRows& rows) {
    std::vector<char> out = to_bytes(r);
    const std::vector<char> bytes = rows.to_bytes();
    out.insert(out.end(), bytes.begin(), bytes.end());
    return out;
}

}  // namespace pimdse::engine::detail
