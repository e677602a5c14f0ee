"""Models as users export them from PyTorch or TensorFlow, for tests/onnx/user_models_test.cpp:
the operators and node patterns that the layer library never writes (explicit, asymmetric and
SAME padding, QDQ quantization, hard swish, SiLU, squeeze-excite, PyTorch's GELU export,
transposed convolution and resizing in a U-Net, a fixed sequence length). The test checks each
model's MACs and parameters against counts worked out by hand beside each builder here.

Imported by gen_onnx.py, which writes them to OUTDIR/user/<name>.onnx.
"""

import math

from onnx import TensorProto, helper

n = helper.make_node


class Graph:
    """Nodes and initializers of one model; weights are external (their values are not needed)."""

    def __init__(self, name):
        self.name, self.nodes, self.inits = name, [], []

    def weight(self, name, dims, dtype=TensorProto.FLOAT):
        t = TensorProto()
        t.name, t.data_type = name, dtype
        t.dims.extend(dims)
        t.data_location = TensorProto.EXTERNAL
        e = t.external_data.add()
        e.key, e.value = "location", "weights.bin"
        self.inits.append(t)
        return name

    def const(self, name, values, dims=(), dtype=TensorProto.FLOAT):
        self.inits.append(helper.make_tensor(name, dtype, list(dims), values))
        return name

    def add(self, op, inputs, out, **attrs):
        self.nodes.append(n(op, inputs, [out], name=out, **attrs))
        return out

    def conv(self, x, out, c, k, kernel, bias=False, **attrs):
        args = [x, self.weight(out + ".w", [k, c // attrs.get("group", 1), kernel, kernel])]
        if bias:
            args.append(self.weight(out + ".b", [k]))
        return self.add("Conv", args, out, kernel_shape=[kernel, kernel], **attrs)

    def model(self, x_dims, out, opset=17):
        inp = helper.make_tensor_value_info("x", TensorProto.FLOAT, x_dims)
        o = helper.make_tensor_value_info(out, TensorProto.FLOAT, None)
        o.type.tensor_type.shape.SetInParent()
        g = helper.make_graph(self.nodes, self.name, [inp], [o], initializer=self.inits)
        return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


def mobilenet_v3_block():
    """TensorFlow-style padding, hard swish, SiLU and squeeze-excite on 16x32x32.

    stem   Pad [0,0,0,0, 0,0,1,1] + Conv 3x3 s2 16->32: output 16x16 (symmetric 1 gives it too)
           MACs 32*16*16*16*9 = 1,179,648   params 32*16*9 = 4,608; HardSwish folded
    dw     Conv 3x3 depthwise, pads 1, 32x16x16, then x * Sigmoid(x)
           MACs 32*16*16*9 = 73,728         params 32*9 = 288; SiLU (swish) folded
    se     GlobalAveragePool; Conv 1x1 32->8 + bias, Relu; Conv 1x1 8->32 + bias, HardSigmoid
           MACs 256 + 256                   params 264 + 288
    scale  Mul(dw, se): a mul layer with a per-channel (broadcast) operand, no MACs
    proj   Conv 1x1 32->16, auto_pad SAME_UPPER (no padding for a 1x1)
           MACs 16*32*16*16 = 131,072       params 512
    total  MACs 1,384,960, parameters 5,960, 7 layers
    """
    g = Graph("mobilenet_v3_block")
    pads = g.const("stem.pads", [0, 0, 0, 0, 0, 0, 1, 1], [8], TensorProto.INT64)
    p = g.add("Pad", ["x", pads], "stem.pad", mode="constant")
    s = g.conv(p, "stem", 16, 32, 3, strides=[2, 2])
    s = g.add("HardSwish", [s], "stem.hswish")
    d = g.conv(s, "dw", 32, 32, 3, group=32, pads=[1, 1, 1, 1])
    gate = g.add("Sigmoid", [d], "dw.sigmoid")
    d = g.add("Mul", [d, gate], "dw.silu")
    q = g.add("GlobalAveragePool", [d], "se.pool")
    q = g.conv(q, "se.fc1", 32, 8, 1, bias=True)
    q = g.add("Relu", [q], "se.relu")
    q = g.conv(q, "se.fc2", 8, 32, 1, bias=True)
    q = g.add("HardSigmoid", [q], "se.gate", alpha=1.0 / 6, beta=0.5)
    y = g.add("Mul", [d, q], "se.scale")
    y = g.conv(y, "proj", 32, 16, 1, auto_pad="SAME_UPPER")
    return g.model([1, 16, 32, 32], y)


def tf_same_padding():
    """Asymmetric padding as TensorFlow and hand-written pads give it, on 4x8x8: each layer's
    padding before and after is its own (no symmetric stand-in).

    upper   Conv 3x3 s2 4->8, auto_pad SAME_UPPER: ceil(8/2) = 4 outputs need (4-1)*2 + 3 - 8 = 1
            row in all, 0 before and 1 after           MACs 8*4*4*4*9 = 4,608    params 288
    lower   Conv 3x3 s2 8->8, auto_pad SAME_LOWER on 4x4: 2 outputs, 1 row in all, 1 before and 0
            after; output row 1 reads rows [1, 4)      MACs 8*8*2*2*9 = 2,304    params 576
    explicit Conv 2x2 8->8, pads [0, 0, 1, 1] on 2x2: 2 + 0 + 1 - 2 + 1 = 2 (no symmetric padding
            gives 2 with a 2x2 kernel)                 MACs 8*8*2*2*4 = 1,024    params 256
    pool    Pad [0,0,1,1, 0,0,0,0] + MaxPool 2x2 s2 on 2x2: floor((2 + 1 - 2) / 2) + 1 = 1, 1 before
    total   MACs 7,936, parameters 1,120, 4 layers
    """
    g = Graph("tf_same_padding")
    y = g.conv("x", "upper", 4, 8, 3, strides=[2, 2], auto_pad="SAME_UPPER")
    y = g.conv(y, "lower", 8, 8, 3, strides=[2, 2], auto_pad="SAME_LOWER")
    y = g.conv(y, "explicit", 8, 8, 2, pads=[0, 0, 1, 1])
    pads = g.const("pool.pads", [0, 0, 1, 1, 0, 0, 0, 0], [8], TensorProto.INT64)
    y = g.add("MaxPool", [g.add("Pad", [y, pads], "pool.pad")], "pool", kernel_shape=[2, 2], strides=[2, 2])
    return g.model([1, 4, 8, 8], y)


def qdq_convnet():
    """A QDQ model (ONNX Runtime's static quantization format) on 4x8x8: QuantizeLinear and
    DequantizeLinear pass activations through; the bits come from the quantized types.

    input   QuantizeLinear (uint8 zero point) + DequantizeLinear: 8-bit activations
    c1      Conv 3x3 p1 4->8, int8 weights and an int32 bias through DequantizeLinear, Relu
            weight 8, activation 8                     MACs 8*4*64*9 = 18,432    params 296
    c2      QuantizeLinear (int8) + DequantizeLinear of c1; Conv 3x3 p1 8->8, int16 weights
            weight 16, activation 8                    MACs 8*8*64*9 = 36,864    params 576
    fc      Flatten, QuantizeLinear (uint8) + DequantizeLinear; Gemm 512->10 whose float weights
            are quantized in the graph (QuantizeLinear, uint8 zero point, then Dequantize) + bias
            weight 8, activation 8                     MACs 10*512 = 5,120       params 5,130
    total   MACs 60,416, parameters 6,002, 3 layers
    """
    g = Graph("qdq_convnet")
    scale = g.const("scale", [0.05])
    u8 = g.const("zp.u8", [128], [], TensorProto.UINT8)
    i8 = g.const("zp.i8", [0], [], TensorProto.INT8)
    i16 = g.const("zp.i16", [0], [], TensorProto.INT16)
    i32 = g.const("zp.i32", [0], [], TensorProto.INT32)

    def qdq(x, name, zp):
        return g.add("DequantizeLinear", [g.add("QuantizeLinear", [x, scale, zp], name + ".q"), scale, zp],
                     name + ".dq")

    def dq(name, dims, dtype, zp):
        return g.add("DequantizeLinear", [g.weight(name, dims, dtype), scale, zp], name + ".dq")

    x = qdq("x", "x", u8)
    y = g.add("Conv", [x, dq("c1.w", [8, 4, 3, 3], TensorProto.INT8, i8), dq("c1.b", [8], TensorProto.INT32, i32)],
              "c1", kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    y = qdq(g.add("Relu", [y], "c1.relu"), "c1.out", i8)
    y = g.add("Conv", [y, dq("c2.w", [8, 8, 3, 3], TensorProto.INT16, i16)], "c2", kernel_shape=[3, 3],
              pads=[1, 1, 1, 1])
    y = qdq(g.add("Flatten", [y], "flat"), "flat.out", u8)
    w = g.add("DequantizeLinear", [g.add("QuantizeLinear", [g.weight("fc.w", [10, 512]), scale, u8], "fc.w.q"),
                                   scale, u8], "fc.w.dq")
    y = g.add("Gemm", [y, w, g.weight("fc.b", [10])], "fc", transB=1)
    return g.model([1, 4, 8, 8], y, opset=13)


def unet_tiny():
    """A two-level U-Net on 3x32x32: ConvTranspose and Resize in the decoder.

    e1   Conv 3x3 p1 3->8 + bias, Relu (32x32)       MACs 8*3*1024*9 = 221,184     params 224
    p1   MaxPool 2 (16x16)
    e2   Conv 3x3 p1 8->16 + bias, Relu               MACs 16*8*256*9 = 294,912     params 1,168
    p2   MaxPool 2 (8x8)
    b    Conv 3x3 p1 16->32 + bias, Relu              MACs 32*16*64*9 = 294,912     params 4,640
    u2   Resize x2 (linear): an upsample layer, 32x16x16
    c2   Concat [e2, u2] = 48x16x16
    d2   Conv 3x3 p1 48->16 + bias, Relu              MACs 16*48*256*9 = 1,769,472  params 6,928
    u1   ConvTranspose 2x2 s2 16->8 + bias: 8x32x32 as a conv over the zero-stuffed 31x31
         input padded by 1: MACs 8*16*32*32*2*2 = 524,288 (the MAC-exact form would be
         8*16*16*16*4 = 131,072)                                                  params 520
    c1   Concat [e1, u1] = 16x32x32
    d1   Conv 3x3 p1 16->8 + bias, Relu               MACs 8*16*1024*9 = 1,179,648  params 1,160
    head Conv 1x1 8->2 + bias                         MACs 2*8*1024 = 16,384        params 18
    total MACs 4,300,800, parameters 14,658, 12 layers
    """
    g = Graph("unet_tiny")

    def block(x, name, c, k):
        return g.add("Relu", [g.conv(x, name, c, k, 3, bias=True, pads=[1, 1, 1, 1])], name + ".relu")

    e1 = block("x", "e1", 3, 8)
    p1 = g.add("MaxPool", [e1], "p1", kernel_shape=[2, 2], strides=[2, 2])
    e2 = block(p1, "e2", 8, 16)
    p2 = g.add("MaxPool", [e2], "p2", kernel_shape=[2, 2], strides=[2, 2])
    b = block(p2, "b", 16, 32)
    scales = g.const("u2.scales", [1.0, 1.0, 2.0, 2.0], [4])
    u2 = g.add("Resize", [b, "", scales], "u2", mode="linear")
    c2 = g.add("Concat", [e2, u2], "c2", axis=1)
    d2 = block(c2, "d2", 48, 16)
    u1 = g.add("ConvTranspose", [d2, g.weight("u1.w", [16, 8, 2, 2]), g.weight("u1.b", [8])], "u1",
               kernel_shape=[2, 2], strides=[2, 2])
    c1 = g.add("Concat", [e1, u1], "c1", axis=1)
    d1 = block(c1, "d1", 16, 8)
    head = g.conv(d1, "head", 8, 2, 1, bias=True)
    return g.model([1, 3, 32, 32], head)


def decoder_padded():
    """ConvTranspose 3x3 s2 pads 1 output_padding 1 (16x16 -> 32x32) and a nearest Upsample.

    up   MACs 4*8*32*32*3*3 = 294,912 over the zero-stuffed 32x32 input   params 8*4*9 = 288
    near Resize nearest, sizes [1, 4, 64, 64]: an upsample layer by 2
    total MACs 294,912, parameters 288, 2 layers
    """
    g = Graph("decoder_padded")
    u = g.add("ConvTranspose", ["x", g.weight("up.w", [8, 4, 3, 3])], "up", kernel_shape=[3, 3], strides=[2, 2],
              pads=[1, 1, 1, 1], output_padding=[1, 1])
    sizes = g.const("near.sizes", [1, 4, 64, 64], [4], TensorProto.INT64)
    y = g.add("Resize", [u, "", "", sizes], "near", mode="nearest")
    return g.model([1, 8, 16, 16], y)


def gelu_mlp(tokens=16, hidden=32):
    """A transformer MLP with PyTorch's default GELU export (Div, Erf, Add, Mul, Mul) twice: as
    an activation layer of its own after a LayerNormalization (which folds no activation), and
    folded into fc1.

    norm LayerNormalization                     params 2*32 = 64
    gelu (x * 0.5) * (1 + erf(x / sqrt 2)): an activation layer
    fc1  MatMul 32->128 + bias, GELU folded     MACs 16*32*128 = 65,536   params 4,224
    fc2  MatMul 128->32 + bias                  MACs 16*128*32 = 65,536   params 4,128
    add  residual with the first GELU's output
    total MACs 131,072, parameters 8,416, 5 layers
    """
    g = Graph("gelu_mlp")
    sqrt2 = g.const("sqrt2", [math.sqrt(2.0)])
    one = g.const("one", [1.0])
    half = g.const("half", [0.5])

    def gelu_a(x, p):  # x * (1 + erf(x / sqrt 2)) * 0.5, as torch.onnx writes it
        e = g.add("Erf", [g.add("Div", [x, sqrt2], p + ".div")], p + ".erf")
        m = g.add("Mul", [x, g.add("Add", [e, one], p + ".add")], p + ".mul")
        return g.add("Mul", [m, half], p + ".half")

    def gelu_b(x, p):  # (x * 0.5) * (1 + erf(x / sqrt 2))
        e = g.add("Erf", [g.add("Div", [x, sqrt2], p + ".div")], p + ".erf")
        h = g.add("Mul", [x, half], p + ".half")
        return g.add("Mul", [h, g.add("Add", [e, one], p + ".add")], p + ".mul")

    x = g.add("LayerNormalization", ["x", g.weight("norm.g", [hidden]), g.weight("norm.b", [hidden])], "norm",
              axis=-1)
    x = gelu_b(x, "gelu0")
    f = g.add("Add", [g.add("MatMul", [x, g.weight("fc1.w", [hidden, 4 * hidden])], "fc1"),
                      g.weight("fc1.b", [4 * hidden])], "fc1.bias")
    f = gelu_a(f, "gelu1")
    f = g.add("Add", [g.add("MatMul", [f, g.weight("fc2.w", [4 * hidden, hidden])], "fc2"),
                      g.weight("fc2.b", [hidden])], "fc2.bias")
    y = g.add("Add", [f, x], "residual")
    return g.model([1, tokens, hidden], y)


def vit_tiny(image=32, patch=4, dim=32, heads=2, classes=10):
    """A ViT block as torch.onnx exports timm's VisionTransformer(class_token=False,
    global_pool='avg'): patch embedding (Conv, Reshape, Transpose), position embedding (Add
    of a [1, N, D] initializer), a fused q/k/v projection split by a 5-D Reshape and
    Transpose [2, 0, 3, 1, 4] with Gathers, the GELU export, a mean over the tokens.

    N = (32 / 4)^2 = 64 tokens, D = 32, 2 heads of 16
    patch  Conv 4x4 s4 3->32 + bias        MACs 32*3*64*16 = 98,304       params 1,568
    pos    Add [1, 64, 32]: add with a learned tensor                     params 2,048
    ln1    LayerNormalization                                             params 64
    qkv    MatMul 32->96 + bias: 6 per-head 1x1 convs over the 8x8 tokens
                                            MACs 64*32*96 = 196,608       params 3,168
    scores per head 64 x 64 x 16            MACs 2*65,536 = 131,072
    context per head 64 x 16 x 64           MACs 2*65,536 = 131,072
    proj   MatMul 32->32 + bias             MACs 64*32*32 = 65,536        params 1,056
    ln2                                                                   params 64
    fc1    MatMul 32->128 + bias, GELU      MACs 64*32*128 = 262,144      params 4,224
    fc2    MatMul 128->32 + bias            MACs 64*128*32 = 262,144      params 4,128
    norm                                                                  params 64
    pool   ReduceMean over the tokens
    head   Gemm 32->10 + bias               MACs 320                      params 330
    total  MACs 1,147,200, parameters 16,714, 25 layers
    """
    g = Graph("vit_tiny")
    n_tok, width = (image // patch) ** 2, dim // heads
    half, sqrt2, one = g.const("half", [0.5]), g.const("sqrt2", [math.sqrt(2.0)]), g.const("one", [1.0])
    scale = g.const("scale", [width ** -0.5])

    def shape(name, dims):
        return g.const(name, dims, [len(dims)], TensorProto.INT64)

    def linear(x, name, k_in, k_out):
        y = g.add("MatMul", [x, g.weight(name + ".w", [k_in, k_out])], name)
        return g.add("Add", [y, g.weight(name + ".b", [k_out])], name + ".bias")

    def norm(x, name):
        return g.add("LayerNormalization", [x, g.weight(name + ".g", [dim]), g.weight(name + ".b", [dim])], name,
                     axis=-1)

    x = g.conv("x", "patch", 3, dim, patch, bias=True, strides=[patch, patch])
    x = g.add("Reshape", [x, shape("flat", [0, 0, -1])], "patch.flatten")
    x = g.add("Transpose", [x], "patch.tokens", perm=[0, 2, 1])
    x = g.add("Add", [x, g.weight("pos_embed", [1, n_tok, dim])], "pos")
    h = norm(x, "ln1")
    qkv = linear(h, "qkv", dim, 3 * dim)
    qkv = g.add("Reshape", [qkv, shape("qkv.shape", [1, n_tok, 3, heads, width])], "qkv.split")
    qkv = g.add("Transpose", [qkv], "qkv.parts", perm=[2, 0, 3, 1, 4])
    q, k, v = (g.add("Gather", [qkv, g.const("i%d" % i, [i], [], TensorProto.INT64)], "qkv." + p, axis=0)
               for i, p in enumerate("qkv"))
    kt = g.add("Transpose", [k], "k.t", perm=[0, 1, 3, 2])
    a = g.add("Mul", [g.add("MatMul", [q, kt], "scores"), scale], "scores.scale")
    a = g.add("Softmax", [a], "softmax", axis=-1)
    c = g.add("Transpose", [g.add("MatMul", [a, v], "context")], "context.t", perm=[0, 2, 1, 3])
    c = g.add("Reshape", [c, shape("merge", [1, n_tok, dim])], "context.merge")
    x = g.add("Add", [x, linear(c, "proj", dim, dim)], "res1")
    f = linear(norm(x, "ln2"), "fc1", dim, 4 * dim)
    e = g.add("Erf", [g.add("Div", [f, sqrt2], "gelu.div")], "gelu.erf")
    f = g.add("Mul", [g.add("Mul", [f, g.add("Add", [e, one], "gelu.add")], "gelu.mul"), half], "gelu.half")
    x = g.add("Add", [x, linear(f, "fc2", 4 * dim, dim)], "res2")
    x = g.add("ReduceMean", [norm(x, "norm")], "pool", axes=[1], keepdims=0)
    y = g.add("Gemm", [x, g.weight("head.w", [classes, dim]), g.weight("head.b", [classes])], "head", transB=1)
    return g.model([1, 3, image, image], y)


def big_weights():
    """A conv whose weights are stored in the model: 256*2048*9 floats, 18 MiB, above the
    16 MiB bound of text input files (a sweep keeps such a model as its size and hash)."""
    g = Graph("big_weights")
    k, c = 2048, 256
    g.inits.append(helper.make_tensor("big.w", TensorProto.FLOAT, [k, c, 3, 3], bytes(4 * k * c * 9), raw=True))
    y = g.add("Conv", ["x", "big.w"], "big", kernel_shape=[3, 3], pads=[1, 1, 1, 1])
    return g.model([1, c, 4, 4], y)


def fixed_tokens():
    """A sequence model whose Reshape fixes 16 tokens: --seq-len 8 cannot apply."""
    g = Graph("fixed_tokens")
    shape = g.const("shape", [1, 16, 2, 16], [4], TensorProto.INT64)
    y = g.add("Reshape", [g.add("MatMul", ["x", g.weight("q.w", [32, 32])], "q"), shape], "split")
    return g.model([1, 16, 32], y)


def refused():
    """Models refused with a message that says what to do (tests/onnx/user_models_test.cpp)."""
    cases = {}
    g = Graph("pad_alone")
    pads = g.const("pads", [0, 0, 1, 1, 0, 0, 1, 1], [8], TensorProto.INT64)
    cases["pad_alone"] = g.model([1, 4, 8, 8], g.add("Relu", [g.add("Pad", ["x", pads], "pad")], "relu"))
    g = Graph("resize_down")
    scales = g.const("scales", [1.0, 1.0, 0.5, 0.5], [4])
    cases["resize_down"] = g.model([1, 4, 8, 8], g.add("Resize", ["x", "", scales], "down"))
    g = Graph("class_token")
    y = g.add("Concat", [g.weight("cls", [1, 1, 32]), "x"], "cat", axis=1)
    cases["class_token"] = g.model([1, 16, 32], y)
    return cases


MODELS = [mobilenet_v3_block, tf_same_padding, qdq_convnet, unet_tiny, decoder_padded, gelu_mlp, vit_tiny,
          fixed_tokens, big_weights]
