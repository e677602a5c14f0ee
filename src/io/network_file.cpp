#include "pimdse/io/network_file.hpp"

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/workload/builder.hpp"

namespace pimdse::io {

namespace {

using workload::LayerIndex;
using workload::LayerKind;

// Integers in a network file are sizes; this bound keeps every product of loop bounds
// far from int64 overflow for any sane network and rejects typos like 1e12 early.
constexpr std::int64_t kMaxInteger = std::numeric_limits<std::int32_t>::max();

/// How a value looks, for "expected X, got Y".
std::string describe(const YAML::Node& v) {
    switch (v.Type()) {
        case YAML::NodeType::Null:
            return "nothing";
        case YAML::NodeType::Sequence:
            return "a list";
        case YAML::NodeType::Map:
            return "a mapping";
        case YAML::NodeType::Scalar:
            return v.Tag() == "!" ? "the quoted string \"" + v.Scalar() + "\"" : "'" + v.Scalar() + "'";
        default:
            return "an undefined value";
    }
}

/// One key of a mapping with the nodes of the key and of its value.
struct Entry {
    std::string key;  ///< the key's full path, e.g. layers[3].stride
    YAML::Node name;  ///< the key node (its position is right even when the value is empty)
    YAML::Node value;
};

class Reader {
public:
    Reader(std::string file) : file_(std::move(file)) {}

    [[noreturn]] void fail(const YAML::Node& at, const std::string& key, const std::string& problem) const {
        throw InputError(location(at), key, problem);
    }
    [[noreturn]] void fail(const Entry& e, const std::string& problem) const {
        throw InputError(location(e), e.key, problem);
    }

    SourceLocation location(const YAML::Node& at) const {
        const YAML::Mark m = at.Mark();
        if (m.is_null()) return SourceLocation{file_};
        return SourceLocation{file_, static_cast<std::size_t>(m.line) + 1,
                              static_cast<std::size_t>(m.column) + 1};
    }
    /// The value's position, or the key's when the value is empty (yaml-cpp gives empty
    /// values the position of whatever follows them).
    SourceLocation location(const Entry& e) const { return location(e.value.IsNull() ? e.name : e.value); }

    const std::string& file() const { return file_; }

    std::string string(const Entry& e) const {
        if (!e.value.IsScalar()) fail(e, "expected a string, got " + describe(e.value));
        return e.value.Scalar();
    }

    std::int64_t integer(const YAML::Node& v, const std::string& key, std::int64_t min) const {
        const std::string expected =
            "expected an integer between " + std::to_string(min) + " and " + std::to_string(kMaxInteger);
        // A quoted "3" is a string: the file means something else than a number.
        if (!v.IsScalar() || v.Tag() == "!") fail(v, key, expected + ", got " + describe(v));
        const std::string& s = v.Scalar();
        std::int64_t out = 0;
        const char* first = s.data() + (s.size() > 1 && s[0] == '+' ? 1 : 0);
        const auto [ptr, ec] = std::from_chars(first, s.data() + s.size(), out);
        if (ec != std::errc() || ptr != s.data() + s.size() || s.empty() || out < min || out > kMaxInteger)
            fail(v, key, expected + ", got " + describe(v));
        return out;
    }
    std::int64_t integer(const Entry& e, std::int64_t min) const {
        if (e.value.IsNull()) fail(e, "expected an integer >= " + std::to_string(min) + ", got nothing");
        return integer(e.value, e.key, min);
    }

    /// An integer for both dimensions, or [height, width].
    std::pair<std::int64_t, std::int64_t> pair(const Entry& e, std::int64_t min) const {
        if (e.value.IsSequence()) {
            if (e.value.size() != 2)
                fail(e, "expected an integer or a list [height, width], got a list of " +
                            std::to_string(e.value.size()) + " values");
            return {integer(e.value[0], e.key + "[0]", min), integer(e.value[1], e.key + "[1]", min)};
        }
        if (e.value.IsNull() || e.value.IsMap())
            fail(e, "expected an integer or a list [height, width], got " + describe(e.value));
        const std::int64_t v = integer(e, min);
        return {v, v};
    }

    bool boolean(const Entry& e) const {
        // Only YAML 1.2 booleans: yes/no/on/off mean different things to different readers.
        if (e.value.IsScalar() && e.value.Tag() != "!") {
            if (e.value.Scalar() == "true") return true;
            if (e.value.Scalar() == "false") return false;
        }
        fail(e, "expected true or false, got " + describe(e.value));
    }

