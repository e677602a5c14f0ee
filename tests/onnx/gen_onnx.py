#!/usr/bin/env python3
"""Write ONNX models for the ONNX import tests (tests/onnx/), with Debian's python3-onnx.

usage: /usr/bin/python3 tests/onnx/gen_onnx.py OUTDIR

OUTDIR receives
  * <name>.onnx for every network of the library, built from the same layer definitions as
    inputs/networks/*.yaml (tools/gen_networks.py), so the two cannot drift;
  * corner-case networks (grouped and dilated convs, ceil-mode and padded pools, branches and
    concats, attention, standalone norms and activations) as <name>.onnx beside <name>.yaml;
  * malformed/<case>.onnx: models the importer must refuse, one problem each;
  * user/<name>.onnx: models as users export them (gen_user_models.py), user/refused/<case>.onnx;
  * recurrent/<name>.onnx: LSTM, GRU and RNN models (gen_recurrent_models.py);
  * weights.bin: the (empty) external-data file every weight tensor points at. The importer
    needs the shapes of the weights, not their values, and a 550 MB VGG-16 helps no test.
"""

import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools"))

import gen_networks  # noqa: E402
import gen_recurrent_models  # noqa: E402
import gen_user_models  # noqa: E402
import onnx  # noqa: E402
from onnx import TensorProto, helper  # noqa: E402

ACTIVATIONS = {"relu": "Relu", "leaky_relu": "LeakyRelu", "sigmoid": "Sigmoid", "tanh": "Tanh"}


def pair(v):
    return (v, v) if isinstance(v, int) else tuple(v)


