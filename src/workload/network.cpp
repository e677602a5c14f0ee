#include "pimdse/workload/network.hpp"

#include <algorithm>
#include <utility>

#include "pimdse/core/error.hpp"

namespace pimdse::workload {

namespace {

std::string key_of(LayerIndex index, std::string_view field) {
    std::string key = "layers[" + std::to_string(index) + "]";
    if (!field.empty()) {
        key += '.';
        key += field;
    }
    return key;
}

std::string dims(std::int64_t c, std::int64_t h, std::int64_t w) {
    return to_string(TensorShape{c, h, w});
}

class LayerChecker {
public:
    LayerChecker(std::span<const Layer> layers, LayerIndex index, std::int64_t batch,
                 const TensorShape& input)
        : layers_(layers),
          index_(index),
          l_(layers[static_cast<std::size_t>(index)]),
          batch_(batch),
          input_(input) {}

    std::optional<NetworkIssue> run() {
        if (auto i = producers()) return i;
        if (auto i = bounds()) return i;
        if (auto i = arity()) return i;
        if (auto i = unused_fields()) return i;
        switch (l_.kind) {
            case LayerKind::conv:
                return conv();
            case LayerKind::pool:
                return pool();
            case LayerKind::matmul:
                return l_.weights_are_activations ? activation_matmul() : linear();
            case LayerKind::add:
                return add();
            case LayerKind::concat:
                return concat();
            case LayerKind::norm:
                if (l_.norm == Normalization::none)
                    return issue("mode", "a norm layer needs a normalisation");
                return same_shape();
            case LayerKind::activation:
                if (l_.activation == Activation::none)
                    return issue("function", "an activation layer needs a function");
                return same_shape();
            case LayerKind::softmax:
                return same_shape();
            case LayerKind::mul:
                return mul();
            case LayerKind::deconv:
                return deconv();
            case LayerKind::upsample:
                return upsample();
        }
        return std::nullopt;
    }

private:
    NetworkIssue issue(std::string_view field, const std::string& problem) const {
        return {index_, key_of(index_, field), "layer '" + l_.name + "': " + problem};
    }
    TensorShape shape_of(LayerIndex p) const {
        return p == kNetworkInput ? input_ : layers_[static_cast<std::size_t>(p)].output_shape();
    }
    std::string name_of(LayerIndex p) const {
        return p == kNetworkInput ? std::string("input") : layers_[static_cast<std::size_t>(p)].name;
    }
    std::string producer_text(LayerIndex p) const {
        // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "literal" + string&&.
        std::string out(1, '\'');
        out += name_of(p);
        out += "' (";
        out += to_string(shape_of(p));
        out += ')';
        return out;
    }

    std::optional<NetworkIssue> producers() const {
        if (l_.inputs.empty()) return issue("inputs", "needs at least one producer");
        for (LayerIndex p : l_.inputs)
            if (p < kNetworkInput || p >= index_)
                return issue("inputs", "producer index " + std::to_string(p) +
                                           " is not an earlier layer; layers must be listed in topological "
                                           "order (every producer before its consumers)");
        return std::nullopt;
    }

    std::optional<NetworkIssue> bounds() const {
        const std::pair<const char*, std::int64_t> positive[] = {{"B", l_.B},
                                                                 {"K", l_.K},
                                                                 {"C", l_.C},
                                                                 {"P", l_.P},
                                                                 {"Q", l_.Q},
                                                                 {"R", l_.R},
                                                                 {"S", l_.S},
                                                                 {"H", l_.H},
                                                                 {"W", l_.W},
                                                                 {"stride_h", l_.stride_h},
                                                                 {"stride_w", l_.stride_w},
                                                                 {"groups", l_.groups},
                                                                 {"dilation_h", l_.dilation_h},
                                                                 {"dilation_w", l_.dilation_w},
                                                                 {"up_h", l_.up_h},
                                                                 {"up_w", l_.up_w}};
        for (const auto& [what, v] : positive)
            if (v < 1) return issue("", std::string(what) + " = " + std::to_string(v) + ", expected >= 1");
        if (l_.pad_h < 0 || l_.pad_w < 0) return issue("padding", "padding must be >= 0");
        if (l_.pad_h_end < 0 || l_.pad_w_end < 0) return issue("padding_end", "padding_end must be >= 0");
        for (const auto& [key, v] :
             {std::pair{"weight_bits", l_.weight_bits}, {"activation_bits", l_.activation_bits}})
            if (v < 0 || v > kMaxLayerBits)
                return issue(key, std::string(key) + " = " + std::to_string(v) + ", expected 1 to " +
                                      std::to_string(kMaxLayerBits) + ", or 0 for the design point's");
        if (l_.B != batch_)
            return issue("", "B = " + std::to_string(l_.B) + " differs from the network batch " +
                                 std::to_string(batch_));
        // Every count is a product of these bounds; refuse sizes whose products overflow.
        std::int64_t product = 1;
        for (std::int64_t v : {l_.B, l_.K, l_.C, l_.P, l_.Q, l_.R, l_.S, l_.H, l_.W})
            if (__builtin_mul_overflow(product, v, &product))
                return issue("", "the loop bounds are too large: their product overflows 64-bit counts");
        return std::nullopt;
    }

