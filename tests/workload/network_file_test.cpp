// Network files: the documented example, defaults, the batch override, and every
// malformed file of tests/data/malformed/networks with its file, line, key and message.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "pimdse/core/error.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/workload/segments.hpp"
#include "support.hpp"

namespace pimdse::io {
namespace {

using workload::LayerKind;
using workload::Network;
using workload::TensorShape;

std::string read_text(const std::filesystem::path& p) {
    std::ifstream in(p);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

/// The YAML block that follows the `<!-- example: ... -->` marker in docs/workloads.md.
std::string docs_example() {
    const std::string doc = read_text(test::source_dir() / "docs" / "workloads.md");
    const auto marker = doc.find("<!-- example: tiny_example");
    if (marker == std::string::npos) return {};
    const auto begin = doc.find("```yaml\n", marker);
    const auto end = doc.find("```", begin + 8);
    if (begin == std::string::npos || end == std::string::npos) return {};
    return doc.substr(begin + 8, end - begin - 8);
}

TEST(NetworkFile, DocumentedExampleHasTheDocumentedCounts) {
    const std::string text = docs_example();
    ASSERT_FALSE(text.empty()) << "docs/workloads.md lost its example block";
    const Network net = parse_network(text, "docs/workloads.md");
    EXPECT_EQ(net.name(), "tiny_example");
    EXPECT_EQ(net.info().source, "hand-written example of docs/workloads.md");
    EXPECT_EQ(net.batch(), 2);
    EXPECT_EQ(net.size(), 12);
    // Hand computation (docs/workloads.md): per sample
    //   stem 16*3*32*32*3*3 = 442,368     block.a 32*16*8*8*3*3 = 294,912
    //   block.b 32*32*8*8*3*3 = 589,824   block.proj 32*16*8*8 = 32,768
    //   left 16*32*8*8 = 32,768           right 16*(32/16)*8*8*1*3 = 6,144
    //   fc 10*32 = 320                    total 1,399,104, x batch 2
    EXPECT_EQ(net.total_macs(), 2 * 1'399'104);
    EXPECT_EQ(net.total_weights(), 15'696);
    EXPECT_EQ(net.total_parameters(), 15'696 + 2 * 16 + 10);
    const auto& pool = net.layer(1);
    EXPECT_EQ(pool.stride_h, 2);  // defaults to the kernel
    EXPECT_EQ(pool.output_shape(), (TensorShape{16, 16, 16}));
    const auto& right = net.layer(*net.find("right"));
    EXPECT_EQ(right.R, 1);
    EXPECT_EQ(right.S, 3);
    EXPECT_EQ(right.pad_w, 1);
    EXPECT_EQ(right.groups, 16);
    EXPECT_EQ(net.layer(*net.find("gap")).R, 8);
    EXPECT_EQ(net.layer(*net.find("prob")).kind, LayerKind::softmax);
    const auto seg = workload::decompose(net);
    EXPECT_EQ(seg.segments.size(), 9u);
    EXPECT_EQ(seg.multi_branch_segments(), 2);
    EXPECT_EQ(seg.max_branches(), 2);
}

TEST(NetworkFile, DefaultsAndShorthands) {
    const Network net = parse_network(R"(network: t
input: {channels: 8, height: 10, width: 10}
layers:
  - {name: a, type: conv, out_channels: 8, kernel: [3, 1], padding: [1, 0], groups: depthwise, bias: true}
  - {name: b, type: pool, mode: avg, kernel: [2, 5], stride: [2, 1]}
  - {name: c, type: norm, mode: layer}
  - {name: d, type: activation, function: gelu}
  - {name: e, type: matmul, out_features: 3, flatten: true}
  - {name: f, type: add, inputs: [e, e]}
)",
                                      "inline.yaml");
    EXPECT_EQ(net.batch(), 1);  // default
    EXPECT_EQ(net.layer(0).inputs, (std::vector<workload::LayerIndex>{workload::kNetworkInput}));
    EXPECT_EQ(net.layer(0).groups, 8);
    EXPECT_EQ(net.layer(0).output_shape(), (TensorShape{8, 10, 10}));
    EXPECT_EQ(net.layer(1).output_shape(), (TensorShape{8, 5, 6}));          // floor((10-2)/2)+1, (10-5)/1+1
    EXPECT_EQ(net.layer(2).inputs, (std::vector<workload::LayerIndex>{1}));  // previous layer
    EXPECT_EQ(net.layer(3).activation, workload::Activation::gelu);
    EXPECT_EQ(net.layer(4).C, 8 * 5 * 6);
    EXPECT_EQ(net.layer(5).inputs.size(), 2u);
}

TEST(NetworkFile, SequenceInputAndAttention) {
    const Network net = parse_network(R"(network: attention
batch: 4
input: {tokens: 16, hidden: 32}
layers:
  - {name: q, type: matmul, inputs: input, out_features: 8}
  - {name: k, type: matmul, inputs: input, out_features: 8}
  - {name: v, type: matmul, inputs: input, out_features: 8}
  - {name: s, type: matmul, inputs: [q, k], transpose_b: true}
  - {name: p, type: softmax}
  - {name: o, type: matmul, inputs: [p, v]}
)",
                                      "inline.yaml");
    EXPECT_EQ(net.input(), (TensorShape{32, 16, 1}));
    EXPECT_EQ(net.layer(3).output_shape(), (TensorShape{16, 16, 1}));
    EXPECT_EQ(net.layer(5).output_shape(), (TensorShape{8, 16, 1}));
    EXPECT_EQ(net.total_macs(), 4 * (3 * 16 * 8 * 32 + 16 * 16 * 8 + 16 * 8 * 16));
    EXPECT_EQ(net.total_weights(), 3 * 8 * 32);
    // One head: o is ordered with everything, so it is a cut; before it, v is independent of
    // the q, k, s, p DAG: segments [q k s p | v], [o].
    const auto seg = workload::decompose(net);
    ASSERT_EQ(seg.segments.size(), 2u);
    ASSERT_EQ(seg.segments[0].branches.size(), 2u);
    EXPECT_EQ(seg.segments[0].branches[0].layers, (std::vector<workload::LayerIndex>{0, 1, 3, 4}));
    EXPECT_EQ(seg.segments[0].branches[1].layers, (std::vector<workload::LayerIndex>{2}));
}

TEST(NetworkFile, BatchOverride) {
    const std::string text = docs_example();
    NetworkReadOptions options;
    options.batch = 7;
    const Network net = parse_network(text, "docs/workloads.md", options);
    EXPECT_EQ(net.batch(), 7);
    EXPECT_EQ(net.total_macs(), 7 * 1'399'104);
    options.batch = 0;
    EXPECT_THROW((void)parse_network(text, "docs/workloads.md", options), InputError);
}

TEST(NetworkFile, MissingFileIsAnInputError) {
    try {
        (void)read_network_file("/nonexistent/net.yaml");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(e.where().file, "/nonexistent/net.yaml");
        EXPECT_NE(std::string(e.what()).find("expected an existing file, got no such file"),
                  std::string::npos);
    }
}

TEST(NetworkFile, OneDocumentOnly) {
    try {
        (void)parse_network("network: a\n---\nnetwork: b\n", "two.yaml");
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(e.where().line, 3u);
        EXPECT_NE(std::string(e.what()).find("one YAML document"), std::string::npos);
    }
}

// What the shared strict reader (src/io/yaml_reader) adds for network files.
TEST(NetworkFile, ReaderEdgeCases) {
    const std::string head = "network: t\ninput: {channels: 4, height: 8, width: 8}\nlayers:\n";
    const Network net = parse_network(
        head + "  - {name: a, type: conv, out_channels: +4, kernel: 3, bias: false}\n", "plus.yaml");
    EXPECT_EQ(net.layer(0).K, 4);  // YAML 1.2 integers may carry a '+'
    EXPECT_FALSE(net.layer(0).bias);
    const std::pair<const char*, const char*> cases[] = {
        {"  - {name: a, type: conv, out_channels: 4, kernel: [3, 3, 3]}\n",
         "key 'layers[0].kernel': expected an integer or a list [height, width], got a list of 3"},
        {"  - {name: a, type: conv, out_channels: 4, kernel: [3, x]}\n",
         "key 'layers[0].kernel[1]': expected an integer in [1, 2147483647], got x"},
        {"  - {name: a, type: conv, out_channels: 4, kernel: 3, bias: True}\n",
         "key 'layers[0].bias': expected true or false, got True"},
        {"  - {name: a, type: conv, out_channels: 4, kernel: 3, groups: many}\n",
         "key 'layers[0].groups': expected an integer in [1, 2147483647] or depthwise, got many"},
        {"  - {name: a, out_channels: 4}\n",
         "key 'layers[0].type': expected one of conv, matmul, pool, add, concat, norm, softmax, activation, "
         "mul, deconv or upsample, got no such key (it is required)"},
        {"  - [a, conv]\n",
         "key 'layers[0]': expected a layer mapping with at least name and type, got a list"},
        {"  - {name: a, type: pool, mode: max, kernel: 2, padding: 1, mode: avg}\n",
         "key 'layers[0].mode': expected each key once, got 'mode' again (first on line 4)"},
    };
    for (const auto& [layer, message] : cases) {
        try {
            (void)parse_network(head + layer, "edge.yaml");
            ADD_FAILURE() << "accepted: " << layer;
        } catch (const InputError& e) {
            EXPECT_EQ(std::string(e.what()), std::string("edge.yaml:4: ") + message);
        }
    }
}

struct Malformed {
    const char* file;
    std::size_t line;
    const char* key;
    const char* problem;
};

// Each file of tests/data/malformed/networks, where its error is and what it says.
const Malformed kMalformed[] = {
    {"unknown_key.yaml", 10, "layers[1].strides",
     "expected a key among name, type, inputs, out_channels, kernel, stride, padding, padding_end, groups, "
     "dilation, bias, norm, activation, weight_bits, activation_bits, got 'strides'"},
    {"wrong_type.yaml", 5, "layers[0].kernel", "expected an integer in [1, 2147483647], got three"},
    {"quoted_integer.yaml", 5, "layers[0].out_channels", "got the string \"16\""},
    {"missing_key.yaml", 6, "layers[1].out_channels",
     "expected an integer in [1, 2147483647], got no such key (it is required)"},
    {"missing_layers.yaml", 2, "layers",
     "expected a non-empty list of layers, got no such key (it is required)"},
    {"nonpositive_dim.yaml", 6, "layers[1].out_channels", "expected an integer in [1, 2147483647], got 0"},
    {"negative_input.yaml", 5, "input.height", "expected an integer in [1, 2147483647], got -224"},
    {"unknown_kind.yaml", 7, "layers[2].type",
     "expected one of conv, matmul, pool, add, concat, norm, softmax, activation, mul, deconv or upsample, "
     "got "
     "dense"},
    {"unknown_producer.yaml", 7, "layers[2].inputs[1]", "unknown producer 'conv9'"},
    {"add_shape_mismatch.yaml", 7, "layers[2].inputs",
     "layer 'sum': an add needs equally shaped operands: 'b' (128x28x28) vs 'input' (64x56x56)"},
    {"concat_shape_mismatch.yaml", 7, "layers[2].inputs",
     "layer 'join': a concat joins channels of equal height x width: 'b1' (32x28x28) vs 'b2' (32x26x26)"},
    {"attention_mismatch.yaml", 7, "layers[2].inputs", "the operands do not chain"},
    {"cycle.yaml", 5, "layers[0].inputs", "the producers form a cycle: a -> b -> c -> a"},
    {"forward_reference.yaml", 5, "layers[0].inputs", "producer 'b' is defined later (line 6)"},
    {"duplicate_name.yaml", 7, "layers[2].name",
     "duplicate layer name 'conv1' (first used by layers[0] on line 5)"},
    {"duplicate_key.yaml", 9, "layers[0].kernel",
     "expected each key once, got 'kernel' again (first on line 8)"},
    {"kernel_too_large.yaml", 5, "layers[0].kernel",
     "layer 'conv1': kernel 7x7 does not fit the padded input 5x5"},
    {"groups_mismatch.yaml", 5, "layers[0].groups", "groups 3 must divide the input channels 64"},
    // The format's traps (docs/workloads.md): a classifier without flatten; adaptive pooling.
    {"missing_flatten.yaml", 7, "layers[2].flatten",
     "layer 'fc': a matmul without flatten applies at each of the 7x7 positions of its input 8x7x7 (that "
     "many "
     "times the MACs of a classifier): set flatten: true"},
    {"adaptive_too_large.yaml", 6, "layers[1].output",
     "layer 'adapt': adaptive output 9x9 must lie in 1x1..7x7 (the input plane)"},
    {"adaptive_with_kernel.yaml", 6, "layers[0].kernel",
     "an adaptive pool (output) derives its windows from the output size; 'kernel' does not apply"},
    {"bad_boolean.yaml", 5, "layers[0].bias", "expected true or false, got yes"},
    {"yaml_syntax.yaml", 6, "", "expected valid YAML, got a syntax error"},
    {"empty.yaml", 1, "",
     "expected a mapping with the keys network, description, source, batch, mode, input, layers, got an "
     "empty "
     "file"},
};

TEST(NetworkFile, MalformedFilesNameFileLineKeyAndProblem) {
    const auto dir = test::source_dir() / "tests" / "data" / "malformed" / "networks";
    std::size_t files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        if (entry.path().extension() == ".yaml") ++files;
    EXPECT_EQ(files, std::size(kMalformed)) << "every malformed file needs a row in kMalformed";
    for (const Malformed& m : kMalformed) {
        const auto path = dir / m.file;
        SCOPED_TRACE(m.file);
        try {
            (void)read_network_file(path);
            ADD_FAILURE() << "accepted";
        } catch (const InputError& e) {
            const std::string what = e.what();
            EXPECT_EQ(e.where().file, path.string());
            EXPECT_EQ(e.where().line, m.line) << what;
            EXPECT_EQ(e.key(), m.key) << what;
            EXPECT_NE(what.find(m.problem), std::string::npos) << what;
            EXPECT_NE(what.find(m.file), std::string::npos) << what;
            EXPECT_EQ(what.find('\n'), std::string::npos) << "messages are one line";
        }
    }
}

TEST(NetworkFile, CliExpectationsListEveryMalformedFile) {
    // tests/cli runs `pimdse network info` on each line of EXPECTED.txt.
    const auto dir = test::source_dir() / "tests" / "data" / "malformed" / "networks";
    const std::string expected = read_text(dir / "EXPECTED.txt");
    for (const Malformed& m : kMalformed)
        EXPECT_NE(expected.find(std::string(m.file) + "\t"), std::string::npos) << m.file;
}

}  // namespace
}  // namespace pimdse::io
