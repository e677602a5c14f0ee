// ONNX import against the network library: the ONNX form of every library network (and of
// the corner cases) must give the network its YAML file gives, field by field.
#include <gtest/gtest.h>

#include "pimdse/core/error.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/io/onnx_import.hpp"
#include "support.hpp"

namespace pimdse::test {
namespace {

using io::import_onnx;
using io::read_network_file;

class Library : public ::testing::TestWithParam<std::string> {};

TEST_P(Library, ImportedOnnxEqualsYamlFile) {
    const auto yaml = read_network_file(library_dir() / (GetParam() + ".yaml"));
    const auto onnx = import_onnx(models_dir() / (GetParam() + ".onnx"));
    expect_same_network(yaml, onnx);
}

TEST_P(Library, NetworkFilesReadOnnxPathsDirectly) {
    // The one place workloads are read dispatches on the extension.
    const auto via_reader = read_network_file(models_dir() / (GetParam() + ".onnx"));
    expect_same_network(read_network_file(library_dir() / (GetParam() + ".yaml")), via_reader);
}

TEST_P(Library, EmittedYamlReadsBackEqual) {
    const auto onnx = import_onnx(models_dir() / (GetParam() + ".onnx"));
    const auto again = io::parse_network(io::emit_network(onnx, {"round trip"}), "emitted.yaml");
    expect_same_network(onnx, again);
}

INSTANTIATE_TEST_SUITE_P(Onnx, Library, ::testing::ValuesIn(library_names()));

class Corner : public ::testing::TestWithParam<std::string> {};

TEST_P(Corner, ImportedOnnxEqualsYaml) {
    const auto yaml = read_network_file(models_dir() / (GetParam() + ".yaml"));
    const auto onnx = import_onnx(models_dir() / (GetParam() + ".onnx"));
    expect_same_network(yaml, onnx);
    expect_same_network(onnx, io::parse_network(io::emit_network(onnx), "emitted.yaml"));
}

INSTANTIATE_TEST_SUITE_P(Onnx, Corner,
                         ::testing::Values("corner_convs", "corner_branches", "corner_attention"));

TEST(OnnxCorners, CeilModeGroupsDilationAndAttentionAreKept) {
    const auto convs = import_onnx(models_dir() / "corner_convs.onnx");
    const auto& pool = convs.layer(*convs.find("pool_ceil"));
    EXPECT_TRUE(pool.ceil_mode);
    EXPECT_EQ(pool.H, 54);
    EXPECT_EQ(pool.P, 27);  // SqueezeNet's 54 -> 27: floor would give 26
    const auto& grouped = convs.layer(*convs.find("grouped"));
    EXPECT_EQ(grouped.groups, 4);
    EXPECT_EQ(grouped.macs(), grouped.K * (grouped.C / 4) * grouped.P * grouped.Q * 9);
    const auto& dilated = convs.layer(*convs.find("dilated"));
    EXPECT_EQ(dilated.dilation_h, 2);
    EXPECT_EQ(dilated.P, dilated.H);  // span 5, padding 2
    EXPECT_EQ(convs.layer(*convs.find("depthwise")).groups, 64);

    const auto att = import_onnx(models_dir() / "corner_attention.onnx");
    const auto& scores = att.layer(*att.find("head0.scores"));
    EXPECT_TRUE(scores.weights_are_activations);
    EXPECT_TRUE(scores.transpose_b);
    EXPECT_EQ(scores.K, 16);  // tokens x tokens
    EXPECT_EQ(scores.C, 16);  // head width 32 / 2
    EXPECT_EQ(att.layer(*att.find("ffn1")).activation, workload::Activation::gelu);
    EXPECT_TRUE(att.layer(*att.find("head0.q")).bias);   // MatMul + Add folded into one layer
    EXPECT_FALSE(att.layer(*att.find("head0.v")).bias);  // no Add after it
    EXPECT_EQ(workload::decompose(att).max_branches(), 2);
}

TEST(OnnxAttention, BatchedHeadsImportAsTheLibrarysPerHeadLayers) {
    // Exporters fuse the 12 heads' projections and batch their products over a head axis; the
    // layer model has no head axis, so each head becomes its own branch as in bert_base.yaml.
    const auto yaml = read_network_file(library_dir() / "bert_base.yaml");
    const auto onnx = import_onnx(models_dir() / "bert_base_batched.onnx");
    EXPECT_EQ(onnx.size(), yaml.size());
    EXPECT_EQ(onnx.total_macs(), yaml.total_macs());
    EXPECT_EQ(onnx.total_weights(), yaml.total_weights());
    EXPECT_EQ(onnx.total_parameters(), yaml.total_parameters());
    EXPECT_EQ(onnx.total_ops(), yaml.total_ops());
    const auto a = workload::decompose(yaml);
    const auto b = workload::decompose(onnx);
    ASSERT_EQ(b.segments.size(), a.segments.size());
    for (std::size_t s = 0; s < a.segments.size(); ++s) {
        ASSERT_EQ(b.segments[s].branches.size(), a.segments[s].branches.size()) << "segment " << s;
        for (std::size_t br = 0; br < a.segments[s].branches.size(); ++br) {
            const auto macs = [](const workload::Network& net, const workload::Branch& branch) {
                std::int64_t sum = 0;
                for (auto l : branch.layers) sum += net.layer(l).macs();
                return sum;
            };
            EXPECT_EQ(b.segments[s].branches[br].layers.size(), a.segments[s].branches[br].layers.size());
            EXPECT_EQ(macs(onnx, b.segments[s].branches[br]), macs(yaml, a.segments[s].branches[br]));
        }
    }
    const auto& scores = onnx.layer(*onnx.find("enc1.scores.head3"));
    EXPECT_TRUE(scores.transpose_b);
    EXPECT_EQ(onnx.layer(scores.inputs[0]).name, "enc1.q.head3");
    EXPECT_EQ(onnx.layer(scores.inputs[1]).name, "enc1.k.head3");
    EXPECT_TRUE(onnx.layer(scores.inputs[0]).bias);
    EXPECT_EQ(onnx.layer(*onnx.find("enc1.concat")).inputs.size(), 12u);
}

TEST(OnnxOptions, BatchReplacesTheModelsBatch) {
    io::NetworkReadOptions two;
    two.batch = 2;
    const auto yaml2 = read_network_file(library_dir() / "resnet18.yaml", two);
    expect_same_network(yaml2, import_onnx(models_dir() / "resnet18_batch2.onnx"));
    io::OnnxImportOptions four;
    four.batch = 4;
    const auto onnx4 = import_onnx(models_dir() / "resnet18_batch2.onnx", four);
    EXPECT_EQ(onnx4.batch(), 4);
    EXPECT_EQ(onnx4.total_macs(), 2 * yaml2.total_macs());
}

TEST(OnnxOptions, SymbolicSequenceNeedsSeqLen) {
    const auto path = models_dir() / "bert_base_symbolic.onnx";
    try {
        (void)import_onnx(path);
        FAIL() << "a symbolic token count was accepted";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find(
                      path.string() + ": graph input 'x': dimension 1 is symbolic ('tokens'); give the "
                                      "sequence length with --seq-len"),
                  std::string::npos)
            << e.what();
    }
    io::OnnxImportOptions o;
    o.seq_len = 128;
    expect_same_network(read_network_file(library_dir() / "bert_base.yaml"), import_onnx(path, o));
    o.seq_len = 64;
    const auto short_seq = import_onnx(path, o);
    EXPECT_EQ(short_seq.input().height, 64);
    EXPECT_LT(short_seq.total_macs(),
              read_network_file(library_dir() / "bert_base.yaml").total_macs() / 2 + 1);
}

TEST(OnnxOptions, SkipUnsupportedPassesANodeThroughAndSaysSo) {
    const auto path = models_dir() / "malformed" / "unsupported_op.onnx";
    io::OnnxImportOptions o;
    o.skip_unsupported = true;
    std::vector<std::string> notes;
    o.note = [&](const std::string& line) { notes.push_back(line); };
    const auto net = import_onnx(path, o);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(notes[0], path.string() +
                            ": skipped node 'negate' (op type Neg): its output is its input 'c' "
                            "[1, 4, 8, 8]");
    ASSERT_EQ(net.size(), 2);
    EXPECT_EQ(net.layer(1).inputs, std::vector<workload::LayerIndex>{0});  // the pool reads the conv
}

}  // namespace
}  // namespace pimdse::test