    std::optional<NetworkIssue> arity() const {
        const auto n = l_.inputs.size();
        switch (l_.kind) {
            case LayerKind::mul:
                if (n != 2)
                    return issue("inputs", "a mul layer needs exactly 2 producers, got " + std::to_string(n));
                return std::nullopt;
            case LayerKind::add:
                if (n < 2 && !(n == 1 && l_.bias))
                    return issue("inputs",
                                 "an add layer needs at least 2 producers (or 1 and bias: a learned "
                                 "tensor), got " +
                                     std::to_string(n));
                return std::nullopt;
            case LayerKind::concat:
                if (n < 2)
                    return issue("inputs", "an " + std::string(to_string(l_.kind)) +
                                               " layer needs at least 2 producers, got " + std::to_string(n));
                return std::nullopt;
            case LayerKind::matmul:
                if (l_.weights_are_activations && n != 2)
                    return issue("inputs", "a matmul of two activations needs exactly 2 producers, got " +
                                               std::to_string(n));
                if (!l_.weights_are_activations && n != 1)
                    return issue("inputs", "a matmul with weights needs exactly 1 producer, got " +
                                               std::to_string(n) +
                                               " (two producers make an activation x activation matmul)");
                return std::nullopt;
            default:
                if (n != 1)
                    return issue("inputs", "a " + std::string(to_string(l_.kind)) +
                                               " layer needs exactly 1 producer, got " + std::to_string(n));
                return std::nullopt;
        }
    }

    // Fields that only some kinds use must keep their neutral value elsewhere, so that a
    // count or a mapper never reads a stale stride or kernel.
    std::optional<NetworkIssue> unused_fields() const {
        const bool windowed = l_.is_convolution() || l_.kind == LayerKind::pool;
        if (!windowed && (l_.R != 1 || l_.S != 1))
            return issue("kernel", "only conv, deconv and pool layers have a kernel");
        if (!windowed && (l_.stride_h != 1 || l_.stride_w != 1 || l_.pad_h != 0 || l_.pad_w != 0 ||
                          l_.pad_h_end != 0 || l_.pad_w_end != 0))
            return issue("stride", "only conv, deconv and pool layers have a stride or padding");
        if (l_.kind == LayerKind::deconv && (l_.pad_h_end != l_.pad_h || l_.pad_w_end != l_.pad_w))
            return issue("padding",
                         "a deconv pads its zero-stuffed input symmetrically (output_padding adds rows)");
        if (l_.sep_padding && l_.kind != LayerKind::conv)
            return issue("padding", "only conv layers have SEP padding");
        if ((l_.weight_bits != 0 || l_.activation_bits != 0) && !l_.has_weights())
            return issue(l_.weight_bits != 0 ? "weight_bits" : "activation_bits",
                         "only conv, deconv and weighted matmul layers have their own bits");
        if (l_.kind != LayerKind::conv && (l_.dilation_h != 1 || l_.dilation_w != 1))
            return issue("dilation", "only conv layers have a dilation");
        if (!l_.is_convolution() && l_.groups != 1)
            return issue("groups", "only conv and deconv layers have groups");
        const bool upsamples = l_.kind == LayerKind::deconv || l_.kind == LayerKind::upsample;
        if (!upsamples && (l_.up_h != 1 || l_.up_w != 1))
            return issue("stride", "only deconv and upsample layers upsample their input");
        if (l_.broadcast && l_.kind != LayerKind::mul) return issue("inputs", "only a mul layer broadcasts");
        if (l_.interpolation != Interpolation::nearest && l_.kind != LayerKind::upsample)
            return issue("mode", "only upsample layers interpolate");
        if (l_.bias && !l_.has_weights() && l_.kind != LayerKind::add)
            return issue("bias", "only conv, deconv, weighted matmul and add layers have a bias");
        if (l_.flatten && !(l_.kind == LayerKind::matmul && !l_.weights_are_activations))
            return issue("flatten", "only a weighted matmul flattens its input");
        if (l_.weights_are_activations && l_.kind != LayerKind::matmul)
            return issue("inputs", "only a matmul can take activations as its second operand");
        if ((l_.ceil_mode || l_.adaptive) && l_.kind != LayerKind::pool)
            return issue(l_.adaptive ? "output" : "ceil_mode",
                         "only pool layers have a ceil mode or an adaptive output");
        if (l_.ceil_mode && l_.adaptive) return issue("ceil_mode", "an adaptive pool has no ceil mode");
        if (l_.transpose_b && !l_.weights_are_activations)
            return issue("transpose_b", "only a matmul of two activations transposes its second operand");
        return std::nullopt;
    }

