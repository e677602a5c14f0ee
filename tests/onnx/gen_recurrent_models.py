"""Recurrent models (LSTM, GRU, RNN) for tests/onnx/recurrent_test.cpp, unrolled by the importer
over their time steps (src/io/onnx_recurrent.cpp). The counts beside each builder are worked out
by hand from the layers the importer writes per step (docs/workloads.md, "ONNX import"):

  a gate    x_t W_g^T + Wb_g (matmul H x I, bias H), h_{t-1} R_g^T + Rb_g (matmul H x H, bias H),
            their add (H ops) with the gate's activation folded (not counted);
  step 0    from a zero state: the input projections only, the activation folded into them;
  LSTM      4 gates; c_t = f*c + i*g (2 muls and an add: 3H ops), tanh(c_t) (an activation
            layer: H ops), h_t = o*tanh(c_t) (a mul: H ops); at step 0 c_0 = i*g, no forget gate;
  GRU       3 gates; r*h (H), h - n (an add: H), z*(h - n) (H), n + that (H); step 0: z*n, n - z*n;
  RNN       1 gate.

Elementwise layers count 1 op per output element (Layer::ops). Parameters count every step's
matmuls (weights + bias): the layer model has no weights shared between layers.

Imported by gen_onnx.py, which writes them to OUTDIR/recurrent/<name>.onnx.
"""

from onnx import TensorProto, helper

from gen_user_models import Graph

n = helper.make_node


def recurrent(g, op, x, name, hidden, inputs, directions=1, outputs=("Y", "Y_h"), **attrs):
    """A recurrent node with weights W [D, gates*H, I], R [D, gates*H, H], B [D, 2*gates*H]."""
    gates = {"LSTM": 4, "GRU": 3, "RNN": 1}[op]
    w = g.weight(name + ".W", [directions, gates * hidden, inputs])
    r = g.weight(name + ".R", [directions, gates * hidden, hidden])
    b = g.weight(name + ".B", [directions, 2 * gates * hidden])
    outs = [name + "." + o if o else "" for o in outputs]
    g.nodes.append(n(op, [x, w, r, b], outs, name=name, hidden_size=hidden, **attrs))
    return outs


def squeeze(g, x, out, axes):
    return g.add("Squeeze", [x, g.const(out + ".axes", axes, [len(axes)], TensorProto.INT64)], out)


def classifier(g, x, features, classes=10):
    return g.add("Gemm", [x, g.weight("fc.w", [classes, features]), g.weight("fc.b", [classes])], "fc", transB=1)


def lstm_classifier():
    """LSTM forward, T = 3, batch 1, I = 8, H = 16, Y_h -> Squeeze -> Gemm 16 -> 10.

    step 0  gates i, o, g: 3 x (MACs 16*8 = 128, params 128 + 16)    MACs 384    params 432
            c = i*g, tanh(c), h = o*tanh(c): 3 x 16 ops                   ops 48, 6 layers
    step t  4 gates x (128 + 16*16 = 256 MACs, params 144 + 272, add 16 ops)
            = MACs 4*16*(8 + 16) = 1,536, params 1,664, ops 64
            ig, fc, c, tanh(c), h: 5 x 16 = 80 ops                          17 layers
    fc      Gemm 16 -> 10 + bias                                 MACs 160    params 170
    total   MACs 384 + 2*1,536 + 160 = 3,616; params 432 + 2*1,664 + 170 = 3,930;
            ops 3,616 + 48 + 2*144 = 3,952; 6 + 2*17 + 1 = 41 layers.
    The model's own parameters: W 512 + R 1,024 + B 128 + fc 170 = 1,834.
    """
    g = Graph("lstm_classifier")
    _, yh = recurrent(g, "LSTM", "x", "lstm", 16, 8)
    return g.model([3, 1, 8], classifier(g, squeeze(g, yh, "last", [0]), 16))


def gru_classifier():
    """GRU forward (linear_before_reset 0), T = 3, batch 1, I = 8, H = 16, Y_h -> Gemm.

    step 0  z, n: 2 x 128 MACs, params 2 x 144; z*n, n - z*n: 32 ops      4 layers
    step t  z, r, n: 3 x (128 + 256) = 1,152 MACs, params 3 x 416 = 1,248;
            adds of z, r, n 48 ops; r*h, h - n, z*(h - n), n + that: 64 ops  13 layers
    fc      MACs 160, params 170
    total   MACs 256 + 2*1,152 + 160 = 2,720; params 288 + 2*1,248 + 170 = 2,954;
            ops 2,720 + 32 + 2*112 = 2,976; 4 + 2*13 + 1 = 31 layers.
    """
    g = Graph("gru_classifier")
    _, yh = recurrent(g, "GRU", "x", "gru", 16, 8)
    return g.model([3, 1, 8], classifier(g, squeeze(g, yh, "last", [0]), 16))


