#include "pimdse/io/network_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <sstream>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/io/config.hpp"
#include "pimdse/io/onnx_import.hpp"
#include "pimdse/io/yaml_reader.hpp"
#include "pimdse/workload/builder.hpp"

namespace pimdse::io {

namespace {

using workload::LayerIndex;
using workload::LayerKind;
using yaml::Field;
using yaml::Map;

// Integers in a network file are sizes; this bound keeps every product of loop bounds
// far from int64 overflow for any sane network and rejects typos like 1e12 early.
constexpr std::int64_t kMaxInteger = std::numeric_limits<std::int32_t>::max();
const std::string kPositive = "an integer in [1, " + std::to_string(kMaxInteger) + "]";

const std::vector<std::string_view> kTopKeys{"network", "description", "source", "batch",
                                             "mode",    "input",       "layers"};

struct LayerEntry {
    Field field;  ///< the layer's mapping, path layers[i]
    std::string name;
    Map keys;                     ///< checked against keys_for(type) once the type is read
    bool implicit_input = false;  ///< `inputs` omitted: the previous layer (or the network input)
    std::vector<std::pair<std::string, Field>> inputs;  ///< producer names and where they were written
};

std::vector<std::string_view> keys_for(LayerKind kind) {
    std::vector<std::string_view> keys{"name", "type", "inputs"};
    switch (kind) {
        case LayerKind::conv:
            keys.insert(keys.end(),
                        {"out_channels", "kernel", "stride", "padding", "padding_end", "groups", "dilation",
                         "bias", "norm", "activation", "weight_bits", "activation_bits"});
            break;
        case LayerKind::matmul:
            keys.insert(keys.end(), {"out_features", "flatten", "bias", "norm", "activation", "transpose_b",
                                     "weight_bits", "activation_bits"});
            break;
        case LayerKind::pool:
            keys.insert(keys.end(), {"mode", "kernel", "stride", "padding", "padding_end", "global",
                                     "ceil_mode", "output"});
            break;
        case LayerKind::add:
            keys.insert(keys.end(), {"activation", "bias"});
            break;
        case LayerKind::mul:
            keys.push_back("activation");
            break;
        case LayerKind::deconv:
            keys.insert(keys.end(),
                        {"out_channels", "kernel", "stride", "padding", "output_padding", "groups", "bias",
                         "norm", "activation", "weight_bits", "activation_bits"});
            break;
        case LayerKind::upsample:
            keys.insert(keys.end(), {"scale", "mode"});
            break;
        case LayerKind::norm:
            keys.push_back("mode");
            break;
        case LayerKind::activation:
            keys.push_back("function");
            break;
        case LayerKind::concat:
        case LayerKind::softmax:
            break;
    }
    return keys;
}

class NetworkParser {
public:
    NetworkParser(const std::string& file, const NetworkReadOptions& options) : r_(file), options_(options) {}

    workload::Network parse(const std::string& text) {
        const Map top(r_, r_.load(text, yaml::key_list(kTopKeys)), kTopKeys);
        workload::NetworkInfo info;
        const Field name = top.require("network", "the network's name");
        info.name = r_.string(name);
        if (!workload::is_valid_name(info.name))
            r_.value_error(name, "a name made of letters, digits, '_', '-', '.' (not dots only)",
                           yaml::describe(name.node));
        if (auto f = top.get("description")) info.description = r_.string(*f);
        if (auto f = top.get("source")) info.source = r_.string(*f);

        std::int64_t batch = 1;
        if (auto f = top.get("batch")) batch = r_.integer(*f, 1, kMaxInteger);
        if (options_.batch) {
            // Not a value of this file (a sweep's workloads[i].batch): no line to point at.
            if (*options_.batch < 1 || *options_.batch > kMaxInteger)
                throw InputError(SourceLocation{r_.file()}, "batch",
                                 "expected " + kPositive + " as the batch override, got " +
                                     std::to_string(*options_.batch));
            batch = *options_.batch;
        }

        const workload::TensorShape input =
            input_shape(top.require("input", "a mapping {channels, height, width} or {tokens, hidden}"));
        const std::string want_layers = "a non-empty list of layers";
        const Field layers = top.require("layers", want_layers);
        const std::vector<Field> items = r_.list(layers, want_layers);
        if (items.empty()) r_.value_error(layers, want_layers, "an empty list");

        collect(items);
        workload::NetworkBuilder builder(std::move(info), batch, input);
        if (auto f = top.get("mode")) builder.set_mode(mode(*f));
        for (std::size_t i = 0; i < entries_.size(); ++i) add_layer(builder, static_cast<LayerIndex>(i));
        workload::Network network = std::move(builder).build();
        warn_chained_siblings(network);
        return network;
    }

private:
    std::int64_t positive(const Field& f) const { return r_.integer(f, 1, kMaxInteger); }

