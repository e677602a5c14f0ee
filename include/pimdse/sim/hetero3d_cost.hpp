#pragma once
// The cost of one layer's phase (workload/training.hpp) on a set of PEs of one tier of a
// heterogeneous 3-D manycore (HuNT III-B, Eq. 2-7): compute latency and energy, weight
// programming (writes), communication as flits × 3-D Manhattan hops on a mesh with a tier
// axis, area as PEs used, power as energy / latency plus leakage, the error surrogate Err and
// the endurance lifetime.
//
// Compute: ReRAM and FeFET tiles run fixed-point phases as crossbar MVMs. The layer's geometry
// on the tile's crossbars is the crossbar model's (`map_to_crossbars`: rows, columns, crossbars,
// bit-serial input cycles); each read is costed with the named NeuroSim preset (a read pulse and
// one conversion per used column through the tile's converters: SAR ADCs for ReRAM, 1-bit sense
// amplifiers for FeFET, the latter as the SAR fit at 1 bit; the fit's power holds the column
// current, as in NeuroSim).
// Floating-point phases cannot run on a crossbar: costing one there is a value-status, not an
// exception. SRAM tiles are digital: a tile reads 256 bits per cycle (its sense amplifiers),
// one operand per MAC, at a MAC energy per precision; their cells leak as NeuroSim's. Writes: the update
// reprograms every cell of the layer's weights at Table I's write energy, row by row with the crossbars in
// parallel. docs/model.md ("HuNT: per-layer costs") gives every constant's source.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pimdse/core/units.hpp"
#include "pimdse/hw/hetero3d.hpp"
#include "pimdse/hw/neurosim_preset.hpp"
#include "pimdse/hw/pim_device.hpp"
#include "pimdse/sim/noc.hpp"
#include "pimdse/workload/layer.hpp"
#include "pimdse/workload/training.hpp"

