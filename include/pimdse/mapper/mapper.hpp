#pragma once
// The PIM-Mapper (NicePIM VI, Algorithm 1), the sequential baseline of NicePIM VIII-D and the
// DDAM-style pipeline it is also compared with (pipeline.hpp).
//
// map(): alternate for up to max_optim_iter rounds between (a) generating SM candidates per
// segment and the Pareto (LM, WR) options of every layer on every candidate region under the
// current data layouts, then choosing one of each by the DP of Algorithm 2 under the node's
// DRAM capacity, and (b) choosing data layouts for the chosen LMs (one layout per tensor,
// so every producer's DL_o equals its consumers' DL_i). Every round's mapping is costed by
// the full network timeline; the best one is returned. With the overlapped timeline
// (sim/overlap_timeline.hpp) the rounds are ranked by it and OverlaPIM III-E's greedy step
// (overlap_greedy.hpp) follows the selection. docs/mapper.md gives the details.

#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <vector>

#include "pimdse/mapper/layer_search.hpp"
#include "pimdse/mapper/pipeline.hpp"
#include "pimdse/mapper/selection.hpp"
#include "pimdse/sim/data_layout.hpp"
#include "pimdse/sim/intra_node.hpp"
#include "pimdse/sim/mapping.hpp"
#include "pimdse/sim/noc_sharing.hpp"
#include "pimdse/sim/redistribution_memo.hpp"
#include "pimdse/sim/system.hpp"
#include "pimdse/sim/timeline.hpp"
#include "pimdse/workload/network.hpp"
#include "pimdse/workload/segments.hpp"

namespace pimdse::mapper {

/// How the baseline (NicePIM VIII-D) chooses each layer's LM on the whole array.
enum class BaselineLm : std::uint8_t {
    /// The fewest compute cycles, as Timeloop's "Delay" goal does in the paper (its model has
    /// no inter-node data sharing); ties broken blind to sharing (LayerSearch::
    /// fastest_compute_blind). The paper's baseline.
    compute_delay,
    /// The fewest compute cycles; the least sharing among ties: a stronger baseline.
    compute_delay_sharing,
    /// The least compute + sharing latency in the search's model: a stronger baseline.
    full_latency,
};

struct MapperOptions {
    std::int32_t max_optim_iter = 3;     ///< MAX_OPTIM_ITER of Algorithm 1
    std::int64_t capacity_units = 1024;  ///< DP resolution of a node's DRAM (footprints round up)
    /// DL candidates of every tensor (NicePIM VIII-D tries NCHW, NHWC and NCHW[C8]).
    std::vector<sim::DataLayout> layouts{sim::DataLayout{sim::LayoutOrder::bchw, 1},
                                         sim::DataLayout{sim::LayoutOrder::bhwc, 1},
                                         sim::DataLayout{sim::LayoutOrder::bchw, 8}};
    /// Also offer every tensor the row-aligned layout RA of PIM Optimizer 8.1.1 in the layout
    /// descent, its block sim::row_aligned_for(the tensor's width, a DRAM row's elements).
    bool row_aligned = true;
    /// Also cost the sequential whole-array mappings (the baseline under every BaselineLm
    /// rule) and return one if the timeline finds it faster (the DP optimises per-layer
    /// latency without inter-layer redistribution): a portfolio, not the paper's Algorithm 1,
    /// so off by default (pimdse map --baseline-fallback).
    bool keep_baseline_if_better = false;
    BaselineLm baseline_lm = BaselineLm::compute_delay;
    /// Ablation (docs/mapper.md, "Ablation"): a frozen dimension takes the baseline's choice.
    /// SM: every segment on one region, the whole array. WR: full replication, then the
    /// baseline's reduction until the weights fit. DL: the baseline's one layout for all.
    bool freeze_sm = false;
    bool freeze_wr = false;
    bool freeze_dl = false;
    /// Arrangements ((Ph, Pw) split x order) costed per partition-count vector of a layer; 0 is
    /// the exhaustive search. Bounded by default because 16 x 16 arrays have thousands.
    std::int64_t max_arrangements = 12;
    /// The DDAM pipeline's parts (pipeline.hpp): 0, its dynamic programme's cuts; w > 0,
    /// OverlaPIM's setting of a fixed memory per layer: every segment a part of its own on a
    /// band w rows (columns) wide, the bands laid out in order and wrapping to the array's
    /// start when the segments outnumber them (pimdse map --layer-band).
    std::int32_t layer_band = 0;
    /// With an overlapped timeline: after the rounds, OverlaPIM III-E's greedy step
    /// (overlap_greedy.hpp), kept when the network's overlapped cost improves.
    bool overlap_greedy = true;
    /// Called between rounds and layers; returning true abandons the search (std::runtime_error
    /// "cancelled"). For per-candidate time limits.
    std::function<bool()> cancelled;
};

/// No mapping of the network exists on this hardware point (a segment whose part-layers fit
/// no tiling of any region's buffers). A legal point can be unmappable: that is a result of
/// the search, reported as the status `infeasible` by `map`, `evaluate` and sweeps alike
/// (docs/cli.md, "Outcomes"), not an internal error.
class Unmappable : public std::domain_error {
public:
    using std::domain_error::domain_error;
};

struct MapResult {
    sim::NetworkMapping mapping;
    sim::NetworkCost cost;       ///< the full timeline's cost under the final scheduler
    double dp_latency = 0;       ///< the DP's objective for the returned round (0 for the baseline)
    std::int32_t rounds = 0;     ///< Algorithm 1 rounds run
    bool from_baseline = false;  ///< the baseline's mapping was better and is returned
    /// Layers whose LM or WR the greedy step changed in the returned mapping (0 when it was
    /// not run or not kept).
    std::int32_t greedy_changed = 0;
};

class Mapper {
public:
    /// `intra` is the node model; `search` costs sharing inside the search (it runs for every
    /// candidate option: use a fast one); `final` costs the returned mapping (e.g. the ILP);
    /// `timeline` composes the network in every costing, so it ranks the rounds and the
    /// baselines; the selection composes a segment's layers with it too unless it wants data
    /// spaces (the overlapped timeline), which the selection's options do not have: then
    /// the selection composes sequentially. All referenced objects must outlive the mapper.
    Mapper(const sim::System& system, MapperOptions options, sim::IntraNodeMapper& intra,
           sim::CycleScheduler& search, sim::SharingScheduler& final,
           const sim::Timeline& timeline = sim::sequential_timeline());