    // `mode`: inference (the default) or training (workload/training.hpp).
    workload::NetworkMode mode(const Field& f) const {
        const std::string text = r_.string(f);
        const auto m = value_of(workload::kNetworkModeNames, text);
        if (!m) r_.value_error(f, "one of inference, training", "'" + text + "'");
        if (*m == workload::NetworkMode::training && options_.inference_only)
            r_.value_error(f,
                           "inference: this command costs the forward pass only (a training "
                           "step is costed by the hetero3d model, docs/model.md)",
                           "training");
        return *m;
    }

    // `padding`: an integer or [h, w] before and after; on a conv also `sep` (SEP, Gibbon IV-A).
    // `padding_end`: the padding after the last row and column, when it differs.
    template <class Spec>
    void padding(const Map& keys, Spec& s) const {
        constexpr bool conv = std::is_same_v<Spec, workload::ConvSpec>;
        const auto f = keys.get("padding");
        if (!conv && f && f->node.IsScalar() && f->node.Scalar() == "sep")
            r_.error(*f, "SEP padding (padding: sep) applies to conv layers only");
        if constexpr (conv) {
            if (f && f->node.IsScalar() && f->node.Scalar() == "sep") {
                s.sep = true;
                if (auto end = keys.get("padding_end"))
                    r_.error(*end,
                             "padding: sep takes no padding_end: SEP pads span - 1 rows (columns) in all, "
                             "the odd one on a random side of each input map");
                return;
            }
            if (f && f->node.IsScalar())
                s.pad_h = s.pad_w = r_.integer(
                    *f, 0, kMaxInteger,
                    "an integer in [0, " + std::to_string(kMaxInteger) + "], a list [height, width] or sep");
        }
        if (f && (!conv || !f->node.IsScalar()))
            std::tie(s.pad_h, s.pad_w) = r_.integer_pair(*f, 0, kMaxInteger);
        if (auto end = keys.get("padding_end")) {
            const auto [h, w] = r_.integer_pair(*end, 0, kMaxInteger);
            s.pad_h_end = h;
            s.pad_w_end = w;
        }
    }

    // `weight_bits`, `activation_bits`: a layer quantised on its own (absent: the design point's).
    workload::LayerBits bits(const LayerEntry& l) const {
        workload::LayerBits b;
        const auto read = [&](std::string_view key, std::int32_t& out) {
            if (auto f = l.keys.get(key))
                out = static_cast<std::int32_t>(
                    r_.integer(*f, 1, workload::kMaxLayerBits,
                               "an integer in [1, " + std::to_string(workload::kMaxLayerBits) + "] (layer '" +
                                   l.name + "' quantised on its own; absent: the design point's bits)"));
        };
        read("weight_bits", b.weight);
        read("activation_bits", b.activation);
        return b;
    }

    workload::TensorShape input_shape(const Field& f) const {
        const Map m = Map::unchecked(r_, f, "a mapping {channels, height, width} or {tokens, hidden}");
        if (m.has("tokens") || m.has("hidden")) {
            m.accept({"tokens", "hidden"});
            // A sequence is hidden channels x tokens x 1 (NicePIM II-B: matmul as 1x1 conv).
            return {positive(m.require("hidden", kPositive + " (the width of a token vector)")),
                    positive(m.require("tokens", kPositive + " (the sequence length)")), 1};
        }
        m.accept({"channels", "height", "width"});
        return {positive(m.require("channels", kPositive)), positive(m.require("height", kPositive)),
                positive(m.require("width", kPositive))};
    }