namespace pimdse::sim {

/// How a ReRAM tile's converters serve its crossbars (docs/model.md, "HuNT: ADC readings").
/// HuNT Table II lists "96 SAR ADCs" for a tile of 96 crossbars and says no more.
enum class AdcReading : std::uint8_t {
    /// Table II literally: 96 ADCs per tile, shared, so one ADC per crossbar converts all of
    /// its used columns one after another.
    table_ii_tile = 0,
    /// NeuroSim's default: one ADC per `columns_per_adc` (numColMuxed = 8) columns of every
    /// crossbar, 16 ADCs for a 128-column crossbar; Table II's 96 read as per crossbar-column group.
    neurosim_column_mux = 1,
};

/// The configuration names of the readings: "table_ii_tile", "neurosim_column_mux".
[[nodiscard]] std::string_view adc_reading_name(AdcReading r) noexcept;
/// The reading called `name`; ConfigError on `key` listing the known names otherwise.
[[nodiscard]] AdcReading adc_reading_from_name(std::string_view name, std::string_view key);

/// How ΔAG and ΔWG are costed on the SRAM tier that runs them (docs/model.md, "HuNT: gradient
/// models"). HuNT's text computes the gradients in 32-bit floating point; its figures come from
/// DNN+NeuroSim, which computes them in memory in fixed point.
enum class GradientModel : std::uint8_t {
    /// HuNT IV-A's text: digital MACs at the phase's own precision (32-bit float).
    digital_float32 = 0,
    /// DNN+NeuroSim's arrangement: each gradient MAC costs what a forward MAC of the layer
    /// costs on the SRAM tier, at the forward pass's precision (16-bit fixed point).
    in_memory = 1,
};

/// The configuration names of the gradient models: "digital_float32", "in_memory".
[[nodiscard]] std::string_view gradient_model_name(GradientModel g) noexcept;
/// The model called `name`; ConfigError on `key` listing the known names otherwise.
[[nodiscard]] GradientModel gradient_model_from_name(std::string_view name, std::string_view key);

/// The constants of the cost model that are not device properties (docs/model.md).
struct Hetero3dCostParams {
    /// 64-bit flits, 2 cycles per hop, 1.1 pJ per bit and hop (noc.hpp's defaults).
    NocParams noc;
    double clock_ghz = 1;  ///< router and digital clock: NeuroSim's clkFreq (1 GHz)
    /// SRAM digital MAC, pJ: 16-bit fixed (a 16-bit multiply 0.8 + add 0.05) and 32-bit float
    /// (multiply 3.7 + add 0.9), Horowitz's 45 nm figures.
    double sram_mac_fixed16_pj = 0.85;
    double sram_mac_float32_pj = 4.6;
    double sram_read_pj_per_bit = 10.0 / 64;  ///< 8 KB SRAM, 64-bit read 10 pJ (Horowitz, 45 nm)
    int sram_tile_bits_per_cycle = 256;       ///< HuNT Table II: 256 sense amplifiers per SRAM tile
    /// Fill a layer's PEs with copies of its weights that split its output positions. Off by
    /// default (ours): in training every copy is reprogrammed each step at Table I's write
    /// energy (2 nJ a ReRAM cell), so the greedy start point keeps one copy.
    bool replicate_weights = false;
    /// How ReRAM crossbars share SAR ADCs (Table II's literal reading by default).
    AdcReading adc_reading = AdcReading::table_ii_tile;
    /// How the SRAM tier costs ΔAG and ΔWG (HuNT's text by default).
    GradientModel gradients = GradientModel::digital_float32;
    double ambient_k = 300;  ///< HuNT IV-A
    /// Err's temperature scale T_s (ours): N = exp((Q − T_amb) / T_s) for ReRAM, (Q − T_amb) / T_s
    /// for FeFET; 50 K (docs/model.md, "Err").
    double err_temperature_scale_k = 50;
};

/// A PE's place on the 3-D mesh: column x, row y within its tier, tier z (0 is t1).
struct MeshCoord {
    int x = 0, y = 0, z = 0;
};

/// PE `pe` (0-based, row-major) of tier `tier` on a mesh of ceil(sqrt(PEs per tier)) columns.
[[nodiscard]] MeshCoord pe_coordinate(const hw::Hetero3dHardware& hw, int tier, int pe);
/// HuNT Eq. 4's M_ij: |Δx| + |Δy| + |Δz| (a TSV hop per tier).
[[nodiscard]] int manhattan_hops(MeshCoord a, MeshCoord b) noexcept;

/// PEs (indices within the tier) of one tier: where a phase runs.
struct PeGroup {
    int tier = 0;
    std::vector<int> pes;
};

/// The mean Manhattan distance from a PE of `from` to a PE of `to` over all pairs (data is
/// spread evenly over a group's PEs).
[[nodiscard]] double mean_hops(const hw::Hetero3dHardware& hw, const PeGroup& from, const PeGroup& to);

/// One transfer of `elements` of `bits` between two groups (HuNT Eq. 4 and 11).
struct CommCost {
    std::int64_t flits = 0;
    double hops = 0;        ///< mean Manhattan distance
    double latency_ns = 0;  ///< flits × hops × hop cycles / clock (Eq. 4 as written: ∝ F M)
    double energy_pj = 0;   ///< flits × flit bits × hops × pJ per bit and hop
};
[[nodiscard]] CommCost communication_cost(const hw::Hetero3dHardware& hw, const PeGroup& from,
                                          const PeGroup& to, std::int64_t elements, int bits,
                                          const Hetero3dCostParams& params);

/// Why a phase cannot run where it was placed.
enum class PhaseStatus : std::uint8_t { ok = 0, float_on_crossbar = 1, too_few_pes = 2 };

struct PhaseCost {
    PhaseStatus status = PhaseStatus::ok;
    std::string reason;  ///< empty when ok
    hw::PimDevice device = hw::PimDevice::sram;
    int pes = 0;
    double compute_ns = 0, compute_pj = 0;
    double write_ns = 0, write_pj = 0;  ///< programming the weights (the update)
    double leakage_mw = 0;              ///< of the PEs used
    SquareMillimetres area{0.0};        ///< PEs × tiles per PE × tile area (HuNT Eq. 5)
    std::int64_t crossbars = 0;         ///< crossbars holding one copy of the weights (0: SRAM)
    std::int64_t replicas = 0;          ///< copies of the weights that split the positions
    std::int64_t cells_written = 0;     ///< cells programmed per iteration
    double writes_per_cell = 0;         ///< per iteration, on each programmed cell
    double lifetime_iterations = 0;     ///< endurance / writes per cell; infinity without writes