class OnnxWriter:
    """Turns a gen_networks.Net into ONNX nodes, tracking each tensor's C x H x W and rank."""

    def __init__(self, net, batch=1, symbolic_tokens=False):
        self.net = net
        self.nodes, self.inits = [], []
        self.tensor, self.shape, self.rank = {}, {}, {}
        self.domains = {"": 17}
        keys = dict(net.input_shape)
        if "tokens" in keys:
            dims = [batch, "tokens" if symbolic_tokens else keys["tokens"], keys["hidden"]]
            self.shape["input"], self.rank["input"] = (keys["hidden"], keys["tokens"], 1), 3
        else:
            dims = [batch, keys["channels"], keys["height"], keys["width"]]
            self.shape["input"], self.rank["input"] = (keys["channels"], keys["height"], keys["width"]), 4
        self.input = helper.make_tensor_value_info("x", TensorProto.FLOAT, dims)
        self.tensor["input"] = "x"
        self.batch = batch

    def weight(self, name, dims):
        t = TensorProto()
        t.name, t.data_type = name, TensorProto.FLOAT
        t.dims.extend(dims)
        t.data_location = TensorProto.EXTERNAL
        e = t.external_data.add()
        e.key, e.value = "location", "weights.bin"
        self.inits.append(t)
        return name

    def const(self, name, values):
        self.inits.append(helper.make_tensor(name, TensorProto.FLOAT, [], values))
        return name

    def node(self, op, inputs, name, domain="", **attrs):
        self.nodes.append(helper.make_node(op, inputs, [name + ":out"], name=name, domain=domain, **attrs))
        return name + ":out"

    def activation(self, x, function, name):
        if function == "relu6":
            return self.node("Clip", [x, self.const(name + ".min", [0.0]), self.const(name + ".max", [6.0])], name)
        if function == "gelu":
            self.domains["com.microsoft"] = 1
            return self.node("Gelu", [x], name, domain="com.microsoft")
        return self.node(ACTIVATIONS[function], [x], name)

    def post(self, x, keys, name, k):
        if keys.get("norm") == "batch":
            x = self.node("BatchNormalization", [x] + [self.weight(name + ".bn." + p, [k]) for p in
                                                         ("scale", "shift", "mean", "var")], name + ".bn")
        if keys.get("activation"):
            x = self.activation(x, keys["activation"], name + ".act")
        return x

    def layer(self, name, type_, inputs, keys):
        ins = [self.tensor[i] for i in inputs]
        c, h, w = self.shape[inputs[0]]
        rank = self.rank[inputs[0]]
        if type_ == "conv":
            k, (kh, kw) = keys["out_channels"], pair(keys["kernel"])
            (sh, sw), (ph, pw) = pair(keys.get("stride", 1)), pair(keys.get("padding", 0))
            (dh, dw) = pair(keys.get("dilation", 1))
            g = c if keys.get("groups") == "depthwise" else keys.get("groups", 1)
            args = [ins[0], self.weight(name + ".w", [k, c // g, kh, kw])]
            if keys.get("bias"):
                args.append(self.weight(name + ".b", [k]))
            y = self.node("Conv", args, name, kernel_shape=[kh, kw], strides=[sh, sw], pads=[ph, pw, ph, pw],
                          group=g, dilations=[dh, dw])
            out = (k, (h + 2 * ph - (dh * (kh - 1) + 1)) // sh + 1, (w + 2 * pw - (dw * (kw - 1) + 1)) // sw + 1)
            return self.post(y, keys, name, k), out, 4
        if type_ == "matmul" and len(inputs) == 2:
            b = ins[1]
            cb, hb, wb = self.shape[inputs[1]]
            if keys.get("transpose_b"):
                b = self.node("Transpose", [b], name + ".kT", perm=[0, 2, 1])
            y = self.node("MatMul", [ins[0], b], name)
            k = hb * wb if keys.get("transpose_b") else cb
            return self.post(y, keys, name, k), (k, h, w), 3
        if type_ == "matmul":
            k = keys["out_features"]
            if rank == 3:
                y = self.node("MatMul", [ins[0], self.weight(name + ".w", [c, k])], name)
                if keys.get("bias"):
                    y = self.node("Add", [y, self.weight(name + ".b", [k])], name + ".bias")
                return self.post(y, keys, name, k), (k, h, w), 3
            x = ins[0]
            if rank == 4:
                x = self.node("Flatten", [x], name + ".flatten", axis=1)
            args = [x, self.weight(name + ".w", [k, c * h * w])]
            if keys.get("bias"):
                args.append(self.weight(name + ".b", [k]))
            return self.post(self.node("Gemm", args, name, transB=1), keys, name, k), (k, 1, 1), 2
        if type_ == "pool":
            mode = keys["mode"]
            if keys.get("global"):
                op = "GlobalMaxPool" if mode == "max" else "GlobalAveragePool"
                return self.node(op, ins, name), (c, 1, 1), 4
            (kh, kw) = pair(keys["kernel"])
            (sh, sw), (ph, pw) = pair(keys.get("stride", keys["kernel"])), pair(keys.get("padding", 0))
            ceil = 1 if keys.get("ceil_mode") else 0
            y = self.node("MaxPool" if mode == "max" else "AveragePool", ins, name, kernel_shape=[kh, kw],
                          strides=[sh, sw], pads=[ph, pw, ph, pw], ceil_mode=ceil)

            def extent(n, k_, s, p):
                out = -(-(n + 2 * p - k_) // s) + 1 if ceil else (n + 2 * p - k_) // s + 1
                return out - 1 if ceil and (out - 1) * s >= n + p else out
            return y, (c, extent(h, kh, sh, ph), extent(w, kw, sw, pw)), 4
        if type_ == "add":
            y = ins[0]
            for i, other in enumerate(ins[1:]):
                y = self.node("Add", [y, other], name if i == len(ins) - 2 else name + ".part%d" % i)
            return self.post(y, keys, name, c), (c, h, w), rank
        if type_ == "concat":
            total = sum(self.shape[i][0] for i in inputs)
            return self.node("Concat", ins, name, axis=1 if rank == 4 else -1), (total, h, w), rank
        if type_ == "norm":
            mode = keys["mode"]
            if mode == "local_response":
                return self.node("LRN", ins, name, size=5), (c, h, w), rank
            if mode == "layer":
                args = ins + [self.weight(name + ".scale", [c]), self.weight(name + ".shift", [c])]
                return self.node("LayerNormalization", args, name, axis=-1), (c, h, w), rank
            args = ins + [self.weight(name + "." + p, [c]) for p in ("scale", "shift", "mean", "var")]
            return self.node("BatchNormalization", args, name), (c, h, w), rank
        if type_ == "softmax":
            return self.node("Softmax", ins, name, axis=1 if rank == 4 else -1), (c, h, w), rank
        if type_ == "activation":
            return self.activation(ins[0], keys["function"], name), (c, h, w), rank
        raise ValueError("no ONNX form for layer type " + type_)

    def model(self):
        for name, type_, inputs, keys in self.net.layers:
            self.tensor[name], self.shape[name], self.rank[name] = self.layer(name, type_, inputs, keys)
        last = self.net.layers[-1][0]
        c, h, w = self.shape[last]
        dims = {4: [self.batch, c, h, w], 3: [self.batch, h, c], 2: [self.batch, c]}[self.rank[last]]
        out = helper.make_tensor_value_info(self.tensor[last], TensorProto.FLOAT, dims)
        graph = helper.make_graph(self.nodes, self.net.name, [self.input], [out], initializer=self.inits,
                                  doc_string=self.net.source)
        return helper.make_model(graph, opset_imports=[helper.make_opsetid(d, v) for d, v in self.domains.items()])


# ---------------------------------------------------------------------------------------
# Corner cases: each is a gen_networks.Net, written both as YAML and as ONNX.

def corner_convs():
    net = gen_networks.Net("corner_convs", "grouped, depthwise and dilated convs; ceil-mode and padded pools",
                           "tests/onnx/gen_onnx.py", [("channels", 3), ("height", 54), ("width", 54)])
    gen_networks.conv(net, "stem", 32, 3, norm="batch", activation="relu")
    net.layer("pool_ceil", "pool", mode="max", kernel=3, stride=2, ceil_mode=True)  # SqueezeNet: 54 -> 27
    gen_networks.conv(net, "grouped", 64, 3, groups=4, norm=None, activation="relu6", bias=True)
    gen_networks.conv(net, "depthwise", 64, 3, groups="depthwise", norm="batch", activation=None)
    gen_networks.conv(net, "dilated", 64, 3, padding=2, dilation=2, norm=None, activation="leaky_relu")
    net.layer("act_sigmoid", "activation", function="sigmoid")
    net.layer("bn", "norm", mode="batch")
    net.layer("pool_avg", "pool", mode="avg", kernel=3, stride=2, padding=1)
    net.layer("pool_max_ceil", "pool", mode="max", kernel=2, stride=2, ceil_mode=True)
    net.layer("fc", "matmul", out_features=10, flatten=True, bias=True, activation="relu")
    net.layer("tanh", "activation", function="tanh")  # a second activation stays a layer
    return net


def corner_branches():
    net = gen_networks.Net("corner_branches", "parallel branches merged by concat and add, global max pool",
                           "tests/onnx/gen_onnx.py", [("channels", 8), ("height", 16), ("width", 16)])
    x = gen_networks.conv(net, "stem", 16, 3, norm=None, activation="relu", bias=True)
    a = gen_networks.conv(net, "a", 8, 1, inputs=x, norm=None, activation=None)
    gen_networks.conv(net, "b1", 4, 1, inputs=x, norm=None, activation="relu")
    b = gen_networks.conv(net, "b2", 8, 3, inputs="b1", norm="batch", activation=None)
    p = net.layer("c.pool", "pool", x, mode="max", kernel=3, stride=1, padding=1)
    cat = net.layer("concat", "concat", [a, b, p])
    y = gen_networks.conv(net, "proj", 32, 1, inputs=cat, norm=None, activation=None)
    z = gen_networks.conv(net, "side", 32, 3, stride=1, inputs=cat, norm=None, activation=None)
    net.layer("merge", "add", [y, z], activation="relu")
    net.layer("gpool", "pool", mode="max", **{"global": True})
    net.layer("fc1", "matmul", out_features=20, activation="relu")
    net.layer("fc2", "matmul", out_features=5)
    return net


def corner_attention(tokens=16, hidden=32, heads=2):
    net = gen_networks.Net("corner_attention", "two-head self-attention block with its feed-forward layers",
                           "tests/onnx/gen_onnx.py", [("tokens", tokens), ("hidden", hidden)])
    d = hidden // heads
    contexts = []
    for h in range(heads):
        p = "head%d" % h
        q = net.layer(p + ".q", "matmul", "input", out_features=d, bias=True)
        k = net.layer(p + ".k", "matmul", "input", out_features=d, bias=True)
        v = net.layer(p + ".v", "matmul", "input", out_features=d)
        net.layer(p + ".scores", "matmul", [q, k], transpose_b=True)
        s = net.layer(p + ".softmax", "softmax")
        contexts.append(net.layer(p + ".context", "matmul", [s, v]))
    net.layer("concat", "concat", contexts)
    a = net.layer("out", "matmul", out_features=hidden, bias=True)
    net.layer("add", "add", [a, "input"])
    n = net.layer("norm", "norm", mode="layer")
    net.layer("ffn1", "matmul", out_features=4 * hidden, bias=True, activation="gelu")
    f = net.layer("ffn2", "matmul", out_features=hidden, bias=True, activation="relu")
    net.layer("ffn_add", "add", [f, n], activation="relu")
    net.layer("gelu", "activation", function="gelu")
    return net


CORNERS = [corner_convs, corner_branches, corner_attention]


def bert_batched(tokens=128, hidden=768, heads=12, ffn=3072, layers=12):
    """BERT-base as exporters write it: fused q/k/v projections, heads split by Reshape and
    Transpose, batched per-head MatMuls, scale and mask, heads merged by Transpose and Reshape."""
    nodes, inits, width = [], [], hidden // heads
    n = helper.make_node

    def weight(name, dims):
        inits.append(w(name, dims))
        return name

    inits.append(helper.make_tensor("split", TensorProto.INT64, [4], [1, tokens, heads, width]))
    inits.append(helper.make_tensor("merge", TensorProto.INT64, [3], [1, tokens, hidden]))
    inits.append(helper.make_tensor("scale", TensorProto.FLOAT, [], [float(width) ** 0.5]))
    weight("mask", [1, 1, 1, tokens])

    def linear(x, name, k_in, k_out):
        nodes.append(n("MatMul", [x, weight(name + ".w", [k_in, k_out])], [name + ":mm"], name=name))
        nodes.append(n("Add", [name + ":mm", weight(name + ".b", [k_out])], [name], name=name + ".bias"))
        return name

    def norm(x, name):
        nodes.append(n("LayerNormalization", [x, weight(name + ".g", [hidden]), weight(name + ".b", [hidden])],
                       [name], name=name, axis=-1))
        return name

    x = "x"
    for e in range(1, layers + 1):
        p = "enc%d." % e
        heads_of = {}
        for kind, perm in (("q", [0, 2, 1, 3]), ("k", [0, 2, 3, 1]), ("v", [0, 2, 1, 3])):
            y = linear(x, p + kind, hidden, hidden)
            nodes.append(n("Reshape", [y, "split"], [y + ":split"], name=p + kind + ".split"))
            nodes.append(n("Transpose", [y + ":split"], [y + ":heads"], name=p + kind + ".heads", perm=perm))
            heads_of[kind] = y + ":heads"
        nodes += [n("MatMul", [heads_of["q"], heads_of["k"]], [p + "scores"], name=p + "scores"),
                  n("Div", [p + "scores", "scale"], [p + "scaled"], name=p + "scale"),
                  n("Add", [p + "scaled", "mask"], [p + "masked"], name=p + "mask"),
                  n("Softmax", [p + "masked"], [p + "softmax"], name=p + "softmax", axis=-1),
                  n("MatMul", [p + "softmax", heads_of["v"]], [p + "context"], name=p + "context"),
                  n("Transpose", [p + "context"], [p + "merged"], name=p + "merge", perm=[0, 2, 1, 3]),
                  n("Reshape", [p + "merged", "merge"], [p + "concat"], name=p + "concat")]
        a = linear(p + "concat", p + "attn_out", hidden, hidden)
        nodes.append(n("Add", [a, x], [p + "attn_add"], name=p + "attn_add"))
        n1 = norm(p + "attn_add", p + "attn_norm")
        f = linear(n1, p + "ffn1", hidden, ffn)
        nodes.append(n("Gelu", [f], [p + "gelu"], name=p + "gelu", domain="com.microsoft"))
        f2 = linear(p + "gelu", p + "ffn2", ffn, hidden)
        nodes.append(n("Add", [f2, n1], [p + "ffn_add"], name=p + "ffn_add"))
        x = norm(p + "ffn_add", p + "ffn_norm")
    inp = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, tokens, hidden])
    out = helper.make_tensor_value_info(x, TensorProto.FLOAT, [1, tokens, hidden])
    g = helper.make_graph(nodes, "bert_base", [inp], [out], initializer=inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("com.microsoft", 1)])


# ---------------------------------------------------------------------------------------
# Malformed models: one problem each (tests/onnx/onnx_import_test.cpp lists the messages).

def tiny(nodes, inits=(), inputs=None, outputs=None, opset=17):
    inputs = inputs or [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 4, 8, 8])]
    outputs = outputs or [helper.make_tensor_value_info(nodes[-1].output[0], TensorProto.FLOAT, None)]
    for o in outputs:  # the checker wants a shape field, even an unknown one
        o.type.tensor_type.shape.SetInParent()
    g = helper.make_graph(nodes, "malformed", inputs, outputs, initializer=list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


def w(name, dims, dtype=TensorProto.FLOAT):
    t = TensorProto()
    t.name, t.data_type = name, dtype
    t.dims.extend(dims)
    t.data_location = TensorProto.EXTERNAL
    e = t.external_data.add()
    e.key, e.value = "location", "weights.bin"
    return t


def conv(name, x="x", pads=(1, 1, 1, 1), out=None):
    return helper.make_node("Conv", [x, name + ".w"], [out or name], name=name, kernel_shape=[3, 3],
                            pads=list(pads))


def malformed():
    n = helper.make_node
    cases = {}
    cases["unsupported_op"] = tiny([conv("c", out="c"), n("Neg", ["c"], ["neg"], name="negate"),
                                    n("GlobalAveragePool", ["neg"], ["y"], name="gap")], [w("c.w", [4, 4, 3, 3])])
    scale = helper.make_tensor("scale", TensorProto.FLOAT, [], [0.1])
    cases["qdq_float16_weights"] = tiny(
        [n("DequantizeLinear", ["c.wq", "scale"], ["c.w"], name="c.w.dq"),
         n("Conv", ["x", "c.w"], ["y"], name="c", kernel_shape=[3, 3], pads=[1, 1, 1, 1])],
        [w("c.wq", [4, 4, 3, 3], TensorProto.FLOAT16), scale])
    cases["two_inputs"] = tiny([n("Add", ["x", "z"], ["y"], name="sum")],
                               inputs=[helper.make_tensor_value_info(v, TensorProto.FLOAT, [1, 4, 8, 8])
                                       for v in ("x", "z")])
    cases["symbolic_tokens"] = tiny(
        [n("Softmax", ["x"], ["y"], name="s", axis=-1)],
        inputs=[helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, "tokens", 32])])
    shape = helper.make_tensor("shape", TensorProto.INT64, [3], [1, 4, 64])
    cases["reshape_layout"] = tiny([n("Reshape", ["x", "shape"], ["y"], name="fold")], [shape])
    cases["softmax_axis"] = tiny([n("Softmax", ["x"], ["y"], name="sm")])
    lo = helper.make_tensor("lo", TensorProto.FLOAT, [], [0.0])
    hi = helper.make_tensor("hi", TensorProto.FLOAT, [], [4.0])
    cases["clip_bounds"] = tiny([n("Clip", ["x", "lo", "hi"], ["y"], name="clip4")], [lo, hi])
    cases["rank4_attention"] = tiny([n("MatMul", ["x", "x"], ["y"], name="qk")])
    cases["add_constant"] = tiny([n("Relu", ["x"], ["r"], name="r"), n("Add", ["r", "bias"], ["y"], name="shift")],
                                 [w("bias", [1, 4, 1, 1])])
    cases["gemm_mismatch"] = tiny([n("Flatten", ["x"], ["f"], name="flat"),
                                   n("Gemm", ["f", "fc.w"], ["y"], name="fc", transB=1)], [w("fc.w", [10, 100])])
    cases["matmul_shapes"] = tiny([n("MatMul", ["x", "proj.w"], ["y"], name="proj")], [w("proj.w", [8, 5])],
                                  inputs=[helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, 32])])
    seq = [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, 32])]
    split = helper.make_tensor("split", TensorProto.INT64, [4], [1, 16, 2, 16])
    cases["heads_relu"] = tiny([n("MatMul", ["x", "q.w"], ["q"], name="q"), n("Reshape", ["q", "split"], ["s"], name="s"),
                                n("Transpose", ["s"], ["h"], name="h", perm=[0, 2, 1, 3]),
                                n("Relu", ["h"], ["y"], name="r")], [w("q.w", [32, 32]), split], inputs=seq)
    cases["concat_height"] = tiny([n("Relu", ["x"], ["r"], name="r"),
                                   n("Concat", ["x", "r"], ["y"], name="cat", axis=2)])
    cases["input_rank5"] = tiny([n("Relu", ["x"], ["y"], name="r")],
                                inputs=[helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 2, 3, 4, 5])])
    cases["unsorted_nodes"] = tiny([n("Relu", ["r"], ["y"], name="second"), n("Relu", ["x"], ["r"], name="first")])
    cases["transpose_a"] = tiny([n("Flatten", ["x"], ["f"], name="flat"),
                                 n("Gemm", ["f", "fc.w"], ["y"], name="fc", transA=1)], [w("fc.w", [1, 10])])
    # Attributes ONNX's shape inference divides by unchecked (SIGFPE), and values out of range.
    cases["conv_zero_strides"] = tiny([n("Conv", ["x", "c.w"], ["y"], name="c", kernel_shape=[3, 3],
                                         strides=[0, 0])], [w("c.w", [4, 4, 3, 3])])
    cases["conv_zero_dilations"] = tiny([n("Conv", ["x", "c.w"], ["y"], name="c", kernel_shape=[3, 3],
                                           dilations=[0, 0])], [w("c.w", [4, 4, 3, 3])])
    cases["conv_negative_pads"] = tiny([conv("c", pads=(-1, -1, -1, -1), out="y")], [w("c.w", [4, 4, 3, 3])])
    cases["pool_zero_strides"] = tiny([n("MaxPool", ["x"], ["y"], name="p", kernel_shape=[2, 2], strides=[0, 0])])
    cases["pool_zero_kernel"] = tiny([n("MaxPool", ["x"], ["y"], name="p", kernel_shape=[0, 0])])
    cases["batch_2e40"] = tiny([n("Relu", ["x"], ["y"], name="r")],
                               inputs=[helper.make_tensor_value_info("x", TensorProto.FLOAT, [1 << 40, 4, 8, 8])])
    cases["opset_99"] = tiny([n("Relu", ["x"], ["y"], name="r")], opset=99)
    return cases


