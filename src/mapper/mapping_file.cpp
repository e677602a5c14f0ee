#include "pimdse/mapper/mapping_file.hpp"

#include <fstream>
#include <sstream>
#include <unordered_map>

#include "pimdse/io/config.hpp"
#include "pimdse/io/yaml_reader.hpp"

namespace pimdse::mapper {

namespace yaml = io::yaml;

namespace {

using sim::PartDim;
using workload::LayerIndex;
using yaml::Field;
using yaml::Map;
using yaml::Reader;

const std::vector<std::string_view> kTopKeys{"network", "node_array", "segments", "layers"};
const std::vector<std::string_view> kSegmentKeys{"regions", "branches"};
const std::vector<std::string_view> kRegionKeys{"at", "shape"};
const std::vector<std::string_view> kLayerKeys{"name", "partitions", "order", "wr", "dl"};
const std::vector<std::string_view> kPartitionKeys{"B", "P", "Q", "K", "C"};
const std::vector<std::string_view> kLayoutKeys{"in", "out"};
constexpr std::int64_t kMaxNodes = 4096;

std::pair<std::int32_t, std::int32_t> int_pair(const Reader& r, const Field& f, std::int64_t lo) {
    const std::string want = "a list [rows, cols] of two integers";
    if (!f.node.IsSequence() || f.node.size() != 2) r.type_error(f, want);
    const auto items = r.list(f, want);
    return {static_cast<std::int32_t>(r.integer(items[0], lo, kMaxNodes)),
            static_cast<std::int32_t>(r.integer(items[1], lo, kMaxNodes))};
}

sim::DataLayout layout(const Reader& r, const Field& f) {
    if (f.node.IsScalar())
        if (auto l = sim::parse_data_layout(f.node.Scalar())) return *l;
    r.type_error(f, "a data layout BCHW, BHWC or BCHW[Cn] with n a power of two from 1 to 1048576");
}

sim::SegmentMapping read_segment(const Reader& r, const Field& f) {
    const Map m(r, f, kSegmentKeys);
    sim::SegmentMapping sm;
    for (const Field& region :
         r.list(m.require("regions", "a list of regions {at: [row, col], shape: [rows, cols]}"),
                "a list of regions {at: [row, col], shape: [rows, cols]}")) {
        const Map rm(r, region, kRegionKeys);
        const auto [row, col] = int_pair(r, rm.require("at", "the region's first row and column"), 0);
        const auto [rows, cols] = int_pair(r, rm.require("shape", "the region's rows and columns"), 1);
        sm.regions.push_back(sim::Region{row, col, rows, cols});
    }
    for (const Field& b : r.list(m.require("branches", "the region index of each branch"),
                                 "a list with the region index of each branch"))
        sm.branch_region.push_back(static_cast<std::int32_t>(r.integer(b, 0, kMaxNodes)));
    return sm;
}

sim::LayerMapping read_layer(const Reader& r, const Map& m) {
    sim::LayerMapping lm;
    if (const auto parts = m.get("partitions")) {
        const Map pm(r, *parts, kPartitionKeys);
        for (PartDim d : sim::kAllPartDims) {
            if (const auto p = pm.get(sim::to_string(d))) {
                const auto [h, w] = int_pair(r, *p, 1);
                lm.part(d) = {h, w};
            }
        }
    }
    if (const auto order = m.get("order")) {
        const std::string text = order->node.IsScalar() ? order->node.Scalar() : std::string();
        std::array<bool, sim::kPartDims> seen{};
        bool ok = text.size() == sim::kPartDims;
        for (std::size_t i = 0; ok && i < text.size(); ++i) {
            const auto d = sim::parse_part_dim(text[i]);
            ok = d.has_value() && !seen[static_cast<std::size_t>(*d)];
            if (ok) {
                seen[static_cast<std::size_t>(*d)] = true;
                lm.order[i] = *d;
            }
        }
        if (!ok) r.type_error(*order, "the spatial order as a permutation of BPQKC, e.g. BPQKC or KCBPQ");
    }
    if (const auto wr = m.get("wr")) lm.wr = static_cast<std::int32_t>(r.integer(*wr, 1, kMaxNodes));
    if (const auto dl = m.get("dl")) {
        const Map dm(r, *dl, kLayoutKeys);
        if (const auto in = dm.get("in")) lm.dl_in = layout(r, *in);
        if (const auto out = dm.get("out")) lm.dl_out = layout(r, *out);
    }
    return lm;
}

}  // namespace

sim::NetworkMapping parse_mapping(const std::string& text, const std::string& file_name,
                                  const MappingTarget& target) {
    const workload::Network& net = *target.network;
    const workload::Segmentation& seg = *target.segmentation;
    const Reader r(file_name);
    const Map top(r, r.load(text, yaml::key_list(kTopKeys)), kTopKeys);

    const Field name = top.require("network", "the name of the network the mapping is for");
    if (r.string(name) != net.name())
        r.value_error(name, "the network's name '" + net.name() + "'", yaml::describe(name.node));
    const Field array = top.require("node_array", "the node array [rows, cols] the mapping runs on");
    const auto [rows, cols] = int_pair(r, array, 1);
    if (rows != target.node_rows || cols != target.node_cols)
        r.value_error(array,
                      "the hardware's node array [" + std::to_string(target.node_rows) + ", " +
                          std::to_string(target.node_cols) + "]",
                      "[" + std::to_string(rows) + ", " + std::to_string(cols) + "]");

    sim::NetworkMapping out;
    std::vector<std::size_t> segment_lines;
    const Field segments = top.require("segments", "a list with one entry per segment");
    for (const Field& s : r.list(segments, "a list with one entry per segment")) {
        out.segments.push_back(read_segment(r, s));
        segment_lines.push_back(s.line);
    }
    if (out.segments.size() != seg.segments.size())
        r.value_error(segments,
                      std::to_string(seg.segments.size()) + " segments (the network's decomposition)",
                      std::to_string(out.segments.size()));

    // Layers are given by name, in any order, each exactly once.
    std::unordered_map<std::string, LayerIndex> by_name;
    for (LayerIndex l = 0; l < net.size(); ++l) by_name.emplace(net.layer(l).name, l);
    out.layers.resize(static_cast<std::size_t>(net.size()));
    std::vector<std::size_t> layer_lines(static_cast<std::size_t>(net.size()), 0);
    const Field layers = top.require("layers", "a list with one entry per layer");
    for (const Field& entry : r.list(layers, "a list with one entry per layer")) {
        const Map m(r, entry, kLayerKeys);
        const Field lname = m.require("name", "the layer's name");
        const auto it = by_name.find(r.string(lname));
        if (it == by_name.end())
            r.error(lname, "no layer '" + r.string(lname) + "' in network '" + net.name() + "'");
        auto& line = layer_lines[static_cast<std::size_t>(it->second)];
        if (line != 0)
            r.error(lname, "layer '" + r.string(lname) + "' is mapped twice (first on line " +
                               std::to_string(line) + ")");
        line = entry.line;
        out.layers[static_cast<std::size_t>(it->second)] = read_layer(r, m);
    }
    for (LayerIndex l = 0; l < net.size(); ++l)
        if (layer_lines[static_cast<std::size_t>(l)] == 0)
            r.error(layers, "layer " + std::to_string(l) + " '" + net.layer(l).name + "' has no mapping");

    if (const auto bad = sim::check_mapping(net, seg, out, rows, cols)) {
        const std::size_t line = bad->layer >= 0     ? layer_lines[static_cast<std::size_t>(bad->layer)]
                                 : bad->segment >= 0 ? segment_lines[static_cast<std::size_t>(bad->segment)]
                                                     : layers.line;
        throw InputError(SourceLocation{file_name, line, 0}, "",
                         "invalid mapping (" + std::string(sim::to_string(bad->rule)) + "): " + bad->message);
    }
    return out;
}

sim::NetworkMapping read_mapping_file(const std::filesystem::path& path, const MappingTarget& target) {
    return parse_mapping(io::read_text_file(path), path.string(), target);
}

std::string to_yaml(const sim::NetworkMapping& mapping, const MappingTarget& target) {
    const workload::Network& net = *target.network;
    std::ostringstream out;
    out << "# pimdse mapping (docs/mapping.md)\n"
        << "network: " << net.name() << '\n'
        << "node_array: [" << target.node_rows << ", " << target.node_cols << "]\n"
        << "segments:\n";
    for (std::size_t s = 0; s < mapping.segments.size(); ++s) {
        const sim::SegmentMapping& sm = mapping.segments[s];
        out << "  - regions: [";
        for (std::size_t i = 0; i < sm.regions.size(); ++i) {
            const sim::Region& g = sm.regions[i];
            out << (i ? ", " : "") << "{at: [" << g.row << ", " << g.col << "], shape: [" << g.rows << ", "
                << g.cols << "]}";
        }
        out << "]\n    branches: [";
        for (std::size_t b = 0; b < sm.branch_region.size(); ++b)
            out << (b ? ", " : "") << sm.branch_region[b];
        out << "]  # segment " << s << '\n';
    }
    out << "layers:\n";
    for (LayerIndex l = 0; l < net.size(); ++l) {
        const sim::LayerMapping& m = mapping.layers[static_cast<std::size_t>(l)];
        const workload::Layer& layer = net.layer(l);
        out << "  - name: " << layer.name << "  # " << workload::to_string(layer.kind) << " B" << layer.B
            << " K" << layer.K << " C" << layer.C << " P" << layer.P << " Q" << layer.Q << " R" << layer.R
            << " S" << layer.S << "\n    partitions: {";
        bool first = true;
        for (PartDim d : sim::kAllPartDims) {
            const sim::Partition p = m.part(d);
            if (p.h == 1 && p.w == 1) continue;
            out << (first ? "" : ", ") << sim::to_string(d) << ": [" << p.h << ", " << p.w << "]";
            first = false;
        }
        out << "}\n    order: ";
        for (PartDim d : m.order) out << sim::to_string(d);
        // Quoted: a "[" would open a flow sequence inside the flow mapping.
        out << "\n    wr: " << m.wr << "\n    dl: {in: \"" << sim::to_string(m.dl_in) << "\", out: \""
            << sim::to_string(m.dl_out) << "\"}\n";
    }
    return out.str();
}

}  // namespace pimdse::mapper
