// Malformed and unsupported ONNX models: each is refused with its own message, which names
// the model file and, for a node, the node and its op type.
#include <gtest/gtest.h>

#include "pimdse/core/error.hpp"
#include "pimdse/io/onnx_import.hpp"
#include "support.hpp"

namespace pimdse::test {
namespace {

struct Case {
    const char* file;
    const char* message;  ///< what must follow "<path>: " in the error
};

const Case kCases[] = {
    {"not_protobuf", "not an ONNX model: the file does not parse as an onnx.ModelProto protobuf"},
    {"empty_model",
     "not a valid ONNX model (onnx checker): The model does not have an ir_version set properly."},
    {"unsupported_op",
     "node 'negate' (op type Neg): unsupported operator (supported: Conv, ConvTranspose, Gemm, MatMul"},
    {"qdq_float16_weights",
     "node 'c.w.dq' (op type DequantizeLinear): the quantized tensor 'c.wq' has element type FLOAT16; "
     "expected int8, uint8, int16, uint16, int32 or uint32 (the bits of a layer's weights or activations)"},
    {"two_inputs",
     "expected exactly one graph input that is not an initializer (the network input), got 2 (x, z)"},
    {"symbolic_tokens",
     "graph input 'x': dimension 1 is symbolic ('tokens'); give the sequence length with --seq-len"},
    {"reshape_layout",
     "node 'fold' (op type Reshape): reshapes to [1, 4, 64], which changes the layout; only flattening to "
     "[batch, "
     "C*H*W] maps onto the layer model"},
    {"softmax_axis",
     "node 'sm' (op type Softmax): axis 3 of a rank-4 tensor is not its channel axis (1), the only axis the "
     "layer "
     "model Softmaxs along"},
    {"clip_bounds",
     "node 'clip4' (op type Clip): Clip to [0.000000, 4.000000]: only [0, 6] (ReLU6) and [0, inf) (ReLU) are "
     "activations of the layer model"},
    {"rank4_attention",
     "node 'qk' (op type MatMul): a product of two activations maps onto an attention matmul only for "
     "[batch, "
     "tokens, features] operands (rank 3); rank-4 operands need the heads split from a projection (Reshape + "
     "Transpose of a MatMul's output)"},
    {"heads_relu",
     "node 'r' (op type Relu): reads the per-head attention tensor 'h', which only MatMul, Softmax, a "
     "constant scale "
     "or mask, and the Transpose + Reshape that merge the heads consume in the layer model"},
    {"add_constant",
     "node 'shift' (op type Add): adds the constant 'bias', which is no bias of a MatMul just "
     "before it"},
    {"gemm_mismatch",
     "node 'fc' (op type Gemm): the weights take 100 features but the input has 256 (4x8x8)"},
    {"matmul_shapes",
     "ONNX shape inference failed: [ShapeInferenceError] Shape inference error(s): (op_type:MatMul, node "
     "name: "
     "proj): [ShapeInferenceError] Incompatible dimensions for matrix multiplication"},
    {"concat_height",
     "node 'cat' (op type Concat): axis 2 of a rank-4 tensor is not its channel axis (1), the only axis the "
     "layer "
     "model Concats along"},
    {"input_rank5",
     "graph input 'x' has rank 5; expected [batch, features], [batch, tokens, hidden] or [batch, channels, "
     "height, "
     "width]"},
    {"unsorted_nodes",
     "not a valid ONNX model (onnx checker): Nodes in a graph must be topologically sorted"},
    {"transpose_a", "node 'fc' (op type Gemm): transA = 1 does not map onto a layer (the input is A)"},
    {"conv_zero_strides", "node 'c' (op type Conv): strides [0, 0]: expected values >= 1"},
    {"conv_zero_dilations", "node 'c' (op type Conv): dilations [0, 0]: expected values >= 1"},
    {"conv_negative_pads", "node 'c' (op type Conv): pads [-1, -1, -1, -1]: expected values >= 0"},
    {"pool_zero_strides", "node 'p' (op type MaxPool): strides [0, 0]: expected values >= 1"},
    {"pool_zero_kernel", "node 'p' (op type MaxPool): kernel_shape [0, 0]: expected values >= 1"},
    {"batch_2e40",
     "graph input 'x': dimension 0 is 1099511627776; at most 2147483647 (a network file's largest batch or "
     "extent) is supported"},
    {"opset_99", "imports ONNX opset 99; expected an opset in [1, "},
};

class Malformed : public ::testing::TestWithParam<Case> {};

TEST_P(Malformed, IsRefusedWithItsMessage) {
    const auto path = models_dir() / "malformed" / (std::string(GetParam().file) + ".onnx");
    ASSERT_TRUE(std::filesystem::exists(path)) << path;
    try {
        (void)io::import_onnx(path);
        FAIL() << path << " was imported";
    } catch (const InputError& e) {
        const std::string want = path.string() + ": " + GetParam().message;
        EXPECT_EQ(std::string(e.what()).rfind(want, 0), 0u) << "got:  " << e.what() << "\nwant: " << want;
    }
}

INSTANTIATE_TEST_SUITE_P(Onnx, Malformed, ::testing::ValuesIn(kCases),
                         [](const auto& p) { return std::string(p.param.file); });

TEST(Malformed, EveryGeneratedCaseIsListed) {
    std::size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(models_dir() / "malformed"))
        if (e.path().extension() == ".onnx") ++files;
    EXPECT_EQ(files, std::size(kCases));
}

}  // namespace
}  // namespace pimdse::test
