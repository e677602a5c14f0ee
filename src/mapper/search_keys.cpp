// The LM search's memo keys (include/pimdse/mapper/search_keys.hpp).

#include "pimdse/mapper/search_keys.hpp"

#include <tuple>

namespace pimdse::mapper {

namespace {

/// Boost's hash_combine step.
class Mixer {
public:
    explicit Mixer(std::size_t seed = 0x9E3779B97F4A7C15ULL) : h_(seed) {}
    void add(std::uint64_t v) noexcept { h_ ^= v + 0x9E3779B97F4A7C15ULL + (h_ << 6) + (h_ >> 2); }
    void add_pair(std::int32_t a, std::int32_t b) noexcept {
        add(static_cast<std::uint64_t>(a) << 32 | static_cast<std::uint32_t>(b));
    }
    [[nodiscard]] std::size_t value() const noexcept { return h_; }

private:
    std::size_t h_;
};

}  // namespace

LayerShape LayerShape::of(const workload::Layer& l) noexcept {
    LayerShape s;
    s.kind = l.kind;
    std::tie(s.B, s.K, s.C, s.P, s.Q, s.R, s.S, s.H, s.W) =
        std::tie(l.B, l.K, l.C, l.P, l.Q, l.R, l.S, l.H, l.W);
    std::tie(s.stride_h, s.stride_w, s.pad_h, s.pad_w, s.groups, s.up_h, s.up_w) =
        std::tie(l.stride_h, l.stride_w, l.pad_h, l.pad_w, l.groups, l.up_h, l.up_w);
    std::tie(s.pad_h_end, s.pad_w_end) = std::tie(l.pad_h_end, l.pad_w_end);
    std::tie(s.weights_are_activations, s.transpose_b, s.flatten, s.bias, s.broadcast) =
        std::tie(l.weights_are_activations, l.transpose_b, l.flatten, l.bias, l.broadcast);
    s.bilinear = l.interpolation == workload::Interpolation::bilinear;
    s.operands = static_cast<std::int64_t>(l.inputs.size());
    return s;
}

std::size_t LayerShape::hash() const noexcept {
    Mixer m;
    m.add(static_cast<std::uint64_t>(kind));
    for (std::int64_t v : {B, K, C, P, Q, R, S, H, W, stride_h, stride_w, pad_h, pad_w, groups, up_h, up_w})
        m.add(static_cast<std::uint64_t>(v));
    // The end padding only when it differs: a symmetric layer keeps the hash it always had.
    if (pad_h_end != pad_h || pad_w_end != pad_w) {
        m.add(static_cast<std::uint64_t>(pad_h_end));
        m.add(static_cast<std::uint64_t>(pad_w_end));
    }
    for (bool flag : {weights_are_activations, transpose_b, flatten, bias, broadcast, bilinear})
        m.add(flag ? 1U : 0U);
    m.add(static_cast<std::uint64_t>(operands));
    return m.value();
}

std::size_t SearchKey::hash() const noexcept {
    Mixer m(layer.hash());
    m.add_pair(rows, cols);
    m.add(sim::hash_value(in));
    m.add(sim::hash_value(out));
    m.add(full ? 1U : 0U);
    return m.value();
}

std::size_t ComputeKey::hash() const noexcept {
    Mixer m(search.hash());
    for (std::int32_t n : counts) m.add(static_cast<std::uint64_t>(n));
    return m.value();
}

std::size_t GeometryKey::hash() const noexcept {
    Mixer m;
    m.add_pair(rows, cols);
    for (std::size_t d = 0; d < sim::kPartDims; ++d) {
        m.add_pair(ph[d], pw[d]);
        m.add(static_cast<std::uint64_t>(order[d]));
    }
    m.add(static_cast<std::uint64_t>(shards) << 8 | static_cast<std::uint64_t>(kind));
    return m.value();
}

SetsKey SetsKey::of(const std::vector<std::vector<sim::NodeId>>& sets) {
    SetsKey key;
    std::size_t size = sets.size();
    for (const auto& members : sets) size += members.size();
    key.flat.reserve(size);
    for (const auto& members : sets) {
        key.flat.push_back(static_cast<std::int32_t>(members.size()));
        key.flat.insert(key.flat.end(), members.begin(), members.end());
    }
    return key;
}

std::vector<std::vector<sim::NodeId>> SetsKey::sets() const {
    std::vector<std::vector<sim::NodeId>> out;
    for (std::size_t i = 0; i < flat.size(); i += static_cast<std::size_t>(flat[i]) + 1) {
        const auto first = flat.begin() + static_cast<std::ptrdiff_t>(i) + 1;
        out.emplace_back(first, first + flat[i]);
    }
    return out;
}

std::size_t SetsKey::hash() const noexcept {
    Mixer m;
    for (std::int32_t v : flat) m.add(static_cast<std::uint32_t>(v));
    return m.value();
}

}  // namespace pimdse::mapper