    // First pass: every layer's name and producer names, so that a reference to a later
    // layer can be told apart from a cycle and from a typo.
    void collect(const std::vector<Field>& items) {
        entries_.reserve(items.size());
        for (std::size_t i = 0; i < items.size(); ++i) {
            const Field& layer = items[i];
            Map keys = Map::unchecked(r_, layer, "a layer mapping with at least name and type");
            const Field name_field = keys.require("name", "the layer's name");
            std::string name = r_.string(name_field);
            if (!workload::is_valid_name(name) || name == "input")
                r_.value_error(
                    name_field,
                    "a layer name made of letters, digits, '_', '-', '.' (not the reserved 'input')",
                    yaml::describe(name_field.node));
            if (auto [it, fresh] = by_name_.emplace(name, static_cast<LayerIndex>(i)); !fresh)
                r_.error(name_field,
                         "duplicate layer name '" + name + "' (first used by layers[" +
                             std::to_string(it->second) + "] on line " +
                             std::to_string(entries_[static_cast<std::size_t>(it->second)].field.line) + ")");
            std::vector<std::pair<std::string, Field>> inputs;
            const bool implicit = !keys.has("inputs");
            if (auto f = keys.get("inputs")) {
                const std::string want = "a producer name or a non-empty list of producer names";
                if (f->node.IsScalar()) {
                    inputs.emplace_back(f->node.Scalar(), *f);
                } else {
                    const std::vector<Field> names = r_.list(*f, want);
                    if (names.empty()) r_.value_error(*f, want, "an empty list");
                    for (const Field& n : names) {
                        if (!n.node.IsScalar()) r_.type_error(n, want);
                        inputs.emplace_back(n.node.Scalar(), n);
                    }
                }
            } else {
                // The default producer is the previous layer (the network input for the first).
                inputs.emplace_back(i == 0 ? std::string("input") : entries_.back().name,
                                    Field{layer.node, layer.line, keys.path("inputs")});
            }
            entries_.push_back(
                LayerEntry{layer, std::move(name), std::move(keys), implicit, std::move(inputs)});
        }
    }

    std::vector<LayerIndex> resolve(LayerIndex i) const {
        std::vector<LayerIndex> out;
        for (const auto& [name, at] : entries_[static_cast<std::size_t>(i)].inputs) {
            if (name == "input") {
                out.push_back(workload::kNetworkInput);
                continue;
            }
            const auto it = by_name_.find(name);
            if (it == by_name_.end())
                r_.error(at, "unknown producer '" + name +
                                 "': no layer has this name (the network input is 'input')");
            if (it->second >= i) fail_order(i, it->second, at);
            out.push_back(it->second);
        }
        return out;
    }

    [[noreturn]] void fail_order(LayerIndex i, LayerIndex j, const Field& at) const {
        const LayerEntry& li = entries_[static_cast<std::size_t>(i)];
        // Does j depend on i? Search j's producers (depth-first, by name) for i.
        std::vector<LayerIndex> parent(entries_.size(), -2);
        std::vector<LayerIndex> stack{j};
        parent[static_cast<std::size_t>(j)] = -1;
        bool found = j == i;
        while (!stack.empty() && !found) {
            const LayerIndex x = stack.back();
            stack.pop_back();
            for (const auto& [name, where] : entries_[static_cast<std::size_t>(x)].inputs) {
                const auto it = by_name_.find(name);
                if (it == by_name_.end() || parent[static_cast<std::size_t>(it->second)] != -2) continue;
                parent[static_cast<std::size_t>(it->second)] = x;
                if (it->second == i) {
                    found = true;
                    break;
                }
                stack.push_back(it->second);
            }
        }
        if (!found)
            r_.error(at, "producer '" + entries_[static_cast<std::size_t>(j)].name +
                             "' is defined later (line " +
                             std::to_string(entries_[static_cast<std::size_t>(j)].field.line) +
                             "); list every layer after its producers");
        // parent[] leads from i back to j along consumer edges: data flows i -> ... -> j -> i.
        std::string cycle = li.name;
        for (LayerIndex x = parent[static_cast<std::size_t>(i)]; x >= 0 && i != j;
             x = parent[static_cast<std::size_t>(x)])
            cycle += " -> " + entries_[static_cast<std::size_t>(x)].name;
        cycle += " -> " + li.name;
        r_.error(at, "the producers form a cycle: " + cycle);
    }

