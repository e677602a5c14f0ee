// LSTM, GRU and RNN unrolled over their time steps (src/io/onnx_recurrent.cpp): each model of
// tests/onnx/gen_recurrent_models.py imports with the MACs, parameters and ops worked out by
// hand in its builder's docstring, and the 2-layer LSTM maps on the NicePIM 4x4 system
// (tests/cli/onnx_cli.sh).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pimdse/core/error.hpp"
#include "pimdse/io/network_file.hpp"
#include "pimdse/io/onnx_import.hpp"
#include "support.hpp"

namespace pimdse::test {
namespace {

using workload::Activation;
using workload::LayerIndex;
using workload::LayerKind;

workload::Network model(const std::string& name, const io::OnnxImportOptions& o = {}) {
    return io::import_onnx(models_dir() / "recurrent" / (name + ".onnx"), o);
}

const workload::Layer& named(const workload::Network& net, const std::string& name) {
    const auto i = net.find(name);
    if (!i) throw std::runtime_error("no layer " + name);
    return net.layer(*i);
}

std::string refusal(const std::string& name, const io::OnnxImportOptions& o = {}) {
    try {
        (void)model(name, o);
    } catch (const InputError& e) {
        return e.what();
    }
    return "imported";
}

TEST(Recurrent, LstmUnrollsIntoGatesAndCellProducts) {
    const auto net = model("lstm_classifier");
    EXPECT_EQ(net.size(), 41);
    EXPECT_EQ(net.total_macs(), 3'616);
    EXPECT_EQ(net.total_ops(), 3'952);
    // Every step's matmuls count their weights: W three times at step 0 (no forget gate from a
    // zero state) and four times per later step, R four times per later step; the ONNX model
    // holds 1,834 parameters.
    EXPECT_EQ(net.total_parameters(), 3'930);
    EXPECT_EQ(net.input(), (workload::TensorShape{8, 1, 1}));  // one step's x_t
    // A later step: 4H(I + H) MACs in its projections.
    std::int64_t step1 = 0;
    for (const auto& l : net.layers())
        if (l.name.rfind("lstm.t1.", 0) == 0) step1 += l.macs();
    EXPECT_EQ(step1, 4 * 16 * (8 + 16));
    const auto& gate = named(net, "lstm.t1.f");
    EXPECT_EQ(gate.kind, LayerKind::add);
    EXPECT_EQ(gate.activation, Activation::sigmoid);
    EXPECT_EQ(gate.inputs, (std::vector<LayerIndex>{*net.find("lstm.t1.f.x"), *net.find("lstm.t1.f.h")}));
    EXPECT_EQ(named(net, "lstm.t1.f.h").inputs, (std::vector<LayerIndex>{*net.find("lstm.t0.h")}));
    EXPECT_EQ(named(net, "lstm.t1.f.x").inputs, (std::vector<LayerIndex>{workload::kNetworkInput}));
    EXPECT_TRUE(named(net, "lstm.t1.f.x").bias);
    EXPECT_EQ(named(net, "lstm.t0.g").activation, Activation::tanh);  // folded into the projection
    EXPECT_EQ(named(net, "lstm.t0.c").kind, LayerKind::mul);          // c_0 = i * g
    EXPECT_EQ(named(net, "lstm.t2.c").kind, LayerKind::add);          // f * c_1 + i * g
    EXPECT_EQ(named(net, "lstm.t2.fc").inputs,
              (std::vector<LayerIndex>{*net.find("lstm.t2.f"), *net.find("lstm.t1.c")}));
    EXPECT_EQ(named(net, "lstm.t2.c_act").activation, Activation::tanh);
    EXPECT_EQ(named(net, "fc").inputs, (std::vector<LayerIndex>{*net.find("lstm.t2.h")}));
    EXPECT_EQ(named(net, "fc").macs(), 160);
}

TEST(Recurrent, GruResetsBeforeTheRecurrentProjection) {
    const auto net = model("gru_classifier");
    EXPECT_EQ(net.size(), 31);
    EXPECT_EQ(net.total_macs(), 2'720);
    EXPECT_EQ(net.total_parameters(), 2'954);
    EXPECT_EQ(net.total_ops(), 2'976);
    // linear_before_reset = 0: (r * h_{t-1}) R_n^T.
    EXPECT_EQ(named(net, "gru.t1.n.h").inputs, (std::vector<LayerIndex>{*net.find("gru.t1.rh")}));
    EXPECT_EQ(named(net, "gru.t1.n").activation, Activation::tanh);
    EXPECT_EQ(named(net, "gru.t1.z").activation, Activation::sigmoid);
    EXPECT_EQ(named(net, "gru.t2.h").inputs,
              (std::vector<LayerIndex>{*net.find("gru.t2.n"), *net.find("gru.t2.zd")}));
}

TEST(Recurrent, RnnLayoutOneActivationsAndTheLastStepOfY) {
    const auto net = model("rnn_last_step");
    EXPECT_EQ(net.size(), 8);
    EXPECT_EQ(net.total_macs(), 1'056);
    EXPECT_EQ(net.total_parameters(), 1'146);
    EXPECT_EQ(named(net, "rnn.t0.h").activation, Activation::relu);
    EXPECT_EQ(named(net, "rnn.t2.h").activation, Activation::relu);
    EXPECT_EQ(named(net, "fc").inputs, (std::vector<LayerIndex>{*net.find("rnn.t2.h")}));
}

TEST(Recurrent, BidirectionalRunsTheBackwardDirectionFromTheLastStep) {
    const auto net = model("bilstm_classifier");
    EXPECT_EQ(net.size(), 82);
    EXPECT_EQ(net.total_macs(), 7'232);
    EXPECT_EQ(net.total_parameters(), 7'850);
    // The backward direction starts at x_2 from a zero state and ends at x_0.
    EXPECT_EQ(named(net, "lstm.bw.t2.c").kind, LayerKind::mul);
    EXPECT_EQ(named(net, "lstm.bw.t0.c").kind, LayerKind::add);
    EXPECT_EQ(named(net, "lstm.bw.t1.i.h").inputs, (std::vector<LayerIndex>{*net.find("lstm.bw.t2.h")}));
    // Y_h's Transpose + Reshape [1, 32]: the forward's h_2 beside the backward's h_0.
    const auto& cat = named(net, "yh.cat");
    EXPECT_EQ(cat.kind, LayerKind::concat);
    EXPECT_EQ(cat.inputs, (std::vector<LayerIndex>{*net.find("lstm.fw.t2.h"), *net.find("lstm.bw.t0.h")}));
    EXPECT_EQ(named(net, "fc").C, 32);
}

TEST(Recurrent, StackedLstmTakesTheSequenceLengthFromSeqLen) {
    EXPECT_NE(
        refusal("lstm2_seq").find("dimension 0 is symbolic ('T'); give the sequence length with --seq-len"),
        std::string::npos);
    io::OnnxImportOptions o;
    o.seq_len = 8;
    const auto net = model("lstm2_seq", o);
    EXPECT_EQ(net.size(), 251);
    EXPECT_EQ(net.total_macs(), 105'280);
    EXPECT_EQ(net.batch(), 1);
    // The second LSTM reads the first one's h_t at each step.
    EXPECT_EQ(named(net, "lstm2.t5.i.x").inputs, (std::vector<LayerIndex>{*net.find("lstm1.t5.h")}));
    o.seq_len = 4;  // fewer steps: 3 fewer of each (17 layers, 6,144 + 8,192 MACs)
    EXPECT_EQ(model("lstm2_seq", o).total_macs(), 105'280 - 4 * (6'144 + 8'192));
    // --batch sets the batch, the axis after the steps.
    o.batch = 2;
    EXPECT_EQ(model("lstm2_seq", o).batch(), 2);
}

TEST(Recurrent, SeqLenReplacesAFixedLengthUnlessTheGraphDependsOnIt) {
    io::OnnxImportOptions o;
    o.seq_len = 5;  // two more steps of 1,536 MACs and 17 layers
    const auto net = model("lstm_classifier", o);
    EXPECT_EQ(net.total_macs(), 3'616 + 2 * 1'536);
    EXPECT_EQ(net.size(), 41 + 2 * 17);
    o.seq_len = 6;
    const std::string msg = refusal("lstm_fixed_steps", o);
    EXPECT_NE(msg.find("--seq-len 6 does not fit this model: its input 'x' fixes the sequence length at 4"),
              std::string::npos)
        << msg;
}

TEST(Recurrent, RoundTripsThroughTheNetworkFormat) {
    const auto net = model("bilstm_classifier");
    expect_same_network(net, io::parse_network(io::emit_network(net), "bilstm_classifier"));
}

TEST(Recurrent, RefusesWhatHasNoPerStepForm) {
    EXPECT_NE(refusal("lstm_after_matmul")
                  .find("X ('proj') is a whole sequence, one layer over all steps; the "
                        "layer model has no slice"),
              std::string::npos);
    EXPECT_NE(
        refusal("y_whole").find("reads 'seq' [3, 1, 16], the per-step outputs of node 'rnn' (op type RNN)"),
        std::string::npos);
}

}  // namespace
}  // namespace pimdse::test
