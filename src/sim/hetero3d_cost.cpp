// Per-phase costs on a heterogeneous 3-D manycore (include/pimdse/sim/hetero3d_cost.hpp).
// docs/model.md ("HuNT: per-layer costs") states every rule and constant.

#include "pimdse/sim/hetero3d_cost.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/sim/crossbar.hpp"

namespace pimdse::sim {

namespace {

using hw::PimDevice;
using workload::NumberFormat;
using workload::TrainingPhase;

int mesh_columns(const hw::Hetero3dHardware& hw) {
    int c = 1;
    while (c * c < hw.pes_per_tier) ++c;
    return c;
}

std::int64_t ceil_div(std::int64_t a, std::int64_t b) {
    return (a + b - 1) / b;
}

// The crossbar view of a tile: the layer's weights in cells of the tile's resolution, inputs
// bit-serially through 1-bit DACs, every column read by the tile's converters.
CrossbarConfig tile_config(const hw::TileSpec& tile, int bits) {
    CrossbarConfig c;
    c.size = tile.rows;
    c.cell_bits = tile.bits_per_cell;
    c.dac_bits = 1;
    c.adc_bits = tile.adcs > 0 ? tile.adc_bits : 1;
    c.weight_bits = bits;
    c.activation_bits = bits;
    c.polarity = 1;  // NeuroSim's default: one column per weight bit slice, a reference column aside
    c.active_wordlines = 0;
    return c;
}

double sram_mac_pj(const workload::Precision& p, const Hetero3dCostParams& params) {
    const double mac =
        p.format == NumberFormat::floating_point ? params.sram_mac_float32_pj : params.sram_mac_fixed16_pj;
    return mac + p.bits * params.sram_read_pj_per_bit;
}

// The precision a digital phase is costed at: its own, but a gradient's on SRAM under the
// in-memory model is the forward pass's (the gradient MACs are the tier's forward MACs).
workload::Precision compute_precision(const workload::PhaseStep& step, PimDevice device,
                                      const Hetero3dCostParams& params) {
    const bool gradient =
        step.phase == TrainingPhase::activation_gradient || step.phase == TrainingPhase::weight_gradient;
    if (gradient && device == PimDevice::sram && params.gradients == GradientModel::in_memory)
        return workload::kForwardPrecision;
    return step.precision;
}

// Digital MACs on `tiles` tiles: one operand of p.bits read per MAC, the tile's sense
// amplifiers delivering sram_tile_bits_per_cycle bits a cycle.
void digital_compute(PhaseCost& c, std::int64_t macs, const workload::Precision& p, std::int64_t tiles,
                     const Hetero3dCostParams& params) {
    const double macs_per_ns =
        static_cast<double>(tiles) * params.sram_tile_bits_per_cycle / p.bits * params.clock_ghz;
    c.compute_ns = static_cast<double>(macs) / macs_per_ns;
    c.compute_pj = static_cast<double>(macs) * sram_mac_pj(p, params);
}

// Converters that read one crossbar's columns in parallel: sense amplifiers one per column;
// ADCs per the reading (AdcReading).
std::int64_t converters_per_crossbar(const hw::TileSpec& tile, const hw::NeuroSimPreset& preset,
                                     AdcReading reading) {
    if (tile.adcs == 0 || reading == AdcReading::table_ii_tile)
        return std::max<std::int64_t>(1, std::max(tile.adcs, tile.sense_amps) / tile.arrays);
    return ceil_div(tile.columns, preset.columns_per_adc);
}

// A forward phase as crossbar MVMs on the PEs' crossbars; false (and the status set) when
// the weights do not fit.
bool crossbar_compute(PhaseCost& c, const workload::Layer& layer, const workload::Precision& p,
                      const hw::TileSpec& tile, std::int64_t tiles, const hw::NeuroSimPreset& preset,
                      const Hetero3dCostParams& params) {
    const CrossbarRead r = crossbar_read(layer, p.bits, c.device, preset, params);
    const std::int64_t available = tiles * tile.arrays;
    c.crossbars = r.crossbars;
    if (r.crossbars > available) {
        c.status = PhaseStatus::too_few_pes;
        c.reason = "layer '" + layer.name + "' needs " + std::to_string(r.crossbars) + " crossbars, " +
                   std::to_string(c.pes) + " PEs hold " + std::to_string(available);
        return false;
    }
    c.replicas = params.replicate_weights ? available / r.crossbars : 1;
    const std::int64_t positions = layer.B * layer.P * layer.Q;
    c.compute_ns = static_cast<double>(ceil_div(positions, c.replicas) * r.reads_per_position) * r.read_ns;
    c.compute_pj = static_cast<double>(positions * r.reads_per_position) * r.energy_pj();
    return true;
}

// The update's programming: every cell of every copy of the layer's weights (at the forward
// precision) once. Crossbars are written a row at a time (a row's columns together), all
// crossbars in parallel; SRAM tiles write as many bits a cycle as they read.
void program_weights(PhaseCost& c, const workload::Layer& layer, const hw::TileSpec& tile, std::int64_t tiles,
                     const hw::DeviceProperties& dev, const Hetero3dCostParams& params) {
    const int bits = workload::kForwardPrecision.bits;
    if (dev.device == PimDevice::sram) {
        c.cells_written = layer.weights() * bits;
        const auto per_cycle = tiles * params.sram_tile_bits_per_cycle;
        c.write_ns = static_cast<double>(ceil_div(c.cells_written, per_cycle)) * dev.write_latency_ns;
    } else {
        const CrossbarMapping m = map_to_crossbars(layer, tile_config(tile, bits));
        const std::int64_t copies =
            params.replicate_weights ? std::max<std::int64_t>(1, tiles * tile.arrays / m.crossbars) : 1;
        c.cells_written = copies * m.groups * m.rows * m.columns;
        c.write_ns = static_cast<double>(std::min<std::int64_t>(m.rows, tile.rows)) * dev.write_latency_ns;
    }
    c.write_pj = static_cast<double>(c.cells_written) * dev.write_energy_pj;
    c.writes_per_cell = 1;
}

}  // namespace

std::string_view adc_reading_name(AdcReading r) noexcept {
    return r == AdcReading::table_ii_tile ? "table_ii_tile" : "neurosim_column_mux";
}

AdcReading adc_reading_from_name(std::string_view name, std::string_view key) {
    for (AdcReading r : {AdcReading::table_ii_tile, AdcReading::neurosim_column_mux})
        if (adc_reading_name(r) == name) return r;
    throw ConfigError({}, std::string(key),
                      "unknown ADC reading '" + std::string(name) +
                          "'; known readings: table_ii_tile, neurosim_column_mux");
}

std::string_view gradient_model_name(GradientModel g) noexcept {
    return g == GradientModel::digital_float32 ? "digital_float32" : "in_memory";
}

GradientModel gradient_model_from_name(std::string_view name, std::string_view key) {
    for (GradientModel g : {GradientModel::digital_float32, GradientModel::in_memory})
        if (gradient_model_name(g) == name) return g;
    throw ConfigError(
        {}, std::string(key),
        "unknown gradient model '" + std::string(name) + "'; known models: digital_float32, in_memory");
}

MeshCoord pe_coordinate(const hw::Hetero3dHardware& hw, int tier, int pe) {
    if (tier < 0 || tier >= hw.tiers || pe < 0 || pe >= hw.pes_per_tier)
        throw ModelError("pe_coordinate: PE " + std::to_string(pe) + " of tier " + std::to_string(tier) +
                         " is outside the stack");
    const int cols = mesh_columns(hw);
    return {pe % cols, pe / cols, tier};
}

int manhattan_hops(MeshCoord a, MeshCoord b) noexcept {
    return std::abs(a.x - b.x) + std::abs(a.y - b.y) + std::abs(a.z - b.z);
}

double mean_hops(const hw::Hetero3dHardware& hw, const PeGroup& from, const PeGroup& to) {
    if (from.pes.empty() || to.pes.empty()) throw ModelError("mean_hops: an empty PE group");
    double sum = 0;
    for (int a : from.pes)
        for (int b : to.pes)
            sum += manhattan_hops(pe_coordinate(hw, from.tier, a), pe_coordinate(hw, to.tier, b));
    return sum / static_cast<double>(from.pes.size() * to.pes.size());
}

CommCost communication_cost(const hw::Hetero3dHardware& hw, const PeGroup& from, const PeGroup& to,
                            std::int64_t elements, int bits, const Hetero3dCostParams& params) {
    CommCost c;
    c.flits = ceil_div(elements * bits, params.noc.flit_bits);
    c.hops = mean_hops(hw, from, to);
    const double flit_hops = static_cast<double>(c.flits) * c.hops;
    c.latency_ns = flit_hops * params.noc.hop_cycles / params.clock_ghz;
    c.energy_pj = flit_hops * params.noc.flit_bits * params.noc.pj_per_bit_hop;
    return c;
}

CrossbarRead crossbar_read(const workload::Layer& layer, int bits, PimDevice device,
                           const hw::NeuroSimPreset& preset, const Hetero3dCostParams& params) {
    if (device == PimDevice::sram) throw ModelError("crossbar_read: layer '" + layer.name + "' on SRAM");
    const hw::TileSpec& tile = hw::hunt_tile(device);
    const CrossbarConfig cfg = tile_config(tile, bits);
    const CrossbarMapping m = map_to_crossbars(layer, cfg);
    CrossbarRead r;
    r.crossbars = m.crossbars;
    r.reads_per_position = m.input_cycles * m.subvectors;
    const std::int64_t converters = converters_per_crossbar(tile, preset, params.adc_reading);
    const std::int64_t used_columns = std::min<std::int64_t>(m.columns, cfg.size);
    const std::int64_t used_rows = std::min<std::int64_t>(m.rows, cfg.size);
    r.read_ns = preset.read_pulse_ns + static_cast<double>(ceil_div(used_columns, converters)) *
                                           preset.sar_adc_latency_ns(cfg.adc_bits);
    // Half the cells on, half off (ours); a column is its used rows' cells in parallel.
    const double g_mean = 0.5 / preset.r_on_ohm + 0.5 / preset.r_off_ohm;
    const double column_ohm = 1.0 / (static_cast<double>(used_rows) * g_mean);
    r.cells = static_cast<double>(m.groups * m.rows * m.columns);
    r.conversions = static_cast<double>(m.groups * m.row_blocks * m.columns);
    r.conversion_pj = preset.sar_adc_energy_pj(cfg.adc_bits, column_ohm);
    return r;
}

double sram_tile_leakage_mw(const hw::NeuroSimPreset& preset) {
    return static_cast<double>(hw::hunt_tile(PimDevice::sram).cells()) * preset.sram_cell_leakage_pw() * 1e-9;
}

double PhaseCost::power_mw() const noexcept {
    const double t = latency_ns();
    return (t > 0 ? energy_pj() / t : 0.0) + leakage_mw;
}

PhaseCost cost_phase(const workload::Layer& layer, const workload::PhaseStep& step, PimDevice device, int pes,
                     const hw::Hetero3dHardware& hw, const hw::NeuroSimPreset& preset,
                     const Hetero3dCostParams& params) {
    if (pes < 1) throw ModelError("cost_phase: layer '" + layer.name + "' placed on no PE");
    PhaseCost c;
    c.device = device;
    c.pes = pes;
    const hw::TileSpec& tile = hw::hunt_tile(device);
    const std::int64_t tiles = static_cast<std::int64_t>(pes) * hw.tiles_per_pe;
    c.area = SquareMillimetres(static_cast<double>(tiles) * hw.tile_area.value());
    if (device == PimDevice::sram) c.leakage_mw = static_cast<double>(tiles) * sram_tile_leakage_mw(preset);
    c.lifetime_iterations = std::numeric_limits<double>::infinity();
    const bool crossbar = device != PimDevice::sram;
    const bool mvm = step.phase != TrainingPhase::weight_update && layer.has_weights();
    if (crossbar && mvm && step.precision.format == NumberFormat::floating_point) {
        c.status = PhaseStatus::float_on_crossbar;
        c.reason = "layer '" + layer.name + "': a " +
                   std::string(name_of(workload::kTrainingPhaseNames, step.phase)) +
                   " phase in floating point cannot run on " +
                   std::string(name_of(hw::kPimDeviceNames, device)) + " crossbars";
        return c;
    }
    if (crossbar && mvm) {
        if (!crossbar_compute(c, layer, step.precision, tile, tiles, preset, params)) return c;
    } else {
        digital_compute(c, step.phase == TrainingPhase::forward ? step.ops : step.macs,
                        compute_precision(step, device, params), tiles, params);
    }
    if (step.weight_writes > 0) {
        const hw::DeviceProperties& dev = hw::hunt_device_properties(device);
        program_weights(c, layer, tile, tiles, dev, params);
        c.lifetime_iterations = dev.write_endurance_cycles / c.writes_per_cell;
    }
    return c;
}

double noise_factor(PimDevice device, double temperature_k, const Hetero3dCostParams& params) {
    const double x = (temperature_k - params.ambient_k) / params.err_temperature_scale_k;
    switch (device) {
        case PimDevice::reram:
            return std::exp(x);
        case PimDevice::fefet:
            return x;
        case PimDevice::sram:
            break;
    }
    return 0.0;
}

double error_surrogate(const workload::Layer& layer, PimDevice device, double temperature_k,
                       const Hetero3dCostParams& params) {
    const double act = static_cast<double>(layer.output_elements() / std::max<std::int64_t>(layer.B, 1));
    return (static_cast<double>(layer.weights()) + act) * noise_factor(device, temperature_k, params);
}

}  // namespace pimdse::sim