    void add_layer(workload::NetworkBuilder& b, LayerIndex i) {
        const LayerEntry& l = entries_[static_cast<std::size_t>(i)];
        const LayerKind kind =
            r_.choice(l.keys.require("type", "one of " + yaml::one_of_list(workload::layer_kind_names())),
                      workload::parse_layer_kind, workload::layer_kind_names());
        l.keys.accept(keys_for(kind));
        const std::vector<LayerIndex> inputs = resolve(i);
        const auto find = [&](std::string_view k) { return l.keys.get(k); };
        const auto fused_norm = [&] {
            const auto f = find("norm");
            return f ? r_.choice(*f, workload::parse_normalization, workload::normalization_names())
                     : workload::Normalization::none;
        };
        const auto fused_activation = [&] {
            const auto f = find("activation");
            return f ? r_.choice(*f, workload::parse_activation, workload::activation_names())
                     : workload::Activation::none;
        };
        const auto flag = [&](std::string_view k) {
            const auto f = find(k);
            return f ? r_.boolean(*f) : false;
        };
        const auto single_input = [&] {
            // More than one producer can only have been written under `inputs`.
            if (inputs.size() != 1)
                r_.value_error(
                    *find("inputs"),
                    "exactly 1 producer for a " + std::string(workload::to_string(kind)) + " layer",
                    std::to_string(inputs.size()));
            return inputs.front();
        };
        const auto need = [&](std::string_view k, const std::string& expected) {
            return l.keys.require(k, expected);
        };
        const auto pair = [&](const Field& f, std::int64_t lo) {
            return r_.integer_pair(f, lo, kMaxInteger);
        };

        // The builder names the key (`layers[3].kernel`) but not the file: point at that key
        // when it was written, else at the layer.
        const auto located = [&](auto&& add) {
            try {
                add();
            } catch (const InputError& e) {
                std::string_view field =
                    std::string_view(e.key()).substr(std::min(e.key().size(), l.field.path.size() + 1));
                field = field.substr(0, field.find_first_of(".["));
                const auto at = field.empty() ? std::nullopt : find(field);
                throw InputError({r_.file(), at ? at->line : l.field.line, 0}, e.key(), e.problem());
            }
        };

        switch (kind) {
            case LayerKind::conv: {
                const LayerIndex in = single_input();
                workload::ConvSpec s;
                s.out_channels = positive(need("out_channels", kPositive));
                std::tie(s.kernel_h, s.kernel_w) =
                    pair(need("kernel", "an integer or a list [height, width]"), 1);
                if (auto f = find("stride")) std::tie(s.stride_h, s.stride_w) = pair(*f, 1);
                padding(l.keys, s);
                if (auto f = find("dilation")) std::tie(s.dilation_h, s.dilation_w) = pair(*f, 1);
                if (auto f = find("groups")) {
                    // "depthwise" saves the reader from repeating the producer's channels.
                    s.groups = f->node.IsScalar() && f->node.Scalar() == "depthwise"
                                   ? b.shape(in).channels
                                   : r_.integer(*f, 1, kMaxInteger, kPositive + " or depthwise");
                }
                s.bias = flag("bias");
                s.norm = fused_norm();
                s.activation = fused_activation();
                s.bits = bits(l);
                located([&] { b.conv(l.name, in, s); });
                break;
            }
            case LayerKind::matmul: {
                if (inputs.size() == 2) {
                    for (std::string_view k : {"out_features", "flatten", "bias", "norm"})
                        if (auto f = find(k))
                            r_.error(*f,
                                     "a matmul of two producers (attention) has no weights: '" +
                                         std::string(k) +
                                         "' does not apply; its output width comes from the second operand");
                    for (std::string_view k : {"weight_bits", "activation_bits"})
                        if (auto f = find(k))
                            r_.error(*f,
                                     "a matmul of two producers (attention) has no weights to quantise on "
                                     "their own: '" +
                                         std::string(k) + "' applies to conv, deconv and weighted matmul");
                    const bool transpose = flag("transpose_b");
                    const auto act = fused_activation();
                    located([&] { b.matmul(l.name, inputs[0], inputs[1], transpose, act); });
                    break;
                }
                if (auto f = find("transpose_b"))
                    r_.error(*f, "transpose_b applies only to a matmul of two producers");
                const LayerIndex in = single_input();
                workload::LinearSpec s;
                s.out_features = positive(
                    need("out_features", kPositive + " (or two producers for an activation matmul)"));
                s.flatten = flag("flatten");
                s.bias = flag("bias");
                s.norm = fused_norm();
                s.activation = fused_activation();
                s.bits = bits(l);
                located([&] { b.linear(l.name, in, s); });
                break;
            }
            case LayerKind::pool: {
                const LayerIndex in = single_input();
                workload::PoolSpec s;
                s.mode = r_.choice(need("mode", "one of " + yaml::one_of_list(workload::pooling_names())),
                                   workload::parse_pooling, workload::pooling_names());
                s.global = flag("global");
                if (auto out = find("output")) {
                    for (std::string_view k :
                         {"kernel", "stride", "padding", "padding_end", "global", "ceil_mode"})
                        if (auto g = find(k))
                            r_.error(*g,
                                     "an adaptive pool (output) derives its windows from the output size; '" +
                                         std::string(k) + "' does not apply");
                    std::tie(s.output_h, s.output_w) = pair(*out, 1);
                } else if (s.global) {
                    for (std::string_view k : {"kernel", "stride", "padding", "padding_end", "ceil_mode"})
                        if (auto f = find(k))
                            r_.error(*f, "a global pool covers the whole input; '" + std::string(k) +
                                             "' does not apply");
                } else {
                    std::tie(s.kernel_h, s.kernel_w) = pair(
                        need("kernel", "an integer or a list [height, width] (or global: true, or output)"),
                        1);
                    // Pooling windows usually tile the input: the stride defaults to the kernel.
                    std::tie(s.stride_h, s.stride_w) = std::pair(s.kernel_h, s.kernel_w);
                    if (auto f = find("stride")) std::tie(s.stride_h, s.stride_w) = pair(*f, 1);
                    padding(l.keys, s);
                    s.ceil_mode = flag("ceil_mode");
                }
                located([&] { b.pool(l.name, in, s); });
                break;
            }
            case LayerKind::add: {
                const auto act = fused_activation();
                const bool learned = flag("bias");
                located([&] { b.add(l.name, inputs, act, learned); });
                break;
            }
            case LayerKind::concat:
                located([&] { b.concat(l.name, inputs); });
                break;
            case LayerKind::mul: {
                if (inputs.size() != 2)
                    r_.value_error(l.keys.has("inputs") ? *find("inputs") : l.field,
                                   "exactly 2 producers for a mul layer (the second may be C x 1 x 1)",
                                   std::to_string(inputs.size()));
                const auto act = fused_activation();
                located([&] { b.mul(l.name, inputs[0], inputs[1], act); });
                break;
            }
            case LayerKind::deconv: {
                const LayerIndex in = single_input();
                workload::DeconvSpec s;
                s.out_channels = positive(need("out_channels", kPositive));
                std::tie(s.kernel_h, s.kernel_w) =
                    pair(need("kernel", "an integer or a list [height, width]"), 1);
                if (auto f = find("stride")) std::tie(s.stride_h, s.stride_w) = pair(*f, 1);
                if (auto f = find("padding")) std::tie(s.pad_h, s.pad_w) = pair(*f, 0);
                if (auto f = find("output_padding")) std::tie(s.output_pad_h, s.output_pad_w) = pair(*f, 0);
                if (auto f = find("groups")) s.groups = r_.integer(*f, 1, kMaxInteger, kPositive);
                s.bias = flag("bias");
                s.norm = fused_norm();
                s.activation = fused_activation();
                s.bits = bits(l);
                located([&] { b.deconv(l.name, in, s); });
                break;
            }
            case LayerKind::upsample: {
                const LayerIndex in = single_input();
                std::int64_t sh = 1, sw = 1;
                std::tie(sh, sw) = pair(need("scale", "an integer or a list [height, width]"), 1);
                workload::Interpolation mode = workload::Interpolation::nearest;
                if (auto f = find("mode"))
                    mode = r_.choice(*f, workload::parse_interpolation, workload::interpolation_names());
                located([&] { b.upsample(l.name, in, sh, sw, mode); });
                break;
            }
            case LayerKind::norm: {
                const LayerIndex in = single_input();
                const auto norm =
                    r_.choice(need("mode", "one of " + yaml::one_of_list(workload::normalization_names())),
                              workload::parse_normalization, workload::normalization_names());
                located([&] { b.norm(l.name, in, norm); });
                break;
            }
            case LayerKind::softmax: {
                const LayerIndex in = single_input();
                located([&] { b.softmax(l.name, in); });
                break;
            }
            case LayerKind::activation: {
                const LayerIndex in = single_input();
                const auto function =
                    r_.choice(need("function", "one of " + yaml::one_of_list(workload::activation_names())),
                              workload::parse_activation, workload::activation_names());
                located([&] { b.activation(l.name, in, function); });
                break;
            }
        }
    }

