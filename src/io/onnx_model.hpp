#pragma once
// io-internal: an ONNX model loaded for import (onnx_import.cpp). Parsing, the ONNX
// checker, fixing the input's batch and sequence dimensions, and ONNX shape inference live
// here; the mapping onto layers lives in onnx_import.cpp. Only io includes ONNX headers.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <onnx/onnx_pb.h>

#include "pimdse/io/onnx_import.hpp"

namespace pimdse::io::onnx_detail {

class OnnxModel {
public:
    /// Loads, checks, fixes the input dimensions and infers shapes; InputError on failure.
    OnnxModel(const std::filesystem::path& path, const OnnxImportOptions& options);

    [[nodiscard]] const std::string& file() const noexcept { return file_; }
    [[nodiscard]] const onnx::GraphProto& graph() const noexcept { return model_.graph(); }
    /// The single graph input that is not an initializer (the network input).
    [[nodiscard]] const onnx::ValueInfoProto& input() const noexcept { return *input_; }
    /// Fixed dimensions of the network input after --batch / --seq-len; a sequence that only
    /// recurrent nodes read is given as [batch, steps, features] whatever its layout.
    [[nodiscard]] const std::vector<std::int64_t>& input_dims() const noexcept { return input_dims_; }
    /// Whether only recurrent nodes (LSTM, GRU, RNN) read the input, directly or through a
    /// Transpose [1, 0, 2]: it is then one time step's features (onnx_recurrent.cpp).
    [[nodiscard]] bool step_input() const noexcept { return step_input_; }

    /// The version of the default ("ai.onnx") operator set the model imports.
    [[nodiscard]] std::int64_t opset() const;
    /// An initializer or a Constant node's tensor, else nullptr.
    [[nodiscard]] const onnx::TensorProto* constant(const std::string& name) const;
    /// The inferred (or declared) dimensions of a tensor, when all are known.
    [[nodiscard]] std::optional<std::vector<std::int64_t>> dims(const std::string& name) const;
    /// The element type (onnx::TensorProto::DataType) of a constant, or of a tensor as
    /// declared or inferred.
    [[nodiscard]] std::optional<std::int32_t> elem_type(const std::string& name) const;
    /// Integer values of a small constant tensor (a Reshape's shape, Clip's bounds as int).
    [[nodiscard]] std::optional<std::vector<double>> values(const std::string& name) const;

    /// "node 'name' (OpType)" for messages; the node's output name when it has no name.
    [[nodiscard]] static std::string describe(const onnx::NodeProto& node);
    [[noreturn]] void fail(const std::string& problem) const;
    [[noreturn]] void fail(const onnx::NodeProto& node, const std::string& problem) const;
    /// When --seq-len replaced the model's fixed sequence length, fails saying so, with the
    /// `problem` that followed from it; else returns.
    void fail_seq_len(const std::string& problem) const;

private:
    void load(const std::filesystem::path& path);
    void check(const std::filesystem::path& path) const;
    void check_opset() const;
    void check_attributes() const;
    void fix_input(const OnnxImportOptions& options);
    void infer();

    std::string file_;
    onnx::ModelProto model_;
    const onnx::ValueInfoProto* input_ = nullptr;
    std::vector<std::int64_t> input_dims_;
    bool step_input_ = false;
    /// The model's own, fixed sequence length when --seq-len replaced it.
    std::optional<std::int64_t> fixed_seq_len_;
    std::unordered_map<std::string, const onnx::TensorProto*> constants_;
    std::unordered_map<std::string, const onnx::ValueInfoProto*> infos_;
};

// Attribute access; a missing attribute gives the default.
[[nodiscard]] std::int64_t attr_int(const onnx::NodeProto& n, const std::string& name, std::int64_t fallback);
[[nodiscard]] float attr_float(const onnx::NodeProto& n, const std::string& name, float fallback);
[[nodiscard]] std::string attr_string(const onnx::NodeProto& n, const std::string& name,
                                      const std::string& fallback);
[[nodiscard]] std::vector<std::int64_t> attr_ints(const onnx::NodeProto& n, const std::string& name);
[[nodiscard]] bool has_attr(const onnx::NodeProto& n, const std::string& name);

/// The axes {batch, sequence} of a graph input that only LSTM, GRU and RNN nodes read as
/// their X, directly (its layout: [steps, batch, features] or [batch, steps, features]) or
/// through a Transpose [1, 0, 2] of a [batch, steps, features] tensor; nullopt otherwise.
[[nodiscard]] std::optional<std::pair<int, int>> recurrent_axes(const onnx::GraphProto& g,
                                                                const std::string& input);

}  // namespace pimdse::io::onnx_detail
