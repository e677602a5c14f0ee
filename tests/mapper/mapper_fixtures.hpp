#pragma once
// Shared inputs of the mapper's unit tests: a small hardware point, a two-branch network and
// the library's networks at batch 1 with their segmentation.

#include <string>
#include <utility>

#include "pimdse/hw/constraints.hpp"
#include "pimdse/hw/params.hpp"
#include "pimdse/hw/technology.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/sim/system.hpp"
#include "pimdse/workload/network.hpp"
#include "pimdse/workload/segments.hpp"

namespace pimdse::mapper::testing {

inline sim::System system_of(int rows, int cols, int pe, int buffer_kib) {
    hw::HardwareParams p;
    p.node_rows = rows;
    p.node_cols = cols;
    p.pe_rows = p.pe_cols = pe;
    p.ibuf_kib = p.wbuf_kib = p.obuf_kib = buffer_kib;
    return sim::make_system(hw::Constraints{}, p, hw::Technology{});
}

// Two branches of different work between two cut layers, four compute layers in all.
inline const char* const kTwoBranch = R"(
network: two_branch
input: {channels: 16, height: 16, width: 16}
layers:
  - {name: stem, type: conv, out_channels: 32, kernel: 3, padding: 1}
  - {name: a1, type: conv, inputs: stem, out_channels: 64, kernel: 3, padding: 1}
  - {name: b1, type: conv, inputs: stem, out_channels: 16, kernel: 1}
  - {name: cat, type: concat, inputs: [a1, b1]}
  - {name: head, type: conv, inputs: cat, out_channels: 32, kernel: 1}
)";

/// A network of inputs/networks/ at batch 1 and its segmentation.
struct Library {
    workload::Network net;
    workload::Segmentation seg;
};

inline Library library(const std::string& name) {
    io::NetworkReadOptions o;
    o.batch = 1;
    workload::Network n =
        io::read_network_file(std::string(PIMDSE_SOURCE_DIR) + "/inputs/networks/" + name + ".yaml", o);
    workload::Segmentation s = workload::decompose(n);
    return {std::move(n), std::move(s)};
}

}  // namespace pimdse::mapper::testing
