#pragma once
// What `pimdse evaluate` and `pimdse map` print: the per-layer table of a costed
// mapping with its summary.

#include <ostream>
#include <string>

#include "pimdse/io/config.hpp"
#include "pimdse/sim/mapping.hpp"
#include "pimdse/sim/system.hpp"
#include "pimdse/sim/timeline.hpp"
#include "pimdse/workload/network.hpp"
#include "pimdse/workload/segments.hpp"

namespace pimdse::cli {

/// printf into a std::string; -Wformat checks every call.
[[gnu::format(printf, 1, 2)]] std::string format(const char* fmt, ...);

/// "K2x2 P1x2" (loops with more than one part), "-" for none.
[[nodiscard]] std::string partitions_text(const sim::LayerMapping& m);

/// The per-layer table (region, partitions, WR, DL, cycles by part, energy, utilisation,
/// status) and the summary (latency, energy split, utilisation, area, data sharing, status).
/// `label` names the mapping in the heading ("uniform mapping", "mapping m.yaml", ...);
/// `sharing` is the summary's data-sharing line (omitted when empty).
void print_report(std::ostream& out, const io::HardwareFile& h, const workload::Network& network,
                  const workload::Segmentation& seg, const sim::NetworkMapping& mapping,
                  const sim::NetworkCost& cost, const sim::System& system, const std::string& label,
                  const std::string& sharing = {});

/// With `model.overlap` on: the overlapped latency beside the same mapping's sequential one.
void print_overlap(std::ostream& out, const sim::NetworkCost& overlapped, Cycles sequential);

}  // namespace pimdse::cli
