#pragma once
// The latency, energy and area of layers and networks on ReRAM crossbars (the crossbar
// family's cost model, after MNSIM 2.0 as Gibbon uses it), built on a layer's geometry
// (`map_to_crossbars`, crossbar.hpp) and a technology preset (crossbar_technology.hpp).
// docs/model.md, "ReRAM crossbars: latency, energy and area", states every equation.
//
// A layer: each of its P Q B output positions applies its inputs in `input_cycles` DAC
// steps, each step reading every crossbar once per sub-vector; every read converts each
// used bit line once (one ADC conversion), and each conversion is shifted and added into
// its output once. All crossbars of a layer read in parallel; a read takes the DAC, the
// crossbar and the conversions of the columns that share an ADC, one after another.
// The `polarity` crossbars of a weight share their converters: their currents are
// subtracted before the ADC (MNSIM's default). Energy is split into crossbar reads, ADCs,
// DACs, shift-and-add, SRAM buffers and the inter-tile network (crossbar_noc.hpp, costed
// per network). Layers own whole tiles (no tile holds two layers).
//
// A network: its weighted layers only (pooling, elementwise and normalisation layers run
// in the tiles' digital units and are not costed). A layer's stage takes its compute time
// or its NoC traffic's time, whichever is longer. Layers pipelined across their tiles take
// the slowest stage plus every other stage's fill; in sequence, the sum. Under a tile
// budget the pipeline replicates its slowest layer (by compute time) while the budget
// allows; the NoC is costed on the final placement.

#include <cstdint>
#include <vector>

#include "pimdse/core/crossbar_options.hpp"
#include "pimdse/core/units.hpp"
#include "pimdse/sim/crossbar.hpp"
#include "pimdse/sim/crossbar_noc.hpp"
#include "pimdse/sim/crossbar_technology.hpp"
#include "pimdse/workload/network.hpp"

namespace pimdse::sim {

/// Energy by part.
struct CrossbarEnergy {
    Picojoules crossbar;   ///< memristor cells read
    Picojoules adc;        ///< analog-to-digital conversions
    Picojoules dac;        ///< digital-to-analog input steps
    Picojoules shift_add;  ///< shift registers and adders merging the conversions
    Picojoules buffer;     ///< PE input and tile output SRAM buffers
    Picojoules noc;        ///< inter-tile network (set by cost_network_on_crossbars)

    [[nodiscard]] Picojoules total() const { return crossbar + adc + dac + shift_add + buffer + noc; }
    CrossbarEnergy& operator+=(const CrossbarEnergy& o);
};

/// Area by part.
struct CrossbarArea {
    SquareMillimetres crossbars;  ///< memristor cells
    SquareMillimetres adcs;
    SquareMillimetres dacs;
    SquareMillimetres shift_add;  ///< one shift register and one adder per ADC
    SquareMillimetres buffers;    ///< PE input buffers and the tile output buffer
    SquareMillimetres routers;    ///< the tile's NoC router and its links

    [[nodiscard]] SquareMillimetres total() const {
        return crossbars + adcs + dacs + shift_add + buffers + routers;
    }
};

struct CrossbarLayerCost {
    CrossbarMapping mapping;
    std::int64_t positions = 0;  ///< output positions P Q B
    /// positions x input cycles x sub-vectors x G x row blocks x columns / polarity
    std::int64_t adc_conversions = 0;
    /// positions x input cycles x G x rows x ceil(column blocks / polarity)
    std::int64_t dac_conversions = 0;
    std::int64_t tiles = 0;      ///< ceil(crossbars / crossbars per tile)
    int adc_shared_columns = 0;  ///< conversions one ADC makes per read: ceil(used columns / ADCs)
    double read_ns = 0;          ///< one read step: DAC + crossbar + shared conversions, ns
    double position_ns = 0;      ///< one output position: input cycles x sub-vectors x read, ns
    double latency_ns = 0;       ///< positions x position_ns, ns
    CrossbarEnergy energy;
};

/// The cost of one weighted layer (conv, deconv or weighted matmul). Throws ModelError as
/// map_to_crossbars does, and ConfigError for a preset that fails check_technology.
[[nodiscard]] CrossbarLayerCost cost_layer_on_crossbars(const workload::Layer& layer,
                                                        const CrossbarConfig& config,
                                                        const CrossbarTechnology& tech);

/// The area of one tile of `config`'s crossbars.
[[nodiscard]] CrossbarArea crossbar_tile_area(const CrossbarConfig& config, const CrossbarTechnology& tech);

/// pipelined or sequential (core/crossbar_options.hpp, where the configuration's names are).
using CrossbarSchedule = pimdse::CrossbarSchedule;

struct CrossbarNetworkOptions {
    CrossbarSchedule schedule = CrossbarSchedule::pipelined;
    /// Pipelined only: tiles the network may use; while the slowest stage's layer fits
    /// once more, it is replicated. 0, or a budget below the layers' own tiles: none.
    std::int64_t tile_budget = 0;
};

struct CrossbarNetworkCost {
    std::vector<workload::LayerIndex> layers;  ///< the weighted layers, in network order
    std::vector<CrossbarLayerCost> layer_costs;
    std::vector<std::int64_t> replicas;  ///< copies of each layer's tiles (1: none)
    std::vector<double> stage_ns;        ///< max(layer latency over its replicas, its NoC time), ns
    std::int64_t tiles = 0;              ///< sum of tiles x replicas
    CrossbarArea area;                   ///< tiles x one tile's area
    CrossbarEnergy energy;               ///< sum over layers, each with its NoC traffic
    CrossbarNocCost noc;                 ///< the placement and each layer's traffic
    double latency_ns = 0;               ///< under the chosen schedule, ns
};

/// The cost of a network's weighted layers. Throws ModelError for a network without one.
[[nodiscard]] CrossbarNetworkCost cost_network_on_crossbars(const workload::Network& network,
                                                            const CrossbarConfig& config,
                                                            const CrossbarTechnology& tech,
                                                            const CrossbarNetworkOptions& options = {});

/// The ADC deficit of the network's worst layer (adc_deficit), bits; 0 when every column
/// sum is read exactly. Per-layer bits do not change it: they leave the ADC as it is.
[[nodiscard]] int worst_adc_deficit(const CrossbarNetworkCost& cost, const CrossbarConfig& config);

}  // namespace pimdse::sim