    // The trap of the default producer: a layer that omits `inputs` chains after the layer
    // above it. When that layer is also an operand of a concat that merges the chained
    // layer's path, the author most likely meant two parallel branches (a forgotten
    // `inputs`); writing the producer explicitly keeps the chain and silences this.
    void warn_chained_siblings(const workload::Network& net) const {
        for (LayerIndex m = 0; m < net.size(); ++m) {
            const workload::Layer& merge = net.layer(m);
            if (merge.kind != LayerKind::concat) continue;
            for (const LayerIndex p : merge.inputs) {
                if (p == workload::kNetworkInput) continue;
                for (const LayerIndex c : net.consumers(p)) {
                    if (c == m || !entries_[static_cast<std::size_t>(c)].implicit_input) continue;
                    if (reaches_other_operand(net, c, merge, p)) warn_chain(net, c, p, m);
                }
            }
        }
    }

    // Does layer `from` reach an operand of `merge` other than `skip` (itself included)?
    static bool reaches_other_operand(const workload::Network& net, LayerIndex from,
                                      const workload::Layer& merge, LayerIndex skip) {
        std::vector<bool> seen(static_cast<std::size_t>(net.size()), false);
        std::vector<LayerIndex> stack{from};
        seen[static_cast<std::size_t>(from)] = true;
        while (!stack.empty()) {
            const LayerIndex x = stack.back();
            stack.pop_back();
            if (x != skip && std::find(merge.inputs.begin(), merge.inputs.end(), x) != merge.inputs.end())
                return true;
            for (const LayerIndex c : net.consumers(x))
                if (!seen[static_cast<std::size_t>(c)]) {
                    seen[static_cast<std::size_t>(c)] = true;
                    stack.push_back(c);
                }
        }
        return false;
    }

