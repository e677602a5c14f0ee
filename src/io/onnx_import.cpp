// ONNX import: the entry point and the dispatch on op type (docs/workloads.md, "ONNX import").

#include <algorithm>
#include <cctype>

#include "onnx_importer.hpp"
#include "pimdse/io/onnx_import.hpp"

namespace pimdse::io {

namespace onnx_detail {

workload::Network Importer::run() && {
    const auto& nodes = m_.graph().node();
    try {
        for (int i = 0; i < nodes.size(); ++i) {
            if (done_[static_cast<std::size_t>(i)]) continue;
            done_[static_cast<std::size_t>(i)] = true;
            map_node(nodes[i]);
        }
    } catch (const InputError& e) {
        m_.fail_seq_len(e.problem());  // a changed sequence length is the likely cause
        throw;
    }
    if (builder_.size() == 0) m_.fail("the graph has no node that maps onto a layer");
    return std::move(builder_).build();
}

workload::NetworkInfo Importer::info(const std::filesystem::path& path) const {
    workload::NetworkInfo i;
    const std::string graph = sanitized(m_.graph().name());
    i.name = workload::is_valid_name(graph) ? graph : sanitized(path.stem().string());
    if (!workload::is_valid_name(i.name)) i.name = "onnx_model";
    i.description = "imported from the ONNX model " + path.filename().string();
    i.source = m_.graph().doc_string();
    return i;
}

std::optional<std::vector<std::int64_t>> Importer::reshape_target(const NodeProto& r,
                                                                  const std::vector<std::int64_t>& in) const {
    if (auto d = m_.dims(r.output(0))) return d;
    const auto v = r.input_size() > 1 ? m_.values(r.input(1)) : std::nullopt;
    if (!v) return std::nullopt;
    std::vector<std::int64_t> out;
    std::int64_t total = 1, known = 1, unknown = -1;
    for (auto x : in) total *= x;
    for (std::size_t i = 0; i < v->size(); ++i) {
        auto d = static_cast<std::int64_t>((*v)[i]);
        if (d == 0 && i < in.size()) d = in[i];
        if (d == -1)
            unknown = static_cast<std::int64_t>(i);
        else
            known *= d;
        out.push_back(d);
    }
    if (unknown >= 0 && known > 0) out[static_cast<std::size_t>(unknown)] = total / known;
    return out;
}

const NodeProto* Importer::follow(const std::string& tensor, const std::string& op) {
    const auto it = consumers_.find(tensor);
    if (outputs_.count(tensor) || it == consumers_.end() || it->second.size() != 1) return nullptr;
    const NodeProto& next = m_.graph().node(it->second.front());
    if (done_[static_cast<std::size_t>(it->second.front())] || (!op.empty() && next.op_type() != op))
        return nullptr;
    followed_ = it->second.front();
    return &next;
}

std::optional<Activation> Importer::activation_of(const NodeProto& n) const {
    const std::string& op = n.op_type();
    if (op == "Relu") return Activation::relu;
    if (op == "LeakyRelu") return Activation::leaky_relu;
    if (op == "Sigmoid") return Activation::sigmoid;
    if (op == "Tanh") return Activation::tanh;
    if (op == "Gelu") return Activation::gelu;  // opset 20, or com.microsoft's fused GELU
    if (op == "HardSigmoid") return Activation::hard_sigmoid;
    if (op == "HardSwish") return Activation::hard_swish;
    if (op != "Clip") return std::nullopt;
    double lo = -INFINITY, hi = INFINITY;
    if (m_.opset() < 11) {
        lo = attr_float(n, "min", -INFINITY);
        hi = attr_float(n, "max", INFINITY);
    }
    for (int k = 1; k <= 2 && k < n.input_size(); ++k) {
        if (n.input(k).empty()) continue;
        const auto v = m_.values(n.input(k));
        if (!v || v->size() != 1) m_.fail(n, "Clip bounds must be scalar constants");
        (k == 1 ? lo : hi) = v->front();
    }
    if (lo == 0 && hi == 6) return Activation::relu6;
    if (lo == 0 && std::isinf(hi)) return Activation::relu;
    m_.fail(n, "Clip to [" + std::to_string(lo) + ", " + std::to_string(hi) +
                   "]: only [0, 6] (ReLU6) and [0, inf) (ReLU) are activations of the layer model");
}

Activation Importer::fold_activation(std::string* tensor) {
    if (const auto p = pattern(*tensor)) {
        for (int i : p->nodes) done_[static_cast<std::size_t>(i)] = true;
        *tensor = p->out;
        return p->activation;
    }
    if (const NodeProto* next = follow(*tensor, ""))
        if (auto a = activation_of(*next)) {
            consume(*next);
            *tensor = next->output(0);
            return *a;
        }
    return Activation::none;
}

workload::Normalization Importer::fold_batch_norm(std::string* tensor) {
    if (const NodeProto* next = follow(*tensor, "BatchNormalization"); next && next->input(0) == *tensor) {
        consume(*next);
        *tensor = next->output(0);
        return workload::Normalization::batch;
    }
    return workload::Normalization::none;
}

bool Importer::fold_bias(std::string* tensor, std::int64_t features) {
    const NodeProto* next = follow(*tensor, "Add");
    if (!next || next->input_size() != 2) return false;
    const std::string& other = next->input(0) == *tensor ? next->input(1) : next->input(0);
    const auto d = m_.dims(other);
    if (!weights(other) || !d) return false;
    std::int64_t n = 1;
    for (auto x : *d) n *= x;
    if (n != features || d->empty() || d->back() != features) return false;
    consume(*next);
    *tensor = next->output(0);
    return true;
}

int Importer::channel_axis(const NodeProto& n, int rank, std::int64_t axis) const {
    if (axis < 0) axis += rank;
    const int want = rank == 4 ? 1 : rank - 1;
    if (axis != want)
        m_.fail(n, "axis " + std::to_string(axis) + " of a rank-" + std::to_string(rank) +
                       " tensor is not its channel axis (" + std::to_string(want) +
                       "), the only axis the layer model " + n.op_type() + "s along");
    return want;
}

void Importer::map_node(const NodeProto& n) {
    const std::string& op = n.op_type();
    if (step_view(n)) return;
    if ((op == "Mul" || op == "Div" || op == "Add") && scale_or_mask(n)) return;
    if ((op == "Mul" || op == "Div" || op == "Sigmoid" || op == "HardSigmoid") && mapped_pattern(n)) return;
    if (op == "Conv") return conv(n);
    if (op == "ConvTranspose") return conv_transpose(n);
    if (op == "Pad") return pad(n);
    if (op == "Resize" || op == "Upsample") return resize(n);
    if (op == "Mul") return mul(n);
    if (op == "ReduceMean") return reduce_mean(n);
    if (op == "Gather") return gather(n);
    if (op == "LSTM" || op == "GRU" || op == "RNN") return recurrent(n);
    if (op == "Gemm") return gemm(n);
    if (op == "MatMul") return matmul(n);
    if (op == "MaxPool" || op == "AveragePool" || op == "GlobalAveragePool" || op == "GlobalMaxPool")
        return pool(n);
    if (op == "Add") return add(n);
    if (op == "Concat") return concat(n);
    if (op == "Flatten" || op == "Reshape") return reshape(n);
    if (op == "Transpose") return transpose(n);
    if (op == "Softmax") return softmax(n);
    if (op == "BatchNormalization" || op == "LayerNormalization" || op == "LRN") return normalization(n);
    if (op == "Dropout" || op == "Identity") return set(n.output(0), value(n, 0));
    if (op == "QuantizeLinear" || op == "DequantizeLinear") return quantize(n);
    if (op == "Constant") return;
    if (auto a = activation_of(n)) {
        const Value& x = plain(n, 0);
        const std::string name = layer_name(n);
        return set(n.output(0),
                   {build(n, [&] { return builder_.activation(name, x.producer, *a); }), x.rank});
    }
    if (!options_.skip_unsupported)
        m_.fail(n, "unsupported operator (supported: " + std::string(kSupported) +
                       "; `pimdse network import --skip-unsupported` passes shape-preserving nodes through)");
    skip(n);
}

}  // namespace onnx_detail

workload::Network import_onnx(const std::filesystem::path& path, const OnnxImportOptions& options) {
    return onnx_detail::Importer(path, options).run();
}

bool is_onnx_path(const std::filesystem::path& path) {
    std::string ext = path.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
    return ext == ".onnx";
}

}  // namespace pimdse::io