    [[nodiscard]] bool ok() const noexcept { return status == PhaseStatus::ok; }
    [[nodiscard]] double latency_ns() const noexcept { return compute_ns + write_ns; }
    [[nodiscard]] double energy_pj() const noexcept { return compute_pj + write_pj; }
    /// Energy / latency + leakage, mW (pJ / ns = mW).
    [[nodiscard]] double power_mw() const noexcept;
};

/// One bit-serial read of a forward pass on a crossbar tile: every crossbar of one copy of the
/// layer's weights driven with one input bit (docs/model.md, "HuNT: per-MAC read energy").
/// NeuroSim counts a read as its converters' energy, whose fitted power includes the column
/// current, plus the bit lines' and word lines' charging; the cells' conduction is not a term of
/// its own, and the line charging is below 1 % of the conversions, so a read is its conversions.
struct CrossbarRead {
    std::int64_t crossbars = 0;           ///< holding one copy of the weights
    std::int64_t reads_per_position = 0;  ///< input cycles × sub-vectors
    double cells = 0;                     ///< cells on the driven rows
    double conversions = 0;               ///< used columns × row blocks × groups
    double conversion_pj = 0;             ///< one conversion at the column's resistance
    double read_ns = 0;                   ///< read pulse + the conversions through the converters
    [[nodiscard]] double energy_pj() const noexcept { return conversions * conversion_pj; }
};

/// The read of `layer`'s forward pass at `bits` on a tile of `device` (ReRAM or FeFET);
/// ModelError for SRAM or a layer without weights.
[[nodiscard]] CrossbarRead crossbar_read(const workload::Layer& layer, int bits, hw::PimDevice device,
                                         const hw::NeuroSimPreset& preset, const Hetero3dCostParams& params);

/// One SRAM tile's leakage, mW: its cells (Table II) at the preset's SRAM cell leakage
/// (NeuroSim's array rule; periphery leakage is not modelled, as for ReRAM and FeFET).
[[nodiscard]] double sram_tile_leakage_mw(const hw::NeuroSimPreset& preset);

/// The cost of `step` of `layer` on `pes` PEs of `device`. Forward phases of weighted layers
/// on ReRAM/FeFET hold the weights in the PEs' crossbars (one copy, or as many as fit with
/// `replicate_weights`); other phases
/// there (an auxiliary layer's forward, the update's arithmetic) run in the tiles' digital
/// periphery at the SRAM digital rates. With GradientModel::in_memory, ΔAG and ΔWG on SRAM
/// cost as forward MACs at kForwardPrecision. Throws ModelError for pes < 1.
[[nodiscard]] PhaseCost cost_phase(const workload::Layer& layer, const workload::PhaseStep& step,
                                   hw::PimDevice device, int pes, const hw::Hetero3dHardware& hw,
                                   const hw::NeuroSimPreset& preset, const Hetero3dCostParams& params);

/// HuNT Eq. 7's N(i) at PE temperature `temperature_k`: exp((Q − T_amb)/T_s) for ReRAM,
/// (Q − T_amb)/T_s for FeFET, 0 for SRAM.
[[nodiscard]] double noise_factor(hw::PimDevice device, double temperature_k,
                                  const Hetero3dCostParams& params);
/// HuNT Eq. 6's term of one layer: (w_i + Act_i) N(i), weights and per-sample output elements.
[[nodiscard]] double error_surrogate(const workload::Layer& layer, hw::PimDevice device, double temperature_k,
                                     const Hetero3dCostParams& params);

}  // namespace pimdse::sim