    std::optional<NetworkIssue> input_matches(LayerIndex p) const {
        const TensorShape in = shape_of(p);
        if (in != TensorShape{l_.C, l_.H, l_.W})
            return issue("inputs",
                         "input " + dims(l_.C, l_.H, l_.W) + " does not match producer " + producer_text(p));
        return std::nullopt;
    }

    std::optional<NetworkIssue> window(std::string_view field) const {
        const std::int64_t span_h = (l_.R - 1) * l_.dilation_h + 1;
        const std::int64_t span_w = (l_.S - 1) * l_.dilation_w + 1;
        if (l_.sep_padding && std::pair(l_.pad_h, l_.pad_h_end) != sep_padding(span_h))
            return issue("padding", "SEP padding of a window spanning " + std::to_string(span_h) +
                                        " rows is " + std::to_string(sep_padding(span_h).first) +
                                        " before and " + std::to_string(sep_padding(span_h).second) +
                                        " after");
        if (l_.sep_padding && std::pair(l_.pad_w, l_.pad_w_end) != sep_padding(span_w))
            return issue("padding", "SEP padding of a window spanning " + std::to_string(span_w) +
                                        " columns is " + std::to_string(sep_padding(span_w).first) +
                                        " before and " + std::to_string(sep_padding(span_w).second) +
                                        " after");
        const std::int64_t p = window_extent(l_.H, span_h, l_.stride_h, l_.pad_h, l_.pad_h_end, l_.ceil_mode);
        const std::int64_t q = window_extent(l_.W, span_w, l_.stride_w, l_.pad_w, l_.pad_w_end, l_.ceil_mode);
        if (p == 0 || q == 0)
            return issue(
                field,
                "kernel " + std::to_string(l_.R) + "x" + std::to_string(l_.S) +
                    (span_h != l_.R || span_w != l_.S ? " (span " + std::to_string(span_h) + "x" +
                                                            std::to_string(span_w) + " with its dilation)"
                                                      : std::string()) +
                    " does not fit the padded input " + std::to_string(l_.H + l_.pad_h + l_.pad_h_end) + "x" +
                    std::to_string(l_.W + l_.pad_w + l_.pad_w_end));
        if (p != l_.P || q != l_.Q)
            return issue(field, "output " + std::to_string(l_.P) + "x" + std::to_string(l_.Q) + " is not " +
                                    (l_.ceil_mode ? "ceil" : "floor") +
                                    "((H + pad + pad_end - span) / stride) + 1 = " + std::to_string(p) + "x" +
                                    std::to_string(q));
        return std::nullopt;
    }

    std::optional<NetworkIssue> conv() const {
        if (auto i = input_matches(l_.inputs[0])) return i;
        if (l_.C % l_.groups != 0 || l_.K % l_.groups != 0)
            return issue("groups", "groups " + std::to_string(l_.groups) +
                                       " must divide the input channels " + std::to_string(l_.C) +
                                       " and the output channels " + std::to_string(l_.K));
        return window("kernel");
    }