    void warn_chain(const workload::Network& net, LayerIndex layer, LayerIndex producer,
                    LayerIndex merge) const {
        const LayerEntry& e = entries_[static_cast<std::size_t>(layer)];
        const std::string& p = net.layer(producer).name;
        const std::string text = r_.file() + ":" + std::to_string(e.field.line) + ": layer '" + e.name +
                                 "' omits 'inputs' and so reads the layer above it, '" + p + "', which '" +
                                 net.layer(merge).name + "' also concatenates with " + e.name +
                                 "'s path: if '" + e.name +
                                 "' starts a parallel branch, write its inputs; write 'inputs: " + p +
                                 "' to keep the chain and silence this warning";
        if (options_.warn)
            options_.warn(text);
        else
            std::cerr << "pimdse: warning: " << text << '\n';
    }

    yaml::Reader r_;
    NetworkReadOptions options_;
    std::vector<LayerEntry> entries_;
    std::unordered_map<std::string, LayerIndex> by_name_;
};

}  // namespace

workload::Network parse_network(const std::string& yaml_text, const std::string& file_name,
                                const NetworkReadOptions& options) {
    return NetworkParser(file_name, options).parse(yaml_text);
}

workload::Network read_network_file(const std::filesystem::path& path, const NetworkReadOptions& options) {
    // The one place where workloads are read: an ONNX model is imported instead of parsed.
    if (is_onnx_path(path)) {
        OnnxImportOptions onnx;
        onnx.batch = options.batch;
        return import_onnx(path, onnx);
    }
    return parse_network(read_text_file(path), path.string(), options);
}

}  // namespace pimdse::io
