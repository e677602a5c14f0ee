// One layer's inter-layer redistribution, and the coster of a network's layers
// (include/pimdse/sim/layer_cost.hpp).

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

#include "pimdse/core/units.hpp"
#include "pimdse/sim/data_space.hpp"
#include "pimdse/sim/layer_cost.hpp"
#include "pimdse/sim/redistribution_memo.hpp"

namespace pimdse::sim {

using workload::Layer;
using workload::LayerIndex;
using workload::LayerKind;

namespace {

/// Who holds each block of a layer's output: for partition indices (b, k, p, q), the node
/// whose C index is 0 (after a partial-sum reduction the outputs are taken to be there).
struct OutputOwners {
    std::array<std::int32_t, 4> n{1, 1, 1, 1};  // parts of B, K, P, Q
    std::vector<NodeId> owner;

    [[nodiscard]] std::size_t index(std::int32_t b, std::int32_t k, std::int32_t p, std::int32_t q) const {
        return static_cast<std::size_t>(((b * n[1] + k) * n[2] + p) * n[3] + q);
    }
};

OutputOwners output_owners(const LayerMapping& m, const Region& region, const Mesh& mesh) {
    OutputOwners o;
    o.n = {m.part(PartDim::b).count(), m.part(PartDim::k).count(), m.part(PartDim::p).count(),
           m.part(PartDim::q).count()};
    o.owner.assign(static_cast<std::size_t>(o.n[0] * o.n[1] * o.n[2] * o.n[3]), 0);
    for (std::int32_t y = 0; y < region.rows; ++y)
        for (std::int32_t x = 0; x < region.cols; ++x) {
            const auto i = part_indices(m, y, x);
            if (i[index_of(PartDim::c)] != 0) continue;
            o.owner[o.index(i[index_of(PartDim::b)], i[index_of(PartDim::k)], i[index_of(PartDim::p)],
                            i[index_of(PartDim::q)])] = mesh.node(region.row + y, region.col + x);
        }
    return o;
}

}  // namespace

struct LayerCoster::State {
    const workload::Network& net;
    const workload::Segmentation& seg;
    const NetworkMapping& mapping;
    const System& sys;
    IntraNodeMapper& mapper;
    SharingScheduler& scheduler;
    RedistributionMemo* memo;
    RedistributionKey key;
    SharingKey sharing_key;

    ChannelLoads loads;
    std::vector<Transfer> transfers;
    std::vector<OutputOwners> owners;
    // The current layer's per-node ranges and partition indices, row-major over its region.
    std::vector<std::array<Range, kPartDims>> node_ranges;
    std::vector<std::array<std::int32_t, kPartDims>> node_indices;

    State(const workload::Network& n, const workload::Segmentation& s, const NetworkMapping& m,
          const System& y, IntraNodeMapper& i, SharingScheduler& c, RedistributionMemo* o)
        : net(n), seg(s), mapping(m), sys(y), mapper(i), scheduler(c), memo(o) {
        loads.reset(sys.mesh);
        owners.resize(static_cast<std::size_t>(net.size()));
        for (LayerIndex li = 0; li < net.size(); ++li) find_owners(li);
    }

    void find_owners(LayerIndex li) {
        owners[static_cast<std::size_t>(li)] = output_owners(mapping.layers[static_cast<std::size_t>(li)],
                                                             layer_region(seg, mapping, li), sys.mesh);
    }

    void fill_parts(LayerIndex li) {
        const Layer& l = net.layer(li);
        const LayerMapping& m = mapping.layers[static_cast<std::size_t>(li)];
        const Region& region = layer_region(seg, mapping, li);
        node_ranges.clear();
        node_indices.clear();
        for (std::int32_t y = 0; y < region.rows; ++y)
            for (std::int32_t x = 0; x < region.cols; ++x) {
                node_ranges.push_back(part_ranges(l, m, y, x));
                node_indices.push_back(part_indices(m, y, x));
            }
    }

