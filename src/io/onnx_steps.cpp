// The outputs of unrolled recurrent nodes (onnx_recurrent.cpp) as exporters reshape them:
// a Steps tensor is one layer per time step and direction, so Squeeze, Unsqueeze, Transpose,
// Gather and Slice only regroup or pick those layers, and a Reshape that merges the
// directions into the features (a bidirectional Y or Y_h) concatenates them per step. A
// tensor down to one layer is a plain [batch, features] value for any other node (a Gemm
// classifier on Y_h); more than one has no layer over all steps (docs/workloads.md).

#include <algorithm>
#include <limits>
#include <numeric>

#include "onnx_importer.hpp"

namespace pimdse::io::onnx_detail {

namespace {

// The axes that index the cells: all but the batch and the last.
std::vector<std::size_t> grid_axes(const std::vector<std::int64_t>& dims, int batch_axis) {
    std::vector<std::size_t> out;
    for (std::size_t a = 0; a + 1 < dims.size(); ++a)
        if (static_cast<int>(a) != batch_axis) out.push_back(a);
    return out;
}

std::int64_t normalized(std::int64_t axis, std::size_t rank) {
    return axis < 0 ? axis + static_cast<std::int64_t>(rank) : axis;
}

void keep_features(const OnnxModel& m, const NodeProto& n, const Steps& s, bool ok) {
    if (!ok)
        m.fail(n, "moves or removes the features (the last axis) of '" + n.input(0) + "' " +
                      dims_text(s.dims) + ", the per-step outputs of " + s.origin +
                      "; the layer model keeps them as each step's vector");
}

// Keeps the `chosen` positions of grid axis `axis` of `s` (drops the axis when `drop`).
void choose(Steps& s, std::size_t axis, const std::vector<std::int64_t>& chosen, bool drop) {
    const std::int64_t size = s.dims[axis];
    const auto grid = grid_axes(s.dims, s.batch_axis);
    const auto g = static_cast<std::size_t>(std::find(grid.begin(), grid.end(), axis) - grid.begin());
    std::int64_t inner = 1;
    for (std::size_t k = g + 1; k < grid.size(); ++k) inner *= s.dims[grid[k]];
    const std::int64_t outer = static_cast<std::int64_t>(s.cells.size()) / (inner * size);
    std::vector<LayerIndex> cells;
    for (std::int64_t o = 0; o < outer; ++o)
        for (std::int64_t c : chosen)
            for (std::int64_t i = 0; i < inner; ++i)
                cells.push_back(s.cells[static_cast<std::size_t>((o * size + c) * inner + i)]);
    s.cells = std::move(cells);
    if (drop) {
        s.dims.erase(s.dims.begin() + static_cast<std::ptrdiff_t>(axis));
        if (s.batch_axis > static_cast<int>(axis)) --s.batch_axis;
    } else {
        s.dims[axis] = static_cast<std::int64_t>(chosen.size());
    }
}

}  // namespace

bool Importer::step_view(const NodeProto& n) {
    const std::string& op = n.op_type();
    if (n.input_size() == 0 || op == "LSTM" || op == "GRU" || op == "RNN") return false;
    if (const Steps* s = steps_of(n.input(0))) {
        const Steps copy = *s;  // steps_ grows below
        if (op == "Identity" || op == "Dropout") {
            steps_[n.output(0)] = copy;
            return true;
        }
        if (op == "Squeeze" || op == "Unsqueeze" || op == "Reshape" || op == "Flatten" || op == "Transpose") {
            regrid(n, copy);
            return true;
        }
        if (op == "Gather" || op == "Slice") {
            pick(n, copy);
            return true;
        }
    }
    for (const std::string& in : n.input()) {
        const Steps* s = steps_of(in);
        if (!s || values_.count(in)) continue;
        if (s->cells.size() != 1)
            m_.fail(n, "reads '" + in + "' " + dims_text(s->dims) + ", the per-step outputs of " + s->origin +
                           ", held as one layer per step and direction; only Squeeze, Unsqueeze, Transpose, "
                           "Reshape, Gather, Slice or another LSTM, GRU or RNN read them (no layer of the "
                           "layer model joins the steps along tokens): take one step first");
        set(in, Value{s->cells.front(), 2});  // a [batch, features] vector
    }
    return false;
}

// Squeeze, Unsqueeze, Transpose, Reshape, Flatten: the same layers on new dimensions; a
// Reshape that merges the innermost step axes into the features concatenates their layers.
void Importer::regrid(const NodeProto& n, const Steps& s) {
    const std::string& op = n.op_type();
    const std::size_t rank = s.dims.size();
    Steps out = s;
    out.cells.clear();
    std::vector<std::int64_t> axes = attr_ints(n, "axes");
    if (n.input_size() > 1 && !n.input(1).empty() && (op == "Squeeze" || op == "Unsqueeze")) {
        const auto v = m_.values(n.input(1));
        if (!v) m_.fail(n, "the axes (operand 1) must be a constant");
        axes.assign(v->begin(), v->end());
    }
    const auto keeps_features = [&](bool ok) { keep_features(m_, n, s, ok); };
    if (op == "Transpose") return transposed(n, s);
    if (op == "Squeeze" || op == "Unsqueeze") return squeezed(n, s, axes);
    std::vector<std::int64_t> to;
    if (op == "Flatten") {
        const auto a = static_cast<std::size_t>(normalized(attr_int(n, "axis", 1), rank));
        const auto product = [&](std::size_t b, std::size_t e) {
            return std::accumulate(s.dims.begin() + static_cast<std::ptrdiff_t>(b),
                                   s.dims.begin() + static_cast<std::ptrdiff_t>(e), std::int64_t{1},
                                   std::multiplies<>());
        };
        to = {product(0, a), product(a, rank)};
    } else if (auto d = reshape_target(n, s.dims)) {
        to = *d;
    } else {
        m_.fail(n, "the target shape is not known (ONNX shape inference could not determine it)");
    }
    // Match the axes larger than 1 in order; the last target axis may merge the innermost
    // step axes with the features.
    std::vector<std::size_t> from;
    for (std::size_t a = 0; a < rank; ++a)
        if (s.dims[a] > 1 || a + 1 == rank) from.push_back(a);
    std::vector<std::size_t> into;
    for (std::size_t a = 0; a < to.size(); ++a)
        if (to[a] > 1 || a + 1 == to.size()) into.push_back(a);
    std::size_t i = 0;
    out.batch_axis = -1;
    for (std::size_t j = 0; j + 1 < into.size(); ++j, ++i) {
        keeps_features(i + 1 < from.size() && s.dims[from[i]] == to[into[j]]);
        if (static_cast<int>(from[i]) == s.batch_axis) out.batch_axis = static_cast<int>(into[j]);
    }
    std::int64_t merged = 1;
    for (std::size_t k = i; k + 1 < from.size(); ++k) {
        if (static_cast<int>(from[k]) == s.batch_axis)
            m_.fail(n, "merges the batch into the features of '" + n.input(0) + "' " + dims_text(s.dims));
        merged *= s.dims[from[k]];
    }
    keeps_features(!to.empty() && merged * s.dims.back() == to.back());
    out.dims = to;
    if (merged == 1) {
        out.cells = s.cells;
    } else {
        const std::string base = layer_name(n);
        const std::size_t groups = s.cells.size() / static_cast<std::size_t>(merged);
        for (std::size_t g = 0; g < groups; ++g) {
            const auto first = s.cells.begin() + static_cast<std::ptrdiff_t>(g) * merged;
            const std::vector<LayerIndex> parts(first, first + merged);
            const std::string name = groups == 1 ? base : unique_name(base + ".t" + std::to_string(g));
            out.cells.push_back(build(n, [&] { return builder_.concat(name, parts); }));
        }
    }
    steps_[n.output(0)] = out;
}

// The same layers with their grid axes permuted; the features stay last.
void Importer::transposed(const NodeProto& n, const Steps& s) {
    const std::size_t rank = s.dims.size();
    Steps out = s;
    out.cells.clear();
    const auto keeps_features = [&](bool ok) { keep_features(m_, n, s, ok); };
    auto perm = attr_ints(n, "perm");
    if (perm.empty())
        for (std::size_t a = rank; a-- > 0;) perm.push_back(static_cast<std::int64_t>(a));
    keeps_features(perm.size() == rank && perm.back() == static_cast<std::int64_t>(rank) - 1);
    out.dims.clear();
    out.batch_axis = -1;
    for (std::size_t i = 0; i < rank; ++i) {
        out.dims.push_back(s.dims[static_cast<std::size_t>(perm[i])]);
        if (perm[i] == s.batch_axis) out.batch_axis = static_cast<int>(i);
    }
    // Each new cell is the old cell at the permuted index.
    const auto new_grid = grid_axes(out.dims, out.batch_axis);
    const auto old_grid = grid_axes(s.dims, s.batch_axis);
    std::vector<std::int64_t> index(rank, 0);
    const auto count = static_cast<std::int64_t>(s.cells.size());
    for (std::int64_t c = 0; c < count; ++c) {
        std::int64_t rest = c;
        for (std::size_t g = new_grid.size(); g-- > 0;) {
            index[static_cast<std::size_t>(perm[new_grid[g]])] = rest % out.dims[new_grid[g]];
            rest /= out.dims[new_grid[g]];
        }
        std::int64_t old = 0;
        for (std::size_t a : old_grid) old = old * s.dims[a] + index[a];
        out.cells.push_back(s.cells[static_cast<std::size_t>(old)]);
    }
    steps_[n.output(0)] = out;
}

// Size-1 axes removed or added: the cells keep their order.
void Importer::squeezed(const NodeProto& n, const Steps& s, std::vector<std::int64_t> axes) {
    const std::string& op = n.op_type();
    const std::size_t rank = s.dims.size();
    Steps out = s;
    const auto keeps_features = [&](bool ok) { keep_features(m_, n, s, ok); };
    const bool squeeze = op == "Squeeze";
    const std::size_t new_rank = squeeze ? rank - axes.size() : rank + axes.size();
    for (auto& a : axes) a = normalized(a, squeeze ? rank : new_rank);
    if (squeeze && axes.empty())
        for (std::size_t a = 0; a + 1 < rank; ++a)
            if (s.dims[a] == 1) axes.push_back(static_cast<std::int64_t>(a));
    std::sort(axes.begin(), axes.end());
    out.dims = s.dims;
    for (std::size_t k = 0; k < axes.size(); ++k) {
        const std::int64_t a = squeeze ? axes[axes.size() - 1 - k] : axes[k];
        if (squeeze) {
            keeps_features(a + 1 < static_cast<std::int64_t>(out.dims.size()) &&
                           out.dims[static_cast<std::size_t>(a)] == 1);
            out.dims.erase(out.dims.begin() + a);
            if (out.batch_axis == a) out.batch_axis = -1;
            if (out.batch_axis > a) --out.batch_axis;
        } else {
            keeps_features(a < static_cast<std::int64_t>(out.dims.size()));
            out.dims.insert(out.dims.begin() + a, 1);
            if (out.batch_axis >= a) ++out.batch_axis;
        }
    }
    out.cells = s.cells;  // size-1 axes leave the cells' order as is
    steps_[n.output(0)] = out;
}

// Gather (one index or a list) and Slice along step axes: the chosen layers.
void Importer::pick(const NodeProto& n, const Steps& s) {
    const std::size_t rank = s.dims.size();
    Steps cur = s;
    const auto constant = [&](int k) {
        std::vector<std::int64_t> out;
        if (n.input_size() <= k || n.input(k).empty()) return out;
        const auto v = m_.values(n.input(k));
        if (!v) m_.fail(n, "operand " + std::to_string(k) + " must be a constant");
        // Slice's open ends are INT64_MAX / INT64_MIN, beyond a double's exact integers.
        constexpr double big = 9.0e18;
        for (double x : *v)
            out.push_back(x >= big    ? std::numeric_limits<std::int64_t>::max()
                          : x <= -big ? std::numeric_limits<std::int64_t>::min() + 1
                                      : static_cast<std::int64_t>(x));
        return out;
    };
    // Picks along a step axis; the whole of any axis is no pick.
    const auto pick_axis = [&](std::size_t axis, const std::vector<std::int64_t>& chosen, bool drop) {
        std::vector<std::int64_t> all(static_cast<std::size_t>(cur.dims[axis]));
        std::iota(all.begin(), all.end(), 0);
        if (!drop && chosen == all) return;
        if (axis + 1 == cur.dims.size() || static_cast<int>(axis) == cur.batch_axis)
            m_.fail(n, "picks from the " + std::string(axis + 1 == cur.dims.size() ? "features" : "batch") +
                           " of '" + n.input(0) + "' " + dims_text(cur.dims) +
                           "; only the steps and directions of a recurrent node's outputs can be picked");
        choose(cur, axis, chosen, drop);
    };
    const auto in_range = [&](std::int64_t i, std::int64_t size) {
        if (i < 0) i += size;
        if (i < 0 || i >= size) m_.fail(n, "index " + std::to_string(i) + " is outside the axis");
        return i;
    };
    if (n.op_type() == "Gather") {
        const auto axis = static_cast<std::size_t>(normalized(attr_int(n, "axis", 0), rank));
        const auto index_dims = m_.dims(n.input(1));
        std::vector<std::int64_t> chosen = constant(1);
        for (auto& c : chosen) c = in_range(c, s.dims[axis]);
        if (!index_dims || index_dims->size() > 1)
            m_.fail(n, "the indices (operand 1) must be a constant scalar or list");
        pick_axis(axis, chosen, index_dims->empty());
    } else {
        const bool old = m_.opset() < 10;
        const auto starts = old ? attr_ints(n, "starts") : constant(1);
        const auto ends = old ? attr_ints(n, "ends") : constant(2);
        auto axes = old ? attr_ints(n, "axes") : constant(3);
        auto steps = old ? std::vector<std::int64_t>{} : constant(4);
        if (axes.empty())
            for (std::size_t a = 0; a < starts.size(); ++a) axes.push_back(static_cast<std::int64_t>(a));
        steps.resize(starts.size(), 1);
        for (std::size_t k = 0; k < starts.size() && k < ends.size() && k < axes.size(); ++k) {
            const auto axis = static_cast<std::size_t>(normalized(axes[k], rank));
            const std::int64_t size = s.dims[axis];
            if (steps[k] == 0) m_.fail(n, "a Slice step of 0");
            const auto clamp = [&](std::int64_t v, std::int64_t lo, std::int64_t hi) {
                if (v < 0) v += size;
                return std::max(lo, std::min(hi, v));
            };
            std::vector<std::int64_t> chosen;
            if (steps[k] > 0)
                for (std::int64_t i = clamp(starts[k], 0, size); i < clamp(ends[k], 0, size); i += steps[k])
                    chosen.push_back(i);
            else
                for (std::int64_t i = clamp(starts[k], -1, size - 1); i > clamp(ends[k], -1, size - 1);
                     i += steps[k])
                    chosen.push_back(i);
            if (chosen.empty()) m_.fail(n, "the Slice selects nothing");
            pick_axis(axis, chosen, false);
        }
    }
    steps_[n.output(0)] = cur;
}

}  // namespace pimdse::io::onnx_detail
