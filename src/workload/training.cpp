// Training phases of a network (include/pimdse/workload/training.hpp).

#include "pimdse/workload/training.hpp"

namespace pimdse::workload {

namespace {

PhaseStep make_step(const Layer& l, LayerIndex index, TrainingPhase phase) {
    PhaseStep s;
    s.layer = index;
    s.phase = phase;
    switch (phase) {
        case TrainingPhase::forward:
            s.precision = kForwardPrecision;
            s.macs = l.macs();
            s.ops = l.ops();
            s.result_elements = l.output_elements();
            break;
        case TrainingPhase::activation_gradient:
            s.precision = kGradientPrecision;
            s.macs = s.ops = l.macs();  // the transposed kernel over the output gradient
            s.result_elements = l.input_elements();
            break;
        case TrainingPhase::weight_gradient:
            s.precision = kGradientPrecision;
            s.macs = s.ops = l.macs();  // the output gradient correlated with the input
            s.result_elements = l.weights();
            break;
        case TrainingPhase::weight_update:
            s.precision = kGradientPrecision;
            s.macs = s.ops = l.weights();  // one multiply-add per weight
            s.result_elements = s.weight_writes = l.weights();
            break;
    }
    return s;
}

}  // namespace

std::vector<PhaseStep> layer_phases(const Layer& layer, LayerIndex index, NetworkMode mode) {
    std::vector<PhaseStep> out{make_step(layer, index, TrainingPhase::forward)};
    if (mode == NetworkMode::training && layer.has_weights()) {
        for (TrainingPhase p : {TrainingPhase::activation_gradient, TrainingPhase::weight_gradient,
                                TrainingPhase::weight_update})
            out.push_back(make_step(layer, index, p));
    }
    return out;
}

std::vector<PhaseStep> phase_steps(const Network& network) {
    std::vector<PhaseStep> out;
    const LayerIndex n = network.size();
    for (LayerIndex i = 0; i < n; ++i) out.push_back(make_step(network.layer(i), i, TrainingPhase::forward));
    if (network.mode() != NetworkMode::training) return out;
    for (LayerIndex i = n - 1; i >= 0; --i) {
        const Layer& l = network.layer(i);
        if (!l.has_weights()) continue;
        out.push_back(make_step(l, i, TrainingPhase::activation_gradient));
        out.push_back(make_step(l, i, TrainingPhase::weight_gradient));
    }
    for (LayerIndex i = 0; i < n; ++i) {
        if (network.layer(i).has_weights())
            out.push_back(make_step(network.layer(i), i, TrainingPhase::weight_update));
    }
    return out;
}

}  // namespace pimdse::workload
