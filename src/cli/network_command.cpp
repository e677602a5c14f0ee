// `pimdse network info FILE...`: what a workload file holds: per layer the loop bounds,
// stride, padding, own quantisation bits, MACs, weights and its segment.branch (NicePIM
// III-B), then a summary line.

#include <CLI/CLI.hpp>

#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pimdse/cli/commands.hpp"
#include "pimdse/core/error.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/io/onnx_import.hpp"
#include "pimdse/io/output_file.hpp"
#include "pimdse/workload/network.hpp"
#include "pimdse/workload/segments.hpp"

#include "option_checks.hpp"

namespace pimdse::cli {

namespace {

struct NetworkInfoOptions {
    std::vector<std::string> files;
    bool summary = false;
    std::optional<std::int64_t> batch;
};

template <class... Args>
std::string format(const char* fmt, Args... args) {
    const int n = std::snprintf(nullptr, 0, fmt, args...);
    std::string out(static_cast<std::size_t>(n), '\0');
    std::snprintf(out.data(), out.size() + 1, fmt, args...);
    return out;
}

long long ll(std::int64_t v) {
    return static_cast<long long>(v);
}

std::string summary_line(const workload::Network& net, const workload::Segmentation& seg) {
    return format(
        "%s: batch %lld, %d layers, %.3f GMACs, %.3f M weights (%.3f M parameters), %zu segments, "
        "%d multi-branch, max %d branches",
        net.name().c_str(), ll(net.batch()), net.size(), static_cast<double>(net.total_macs()) / 1e9,
        static_cast<double>(net.total_weights()) / 1e6, static_cast<double>(net.total_parameters()) / 1e6,
        seg.segments.size(), seg.multi_branch_segments(), seg.max_branches());
}

// "1", "1x0" (rows x columns); "0/1" when the padding after the last row or column differs
// from the padding before the first; "sep" for SEP padding (docs/workloads.md).
std::string padding_text(const workload::Layer& l) {
    if (l.sep_padding) return "sep";
    const auto pair = [](std::int64_t h, std::int64_t w) {
        return h == w ? std::to_string(h) : std::to_string(h) + "x" + std::to_string(w);
    };
    const std::string begin = pair(l.pad_h, l.pad_w);
    if (l.pad_h_end == l.pad_h && l.pad_w_end == l.pad_w) return begin;
    return begin + "/" + pair(l.pad_h_end, l.pad_w_end);
}

// "5/8": a layer's own weight / activation bits, "-" for the design point's.
std::string bits_text(const workload::Layer& l) {
    if (!l.weight_bits && !l.activation_bits) return "-";
    const auto one = [](std::int32_t b) { return b ? std::to_string(b) : std::string("-"); };
    return one(l.weight_bits) + "/" + one(l.activation_bits);
}

void print_table(std::ostream& out, const std::string& file, const workload::Network& net,
                 const workload::Segmentation& seg) {
    out << "network " << net.name() << " (" << file << "), input " << workload::to_string(net.input())
        << ", batch " << net.batch() << '\n';
    if (!net.info().source.empty()) out << "source: " << net.info().source << '\n';
    std::size_t width = 4;
    for (const auto& l : net.layers()) width = std::max(width, l.name.size());
    const int w = static_cast<int>(width);
    out << format("%5s  %-*s  %-10s  %-7s  %4s %5s %5s %4s %4s %2s %2s %6s %7s %5s  %14s  %11s\n", "#", w,
                  "name", "kind", "seg.br", "B", "K", "C", "P", "Q", "R", "S", "stride", "pad", "W/A", "MACs",
                  "weights");
    for (workload::LayerIndex i = 0; i < net.size(); ++i) {
        const auto& l = net.layer(i);
        const std::string where = std::to_string(seg.segment_of[static_cast<std::size_t>(i)]) + "." +
                                  std::to_string(seg.branch_of[static_cast<std::size_t>(i)]);
        const std::string stride = l.stride_h == l.stride_w
                                       ? std::to_string(l.stride_h)
                                       : std::to_string(l.stride_h) + "x" + std::to_string(l.stride_w);
        out << format(
            "%5d  %-*s  %-10s  %-7s  %4lld %5lld %5lld %4lld %4lld %2lld %2lld %6s %7s %5s  %14lld  %11lld\n",
            i, w, l.name.c_str(), std::string(workload::to_string(l.kind)).c_str(), where.c_str(), ll(l.B),
            ll(l.K), ll(l.C), ll(l.P), ll(l.Q), ll(l.R), ll(l.S), stride.c_str(), padding_text(l).c_str(),
            bits_text(l).c_str(), ll(l.macs()), ll(l.weights()));
    }
    out << "summary " << summary_line(net, seg) << "\n\n";
}

int run_info(const NetworkInfoOptions& options) {
    io::NetworkReadOptions read;
    read.batch = options.batch;
    for (const std::string& file : options.files) {
        const workload::Network net = io::read_network_file(file, read);
        const workload::Segmentation seg = workload::decompose(net);
        if (options.summary)
            std::cout << summary_line(net, seg) << '\n';
        else
            print_table(std::cout, file, net, seg);
    }
    return 0;
}

struct NetworkImportOptions {
    std::string model;
    std::string output;
    std::optional<std::int64_t> batch;
    std::optional<std::int64_t> seq_len;
    bool skip_unsupported = false;
};

// ONNX model -> network file: the summary goes to stderr so that stdout is the YAML alone
// when no -o is given.
int run_import(const NetworkImportOptions& options) {
    io::OnnxImportOptions import;
    import.batch = options.batch;
    import.seq_len = options.seq_len;
    import.skip_unsupported = options.skip_unsupported;
    // Refused before the import's work; checked again when written.
    const std::array inputs{std::filesystem::path(options.model)};
    if (!options.output.empty()) io::check_output_path(options.output, inputs);
    const workload::Network net = io::import_onnx(options.model, import);
    const std::string text =
        io::emit_network(net, {net.name() + ": imported by `pimdse network import` from " + options.model});
    const workload::Segmentation seg = workload::decompose(net);
    if (options.output.empty())
        std::cout << text;
    else
        io::write_output_file(options.output, text, inputs);
    std::cerr << "imported " << summary_line(net, seg)
              << (options.output.empty() ? std::string() : " -> " + options.output) << '\n';
    return 0;
}

}  // namespace

void add_network_command(CLI::App& app, Action& action) {
    CLI::App* network = app.add_subcommand("network", "Workload DNNs: layers, MACs, weights, segments");
    network->require_subcommand(1);
    CLI::App* info = network->add_subcommand(
        "info",
        "Print each network's layers (loop bounds B K C P Q R S, stride, padding, bits, MACs, "
        "weights, segment.branch) and a summary");
    auto options = std::make_shared<NetworkInfoOptions>();
    info->add_option("FILE", options->files, "network files (inputs/networks/*.yaml)")->required();
    info->add_flag("--summary", options->summary,
                   "print one summary line per network instead of the layer table");
    info->add_option("--batch", options->batch, "override the batch size of every network")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{2147483647}));
    info->callback([&action, options] { action = [options] { return run_info(*options); }; });

    CLI::App* import = network->add_subcommand(
        "import", "Import an ONNX model as a network file (docs/workloads.md, \"ONNX import\")");
    auto imp = std::make_shared<NetworkImportOptions>();
    import->add_option("MODEL", imp->model, "the ONNX model (.onnx)")->required();
    import->add_option("-o,--output", imp->output, "write the network file here (default: stdout)")
        ->check(output_file());
    import->add_option("--batch", imp->batch, "the batch size (replaces the model's first input dimension)")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{2147483647}));
    import->add_option("--seq-len", imp->seq_len, "the token count of a [batch, tokens, hidden] input")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{2147483647}));
    import->add_flag("--skip-unsupported", imp->skip_unsupported,
                     "pass unsupported shape-preserving nodes through (each is reported) instead of failing");
    import->callback([&action, imp] { action = [imp] { return run_import(*imp);
};
}  // namespace pimdse::cli
);
}

}  // namespace pimdse::cli
