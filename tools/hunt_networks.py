"""The CIFAR-10 training workloads of HuNT's Table III (Ogbogu et al., HuNT: Exploiting
Heterogeneous PIM Devices to Design a 3-D Manycore Architecture for DNN Training), written by
tools/gen_networks.py into OUTDIR/cifar10/ with `mode: training` and Table III's batch sizes.

Table III's parameter counts (VGG11 1.5M, VGG16 2.2M, ResNet18 1.1M, ResNet34 2M,
DenseNet40 900K) are far below the standard CIFAR-10 versions (9.5M, 15.0M, 11.2M, 21.3M;
DenseNet-40 with growth rate 12 has 1.0M). The seed names no widths, so one rule picks them:
every channel count (and the hidden fully connected width) of the standard CIFAR network is
divided by 2^k, k in 0..3 the one that brings the parameter count nearest Table III's on a log
scale. That gives VGG-11 and VGG-16 at half width, ResNet-18 and ResNet-34 at quarter width
(16, 32, 64, 128 channels), DenseNet-40 (k = 12) unchanged (docs/model.md, "HuNT: training
workloads", tabulates the counts).
"""

CIFAR10_INPUT = [("channels", 3), ("height", 32), ("width", 32)]
HUNT = ("C. Ogbogu, G. Narang et al., HuNT: Exploiting Heterogeneous PIM Devices to Design a 3-D Manycore "
        "Architecture for DNN Training, IEEE TCAD 2024, Table III")
VGG_SOURCE = ("K. Simonyan and A. Zisserman, Very Deep Convolutional Networks for Large-Scale Image Recognition, "
              "ICLR 2015, Table 1 column %s, with the CIFAR-10 head FC-512, FC-10, every width halved; workload of "
              + HUNT)
RESNET_SOURCE = ("K. He, X. Zhang, S. Ren and J. Sun, Deep Residual Learning for Image Recognition, CVPR 2016 "
                 "(basic blocks %s) with the CIFAR stem, every width quartered; workload of " + HUNT)
WIDTH_NOTE = "Widths divided by %d: the power of two that brings the parameter count nearest Table III's %s."
COMMON_NOTE = "Batch norm folded into each conv, ReLU folded; Table III's batch size; mode: training."


def vgg(g, name, label, column, stages, params):
    net = g.Net(name, "%s at half width for CIFAR-10 training (HuNT Table III), 32x32 RGB, 10 classes" % label,
                VGG_SOURCE % column, CIFAR10_INPUT,
                ["%s's 3x3 convolutions and five 2x2 max pools at half width, then FC-256, FC-10." % label,
                 WIDTH_NOTE % (2, params), COMMON_NOTE], batch=64, mode="training")
    for s, convs in enumerate(stages, start=1):
        net.comment("stage %d: %s, then 2x2 max pool" % (s, ", ".join("conv3-%d" % c for c in convs)))
        for i, channels in enumerate(convs, start=1):
            g.conv(net, "conv%d_%d" % (s, i), channels, 3)
        net.layer("pool%d" % s, "pool", mode="max", kernel=2)
    net.comment("classifier: 256x1x1 flattened, FC-256, FC-10")
    net.layer("fc6", "matmul", out_features=256, flatten=True, bias=True, activation="relu")
    net.layer("fc7", "matmul", out_features=10, bias=True)
    return net


def vgg11_half_cifar10(g):
    return vgg(g, "vgg11_half_cifar10", "VGG-11", "A", [[32], [64], [128, 128], [256, 256], [256, 256]], "1.5M")


def vgg16_half_cifar10(g):
    return vgg(g, "vgg16_half_cifar10", "VGG-16", "D",
               [[32, 32], [64, 64], [128, 128, 128], [256, 256, 256], [256, 256, 256]], "2.2M")


