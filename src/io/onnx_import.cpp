// ONNX import: the entry point and the dispatch on op type (docs/workloads.md, "ONNX import").

#include <algorithm>
#include <cctype>

#include "onnx_importer.hpp"
#include "pimdse/io/onnx_import.hpp"

namespace pimdse::io {

namespace onnx_detail {

void Importer::map_node(const NodeProto& n) {
    const std::string& op = n.op_type();
    if ((op == "Mul" || op == "Div" || op == "Add") && scale_or_mask(n)) return;
    if (op == "Conv") return conv(n);
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