    template <class Parse>
    auto choice(const Entry& e, Parse parse, const std::string& accepted) const {
        if (e.value.IsScalar())
            if (auto v = parse(e.value.Scalar())) return *v;
        fail(e, "expected one of " + accepted + ", got " + describe(e.value));
    }

private:
    std::string file_;
};

/// The keys of one YAML mapping, read once; duplicate keys are an error because yaml-cpp
/// would silently keep the first.
class Mapping {
public:
    Mapping(const Reader& r, const YAML::Node& node, std::string path, const std::string& what)
        : path_(std::move(path)) {
        if (!node.IsMap()) r.fail(node, path_, "expected " + what + ", got " + describe(node));
        for (auto it = node.begin(); it != node.end(); ++it) {
            // Copies: yaml-cpp's iterator hands out a temporary proxy pair.
            const YAML::Node k = it->first;
            const YAML::Node v = it->second;
            if (!k.IsScalar()) r.fail(k, path_, "keys must be plain names, got " + describe(k));
            for (const Entry& e : entries_)
                if (e.name.Scalar() == k.Scalar())
                    r.fail(k, key(k.Scalar()),
                           "duplicate key (first given on line " + std::to_string(r.location(e.name).line) +
                               ")");
            entries_.push_back(Entry{key(k.Scalar()), k, v});
        }
    }

    std::string key(std::string_view name) const {
        return path_.empty() ? std::string(name) : path_ + "." + std::string(name);
    }

