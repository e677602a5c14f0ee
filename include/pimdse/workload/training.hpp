#pragma once
// The phases of one training step of a network (HuNT III-B and IV-A): the forward pass of
// every layer (Act), then, in reverse order, each weighted layer's activation gradient (ΔAG)
// and weight gradient (ΔWG), each with the forward pass's multiply-accumulates, then the
// weight update of every weighted layer, which touches each weight once. A phase carries its
// number format (16-bit fixed point forward, 32-bit floating point gradients, HuNT IV-A) and
// the counts a cost model needs per device: MACs, the elements it produces and where they
// go, the weights it writes. A network in inference mode has its forward phases only.
// docs/model.md ("HuNT: training workloads") states the rules.

#include <cstdint>
#include <vector>

#include "pimdse/core/enum_names.hpp"
#include "pimdse/workload/layer.hpp"
#include "pimdse/workload/network.hpp"

namespace pimdse::workload {

/// The phase of a training step. Values are append only.
enum class TrainingPhase : std::uint8_t {
    forward = 0,              ///< Act: the layer's forward computation
    activation_gradient = 1,  ///< ΔAG: the gradient of the layer's input
    weight_gradient = 2,      ///< ΔWG: the gradient of the layer's weights
    weight_update = 3,        ///< the weights' update from ΔWG (one step of SGD)
};
inline constexpr EnumNames<TrainingPhase, 4> kTrainingPhaseNames{
    {{TrainingPhase::forward, "forward"},
     {TrainingPhase::activation_gradient, "activation_gradient"},
     {TrainingPhase::weight_gradient, "weight_gradient"},
     {TrainingPhase::weight_update, "weight_update"}}};

enum class NumberFormat : std::uint8_t { fixed_point = 0, floating_point = 1 };

/// The arithmetic of a phase: format and width of its operands.
struct Precision {
    NumberFormat format = NumberFormat::fixed_point;
    std::int32_t bits = 16;
    friend constexpr bool operator==(const Precision&, const Precision&) = default;
};

/// HuNT IV-A: weights and activations of the forward pass in 16-bit fixed point.
inline constexpr Precision kForwardPrecision{NumberFormat::fixed_point, 16};
/// HuNT IV-A: weight and activation gradients (and the update computed from them) in 32-bit
/// floating point.
inline constexpr Precision kGradientPrecision{NumberFormat::floating_point, 32};

/// One phase of one layer.
struct PhaseStep {
    LayerIndex layer = 0;
    TrainingPhase phase = TrainingPhase::forward;
    Precision precision = kForwardPrecision;
    /// Multiply-accumulates: the layer's macs() for forward, ΔAG and ΔWG; one per weight for
    /// the update (w -= η g).
    std::int64_t macs = 0;
    /// Arithmetic operations: the layer's ops() for forward (auxiliary layers too), else macs.
    std::int64_t ops = 0;
    /// Elements the phase produces: forward its output, ΔAG its input's gradient (the layer's
    /// input_elements()), ΔWG one gradient per weight, the update the new weights.
    std::int64_t result_elements = 0;
    /// Weights the phase writes: the layer's weights() for the update, else 0.
    std::int64_t weight_writes = 0;
};

/// The phases of one step of `network` in its mode: forward phases of every layer in order;
/// in training mode then ΔAG and ΔWG of each weighted layer (has_weights) from the last to the
/// first, then the update of each weighted layer in order.
[[nodiscard]] std::vector<PhaseStep> phase_steps(const Network& network);

/// The phases of one layer in `mode`: {forward} for inference or a layer without weights;
/// {forward, ΔAG, ΔWG, update} for a weighted layer in training.
[[nodiscard]] std::vector<PhaseStep> layer_phases(const Layer& layer, LayerIndex index, NetworkMode mode);

}  // namespace pimdse::workload