def resnet_quarter(g, depth, blocks, params):
    net = g.Net("resnet%d_quarter_cifar10" % depth,
                "ResNet-%d at quarter width for CIFAR-10 training (HuNT Table III), 32x32 RGB, 10 classes" % depth,
                RESNET_SOURCE % "-".join(str(b) for b in blocks), CIFAR10_INPUT,
                ["ResNet-%d's basic blocks (%s) at 16, 32, 64, 128 channels (32, 16, 8, 4 pixels) after a"
                 % (depth, "-".join(str(b) for b in blocks)),
                 "3x3 stride-1 stem of 16 channels without max pool; global average pool, FC-10.",
                 WIDTH_NOTE % (4, params), COMMON_NOTE,
                 "Downsampling blocks: stride 2 on the first conv of the residual branch and on the 1x1 projection."],
                batch=128, mode="training")
    net.comment("stem: 3x3 conv, stride 1, no max pool")
    g.conv(net, "conv1", 16, 3)
    channels = 16
    for stage, count in enumerate(blocks, start=2):
        width = 16 * 2 ** (stage - 2)
        for i in range(1, count + 1):
            prefix = "conv%d_%d" % (stage, i)
            stride = 2 if (i == 1 and stage > 2) else 1
            x = net.last
            projection = stride != 1 or channels != width
            net.comment("%s: basic block, %s shortcut" % (prefix, "projection" if projection else "identity"))
            g.conv(net, prefix + ".a", width, 3, stride=stride, inputs=x)
            last = g.conv(net, prefix + ".b", width, 3, activation=None)
            shortcut = g.conv(net, prefix + ".proj", width, 1, stride=stride, inputs=x,
                              activation=None) if projection else x
            net.layer(prefix + ".add", "add", [last, shortcut], activation="relu")
            channels = width
    net.comment("classifier")
    net.layer("pool5", "pool", mode="avg", **{"global": True})
    net.layer("fc", "matmul", out_features=10, bias=True)
    return net


def densenet40_cifar10(g):
    net = g.Net("densenet40_cifar10", "DenseNet-40 (k = 12) for CIFAR-10 training (HuNT Table III), 32x32 RGB, "
                "10 classes",
                "G. Huang, Z. Liu, L. van der Maaten and K. Q. Weinberger, Densely Connected Convolutional Networks, "
                "CVPR 2017, Table 2 (DenseNet, L = 40, k = 12); workload of " + HUNT, CIFAR10_INPUT,
                ["DenseNet-40 with growth rate 12: a 3x3 stem of 16 channels, three dense blocks of twelve",
                 "3x3 convolutions of 12 channels each (every one reads the concatenation of all before it),",
                 "1x1 transitions keeping the channels and 2x2 average pools between blocks (32, 16, 8 pixels),",
                 "global average pool, FC-10: 1.0M parameters against Table III's 900K, used unchanged.",
                 "Batch norm and ReLU folded after each conv (the paper's pre-activation order moves the norm's",
                 "2C parameters, not the MACs); Table III's batch size; mode: training."],
                batch=128, mode="training")
    net.explicit_inputs = True  # a conv reads the concatenation, which the next concat also reads
    net.comment("stem: 3x3 conv of 16 channels")
    x = g.conv(net, "conv1", 16, 3)
    channels = 16
    for block in range(1, 4):
        net.comment("dense block %d: 12 x conv3-12, each over the concatenation so far" % block)
        for i in range(1, 13):
            y = g.conv(net, "block%d.conv%d" % (block, i), 12, 3, inputs=x)
            x = net.layer("block%d.cat%d" % (block, i), "concat", [x, y])
            channels += 12
        if block < 3:
            net.comment("transition %d: conv1-%d, 2x2 average pool" % (block, channels))
            g.conv(net, "trans%d.conv" % block, channels, 1)
            x = net.layer("trans%d.pool" % block, "pool", mode="avg", kernel=2)
    net.comment("classifier")
    net.layer("pool4", "pool", mode="avg", **{"global": True})
    net.layer("fc", "matmul", out_features=10, bias=True)
    return net


def networks(g):
    """The makers, each bound to gen_networks' helpers `g` (Net, conv)."""
    return [lambda: vgg11_half_cifar10(g), lambda: vgg16_half_cifar10(g),
            lambda: resnet_quarter(g, 18, [2, 2, 2, 2], "1.1M"), lambda: resnet_quarter(g, 34, [3, 4, 6, 3], "2M"),
            lambda: densenet40_cifar10(g)]