    const Entry* find(std::string_view name) const {
        for (const Entry& e : entries_)
            if (e.name.Scalar() == name) return &e;
        return nullptr;
    }
    const Entry& require(const Reader& r, const YAML::Node& node, std::string_view name,
                         const std::string& why) const {
        if (const Entry* e = find(name)) return *e;
        r.fail(node, key(name), "missing required key '" + std::string(name) + "'" + why);
    }
    void only(const Reader& r, const std::vector<std::string_view>& allowed, const std::string& what) const {
        for (const Entry& e : entries_) {
            bool ok = false;
            for (std::string_view a : allowed) ok = ok || e.name.Scalar() == a;
            if (ok) continue;
            std::string list;
            for (std::string_view a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
            r.fail(e.name, e.key, "unknown key '" + e.name.Scalar() + "'; " + what + " accepts: " + list);
        }
    }

private:
    std::string path_;
    std::vector<Entry> entries_;
};

struct LayerEntry {
    YAML::Node node;
    std::string name;
    std::string path;  ///< layers[i]
    Mapping keys;
    std::vector<std::pair<std::string, YAML::Node>> inputs;  ///< producer names and where they were written
};

std::vector<std::string_view> keys_for(LayerKind kind) {
    std::vector<std::string_view> keys{"name", "type", "inputs"};
    switch (kind) {
        case LayerKind::conv:
            keys.insert(keys.end(), {"out_channels", "kernel", "stride", "padding", "groups", "bias", "norm",
                                     "activation"});
            break;
        case LayerKind::matmul:
            keys.insert(keys.end(), {"out_features", "flatten", "bias", "norm", "activation", "transpose_b"});
            break;
        case LayerKind::pool:
            keys.insert(keys.end(), {"mode", "kernel", "stride", "padding", "global"});
            break;
        case LayerKind::add:
            keys.push_back("activation");
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
        const YAML::Node root = load(text);
        const std::string top_keys = "network, description, source, batch, input, layers";
        if (root.IsNull())
            r_.fail(root, "", "the file is empty; expected a mapping with the keys " + top_keys);
        const Mapping top(r_, root, "", "a mapping with the keys " + top_keys);
        top.only(r_, {"network", "description", "source", "batch", "input", "layers"}, "a network file");

        workload::NetworkInfo info;
        const Entry& name = top.require(r_, root, "network", " (the network's name)");
        info.name = r_.string(name);
        if (!workload::is_valid_name(info.name))
            r_.fail(name,
                    "expected a name made of letters, digits, '_', '-', '.', got " + describe(name.value));
        if (const Entry* e = top.find("description")) info.description = r_.string(*e);
        if (const Entry* e = top.find("source")) info.source = r_.string(*e);

        std::int64_t batch = 1;
        if (const Entry* e = top.find("batch")) batch = r_.integer(*e, 1);
        if (options_.batch) {
            if (*options_.batch < 1 || *options_.batch > kMaxInteger)
                throw InputError(SourceLocation{r_.file()}, "batch",
                                 "the batch override " + std::to_string(*options_.batch) +
                                     " must be between 1 and " + std::to_string(kMaxInteger));
            batch = *options_.batch;
        }

        const workload::TensorShape input = input_shape(top.require(r_, root, "input", ""));
        const Entry& layers = top.require(r_, root, "layers", " (the list of layers)");
        if (!layers.value.IsSequence() || layers.value.size() == 0)
            r_.fail(layers, "expected a non-empty list of layers, got " + describe(layers.value));

        collect(layers.value);
        workload::NetworkBuilder builder(std::move(info), batch, input);
        for (std::size_t i = 0; i < entries_.size(); ++i) add_layer(builder, static_cast<LayerIndex>(i));
        return std::move(builder).build();
    }

private:
    YAML::Node load(const std::string& text) const {
        try {
            std::vector<YAML::Node> docs = YAML::LoadAll(text);
            if (docs.empty()) return YAML::Node();
            if (docs.size() > 1)
                r_.fail(docs[1], "",
                        "a network file holds one YAML document, found " + std::to_string(docs.size()));
            return docs.front();
        } catch (const YAML::Exception& e) {
            throw InputError(SourceLocation{r_.file(), static_cast<std::size_t>(e.mark.line) + 1,
                                            static_cast<std::size_t>(e.mark.column) + 1},
                             "", "invalid YAML: " + e.msg);
        }
    }

    workload::TensorShape input_shape(const Entry& e) const {
        const std::string what = "a mapping {channels, height, width} or {tokens, hidden}";
        if (!e.value.IsMap()) r_.fail(e, "expected " + what + ", got " + describe(e.value));
        const Mapping m(r_, e.value, e.key, what);
        if (m.find("tokens") || m.find("hidden")) {
            m.only(r_, {"tokens", "hidden"}, "a sequence input");
            // A sequence is hidden channels x tokens x 1 (NicePIM II-B: matmul as 1x1 conv).
            return {r_.integer(m.require(r_, e.value, "hidden", " (the width of a token vector)"), 1),
                    r_.integer(m.require(r_, e.value, "tokens", " (the sequence length)"), 1), 1};
        }
        m.only(r_, {"channels", "height", "width"}, "an image input (or {tokens, hidden} for a sequence)");
        return {r_.integer(m.require(r_, e.value, "channels", ""), 1),
                r_.integer(m.require(r_, e.value, "height", ""), 1),
                r_.integer(m.require(r_, e.value, "width", ""), 1)};
    }

    // First pass: every layer's name and producer names, so that a reference to a later
    // layer can be told apart from a cycle and from a typo.
    void collect(const YAML::Node& list) {
        entries_.reserve(list.size());
        for (std::size_t i = 0; i < list.size(); ++i) {
            const YAML::Node node = list[i];
            const std::string path = "layers[" + std::to_string(i) + "]";
            Mapping keys(r_, node, path, "a layer mapping with at least name and type");
            const Entry& name_entry = keys.require(r_, node, "name", "");
            std::string name = r_.string(name_entry);
            if (!workload::is_valid_name(name) || name == "input")
                r_.fail(name_entry,
                        "expected a layer name made of letters, digits, '_', '-', '.' (not the reserved "
                        "'input'), got " +
                            describe(name_entry.value));
            if (auto [it, fresh] = by_name_.emplace(name, static_cast<LayerIndex>(i)); !fresh)
                r_.fail(name_entry,
                        "duplicate layer name '" + name + "' (first used by layers[" +
                            std::to_string(it->second) + "] on line " +
                            std::to_string(
                                r_.location(entries_[static_cast<std::size_t>(it->second)].node).line) +
                            ")");
            std::vector<std::pair<std::string, YAML::Node>> inputs;
            if (const Entry* e = keys.find("inputs")) {
                const std::string expected = "expected a producer name or a list of producer names";
                if (e->value.IsScalar()) {
                    inputs.emplace_back(e->value.Scalar(), e->value);
                } else if (e->value.IsSequence() && e->value.size() > 0) {
                    for (std::size_t k = 0; k < e->value.size(); ++k) {
                        if (!e->value[k].IsScalar())
                            r_.fail(e->value[k], e->key + "[" + std::to_string(k) + "]",
                                    expected + ", got " + describe(e->value[k]));
                        inputs.emplace_back(e->value[k].Scalar(), e->value[k]);
                    }
                } else {
                    r_.fail(*e, expected + ", got " +
                                    (e->value.IsSequence() ? "an empty list" : describe(e->value)));
                }
            } else {
                // The default producer is the previous layer (the network input for the first).
                inputs.emplace_back(i == 0 ? std::string("input") : entries_.back().name, node);
            }
            entries_.push_back(LayerEntry{node, std::move(name), path, std::move(keys), std::move(inputs)});
        }
    }

    std::vector<LayerIndex> resolve(LayerIndex i) const {
        const LayerEntry& l = entries_[static_cast<std::size_t>(i)];
        const Entry* written = l.keys.find("inputs");
        std::vector<LayerIndex> out;
        for (std::size_t k = 0; k < l.inputs.size(); ++k) {
            const auto& [name, at] = l.inputs[k];
            const std::string key =
                l.path + ".inputs" +
                (written && written->value.IsSequence() ? "[" + std::to_string(k) + "]" : "");
            if (name == "input") {
                out.push_back(workload::kNetworkInput);
                continue;
            }
            const auto it = by_name_.find(name);
            if (it == by_name_.end())
                r_.fail(
                    at, key,
                    "unknown producer '" + name + "': no layer has this name (the network input is 'input')");
            if (it->second >= i) fail_order(i, it->second, at, key);
            out.push_back(it->second);
        }
        return out;
    }

    [[noreturn]] void fail_order(LayerIndex i, LayerIndex j, const YAML::Node& at,
                                 const std::string& key) const {
        const LayerEntry& li = entries_[static_cast<std::size_t>(i)];
        // Does j depend on i? Search j's producers (depth-first, by name) for i.
        std::vector<LayerIndex> parent(entries_.size(), -2);
        std::vector<LayerIndex> stack{j};
        parent[static_cast<std::size_t>(j)] = -1;
        bool found = j == i;
        while (!stack.empty() && !found) {
            const LayerIndex x = stack.back();
            stack.pop_back();
            for (const auto& [name, node] : entries_[static_cast<std::size_t>(x)].inputs) {
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
            r_.fail(at, key,
                    "producer '" + entries_[static_cast<std::size_t>(j)].name + "' is defined later (line " +
                        std::to_string(r_.location(entries_[static_cast<std::size_t>(j)].node).line) +
                        "); list every layer after its producers");
        // parent[] leads from i back to j along consumer edges: data flows i -> ... -> j -> i.
        std::string cycle = li.name;
        for (LayerIndex x = parent[static_cast<std::size_t>(i)]; x >= 0 && i != j;
             x = parent[static_cast<std::size_t>(x)])
            cycle += " -> " + entries_[static_cast<std::size_t>(x)].name;
        cycle += " -> " + li.name;
        r_.fail(at, key, "the producers form a cycle: " + cycle);
    }

    void add_layer(workload::NetworkBuilder& b, LayerIndex i) {
        const LayerEntry& l = entries_[static_cast<std::size_t>(i)];
        const Entry& type =
            l.keys.require(r_, l.node, "type", " (one of " + workload::layer_kind_names() + ")");
        const LayerKind kind = r_.choice(type, workload::parse_layer_kind, workload::layer_kind_names());
        l.keys.only(r_, keys_for(kind), "a " + std::string(workload::to_string(kind)) + " layer");
        const std::vector<LayerIndex> inputs = resolve(i);
        const auto find = [&](std::string_view k) { return l.keys.find(k); };
        const auto fused_norm = [&] {
            const Entry* e = find("norm");
            return e ? r_.choice(*e, workload::parse_normalization, workload::normalization_names())
                     : workload::Normalization::none;
        };
        const auto fused_activation = [&] {
            const Entry* e = find("activation");
            return e ? r_.choice(*e, workload::parse_activation, workload::activation_names())
                     : workload::Activation::none;
        };
        const auto flag = [&](std::string_view k) {
            const Entry* e = find(k);
            return e ? r_.boolean(*e) : false;
        };
        const auto single_input = [&] {
            if (inputs.size() != 1)
                r_.fail(*find("inputs"), "a " + std::string(workload::to_string(kind)) +
                                             " layer takes exactly 1 producer, got " +
                                             std::to_string(inputs.size()));
            return inputs.front();
        };
        const auto need = [&](std::string_view k, const std::string& why) -> const Entry& {
            return l.keys.require(r_, l.node, k, why);
        };

        // The builder names the key (`layers[3].kernel`) but not the file: point at that key
        // when it was written, else at the layer.
        const auto located = [&](auto&& add) {
            try {
                add();
            } catch (const InputError& e) {
                std::string_view field =
                    std::string_view(e.key()).substr(std::min(e.key().size(), l.path.size() + 1));
                field = field.substr(0, field.find_first_of(".["));
                const Entry* at = field.empty() ? nullptr : find(field);
                throw InputError(at ? r_.location(*at) : r_.location(l.node), e.key(), e.problem());
            }
        };

        switch (kind) {
            case LayerKind::conv: {
                const LayerIndex in = single_input();
                workload::ConvSpec s;
                s.out_channels = r_.integer(need("out_channels", ""), 1);
                std::tie(s.kernel_h, s.kernel_w) =
                    r_.pair(need("kernel", " (an integer or [height, width])"), 1);
                if (const Entry* e = find("stride")) std::tie(s.stride_h, s.stride_w) = r_.pair(*e, 1);
                if (const Entry* e = find("padding")) std::tie(s.pad_h, s.pad_w) = r_.pair(*e, 0);
                if (const Entry* e = find("groups")) {
                    // "depthwise" saves the reader from repeating the producer's channels.
                    s.groups = e->value.IsScalar() && e->value.Scalar() == "depthwise" ? b.shape(in).channels
                                                                                       : r_.integer(*e, 1);
                }
                s.bias = flag("bias");
                s.norm = fused_norm();
                s.activation = fused_activation();
                located([&] { b.conv(l.name, in, s); });
                break;
            }
            case LayerKind::matmul: {
                if (inputs.size() == 2) {
                    for (std::string_view k : {"out_features", "flatten", "bias", "norm"})
                        if (const Entry* e = find(k))
                            r_.fail(*e,
                                    "a matmul of two producers (attention) has no weights: '" +
                                        std::string(k) +
                                        "' does not apply; its output width comes from the second operand");
                    const bool transpose = flag("transpose_b");
                    const auto act = fused_activation();
                    located([&] { b.matmul(l.name, inputs[0], inputs[1], transpose, act); });
                    break;
                }
                if (const Entry* e = find("transpose_b"))
                    r_.fail(*e, "transpose_b applies only to a matmul of two producers");
                const LayerIndex in = single_input();
                workload::LinearSpec s;
                s.out_features =
                    r_.integer(need("out_features", " (or two producers for an activation matmul)"), 1);
                s.flatten = flag("flatten");
                s.bias = flag("bias");
                s.norm = fused_norm();
                s.activation = fused_activation();
                located([&] { b.linear(l.name, in, s); });
                break;
            }
            case LayerKind::pool: {
                const LayerIndex in = single_input();
                workload::PoolSpec s;
                s.mode = r_.choice(need("mode", " (" + workload::pooling_names() + ")"),
                                   workload::parse_pooling, workload::pooling_names());
                s.global = flag("global");
                if (s.global) {
                    for (std::string_view k : {"kernel", "stride", "padding"})
                        if (const Entry* e = find(k))
                            r_.fail(*e, "a global pool covers the whole input; '" + std::string(k) +
                                            "' does not apply");
                } else {
                    std::tie(s.kernel_h, s.kernel_w) =
                        r_.pair(need("kernel", " (an integer or [height, width], or global: true)"), 1);
                    // Pooling windows usually tile the input: the stride defaults to the kernel.
                    std::tie(s.stride_h, s.stride_w) = std::pair(s.kernel_h, s.kernel_w);
                    if (const Entry* e = find("stride")) std::tie(s.stride_h, s.stride_w) = r_.pair(*e, 1);
                    if (const Entry* e = find("padding")) std::tie(s.pad_h, s.pad_w) = r_.pair(*e, 0);
                }
                located([&] { b.pool(l.name, in, s); });
                break;
            }
            case LayerKind::add: {
                const auto act = fused_activation();
                located([&] { b.add(l.name, inputs, act); });
                break;
            }
            case LayerKind::concat:
                located([&] { b.concat(l.name, inputs); });
                break;
            case LayerKind::norm: {
                const LayerIndex in = single_input();
                const Entry& mode = need("mode", " (" + workload::normalization_names() + ")");
                const auto norm =
                    r_.choice(mode, workload::parse_normalization, workload::normalization_names());
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
                const Entry& fn = need("function", " (" + workload::activation_names() + ")");
                const auto function = r_.choice(fn, workload::parse_activation, workload::activation_names());
                located([&] { b.activation(l.name, in, function); });
                break;
            }
        }
    }

    Reader r_;
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
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int err = errno;
        throw InputError(
            SourceLocation{path.string()}, "",
            std::string("cannot open the network file: ") + (err ? std::strerror(err) : "unknown reason"));
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw InputError(SourceLocation{path.string()}, "", "cannot read the network file");
    return parse_network(text.str(), path.string(), options);
}

}  // namespace pimdse::io
