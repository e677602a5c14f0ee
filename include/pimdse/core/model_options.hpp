#pragma once
// Which node model costs a part-layer behind the sim::IntraNodeMapper seam
// (sim/node_model.hpp) and which timeline composes the layers (sequential or overlapped,
// sim/overlap_timeline.hpp): the `model:` section of a sweep configuration or hardware file
// (docs/config.md). Plain values with no behaviour: sim::make_node_model builds the model
// they name, and the configuration reader (io) fills them in without depending on sim
// (docs/architecture.md, "Dependencies").

#include <cstdint>
#include <string_view>

#include "pimdse/core/enum_names.hpp"

namespace pimdse {

/// How a node's cost of one part-layer is found.
enum class IntraNodeModel : std::uint8_t {
    analytic,  ///< the analytic mapper: a small fixed search with the analytic DRAM model
};
/// The `model.intra_node` choices, declared once.
inline constexpr EnumNames<IntraNodeModel, 1> kIntraNodeModelNames{{{IntraNodeModel::analytic, "analytic"}}};

[[nodiscard]] inline std::string_view to_string(IntraNodeModel m) noexcept {
    return name_of(kIntraNodeModelNames, m);
}

/// The `model:` configuration section.
struct ModelOptions {
    IntraNodeModel intra_node = IntraNodeModel::analytic;
    /// Consecutive layers overlap (OverlaPIM; docs/model.md, "Overlapped layers"): the
    /// network's cost is composed by the overlapped timeline instead of the sequential one.
    bool overlap = false;

    friend bool operator==(const ModelOptions&, const ModelOptions&) = default;
};

}  // namespace pimdse