def rnn_last_step():
    """RNN (Relu), layout 1 ([batch, steps, features]), T = 3, I = 8, H = 16; the last step of
    Y [B, T, 1, H] taken by Gather(axis 1, -1), Squeeze, Gemm.

    step 0  h = Relu(x W^T + b): MACs 128, params 144                     1 layer
    step t  128 + 256 = 384 MACs, params 416, add 16 ops                   3 layers
    fc      MACs 160, params 170
    total   MACs 128 + 2*384 + 160 = 1,056; params 144 + 2*416 + 170 = 1,146; 8 layers.
    """
    g = Graph("rnn_last_step")
    y, _ = recurrent(g, "RNN", "x", "rnn", 16, 8, layout=1, activations=["Relu"], outputs=("Y", ""))
    last = g.add("Gather", [y, g.const("minus1", [-1], [], TensorProto.INT64)], "last", axis=1)
    return g.model([1, 3, 8], classifier(g, squeeze(g, last, "last.squeeze", [1]), 16))


def bilstm_classifier():
    """Bidirectional LSTM as PyTorch exports batch_first=True: x [1, 3, 8] -> Transpose [1, 0, 2]
    -> LSTM (T = 3, I = 8, H = 16); Y_h [2, 1, 16] -> Transpose [1, 0, 2] -> Reshape [1, 32]
    (a concat of the forward's h_2 and the backward's h_0) -> Gemm 32 -> 10.

    per direction as lstm_classifier: MACs 3,456, params 3,760, 40 layers
    concat 32 ops; fc MACs 320, params 330
    total MACs 2*3,456 + 320 = 7,232; params 2*3,760 + 330 = 7,850; 82 layers.
    """
    g = Graph("bilstm_classifier")
    x = g.add("Transpose", ["x"], "steps_first", perm=[1, 0, 2])
    _, yh = recurrent(g, "LSTM", x, "lstm", 16, 8, directions=2, direction="bidirectional")
    h = g.add("Transpose", [yh], "yh.t", perm=[1, 0, 2])
    h = g.add("Reshape", [h, g.const("yh.shape", [1, 32], [2], TensorProto.INT64)], "yh.cat")
    return g.model([1, 3, 8], classifier(g, h, 32))


def lstm2_seq():
    """Two stacked LSTMs over a symbolic sequence ['T', 1, 16] (--seq-len 8): the first's
    Y [T, 1, 1, 32] squeezed to [T, 1, 32] is the second's X; its Y_h feeds a Gemm 32 -> 10.

    lstm1 (I 16, H 32) step 0 3*32*16 = 1,536; steps 1-7 7 x 4*32*48 = 43,008   MACs 44,544
    lstm2 (I 32, H 32) step 0 3*32*32 = 3,072; steps 1-7 7 x 4*32*64 = 57,344   MACs 60,416
    fc    MACs 320
    total MACs 105,280; 2 x (6 + 7*17) + 1 = 251 layers.
    """
    g = Graph("lstm2_seq")
    y, _ = recurrent(g, "LSTM", "x", "lstm1", 32, 16, outputs=("Y", ""))
    x2 = squeeze(g, y, "lstm1.seq", [1])
    _, yh = recurrent(g, "LSTM", x2, "lstm2", 32, 32)
    return g.model(["T", 1, 16], classifier(g, squeeze(g, yh, "last", [0]), 32))


def lstm_fixed_steps():
    """An LSTM whose Y is reshaped to the fixed [4, 16]: --seq-len 6 cannot apply."""
    g = Graph("lstm_fixed_steps")
    y, _ = recurrent(g, "LSTM", "x", "lstm", 16, 8, outputs=("Y", ""))
    return g.model([4, 1, 8], g.add("Reshape", [y, g.const("shape", [4, 16], [2], TensorProto.INT64)], "steps"))


def lstm_after_matmul():
    """An LSTM whose X is a MatMul over the whole sequence: no step can be sliced from it."""
    g = Graph("lstm_after_matmul")
    x = g.add("MatMul", ["x", g.weight("proj.w", [8, 8])], "proj")
    _, yh = recurrent(g, "LSTM", x, "lstm", 16, 8)
    return g.model([1, 3, 8], yh)


def y_whole():
    """A Gemm-like MatMul over all steps of Y: refused (no layer joins the steps)."""
    g = Graph("y_whole")
    y, _ = recurrent(g, "RNN", "x", "rnn", 16, 8, outputs=("Y", ""))
    y = squeeze(g, y, "seq", [1])
    return g.model([3, 1, 8], g.add("MatMul", [y, g.weight("out.w", [16, 4])], "out"))


MODELS = [lstm_classifier, gru_classifier, rnn_last_step, bilstm_classifier, lstm2_seq, lstm_fixed_steps,
          lstm_after_matmul, y_whole]