def save(model, path):
    onnx.save(model, path)


def main(argv):
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    out = argv[1]
    user = os.path.join(out, "user")
    recurrent = os.path.join(out, "recurrent")
    for d in ("malformed", "user", os.path.join("user", "refused"), "recurrent"):
        os.makedirs(os.path.join(out, d), exist_ok=True)
    for d in (out, os.path.join(out, "malformed"), user, os.path.join(user, "refused"), recurrent):
        open(os.path.join(d, "weights.bin"), "wb").close()
    for make in gen_networks.NETWORKS:
        net = make()
        save(OnnxWriter(net).model(), os.path.join(out, net.name + ".onnx"))
    for make in CORNERS:
        net = make()
        save(OnnxWriter(net).model(), os.path.join(out, net.name + ".onnx"))
        with open(os.path.join(out, net.name + ".yaml"), "w", encoding="utf-8") as f:
            f.write(net.render())
    # A batch-2 ResNet-18 (--batch must give the same network) and BERT with symbolic tokens.
    save(OnnxWriter(gen_networks.resnet(18), batch=2).model(), os.path.join(out, "resnet18_batch2.onnx"))
    save(OnnxWriter(gen_networks.bert_base(), symbolic_tokens=True).model(),
         os.path.join(out, "bert_base_symbolic.onnx"))
    save(bert_batched(), os.path.join(out, "bert_base_batched.onnx"))
    for name, model in malformed().items():
        save(model, os.path.join(out, "malformed", name + ".onnx"))
    for make in gen_user_models.MODELS:
        save(make(), os.path.join(user, make.__name__ + ".onnx"))
    for name, model in gen_user_models.refused().items():
        save(model, os.path.join(user, "refused", name + ".onnx"))
    for make in gen_recurrent_models.MODELS:
        save(make(), os.path.join(recurrent, make.__name__ + ".onnx"))
    with open(os.path.join(out, "malformed", "not_protobuf.onnx"), "w") as f:
        f.write("network: not an ONNX model\n")
    save(onnx.ModelProto(), os.path.join(out, "malformed", "empty_model.onnx"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
