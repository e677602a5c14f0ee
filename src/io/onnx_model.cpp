// Loading an ONNX model for import: parse, check, fix the input dimensions, infer shapes.

#include "onnx_model.hpp"

#include <cstring>
#include <fstream>
#include <limits>
#include <sstream>

#include <onnx/checker.h>
#include <onnx/shape_inference/implementation.h>

#include "pimdse/core/error.hpp"
#include "pimdse/io/config.hpp"

#include "onnx_importer.hpp"

namespace pimdse::io::onnx_detail {

namespace {

// The largest batch or extent a network file holds (network_file.cpp): a larger input
// dimension would be imported into a file pimdse then refuses to read.
constexpr std::int64_t kMaxDimension = std::numeric_limits<std::int32_t>::max();

// ONNX messages span lines ("...\n\n==> Context: ..."); an error line stays one line.
std::string one_line(std::string text) {
    std::string out;
    for (char c : text) {
        if (c == '\n') {
            if (!out.empty() && out.back() != ' ') out += ' ';
            continue;
        }
        out += c;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    return out;
}

const onnx::AttributeProto* find_attr(const onnx::NodeProto& n, const std::string& name) {
    for (const auto& a : n.attribute())
        if (a.name() == name) return &a;
    return nullptr;
}

}  // namespace

OnnxModel::OnnxModel(const std::filesystem::path& path, const OnnxImportOptions& options)
    : file_(path.string()) {
    load(path);
    check(path);
    for (const auto& t : model_.graph().initializer()) constants_.emplace(t.name(), &t);
    for (const auto& n : model_.graph().node())
        if (n.op_type() == "Constant" && n.output_size() == 1)
            if (const auto* a = find_attr(n, "value"); a && a->has_t())
                constants_.emplace(n.output(0), &a->t());
    check_opset();
    check_attributes();
    fix_input(options);
    infer();
}

void OnnxModel::fail(const std::string& problem) const {
    throw InputError(SourceLocation{file_}, "", problem);
}

void OnnxModel::fail(const onnx::NodeProto& node, const std::string& problem) const {
    fail(describe(node) + ": " + problem);
}

void OnnxModel::fail_seq_len(const std::string& problem) const {
    if (!fixed_seq_len_) return;
    fail("--seq-len " + std::to_string(input_dims_[1]) + " does not fit this model: its input '" +
         input_->name() + "' fixes the sequence length at " + std::to_string(*fixed_seq_len_) +
         " and its nodes depend on it (" + problem +
         "); omit --seq-len, or export the model with a symbolic sequence axis (PyTorch: dynamic_axes / "
         "dynamic_shapes)");
}

std::string OnnxModel::describe(const onnx::NodeProto& node) {
    const std::string name = !node.name().empty() ? node.name() : node.output_size() ? node.output(0) : "?";
    const std::string domain = node.domain().empty() ? "" : node.domain() + ".";
    return "node '" + name + "' (op type " + domain + node.op_type() + ")";
}

void OnnxModel::load(const std::filesystem::path& path) {
    // Regular files only, as every input (a FIFO or /dev/zero would block or never end).
    const std::string bytes = read_text_file(path, kMaxOnnxFileBytes);
    if (!model_.ParseFromString(bytes))
        fail("not an ONNX model: the file does not parse as an onnx.ModelProto protobuf");
}

void OnnxModel::check(const std::filesystem::path& path) const {
    // The checker resolves external tensor data next to the model, so it is given the path.
    try {
        onnx::checker::check_model(path.string());
    } catch (const std::exception& e) {
        fail("not a valid ONNX model (onnx checker): " + one_line(e.what()));
    }
    if (model_.graph().node_size() == 0) fail("the graph has no nodes");
}

void OnnxModel::check_opset() const {
    // An opset newer than the onnx library's would be read with older operators' rules.
    const auto& ranges = onnx::OpSchemaRegistry::DomainToVersionRange::Instance().Map();
    const auto known = ranges.find(onnx::ONNX_DOMAIN);
    const std::int64_t version = opset();
    if (known != ranges.end() && (version < 1 || version > known->second.second)) {
        fail("imports ONNX opset " + std::to_string(version) + "; expected an opset in [1, " +
             std::to_string(known->second.second) + "] (the newest this build's onnx library knows)");
    }
}

void OnnxModel::check_attributes() const {
    // ONNX's own shape inference divides by strides and dilations unchecked: a stride of 0
    // would end the process with SIGFPE, so the attributes are checked before it runs.
    for (const auto& n : model_.graph().node()) {
        for (const char* name : {"strides", "dilations", "kernel_shape"}) {
            for (std::int64_t v : attr_ints(n, name))
                if (v < 1)
                    fail(n,
                         std::string(name) + " " + dims_text(attr_ints(n, name)) + ": expected values >= 1");
        }
        for (std::int64_t v : attr_ints(n, "pads"))
            if (v < 0) fail(n, "pads " + dims_text(attr_ints(n, "pads")) + ": expected values >= 0");
    }
}

void OnnxModel::fix_input(const OnnxImportOptions& options) {
    onnx::GraphProto& g = *model_.mutable_graph();
    onnx::ValueInfoProto* input = nullptr;
    std::string names;
    int count = 0;
    for (auto& v : *g.mutable_input()) {
        if (constants_.count(v.name())) continue;
        input = &v;
        if (count++) names += ", ";
        names += v.name();
    }
    if (count != 1)
        fail("expected exactly one graph input that is not an initializer (the network input), got " +
             std::to_string(count) + (count ? " (" + names + ")" : ""));
    if (!input->type().has_tensor_type() || !input->type().tensor_type().has_shape())
        fail("graph input '" + input->name() + "' has no tensor shape");
    auto& shape = *input->mutable_type()->mutable_tensor_type()->mutable_shape();
    const int rank = shape.dim_size();
    if (rank < 2 || rank > 4)
        fail("graph input '" + input->name() + "' has rank " + std::to_string(rank) +
             "; expected [batch, features], [batch, tokens, hidden] or [batch, channels, height, width]");
    // A recurrent node's X may hold the steps first ([steps, batch, features], layout 0).
    const auto axes = rank == 3 ? recurrent_axes(g, input->name()) : std::nullopt;
    step_input_ = axes.has_value();
    const int batch_axis = axes ? axes->first : 0, seq_axis = axes ? axes->second : 1;
    for (int i = 0; i < rank; ++i) {
        auto& d = *shape.mutable_dim(i);
        std::int64_t value = d.has_dim_value() ? d.dim_value() : 0;
        if (i == batch_axis && options.batch) value = *options.batch;
        if (i == batch_axis && value == 0) value = 1;  // a symbolic batch: one sample unless --batch
        if (i == seq_axis && rank == 3 && options.seq_len) {
            if (value > 0 && value != *options.seq_len) fixed_seq_len_ = value;
            value = *options.seq_len;
        }
        if (value <= 0) {
            const std::string what = d.has_dim_param() ? "symbolic ('" + d.dim_param() + "')" : "unknown";
            fail("graph input '" + input->name() + "': dimension " + std::to_string(i) + " is " + what +
                 (i == seq_axis && rank == 3 ? "; give the sequence length with --seq-len"
                                             : "; the model must fix it"));
        }
        if (value > kMaxDimension) {
            fail("graph input '" + input->name() + "': dimension " + std::to_string(i) + " is " +
                 std::to_string(value) + "; at most " + std::to_string(kMaxDimension) +
                 " (a network file's largest batch or extent) is supported");
        }
        d.clear_dim_param();
        d.set_dim_value(value);
        input_dims_.push_back(value);
    }
    if (axes)
        input_dims_ = {input_dims_[static_cast<std::size_t>(batch_axis)],
                       input_dims_[static_cast<std::size_t>(seq_axis)], input_dims_[2]};
    // Declared shapes may hold the old batch; inference recomputes them from the input.
    g.clear_value_info();
    for (auto& out : *g.mutable_output())
        if (out.type().has_tensor_type()) out.mutable_type()->mutable_tensor_type()->clear_shape();
    input_ = input;
}

void OnnxModel::infer() {
    onnx::ShapeInferenceOptions options;
    options.check_type = false;
    options.error_mode = 1;  // a node whose shapes do not fit is an error, not a gap
    options.enable_data_propagation = true;
    try {
        onnx::shape_inference::InferShapes(model_, onnx::OpSchemaRegistry::Instance(), options);
    } catch (const std::exception& e) {
        fail_seq_len("ONNX shape inference: " + one_line(e.what()));
        fail("ONNX shape inference failed: " + one_line(e.what()));
    }
    const auto& g = model_.graph();
    for (const auto& v : g.input()) infos_.emplace(v.name(), &v);
    for (const auto& v : g.value_info()) infos_.emplace(v.name(), &v);
    for (const auto& v : g.output()) infos_.emplace(v.name(), &v);
    // input_ pointed into the graph before inference; find it again.
    for (const auto& v : g.input())
        if (v.name() == input_->name()) input_ = &v;
}

std::int64_t OnnxModel::opset() const {
    for (const auto& o : model_.opset_import())
        if (o.domain().empty() || o.domain() == "ai.onnx") return o.version();
    return 1;
}

const onnx::TensorProto* OnnxModel::constant(const std::string& name) const {
    const auto it = constants_.find(name);
    return it == constants_.end() ? nullptr : it->second;
}

std::optional<std::vector<std::int64_t>> OnnxModel::dims(const std::string& name) const {
    if (const auto* t = constant(name)) return std::vector<std::int64_t>(t->dims().begin(), t->dims().end());
    const auto it = infos_.find(name);
    if (it == infos_.end() || !it->second->type().has_tensor_type() ||
        !it->second->type().tensor_type().has_shape())
        return std::nullopt;
    std::vector<std::int64_t> out;
    for (const auto& d : it->second->type().tensor_type().shape().dim()) {
        if (!d.has_dim_value()) return std::nullopt;
        out.push_back(d.dim_value());
    }
    return out;
}

std::optional<std::int32_t> OnnxModel::elem_type(const std::string& name) const {
    if (const auto* t = constant(name)) return t->data_type();
    const auto it = infos_.find(name);
    if (it == infos_.end() || !it->second->type().has_tensor_type() ||
        !it->second->type().tensor_type().has_elem_type())
        return std::nullopt;
    return it->second->type().tensor_type().elem_type();
}

std::optional<std::vector<double>> OnnxModel::values(const std::string& name) const {
    const onnx::TensorProto* t = constant(name);
    if (!t || t->data_location() == onnx::TensorProto::EXTERNAL) return std::nullopt;
    std::vector<double> out;
    const std::string& raw = t->raw_data();
    const auto take = [&](auto zero) {
        using T = decltype(zero);
        for (std::size_t i = 0; i + sizeof(T) <= raw.size(); i += sizeof(T)) {
            T v;
            std::memcpy(&v, raw.data() + i, sizeof(T));
            out.push_back(static_cast<double>(v));
        }
    };
    switch (t->data_type()) {
        case onnx::TensorProto::INT64:
            if (raw.empty())
                out.assign(t->int64_data().begin(), t->int64_data().end());
            else
                take(std::int64_t{});
            break;
        case onnx::TensorProto::INT32:
            if (raw.empty())
                out.assign(t->int32_data().begin(), t->int32_data().end());
            else
                take(std::int32_t{});
            break;
        case onnx::TensorProto::FLOAT:
            if (raw.empty())
                out.assign(t->float_data().begin(), t->float_data().end());
            else
                take(float{});
            break;
        default:
            return std::nullopt;
    }
    return out;
}

std::int64_t attr_int(const onnx::NodeProto& n, const std::string& name, std::int64_t fallback) {
    const auto* a = find_attr(n, name);
    return a ? a->i() : fallback;
}

float attr_float(const onnx::NodeProto& n, const std::string& name, float fallback) {
    const auto* a = find_attr(n, name);
    return a ? a->f() : fallback;
}

std::string attr_string(const onnx::NodeProto& n, const std::string& name, const std::string& fallback) {
    const auto* a = find_attr(n, name);
    return a ? a->s() : fallback;
}

std::vector<std::int64_t> attr_ints(const onnx::NodeProto& n, const std::string& name) {
    const auto* a = find_attr(n, name);
    return a ? std::vector<std::int64_t>(a->ints().begin(), a->ints().end()) : std::vector<std::int64_t>{};
}

bool has_attr(const onnx::NodeProto& n, const std::string& name) {
    return find_attr(n, name) != nullptr;
}

std::optional<std::pair<int, int>> recurrent_axes(const onnx::GraphProto& g, const std::string& input) {
    const auto recurrent = [](const onnx::NodeProto& n) {
        return n.op_type() == "LSTM" || n.op_type() == "GRU" || n.op_type() == "RNN";
    };
    // Every reader must take the tensor as X (operand 0) and agree on its axes.
    std::optional<std::pair<int, int>> axes;
    const auto agree = [&](std::pair<int, int> a) {
        if (axes && *axes != a) return false;
        axes = a;
        return true;
    };
    const auto readers = [&](const std::string& tensor, const auto& accept) {
        int count = 0;
        for (const auto& n : g.node())
            for (int k = 0; k < n.input_size(); ++k)
                if (n.input(k) == tensor && (++count, k != 0 || !accept(n))) return false;
        return count > 0;
    };
    const auto direct = [&](const onnx::NodeProto& n) {
        if (!recurrent(n)) return false;
        return agree(attr_int(n, "layout", 0) == 0 ? std::pair(1, 0) : std::pair(0, 1));
    };
    const auto transposed = [&](const onnx::NodeProto& n) {
        if (n.op_type() != "Transpose" || attr_ints(n, "perm") != std::vector<std::int64_t>{1, 0, 2})
            return false;
        const auto layout0 = [&](const onnx::NodeProto& r) {
            return recurrent(r) && attr_int(r, "layout", 0) == 0;
        };
        return readers(n.output(0), layout0) && agree({0, 1});
    };
    if (!readers(input, [&](const onnx::NodeProto& n) { return direct(n) || transposed(n); }))
        return std::nullopt;
    return axes;
}

}  // namespace pimdse::io::onnx_detail