    std::optional<NetworkIssue> pool() const {
        if (auto i = input_matches(l_.inputs[0])) return i;
        if (l_.K != l_.C) return issue("", "a pool layer keeps its channels: K must equal C");
        if (l_.adaptive) return adaptive_pool();
        return window("kernel");
    }

    // Adaptive pooling: the output is given; the window and stride follow from it.
    std::optional<NetworkIssue> adaptive_pool() const {
        if (l_.P > l_.H || l_.Q > l_.W)
            return issue("output", "adaptive output " + std::to_string(l_.P) + "x" + std::to_string(l_.Q) +
                                       " is larger than the input plane " + std::to_string(l_.H) + "x" +
                                       std::to_string(l_.W));
        if (l_.R != adaptive_window(l_.H, l_.P) || l_.S != adaptive_window(l_.W, l_.Q) ||
            l_.stride_h != l_.H / l_.P || l_.stride_w != l_.W / l_.Q || l_.pad_h != 0 || l_.pad_w != 0 ||
            l_.pad_h_end != 0 || l_.pad_w_end != 0)
            return issue("output", "an adaptive pool's window is its widest, R x S = " +
                                       std::to_string(adaptive_window(l_.H, l_.P)) + "x" +
                                       std::to_string(adaptive_window(l_.W, l_.Q)) +
                                       ", its stride floor(H / P) x floor(W / Q), no padding");
        return std::nullopt;
    }

    std::optional<NetworkIssue> linear() const {
        const LayerIndex p = l_.inputs[0];
        const TensorShape in = shape_of(p);
        if (l_.flatten) {
            if (l_.C != in.elements() || l_.H != 1 || l_.W != 1)
                return issue("flatten", "a flattening matmul has C = " + std::to_string(in.elements()) +
                                            " (all elements of producer " + producer_text(p) +
                                            ") and H = W = 1");
        } else if (auto i = input_matches(p)) {
            return i;
        }
        if (l_.P != l_.H || l_.Q != l_.W)
            return issue("", "a matmul applies at every position: P x Q must equal H x W");
        return std::nullopt;
    }

    std::optional<NetworkIssue> activation_matmul() const {
        if (auto i = input_matches(l_.inputs[0])) return i;
        if (l_.P != l_.H || l_.Q != l_.W) return issue("", "P x Q must equal the first operand's H x W");
        const TensorShape b = shape_of(l_.inputs[1]);
        const std::int64_t rows = b.height * b.width;
        // A is (P*Q) x C. B^T: B is K rows of C; plain B: C rows of K.
        const std::int64_t contraction = l_.transpose_b ? b.channels : rows;
        const std::int64_t k = l_.transpose_b ? rows : b.channels;
        if (contraction != l_.C)
            return issue("inputs", std::string("the operands do not chain: the first operand has ") +
                                       std::to_string(l_.C) + " channels but the second operand " +
                                       producer_text(l_.inputs[1]) +
                                       (l_.transpose_b ? " has " : " has height x width ") +
                                       std::to_string(contraction) +
                                       (l_.transpose_b ? " channels (A.B^T contracts channels with channels)"
                                                       : " (A.B contracts channels with positions; "
                                                         "set transpose_b for A.B^T)"));
        if (k != l_.K)
            return issue(
                "", "K = " + std::to_string(l_.K) + " but the second operand gives " + std::to_string(k));
        return std::nullopt;
    }

    std::optional<NetworkIssue> add() const {
        for (LayerIndex p : l_.inputs)
            if (shape_of(p) != TensorShape{l_.C, l_.H, l_.W})
                return issue("inputs", "an add needs equally shaped operands: " +
                                           producer_text(l_.inputs[0]) + " vs " + producer_text(p));
        if (l_.K != l_.C || l_.P != l_.H || l_.Q != l_.W) return issue("", "an add keeps its shape");
        return std::nullopt;
    }

    std::optional<NetworkIssue> concat() const {
        std::int64_t channels = 0;
        for (LayerIndex p : l_.inputs) {
            const TensorShape s = shape_of(p);
            if (s.height != l_.H || s.width != l_.W)
                return issue("inputs", "a concat joins channels of equal height x width: " +
                                           producer_text(l_.inputs[0]) + " vs " + producer_text(p));
            channels += s.channels;
        }
        if (channels != l_.K || l_.C != l_.K)
            return issue("", "K = " + std::to_string(l_.K) + " but the producers have " +
                                 std::to_string(channels) + " channels in total");
        if (l_.P != l_.H || l_.Q != l_.W) return issue("", "a concat keeps height and width");
        return std::nullopt;
    }