    /// Algorithm 1.
    [[nodiscard]] MapResult map(const workload::Network& network, const workload::Segmentation& seg);

    /// NicePIM VIII-D baseline: every layer on the whole array, its fastest LM at full
    /// replication under the first of options().layouts, WR then reduced from the layers with
    /// the most weights until the weights fit, then, with the LMs fixed, one DL for all tensors
    /// (the fastest of options().layouts).
    [[nodiscard]] MapResult baseline(const workload::Network& network, const workload::Segmentation& seg);

    /// The DDAM-style pipelined mapping (pipeline.hpp) of `batch` samples streamed through it.
    [[nodiscard]] PipelineResult pipeline(const workload::Network& network, const workload::Segmentation& seg,
                                          std::int64_t batch);

    /// The RA layout the descent offers a tensor written by `writers` and read by `readers`.
    [[nodiscard]] sim::DataLayout row_aligned_candidate(
        const workload::Network& network, const std::vector<workload::LayerIndex>& writers,
        const std::vector<workload::LayerIndex>& readers) const;
    /// Chosen layouts for fixed LMs: coordinate descent over tensor groups (docs/mapper.md).
    void optimise_layouts(const workload::Network& network, const workload::Segmentation& seg,
                          sim::NetworkMapping& mapping);

    /// The DP inputs of one round (also for tests): per segment its usable SM candidates, per
    /// candidate and region the layers that run there (in order) and their options.
    struct RoundInputs {
        std::vector<std::vector<sim::SegmentMapping>> sms;  // [segment][candidate]
        std::vector<std::vector<std::vector<std::vector<workload::LayerIndex>>>>
            layers;  // [seg][sm][region][i]
        std::vector<SegmentChoices> choices;
        /// [seg][sm][region][layer][option], parallel to choices
        std::vector<std::vector<std::vector<std::vector<std::vector<const LayerOption*>>>>> options;
        std::int64_t unit_bytes = 1;
    };
    [[nodiscard]] RoundInputs round_inputs(const workload::Network& network,
                                           const workload::Segmentation& seg,
                                           const std::vector<sim::DataLayout>& dl_in,
                                           const std::vector<sim::DataLayout>& dl_out);

    [[nodiscard]] LayerSearch& search() noexcept { return search_; }
    [[nodiscard]] sim::NetworkCost evaluate(const workload::Network& network,
                                            const workload::Segmentation& seg,
                                            const sim::NetworkMapping& mapping, bool final);

private:
    /// Turns the redistribution memo on for one map() call; it is cleared as the call
    /// starts and ends.
    struct MemoScope {
        explicit MemoScope(Mapper& m);
        ~MemoScope();
        MemoScope(const MemoScope&) = delete;
        MemoScope& operator=(const MemoScope&) = delete;
        Mapper& mapper;
    };
    void check_cancelled() const;
    /// The greedy step on `best` when the timeline is overlapped and the option is on; kept
    /// when the final scheduler's overlapped latency is lower. Per layer, its candidates;
    /// `search_cost`, `best`'s mapping costed with the search scheduler.
    void greedy_step(const workload::Network& network, const workload::Segmentation& seg,
                     const std::vector<std::vector<sim::LayerMapping>>& candidates,
                     const sim::NetworkCost& search_cost, MapResult& best);
    /// The baseline's mapping with LMs chosen by `lm`, costed with the search scheduler.
    [[nodiscard]] sim::NetworkMapping baseline_mapping(const workload::Network& network,
                                                       const workload::Segmentation& seg, BaselineLm lm);
    /// Lowers WR from the layers with the most weights until node (0, 0)'s weights fit.
    void reduce_replication(const workload::Network& network, sim::NetworkMapping& mapping) const;
    /// The same over `layers` only (the layers that share one region's nodes).
    void reduce_replication(const workload::Network& network, sim::NetworkMapping& mapping,
                            std::span<const workload::LayerIndex> layers) const;

    const sim::System& system_;
    MapperOptions options_;
    sim::IntraNodeMapper& intra_;
    sim::CycleScheduler& search_scheduler_;
    sim::SharingScheduler& final_scheduler_;
    const sim::Timeline& timeline_;
    const sim::Timeline& select_timeline_;  ///< what the selection and the pipeline compose with
    LayerSearch search_;
    /// The redistribution of the network map() is mapping, under either scheduler; used
    /// only inside map(), which clears it as it starts and ends (evaluate() may see other
    /// networks).
    sim::RedistributionMemo memo_;
    bool memo_on_ = false;
};

}  // namespace pimdse::mapper
