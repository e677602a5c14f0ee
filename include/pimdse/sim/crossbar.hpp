#pragma once
// How a layer's weights occupy ReRAM crossbars (Gibbon II-A and IV-B, on the MultiPrecision
// architecture that MNSIM 2.0 costs): the word lines and bit lines a layer needs, the
// crossbars that hold them, the input cycles of its DAC, the sub-vectors its activated word
// lines allow, and the ADC resolution a column's sum needs. This is the geometry the
// crossbar family's latency, energy and area are built on; it is a pure function of the
// layer and the crossbar configuration.
//
// A layer of K filters over C channels in G groups with R x S kernels stores, per group,
// a (C/G) R S x (K/G) weight matrix. Each weight of w bits takes ceil(w / c) cells of c
// bits in a row, times the polarity (2: positive and negative weights in separate columns).
// Inputs of a bits enter ceil(a / d) times through d-bit DACs. At most L word lines are
// activated at once, so a crossbar's rows are read as ceil(rows / L) sub-vectors, each one
// analog-to-digital conversion per column per input cycle (Gibbon IV-B). A layer quantised
// on its own brings its own w and a (layer_config); the rest is the design's.

#include <cstdint>

#include "pimdse/workload/layer.hpp"

namespace pimdse::sim {

struct CrossbarConfig {
    int size = 128;            ///< rows = columns of one crossbar (Gibbon: 32, 64, 128, 256)
    int cell_bits = 1;         ///< bits one memristor cell stores (Gibbon: 1, 2)
    int dac_bits = 1;          ///< bits one input cycle applies to a word line (Gibbon: 1, 2)
    int adc_bits = 8;          ///< resolution of a column's converter (Gibbon: 4, 6, 8, 10)
    int weight_bits = 9;       ///< bits of a weight (Gibbon: 5, 7, 9)
    int activation_bits = 9;   ///< bits of an input activation (Gibbon: 5, 7, 9)
    int polarity = 2;          ///< columns per weight sign: 2 (signed weights) or 1
    int active_wordlines = 0;  ///< L_wl: word lines activated at once; 0: the whole crossbar
};

struct CrossbarMapping {
    std::int64_t groups = 1;
    std::int64_t rows = 0;           ///< word lines of one group: (C/G) R S
    std::int64_t columns = 0;        ///< bit lines of one group: (K/G) ceil(w/c) polarity
    std::int64_t row_blocks = 0;     ///< crossbars down one group's rows: ceil(rows / size)
    std::int64_t column_blocks = 0;  ///< crossbars across one group's columns: ceil(columns / size)
    std::int64_t crossbars = 0;      ///< groups x row_blocks x column_blocks
    std::int64_t input_cycles = 0;   ///< ceil(activation bits / DAC bits)
    std::int64_t subvectors = 0;     ///< per crossbar: ceil(min(rows, size) / L_wl)
    int adc_bits_needed = 0;         ///< bits of the largest column sum of one sub-vector
};

/// The configuration `layer` is costed with: `config` with the layer's own weight and
/// activation bits (workload::Layer::weight_bits, activation_bits) where it sets them (> 0).
[[nodiscard]] CrossbarConfig layer_config(const CrossbarConfig& config,
                                          const workload::Layer& layer) noexcept;

/// The mapping of a conv (or weighted matmul: R = S = G = 1) layer. Throws ModelError for a
/// layer without weights or a configuration outside its ranges (every field >= 1, cell and
/// DAC bits <= 16, polarity 1 or 2, active_wordlines >= 0).
[[nodiscard]] CrossbarMapping map_to_crossbars(const workload::Layer& layer, const CrossbarConfig& config);

/// The ADC resolution deficit of a mapping (Gibbon's accuracy proxy, docs/model.md): how
/// many bits the converter lacks to read the largest column sum of one sub-vector exactly,
/// ceil(log2(rows at once x (2^c - 1) x (2^d - 1) + 1)) - ADC bits, or 0 when it has enough.
[[nodiscard]] int adc_deficit(const CrossbarMapping& mapping, const CrossbarConfig& config);

}  // namespace pimdse::sim