    std::optional<NetworkIssue> mul() const {
        if (auto i = input_matches(l_.inputs[0])) return i;
        const TensorShape b = shape_of(l_.inputs[1]);
        const TensorShape per_channel{l_.C, 1, 1};
        if (b != TensorShape{l_.C, l_.H, l_.W} && b != per_channel)
            return issue("inputs", "a mul's second operand " + producer_text(l_.inputs[1]) +
                                       " is neither the first's shape " + dims(l_.C, l_.H, l_.W) +
                                       " nor one factor per channel " + to_string(per_channel));
        if (l_.broadcast != (b != TensorShape{l_.C, l_.H, l_.W}))
            return issue("inputs", "broadcast must be set exactly when the second operand is C x 1 x 1");
        if (l_.K != l_.C || l_.P != l_.H || l_.Q != l_.W) return issue("", "a mul keeps its shape");
        return std::nullopt;
    }

    // The zero-stuffed input of a deconv: (in - 1) up + 1 plus output padding (< up) rows.
    std::optional<NetworkIssue> deconv() const {
        const TensorShape in = shape_of(l_.inputs[0]);
        const auto stuffed = [](std::int64_t n, std::int64_t up, std::int64_t h) {
            return h >= (n - 1) * up + 1 && h < n * up + 1;
        };
        if (in.channels != l_.C || !stuffed(in.height, l_.up_h, l_.H) || !stuffed(in.width, l_.up_w, l_.W))
            return issue("inputs", "zero-stuffed input " + dims(l_.C, l_.H, l_.W) + " (stride " +
                                       std::to_string(l_.up_h) + "x" + std::to_string(l_.up_w) +
                                       ") does not match producer " + producer_text(l_.inputs[0]));
        if (l_.stride_h != 1 || l_.stride_w != 1)
            return issue("stride", "a deconv slides over its zero-stuffed input with stride 1");
        if (l_.C % l_.groups != 0 || l_.K % l_.groups != 0)
            return issue("groups", "groups " + std::to_string(l_.groups) + " must divide C and K");
        return window("kernel");
    }

    std::optional<NetworkIssue> upsample() const {
        if (auto i = input_matches(l_.inputs[0])) return i;
        if (l_.K != l_.C || l_.P != l_.H * l_.up_h || l_.Q != l_.W * l_.up_w)
            return issue("", "an upsample layer's output is C x (H scale) x (W scale)");
        return std::nullopt;
    }

    std::optional<NetworkIssue> same_shape() const {
        if (auto i = input_matches(l_.inputs[0])) return i;
        if (l_.K != l_.C || l_.P != l_.H || l_.Q != l_.W)
            return issue("", "a " + std::string(to_string(l_.kind)) + " layer keeps its input shape");
        return std::nullopt;
    }

    std::span<const Layer> layers_;
    LayerIndex index_;
    const Layer& l_;
    std::int64_t batch_;
    const TensorShape& input_;
};

}  // namespace

bool is_valid_name(std::string_view name) noexcept {
    // "." and ".." would name the current or parent group of the sweep file's layout.
    if (name.empty() || name.find_first_not_of('.') == std::string_view::npos) return false;
    return std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
               c == '-' || c == '.';
    });
}

std::optional<NetworkIssue> check_layer(std::span<const Layer> layers, LayerIndex index, std::int64_t batch,
                                        const TensorShape& input) {
    return LayerChecker(layers, index, batch, input).run();
}