    /// The transfers that gather layer li's inputs, routed (fill_parts(li) first).
    Redistribution gather(LayerIndex li) {
        const Layer& l = net.layer(li);
        const LayerMapping& m = mapping.layers[static_cast<std::size_t>(li)];
        const Region& region = layer_region(seg, mapping, li);
        transfers.clear();
        for (std::int32_t y = 0; y < region.rows; ++y)
            for (std::int32_t x = 0; x < region.cols; ++x) {
                const NodeId dst = sys.mesh.node(region.row + y, region.col + x);
                const std::size_t at_node = static_cast<std::size_t>(y * region.cols + x);
                const auto& r = node_ranges[at_node];
                const auto& dst_idx = node_indices[at_node];
                for (std::size_t j = 0; j < l.inputs.size(); ++j) {
                    const LayerIndex prod = l.inputs[j];
                    if (prod == workload::kNetworkInput) continue;  // already in the nodes' DRAM
                    const std::optional<Need> need = needed_box(net, l, m, r, dst_idx, j);
                    if (!need) continue;
                    const Layer& pl = net.layer(prod);
                    const OutputOwners& o = owners[static_cast<std::size_t>(prod)];
                    const std::array<std::int64_t, 4> len{pl.B, pl.K, pl.P, pl.Q};
                    const std::array<Range, 4> want{need->b, need->c, need->h, need->w};
                    std::array<std::int32_t, 4> lo{}, hi{};
                    for (std::size_t d = 0; d < 4; ++d) {
                        lo[d] = part_of(len[d], o.n[d], want[d].begin);
                        hi[d] = part_of(len[d], o.n[d], want[d].end - 1);
                    }
                    // The producer blocks that overlap, in a 4-D box of block indices.
                    std::array<std::int64_t, 4> extent{};
                    std::int64_t blocks = 1;
                    for (std::size_t d = 0; d < 4; ++d) {
                        extent[d] = hi[d] - lo[d] + 1;
                        blocks *= extent[d];
                    }
                    // A sharing set needs its slice once: with enough blocks, member `rank` of
                    // the set takes every divisor-th block whole; otherwise each member takes
                    // 1/divisor of every block. The sharing event then completes the slice (VII).
                    const bool whole = need->divisor > 1 && blocks >= need->divisor;
                    const std::int64_t first = whole ? need->rank : 0;
                    const std::int64_t step = whole ? need->divisor : 1;
                    const std::int64_t divisor = whole ? 1 : need->divisor;
                    for (std::int64_t t = first; t < blocks; t += step) {
                        std::array<std::int32_t, 4> idx{};
                        std::int64_t rest = t;
                        for (std::size_t d = 4; d-- > 0;) {
                            idx[d] = lo[d] + static_cast<std::int32_t>(rest % extent[d]);
                            rest /= extent[d];
                        }
                        const NodeId src = o.owner[o.index(idx[0], idx[1], idx[2], idx[3])];
                        if (src == dst) continue;  // node-local: free
                        std::int64_t elems = 1;
                        for (std::size_t d = 0; d < 4; ++d)
                            elems *= intersect(want[d], split(len[d], o.n[d], idx[d])).size();
                        const std::int64_t bytes = ceil_div(elems * sys.data_bits, 8 * divisor);
                        if (bytes > 0) transfers.push_back({src, dst, Bytes(bytes)});
                    }
                }
            }
        if (transfers.empty()) return {};
        return {true, evaluate_transfers(sys.mesh, transfers, sys.noc, loads)};
    }

    void redistribution(LayerIndex li, LayerCost& out) {
        const Redistribution* known = nullptr;
        if (memo != nullptr) {
            redistribution_key(net, seg, mapping, li, key);
            known = memo->find(key);
        }
        Redistribution r;
        if (known != nullptr) {
            r = *known;
        } else {
            fill_parts(li);
            r = gather(li);
            if (memo != nullptr) memo->store(key, r);
        }
        if (!r.moves) return;
        out.redistribution = r.cost.latency;
        out.energy.noc += r.cost.energy;
        out.counts.redistribution_flit_hops += r.cost.flit_hops;
    }

    void sharing(LayerIndex li, LayerCost& out) {
        const LayerMapping& m = mapping.layers[static_cast<std::size_t>(li)];
        const Region& region = layer_region(seg, mapping, li);
        if (memo == nullptr) {
            add_sharing_cost(net.layer(li), m, region, sys, scheduler, loads, out);
            return;
        }
        sharing_key.scheduler = &scheduler;
        sharing_key.layer = li;
        sharing_key.mapping = m;
        sharing_key.mapping.dl_in = DataLayout{};  // the events do not read the layouts
        sharing_key.mapping.dl_out = DataLayout{};
        sharing_key.region = region;
        const SharingCosts* known = memo->find(sharing_key);
        if (known == nullptr) {
            memo->store(sharing_key, sharing_costs(net.layer(li), m, region, sys, scheduler, loads));
            known = memo->find(sharing_key);
        }
        add_sharing(*known, out);
    }

    void compute(LayerIndex li, LayerCost& out) {
        const LayerMapping& m = mapping.layers[static_cast<std::size_t>(li)];
        const Region& region = layer_region(seg, mapping, li);
        add_compute_cost(net.layer(li), m, region.rows, region.cols, sys, mapper, out);
    }
};

LayerCoster::LayerCoster(const workload::Network& network, const workload::Segmentation& seg,
                         const NetworkMapping& mapping, const System& system, IntraNodeMapper& mapper,
                         SharingScheduler& scheduler, RedistributionMemo* memo)
    : state_(std::make_unique<State>(network, seg, mapping, system, mapper, scheduler, memo)) {}

LayerCoster::~LayerCoster() = default;

void LayerCoster::remapped(LayerIndex li) {
    state_->find_owners(li);
}

void LayerCoster::cost(LayerIndex li, LayerCost& out) {
    State& s = *state_;
    s.redistribution(li, out);
    s.sharing(li, out);
    s.compute(li, out);
}

}  // namespace pimdse::sim
