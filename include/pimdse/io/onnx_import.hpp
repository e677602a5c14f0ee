#pragma once
// ONNX models as workloads (docs/workloads.md, "ONNX import"). An ONNX file is read with the
// ONNX project's own C++ bindings (Debian's libonnx-dev), checked with its checker, its
// shapes inferred with its shape inference, and its operators mapped onto the layer kinds
// of the workload model: Conv, ConvTranspose, Gemm/MatMul (weights or two activations),
// pooling, Resize, Add, Mul, Concat, Flatten/Reshape, activations, BatchNormalization,
// LayerNormalization, LRN; patterns of several nodes (a Pad before a Conv, PyTorch's GELU
// export, SiLU, a ViT's patch embedding, fused q/k/v) map as one. Batch norm and
// activations are folded into their producer where the network format folds them. An
// operator without a mapping is an InputError naming the model file, the node and its op
// type, unless the caller opts in to skipping it.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "pimdse/workload/network.hpp"

namespace pimdse::io {

struct OnnxImportOptions {
    /// The batch size: replaces the model's (fixed or symbolic) first input dimension.
    std::optional<std::int64_t> batch;
    /// The token count of a sequence input [batch, tokens, hidden]; needed when it is symbolic.
    std::optional<std::int64_t> seq_len;
    /// Pass the first input of an unsupported shape-preserving node through instead of failing.
    bool skip_unsupported = false;
    /// Receives one line per skipped node; unset: printed to stderr as "pimdse: warning: ...".
    std::function<void(const std::string&)> note;
};

/// Reads, checks and maps an ONNX model; every problem is an InputError naming the file.
[[nodiscard]] workload::Network import_onnx(const std::filesystem::path& path,
                                            const OnnxImportOptions& options = {});

/// True when `path` names an ONNX model (extension `.onnx`, any case).
[[nodiscard]] bool is_onnx_path(const std::filesystem::path& path);

}  // namespace pimdse::io