Network::Network(NetworkInfo info, std::int64_t batch, TensorShape input, std::vector<Layer> layers,
                 NetworkMode mode)
    : info_(std::move(info)), batch_(batch), input_(input), layers_(std::move(layers)), mode_(mode) {
    const SourceLocation where{"network '" + info_.name + "'"};
    if (!is_valid_name(info_.name))
        throw InputError(where, "network",
                         "the name must be non-empty and made of letters, digits, '_', '-', '.'");
    if (batch_ < 1) throw InputError(where, "batch", "batch " + std::to_string(batch_) + ", expected >= 1");
    if (input_.channels < 1 || input_.height < 1 || input_.width < 1)
        throw InputError(where, "input", "input shape " + to_string(input_) + " must be positive");
    if (layers_.empty()) throw InputError(where, "layers", "a network needs at least one layer");

    const auto n = static_cast<LayerIndex>(layers_.size());
    by_name_.reserve(layers_.size());
    for (LayerIndex i = 0; i < n; ++i) {
        const Layer& l = layers_[static_cast<std::size_t>(i)];
        if (!is_valid_name(l.name) || l.name == "input")
            throw InputError(where, key_of(i, "name"),
                             "layer name '" + l.name +
                                 "' must be made of letters, digits, '_', '-', '.' and must not be 'input'");
        if (auto [it, fresh] = by_name_.emplace(l.name, i); !fresh)
            throw InputError(
                where, key_of(i, "name"),
                "duplicate layer name '" + l.name + "' (also layers[" + std::to_string(it->second) + "])");
        if (auto issue = check_layer(layers_, i, batch_, input_))
            throw InputError(where, issue->key, issue->problem);
    }

    // Consumers in CSR form, built by counting (O(V + E)); ascending because i ascends. A
    // layer that reads one producer twice (x + x) is listed once.
    const auto first_use = [](const Layer& l, std::size_t k) {
        return std::find(l.inputs.begin(), l.inputs.begin() + static_cast<std::ptrdiff_t>(k), l.inputs[k]) ==
               l.inputs.begin() + static_cast<std::ptrdiff_t>(k);
    };
    consumer_offsets_.assign(layers_.size() + 1, 0);
    for (const Layer& l : layers_)
        for (std::size_t k = 0; k < l.inputs.size(); ++k)
            if (l.inputs[k] != kNetworkInput && first_use(l, k))
                ++consumer_offsets_[static_cast<std::size_t>(l.inputs[k]) + 1];
    for (std::size_t i = 0; i < layers_.size(); ++i) consumer_offsets_[i + 1] += consumer_offsets_[i];
    consumer_list_.resize(static_cast<std::size_t>(consumer_offsets_.back()));
    std::vector<std::int32_t> fill(consumer_offsets_.begin(), consumer_offsets_.end() - 1);
    for (LayerIndex i = 0; i < n; ++i) {
        const Layer& l = layers_[static_cast<std::size_t>(i)];
        for (std::size_t k = 0; k < l.inputs.size(); ++k) {
            if (!first_use(l, k)) continue;
            if (l.inputs[k] == kNetworkInput)
                input_consumers_.push_back(i);
            else
                consumer_list_[static_cast<std::size_t>(fill[static_cast<std::size_t>(l.inputs[k])]++)] = i;
        }
    }
}

std::span<const LayerIndex> Network::consumers(LayerIndex i) const noexcept {
    const auto b = static_cast<std::size_t>(consumer_offsets_[static_cast<std::size_t>(i)]);
    const auto e = static_cast<std::size_t>(consumer_offsets_[static_cast<std::size_t>(i) + 1]);
    return std::span<const LayerIndex>(consumer_list_).subspan(b, e - b);
}

TensorShape Network::output_shape(LayerIndex producer) const {
    return producer == kNetworkInput ? input_ : layer(producer).output_shape();
}

std::optional<LayerIndex> Network::find(std::string_view layer_name) const {
    const auto it = by_name_.find(std::string(layer_name));
    if (it == by_name_.end()) return std::nullopt;
    return it->second;
}

std::int64_t Network::total_macs() const noexcept {
    std::int64_t s = 0;
    for (const Layer& l : layers_) s += l.macs();
    return s;
}
std::int64_t Network::total_weights() const noexcept {
    std::int64_t s = 0;
    for (const Layer& l : layers_) s += l.weights();
    return s;
}
std::int64_t Network::total_parameters() const noexcept {
    std::int64_t s = 0;
    for (const Layer& l : layers_) s += l.parameters();
    return s;
}
std::int64_t Network::total_ops() const noexcept {
    std::int64_t s = 0;
    for (const Layer& l : layers_) s += l.ops();
    return s;
}

Network Network::with_batch(std::int64_t batch) const {
    std::vector<Layer> layers = layers_;
    for (Layer& l : layers) l.B = batch;
    return Network(info_, batch, input_, std::move(layers), mode_);
}

Network Network::with_mode(NetworkMode mode) const {
    return Network(info_, batch_, input_, layers_, mode);
}

}  // namespace pimdse::workload
