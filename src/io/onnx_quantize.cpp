// QDQ models (docs/workloads.md, "ONNX import"): QuantizeLinear and DequantizeLinear pass
// their activation through, and a layer's weight and activation bits come from the integer
// types they convert from. The loop bounds do not change; the bits are the crossbar family's.

#include "onnx_importer.hpp"

namespace pimdse::io::onnx_detail {

namespace {

bool is_qdq(const NodeProto& n) {
    return n.op_type() == "QuantizeLinear" || n.op_type() == "DequantizeLinear";
}

}  // namespace

const NodeProto* Importer::producer(const std::string& tensor) const {
    const auto it = producers_.find(tensor);
    return it == producers_.end() ? nullptr : &m_.graph().node(it->second);
}

std::int32_t Importer::quantized_bits(const NodeProto& n, const std::string& tensor) const {
    const auto type = m_.elem_type(tensor);
    switch (type.value_or(onnx::TensorProto::UNDEFINED)) {
        case onnx::TensorProto::INT8:
        case onnx::TensorProto::UINT8:
            return 8;
        case onnx::TensorProto::INT16:
        case onnx::TensorProto::UINT16:
            return 16;
        case onnx::TensorProto::INT32:
        case onnx::TensorProto::UINT32:
            return 32;
        default:
            break;
    }
    // int4/uint4 (ONNX 1.16) are unknown to the onnx library this build reads models with.
    m_.fail(n, "the quantized tensor '" + tensor + "' has element type " +
                   (type ? onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(*type))
                         : std::string("unknown")) +
                   "; expected int8, uint8, int16, uint16, int32 or uint32 (the bits of a layer's weights or "
                   "activations)");
}

const onnx::TensorProto* Importer::weights(const std::string& tensor, std::int32_t* bits) const {
    std::string name = tensor;
    const NodeProto* first = nullptr;  // the Quantize/Dequantize next to the layer
    // At most a Dequantize and a Quantize between the initializer and the layer.
    for (int hops = 0; hops < 3; ++hops) {
        if (const onnx::TensorProto* t = m_.constant(name)) {
            // DequantizeLinear converts from its input's type, QuantizeLinear to its output's.
            if (first && bits && *bits == 0) {
                const bool dq = first->op_type() == "DequantizeLinear";
                *bits = quantized_bits(*first, dq ? first->input(0) : first->output(0));
            }
            return t;
        }
        const NodeProto* q = producer(name);
        if (!q || !is_qdq(*q) || q->input_size() < 1) return nullptr;
        if (!first) first = q;
        name = q->input(0);
    }
    return nullptr;
}

std::int32_t Importer::activation_bits(const std::string& tensor) const {
    const NodeProto* dq = producer(tensor);
    if (!dq || dq->op_type() != "DequantizeLinear" || dq->input_size() < 1) return 0;
    return quantized_bits(*dq, dq->input(0));
}

void Importer::quantize(const NodeProto& n) {
    // On weights (an initializer, or a QuantizeLinear of one): the layer reads through it.
    if (weights(n.output(0))) return;
    set(n.output(0), value(n, 0));
}

}  // namespace pimdse::io::onnx_detail
