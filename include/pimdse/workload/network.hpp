#pragma once
// A DNN as a DAG of layers in topological order (NicePIM II-B). The network input is a
// pseudo-source (kNetworkInput) that every path starts from. A Network is validated
// completely when it is constructed and is immutable afterwards.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "pimdse/workload/layer.hpp"

namespace pimdse::workload {

/// What a network is run for: its forward pass alone, or a training step (forward pass,
/// backward pass and weight update; workload/training.hpp). Values are append only.
enum class NetworkMode : std::uint8_t { inference = 0, training = 1 };
/// The modes' names (the network file's `mode`), declared once.
inline constexpr EnumNames<NetworkMode, 2> kNetworkModeNames{
    {{NetworkMode::inference, "inference"}, {NetworkMode::training, "training"}}};

/// Descriptive facts that do not change the computation.
struct NetworkInfo {
    std::string name;         ///< [A-Za-z0-9_.-]+, used as an HDF5 group name
    std::string description;  ///< free text
    std::string source;       ///< citation of the architecture
};

/// The first inconsistency found in a layer list, keyed like the network file
/// (`layers[3].kernel`); the problem text names the layer.
struct NetworkIssue {
    LayerIndex layer = 0;
    std::string key;
    std::string problem;
};

/// Checks layer `index` against its producers (which must precede it) and the network
/// input: loop bounds positive, B == batch, operand shapes consistent with the layer's
/// kind, conv/pool output P/Q = floor((H + pad + pad_end - span) / stride) + 1.
[[nodiscard]] std::optional<NetworkIssue> check_layer(std::span<const Layer> layers, LayerIndex index,
                                                      std::int64_t batch, const TensorShape& input);

/// True for names made of [A-Za-z0-9_.-], not empty and not dots only ("." and "..").
[[nodiscard]] bool is_valid_name(std::string_view name) noexcept;

class Network {
public:
    /// Validates everything (names valid and unique, "input" reserved, producers precede
    /// their consumers, check_layer for each layer) and throws pimdse::InputError naming
    /// the network, the key path and the problem.
    Network(NetworkInfo info, std::int64_t batch, TensorShape input, std::vector<Layer> layers,
            NetworkMode mode = NetworkMode::inference);

    [[nodiscard]] const std::string& name() const noexcept { return info_.name; }
    [[nodiscard]] const NetworkInfo& info() const noexcept { return info_; }
    [[nodiscard]] std::int64_t batch() const noexcept { return batch_; }
    /// Inference (the forward pass) or training (workload/training.hpp adds its phases).
    [[nodiscard]] NetworkMode mode() const noexcept { return mode_; }
    /// Per-sample shape of the network input tensor.
    [[nodiscard]] const TensorShape& input() const noexcept { return input_; }
    [[nodiscard]] std::span<const Layer> layers() const noexcept { return layers_; }
    [[nodiscard]] const Layer& layer(LayerIndex i) const { return layers_[static_cast<std::size_t>(i)]; }
    [[nodiscard]] LayerIndex size() const noexcept { return static_cast<LayerIndex>(layers_.size()); }

    /// The layers that read layer i's output, ascending.
    [[nodiscard]] std::span<const LayerIndex> consumers(LayerIndex i) const noexcept;
    /// The layers that read the network input, ascending.
    [[nodiscard]] std::span<const LayerIndex> input_consumers() const noexcept { return input_consumers_; }
    /// Per-sample output shape of a producer (the network input for kNetworkInput).
    [[nodiscard]] TensorShape output_shape(LayerIndex producer) const;
    [[nodiscard]] std::optional<LayerIndex> find(std::string_view layer_name) const;

    // Sums over all layers.
    [[nodiscard]] std::int64_t total_macs() const noexcept;
    [[nodiscard]] std::int64_t total_weights() const noexcept;
    [[nodiscard]] std::int64_t total_parameters() const noexcept;
    [[nodiscard]] std::int64_t total_ops() const noexcept;

    /// The same network at another batch size (every layer's B); MACs scale linearly.
    [[nodiscard]] Network with_batch(std::int64_t batch) const;
    /// The same network in another mode.
    [[nodiscard]] Network with_mode(NetworkMode mode) const;

private:
    NetworkInfo info_;
    std::int64_t batch_ = 1;
    TensorShape input_;
    std::vector<Layer> layers_;
    NetworkMode mode_ = NetworkMode::inference;
    // Consumers in CSR form: consumers of i are consumer_list_[offsets_[i] .. offsets_[i+1]).
    std::vector<std::int32_t> consumer_offsets_;
    std::vector<LayerIndex> consumer_list_;
    std::vector<LayerIndex> input_consumers_;
    std::unordered_map<std::string, LayerIndex> by_name_;
};

}  // namespace pimdse::workload
